//go:build linux || darwin

package pdftext

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// setRlimits caps the process's address space and main-thread stack; past
// them the kernel refuses memory and the runtime dies with "out of memory",
// which the parent reads as resource_limit.
//
// The Go runtime reserves about a gigabyte of address space at start-up,
// most of it never touched, so the limit is the reservation the child
// already holds plus lim.AddressSpace: the extraction may add that much.
func setRlimits(lim Limits) error {
	if lim.AddressSpace > 0 {
		r := uint64(virtualSize() + lim.AddressSpace)
		if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: r, Max: r}); err != nil {
			return err
		}
	}
	if lim.Stack > 0 {
		r := uint64(lim.Stack)
		if err := unix.Setrlimit(unix.RLIMIT_STACK, &unix.Rlimit{Cur: r, Max: r}); err != nil {
			return err
		}
	}
	return nil
}

// virtualSize returns the process's current address-space size, 0 where
// /proc is not available.
func virtualSize() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0
	}
	pages, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
