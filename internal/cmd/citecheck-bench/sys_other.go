//go:build !(linux || darwin)

package main

import "os"

// maxRSS returns 0: the peak resident memory of a process is read on Linux
// and macOS only; the tables then show no memory.
func maxRSS(*os.ProcessState) int64 { return 0 }

// limitAddressSpace does nothing but on Linux and macOS: the child's
// timeout still bounds it.
func limitAddressSpace(uint64) {}
