// Package symbolic is the integer expression algebra that loop trip counts are
// written in.
//
// An expression is built from integer constants, symbols (function
// parameters, free variables of closures, Rank() and Size() results, len and
// cap of values, values computed before a loop, and the induction variables
// of enclosing loops) and the operators + - * / % min max, plus divexact for
// loops whose exit test is != (they terminate only when the distance is a
// multiple of the step).
//
// Expressions print in Go syntax ("max(0, (hi-lo+1)/2)") and evaluate
// exactly with Go's int64 semantics: / truncates toward zero and % takes the
// sign of the dividend, as in the program being modelled. The constructors
// simplify as they build (constant folding, x+0, x*1, merging of linear
// terms, max(0, x) dropped when x is provably non-negative), so equal
// formulas usually print the same.
//
// | type        | what it is                                                      |
// |-------------|-----------------------------------------------------------------|
// | Expr        | an expression: Const, *Sym, *Binary or *Call                    |
// | Sym         | a named unknown; carries the SSA value it stands for, and for   |
// |             | values computed before a loop, their definition                 |
// | Env         | the bindings an evaluation looks symbols up in                  |
// | Names       | an Env keyed by symbol name, for tests and the command line     |
// | Values      | an Env keyed by the SSA value a symbol stands for (interpreter) |
// | Chain       | Envs consulted in turn                                          |
// | TripCount   | the number of iterations of `for i := a; i OP b; i += s`        |
// | TripCountBy | the same for a symbolic step known to be positive (i += size)   |
//
// Symbols and Uses walk an expression; NonNegative and Positive are the
// sign facts the simplifier and TripCountBy rely on.
//
// Symbols are compared by name when terms are merged: two symbols with the
// same name are the same unknown. Callers choose names to make that true
// (the loopnest package names Rank() results "rank", parameters by their
// source names, and so on).
package symbolic
