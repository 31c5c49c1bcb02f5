package fidelity

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// The reference tools run under the bounds citecheck puts on its own
// extraction children (package pdftext's Runner): an address-space limit
// (RLIMIT_AS, set by a shell's ulimit before the tool is exec'd, where
// the system has one) and a wall-clock timeout, so that one tool on one
// hostile or huge PDF fails that PDF instead of taking the machine. A tool
// that hits a bound fails on that file: the failure is cached like any
// other (see Cache), and the file is left out for that tool.
var (
	// Timeout bounds one tool on one PDF. Whether a tool times out on a
	// file depends on the machine, and a file it times out on is left out
	// of its figures, so the timeout sits far above every run the shared
	// corpus needs: the slowest, pdf.js on two files of nested form
	// XObjects, take 7 minutes on a loaded 2-core machine. It stops a tool
	// that hangs.
	Timeout = 15 * time.Minute
	// AddressSpace is the virtual memory, in bytes, one tool process may
	// map; 0 sets no limit. No tool needs near this on the shared corpus
	// (the largest, pdf.js on node, peaks under 1 GiB of resident memory).
	AddressSpace int64 = 4 << 30
)

// maxStderr is how much of a tool's stderr is kept for its error.
const maxStderr = 64 << 10

// Bounds describes the limits the tools run under, for logs.
func Bounds() string {
	as := "no address-space limit"
	if AddressSpace > 0 && addressSpaceLimited {
		as = fmt.Sprintf("address space %s", gib(AddressSpace))
	}
	return fmt.Sprintf("%s, %v per PDF", as, Timeout)
}

func gib(n int64) string {
	if n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// command returns the tool's command, its address space limited to as
// bytes (0 for no limit) where the system allows; the caller's context
// carries the timeout.
func command(ctx context.Context, as int64, name string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if as > 0 && addressSpaceLimited {
		// sh sets the limit on itself, then becomes the tool: the limit
		// holds from the tool's first instruction, and the process the
		// context kills is the tool.
		kib := fmt.Sprint(as >> 10)
		cmd = exec.CommandContext(ctx, shell, append([]string{"-c", `ulimit -v "$0" && exec "$@"`, kib, name}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, name, args...)
	}
	// A tool's own children holding its pipes open cannot keep Wait waiting.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Usage is what a tool's runs used: how many ran (cached texts are not
// runs) and the largest resident set one reached.
type Usage struct {
	mu      sync.Mutex
	runs    int
	peakRSS int64
}

// Runs returns the number of runs and the largest resident set, in bytes,
// of one (0 where the system does not say).
func (u *Usage) Runs() (runs int, peakRSS int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.runs, u.peakRSS
}

func (u *Usage) add(cmd *exec.Cmd) {
	if u == nil || cmd.ProcessState == nil {
		return
	}
	rss := maxRSS(cmd.ProcessState)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.runs++
	u.peakRSS = max(u.peakRSS, rss)
}

// output runs cmd and returns its standard output, counting the run in u.
// Its error names the bound that stopped the tool when one did, with the
// last line of the tool's stderr.
func output(ctx context.Context, u *Usage, cmd *exec.Cmd) ([]byte, error) {
	var stderr cappedBuffer
	stderr.limit = maxStderr
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	u.add(cmd)
	if err == nil {
		return out, nil
	}
	msg := err.Error()
	if why := reason(stderr.String()); why != "" {
		msg += ": " + why
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = fmt.Sprintf("timed out after %v (%s)", Timeout, msg)
	case outOfMemory(stderr.String()):
		msg = fmt.Sprintf("out of memory under the address-space limit of %s (%s)", gib(AddressSpace), msg)
	}
	return out, errors.New(msg)
}

// reason picks the line of a failed tool's stderr that says why: the last
// one, passing over MuPDF's trailing warnings, and the stack trace and
// version that node prints after an uncaught error's message.
func reason(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.HasPrefix(l, "warning:") && !strings.HasPrefix(l, "Node.js v") && !strings.HasPrefix(l, "at ") {
			return l
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// outOfMemory reads the ways the tools say an allocation was refused:
// MuPDF's and poppler's failed mallocs ("error: calloc (64 x 616 bytes)
// failed"), Python's MemoryError, V8's fatal out-of-memory.
func outOfMemory(stderr string) bool {
	s := strings.ToLower(stderr)
	for _, m := range []string{"out of memory", "memoryerror", "cannot allocate memory", "malloc", "calloc", "realloc", "bad_alloc", "allocation failed"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

type cappedBuffer struct {
	buf   bytes.Buffer
	limit int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	// Keep the tail: the last line says why the tool died.
	c.buf.Write(p)
	if over := c.buf.Len() - c.limit; over > 0 {
		c.buf.Next(over)
	}
	return len(p), nil
}

func (c *cappedBuffer) String() string { return c.buf.String() }
