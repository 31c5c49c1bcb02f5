//go:build unix

package fidelity

import (
	"os"
	"runtime"
	"syscall"
)

// shell is the POSIX shell whose ulimit sets the tools' address-space
// limit.
const shell = "/bin/sh"

var addressSpaceLimited = func() bool {
	_, err := os.Stat(shell)
	return err == nil
}()

// maxRSS is the largest resident set of the ended process, in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) << 10 // KiB elsewhere
}
