package report

import (
	"strconv"
	"strings"
)

// siteLess orders "file.go:line" call sites by file, then by line as a
// number, so heat.go:9 comes before heat.go:10.
func siteLess(a, b string) bool {
	fa, la := splitSite(a)
	fb, lb := splitSite(b)
	if fa != fb {
		return fa < fb
	}
	if la != lb {
		return la < lb
	}
	return a < b
}

func splitSite(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0
	}
	return s[:i], n
}
