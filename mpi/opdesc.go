package mpi

import (
	"fmt"
	"strings"
)

// opDesc describes the operation a blocked rank waits in, for deadlock
// reports (goroutine backend) and the watchdog (MPI backends). Fields that do not apply hold none; peer and tag may hold the
// AnySource/AnyTag wildcards.
type opDesc struct {
	name            string
	peer, tag, root int
}

const none = -2

func (d opDesc) String() string {
	var parts []string
	if d.root != none {
		parts = append(parts, fmt.Sprintf("root %d", d.root))
	}
	switch d.peer {
	case none:
	case AnySource:
		parts = append(parts, "source any")
	default:
		parts = append(parts, fmt.Sprintf("peer %d", d.peer))
	}
	switch d.tag {
	case none:
	case AnyTag:
		parts = append(parts, "tag any")
	default:
		parts = append(parts, fmt.Sprintf("tag %d", d.tag))
	}
	return d.name + "(" + strings.Join(parts, ", ") + ")"
}
