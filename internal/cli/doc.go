// Package cli holds the cobra commands of predict. It is deliberately thin:
// each command turns its flags into an options struct and calls a library
// package; no analysis lives here.
//
// Exit codes are decided in one place, Main: 0 on success, 2 for usage
// errors (bad flags or arguments), 1 for everything else.
package cli
