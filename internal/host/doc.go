// Package host describes the computer predict runs on: its CPU's name and
// its number of online cores, as the profile's metadata, the machine files
// that `predict bench` writes and `predict validate`'s check of the machine
// file against this computer record them.
//
//	CPUModel   the CPU's name, "unknown" where the OS does not say
//	Cores      the host's online CPUs, bound or not
package host
