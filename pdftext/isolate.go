package pdftext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
)

// Runner extracts PDFs in child processes, one per document, so that a
// hostile file can cost at most its limits: the child runs under an
// address-space and stack limit, the parent kills it at the timeout, and
// whatever the child does, the parent classifies the outcome and goes on.
type Runner struct {
	// Command starts the child; ChildCommand is appended. Empty means this
	// program's own executable, which must then dispatch ChildCommand to
	// ChildMain.
	Command   []string
	Limits    Limits
	Passwords []string
}

// Extractor describes the runner for a corpus manifest.
func (r *Runner) Extractor() corpus.Extractor {
	return corpus.Extractor{Name: Name, Version: Version, Limits: r.limits().Map()}
}

func (r *Runner) limits() Limits {
	if r.Limits == (Limits{}) {
		return DefaultLimits
	}
	return r.Limits
}

// maxStderr is how much of a child's stderr the parent keeps: enough for a
// Go runtime's fatal error line.
const maxStderr = 64 << 10

// Extract runs one extraction child. It implements corpus.ExtractFunc and
// never fails: every outcome is a status.
func (r *Runner) Extract(ctx context.Context, name string, pdf []byte) corpus.Extraction {
	lim := r.limits()
	argv := r.Command
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return corpus.Extraction{Status: corpus.StatusCrash, Error: fmt.Sprintf("cannot find own executable: %v", err)}
		}
		argv = []string{exe}
	}
	header, err := json.Marshal(request{Limits: toWire(lim), Passwords: r.Passwords})
	if err != nil {
		return corpus.Extraction{Status: corpus.StatusCrash, Error: err.Error()}
	}

	tctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, argv[0], append(argv[1:], ChildCommand)...)
	cmd.Stdin = io.MultiReader(bytes.NewReader(header), strings.NewReader("\n"), bytes.NewReader(pdf))
	stdout := &cappedBuffer{limit: lim.MaxOutput*2 + 1<<20, onOverflow: cancel}
	stderr := &cappedBuffer{limit: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second
	cmd.Env = append(os.Environ(), "GOTRACEBACK=single")
	runErr := cmd.Run()

	switch {
	case ctx.Err() != nil:
		return corpus.Extraction{Status: corpus.StatusCrash, Error: "interrupted"}
	case stdout.overflowed:
		return corpus.Extraction{Status: corpus.StatusResourceLimit, Error: fmt.Sprintf("child wrote more than %d bytes", stdout.limit)}
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		return corpus.Extraction{Status: corpus.StatusTimeout, Error: fmt.Sprintf("extraction took longer than %v", lim.Timeout)}
	}
	if runErr == nil {
		var resp response
		dec := json.NewDecoder(bytes.NewReader(stdout.buf.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&resp); err != nil {
			return corpus.Extraction{Status: corpus.StatusCrash, Error: fmt.Sprintf("child response unreadable: %v", err)}
		}
		return resp.extraction()
	}
	return classifyExit(runErr, stderr.buf.String())
}

func (resp response) extraction() corpus.Extraction {
	ex := corpus.Extraction{Status: resp.Status, Error: resp.Error, Warnings: resp.Warnings}
	for _, p := range resp.Pages {
		page := corpus.PageText{Text: p.Text, Label: p.Label, Flags: p.Flags, Warnings: p.Warnings}
		if p.Boxes != "" {
			// The child is not trusted: bad geometry is dropped, the text
			// kept, and the page says so.
			if err := corpus.ValidateBoxes([]byte(p.Boxes), utf8.RuneCountInString(p.Text)); err != nil {
				page.Warnings = append(page.Warnings, "glyph boxes: "+err.Error())
			} else {
				page.Boxes = []byte(p.Boxes)
			}
		}
		if len(p.Alts) > 0 {
			// Likewise bad alternative texts are dropped.
			if err := corpus.ValidateAlts(p.Alts, p.Text); err != nil {
				page.Warnings = append(page.Warnings, "alternative texts: "+err.Error())
			} else {
				page.Alts = p.Alts
			}
		}
		ex.Pages = append(ex.Pages, page)
	}
	return ex
}

// classifyExit reads how a child that did not answer ended. The Go runtime
// prints "out of memory" when the address-space limit refuses it, and
// "stack exceeds" when a goroutine passes the stack limit; a kill signal
// the parent did not send (the kernel's OOM killer, RLIMIT_CPU) is a limit
// too. Anything else is a crash: a bug to report, not a property of the file.
func classifyExit(runErr error, stderr string) corpus.Extraction {
	last := lastLines(stderr, 3)
	switch {
	case strings.Contains(stderr, "out of memory"), strings.Contains(stderr, "cannot allocate memory"):
		return corpus.Extraction{Status: corpus.StatusResourceLimit, Error: "out of memory: " + last}
	case strings.Contains(stderr, "stack exceeds"), strings.Contains(stderr, "stack overflow"):
		return corpus.Extraction{Status: corpus.StatusResourceLimit, Error: "stack limit: " + last}
	}
	var exit *exec.ExitError
	if errors.As(runErr, &exit) && !exit.Exited() {
		if s := exit.String(); strings.Contains(s, "killed") || strings.Contains(s, "CPU time") {
			return corpus.Extraction{Status: corpus.StatusResourceLimit, Error: s}
		}
	}
	msg := runErr.Error()
	if last != "" {
		msg += ": " + last
	}
	return corpus.Extraction{Status: corpus.StatusCrash, Error: msg}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	// A Go fatal error's first line says what happened; prefer it.
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime:") {
			return strings.TrimSpace(l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, " | "))
}

// cappedBuffer keeps at most limit bytes and reports overflow once.
type cappedBuffer struct {
	mu         sync.Mutex
	buf        bytes.Buffer
	limit      int64
	overflowed bool
	onOverflow func()
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - int64(c.buf.Len())
	if int64(len(p)) > room {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		if !c.overflowed && c.onOverflow != nil {
			c.onOverflow()
		}
		c.overflowed = true
		return len(p), nil // keep the child from blocking; it is being killed
	}
	return c.buf.Write(p)
}
