#include "textflag.h"

// func framePointer() unsafe.Pointer
// The frame pointer register of the caller: with no frame of its own,
// this function leaves BP as its caller set it.
TEXT ·framePointer(SB),NOSPLIT,$0-8
	MOVQ	BP, ret+0(FP)
	RET
