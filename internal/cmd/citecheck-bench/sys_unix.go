//go:build linux || darwin

package main

import (
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxRSS returns the peak resident memory, in bytes, of a finished process
// (getrusage's ru_maxrss: kilobytes, but bytes on Apple's systems).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// limitAddressSpace caps this process's virtual memory at n bytes.
func limitAddressSpace(n uint64) {
	unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: n, Max: n})
}
