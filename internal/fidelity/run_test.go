package fidelity

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestToolBounds(t *testing.T) {
	if !addressSpaceLimited {
		t.Skipf("no address-space limit on %s", runtime.GOOS)
	}
	// The limit is in force in the tool's process.
	out, err := output(context.Background(), nil, command(context.Background(), 64<<20, "/bin/sh", "-c", "ulimit -v"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "65536" {
		t.Errorf("ulimit -v in the tool = %q, want 65536 (KiB)", got)
	}
	// A tool that wants more than the limit fails, and says it ran out of memory.
	if py, err := exec.LookPath("python3"); err == nil {
		_, err := output(context.Background(), nil, command(context.Background(), 256<<20, py, "-c", "b = bytearray(1 << 30)"))
		if err == nil || !strings.Contains(err.Error(), "out of memory") {
			t.Errorf("python3 allocating 1 GiB under a 256 MiB limit: err = %v, want out of memory", err)
		}
	}
	// The timeout ends it.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = output(ctx, nil, command(ctx, 64<<20, "sleep", "30"))
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("sleep past the timeout: err = %v, want timed out", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("sleep past the timeout took %v to end", d)
	}
}

func TestFailureReason(t *testing.T) {
	mutool := "error: exception stack overflow!\nerror: calloc (64 x 616 bytes) failed\nerror: cannot draw 'x.pdf'\nwarning: ... repeated 27 times...\n"
	if got := reason(mutool); got != "error: cannot draw 'x.pdf'" {
		t.Errorf("reason(mutool) = %q", got)
	}
	if !outOfMemory(mutool) {
		t.Error("mutool's failed calloc not read as out of memory")
	}
	node := "file:///x.mjs:3\nTypeError: boom\n    at foo\n\nNode.js v20.20.2\n"
	if got := reason(node); got != "TypeError: boom" {
		t.Errorf("reason(node) = %q", got)
	}
	if outOfMemory(node) {
		t.Error("a TypeError read as out of memory")
	}
	if got := reason("warning: only\n"); got != "warning: only" {
		t.Errorf("reason of warnings only = %q", got)
	}
}
