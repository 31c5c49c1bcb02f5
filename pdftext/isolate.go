package pdftext

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
)

// Runner extracts PDFs in worker processes, so that a hostile file can cost
// at most its limits: a worker is a child process of this program that
// extracts one document at a time under an address-space and stack limit;
// the parent kills it at a document's timeout, and whatever it does, the
// parent classifies the outcome and goes on.
//
// A worker extracts many documents in turn, which spares each document a
// process start-up and a cold heap. It is replaced after WorkerDocuments
// documents, after a document that left it WorkerGrowth bytes of address
// space larger than it started (so every document finds about the room its
// limit promises), after a timeout (it is killed), and after it died or
// answered nonsense. A document is only ever blamed on a fresh worker:
// when a worker that had already extracted documents dies, the document it
// was extracting is extracted again by a new worker, and that outcome
// stands. So every document's outcome is the one a process of its own
// would give, and the store does not depend on which documents shared a
// worker.
//
// A Runner may be used from several goroutines at once; each Extract call
// uses one worker. Idle workers end after a few seconds unused, or at
// Close.
type Runner struct {
	// Command starts a worker; ChildCommand is appended. Empty means this
	// program's own executable, which must then dispatch ChildCommand to
	// ChildMain.
	Command   []string
	Limits    Limits
	Passwords []string
	// WorkerDocuments is how many documents a worker extracts before it is
	// replaced; 0 means DefaultWorkerDocuments, 1 a process per document.
	WorkerDocuments int
	// WorkerGrowth is the address space, in bytes, a worker may gain over
	// its size when it started before it is replaced; 0 means an eighth of
	// Limits.AddressSpace.
	WorkerGrowth int64

	mu     sync.Mutex
	idle   []*worker
	closed bool
}

// DefaultWorkerDocuments is how many documents a worker extracts, by
// default, before a new process takes over.
const DefaultWorkerDocuments = 100

// workerIdle is how long an idle worker waits for another document.
const workerIdle = 3 * time.Second

// ExtractorID identifies the runner in a corpus manifest: name, version and
// limits. How documents are spread over workers is not part of it: it
// changes no output byte.
func (r *Runner) ExtractorID() corpus.ExtractorID {
	return corpus.ExtractorID{Name: Name, Version: Version, Limits: r.limits().Map()}
}

func (r *Runner) limits() Limits {
	if r.Limits == (Limits{}) {
		return DefaultLimits
	}
	return r.Limits
}

func (r *Runner) workerDocuments() int {
	if r.WorkerDocuments <= 0 {
		return DefaultWorkerDocuments
	}
	return r.WorkerDocuments
}

func (r *Runner) workerGrowth() int64 {
	if r.WorkerGrowth <= 0 {
		return r.limits().AddressSpace / 8
	}
	return r.WorkerGrowth
}

// maxStderr is how much of a worker's stderr the parent keeps per
// document: enough for a Go runtime's fatal error line.
const maxStderr = 64 << 10

// Extract extracts one document in a worker. It implements
// ingest.ExtractFunc and never fails: every outcome is a status.
func (r *Runner) Extract(ctx context.Context, name string, pdf []byte) corpus.Extraction {
	w, err := r.take()
	if err != nil {
		return corpus.Extraction{Status: corpus.StatusCrash, Error: err.Error()}
	}
	ex, fate := r.extractOn(ctx, w, pdf)
	if fate == retry {
		// The worker had extracted other documents before it died: it
		// may have died of them. A new worker decides.
		if w, err = r.start(); err != nil {
			return corpus.Extraction{Status: corpus.StatusCrash, Error: err.Error()}
		}
		ex, fate = r.extractOn(ctx, w, pdf)
	}
	if fate == reuse {
		r.put(w)
	}
	return ex
}

// fate is what becomes of a worker after a document.
type fate int

const (
	reuse   fate = iota // it answered and may take another document
	replace             // it answered but is done, or it is dead and its outcome stands
	retry               // it died after earlier documents: try the document on a new worker
)

// extractOn runs one document on w. Unless it returns reuse, w has ended
// or is ending.
func (r *Runner) extractOn(ctx context.Context, w *worker, pdf []byte) (corpus.Extraction, fate) {
	lim := r.limits()
	w.stderr.reset()
	var timedOut atomic.Bool
	timer := time.AfterFunc(lim.Timeout, func() { timedOut.Store(true); w.kill() })
	stopCtx := context.AfterFunc(ctx, w.kill)
	sendErr := w.send(pdf)
	body, recvErr := w.receive(lim.MaxOutput*2 + 1<<20)
	fired := !timer.Stop() // the timer killed it, or is killing it
	stopCtx()
	w.docs++

	// Stopped by the parent: the outcome is the parent's, never the
	// worker's.
	switch {
	case ctx.Err() != nil:
		w.end()
		return corpus.Extraction{Status: corpus.StatusCrash, Error: "interrupted"}, replace
	case recvErr == nil:
		// A whole answer: taken even if the timer fired just after it.
	case timedOut.Load():
		w.end()
		return corpus.Extraction{Status: corpus.StatusTimeout, Error: fmt.Sprintf("extraction took longer than %v", lim.Timeout)}, replace
	}

	var ex corpus.Extraction
	switch {
	case recvErr == nil:
		resp, err := decodeResponse(body)
		if err != nil {
			w.kill()
			w.end()
			ex = corpus.Extraction{Status: corpus.StatusCrash, Error: fmt.Sprintf("child response unreadable: %v", err)}
			break
		}
		ex = resp.extraction()
		if fired || w.docs >= r.workerDocuments() || resp.Grown > r.workerGrowth() {
			w.end()
			return ex, replace
		}
		return ex, reuse
	case errors.As(recvErr, new(*overflowError)):
		w.kill()
		w.end()
		ex = corpus.Extraction{Status: corpus.StatusResourceLimit, Error: recvErr.Error()}
	case errors.As(recvErr, new(*frameError)):
		w.kill()
		w.end()
		ex = corpus.Extraction{Status: corpus.StatusCrash, Error: fmt.Sprintf("child response unreadable: %v", recvErr)}
	default:
		// The worker died: read how.
		runErr := w.end()
		if runErr == nil {
			runErr = fmt.Errorf("worker ended without answering (%v)", errors.Join(recvErr, sendErr))
		}
		ex = classifyExit(runErr, w.stderr.String())
	}
	if w.docs > 1 {
		return ex, retry
	}
	return ex, replace
}

// take returns an idle worker, or a new one.
func (r *Runner) take() (*worker, error) {
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		w := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		w.idleTimer.Stop()
		return w, nil
	}
	r.mu.Unlock()
	return r.start()
}

// put keeps w for the next document; it ends after workerIdle unused.
func (r *Runner) put(w *worker) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		go w.end()
		return
	}
	r.idle = append(r.idle, w)
	w.idleTimer = time.AfterFunc(workerIdle, func() {
		r.mu.Lock()
		i := indexOf(r.idle, w)
		if i >= 0 {
			r.idle = append(r.idle[:i], r.idle[i+1:]...)
		}
		r.mu.Unlock()
		if i >= 0 {
			w.end()
		}
	})
}

func indexOf(ws []*worker, w *worker) int {
	for i, x := range ws {
		if x == w {
			return i
		}
	}
	return -1
}

// Close ends the idle workers. Extract may still be called; its workers
// then end as soon as their document is done.
func (r *Runner) Close() error {
	r.mu.Lock()
	idle := r.idle
	r.idle, r.closed = nil, true
	r.mu.Unlock()
	for _, w := range idle {
		w.idleTimer.Stop()
		w.end()
	}
	return nil
}

// start starts a worker and sends it the hello line.
func (r *Runner) start() (*worker, error) {
	argv := r.Command
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find own executable: %v", err)
		}
		argv = []string{exe}
	}
	hello, err := json.Marshal(request{Limits: toWire(r.limits()), Passwords: r.Passwords})
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	w := &worker{in: inW, out: outR, stderr: &cappedBuffer{limit: maxStderr}}
	w.cmd = exec.Command(argv[0], append(argv[1:len(argv):len(argv)], ChildCommand)...)
	w.cmd.Stdin, w.cmd.Stdout, w.cmd.Stderr = inR, outW, w.stderr
	w.cmd.WaitDelay = 2 * time.Second
	w.cmd.Env = workerEnv(os.Environ())
	err = w.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("cannot start extraction worker: %v", err)
	}
	w.rd = bufio.NewReaderSize(outR, 64<<10)
	// A worker that cannot read its hello line has died; the first
	// document's answer says how.
	w.in.Write(append(hello, '\n'))
	return w, nil
}

// workerEnv is a worker's environment: this process's, with tracebacks
// of the failing goroutine only, and with the Go runtime returning freed
// memory by MADV_FREE rather than MADV_DONTNEED (GODEBUG madvdontneed=0;
// a madvdontneed in GODEBUG already wins). A worker's heap shrinks after a
// large document and grows again with the next: with MADV_DONTNEED every
// page came back as a page fault, half the page faults of an extraction.
func workerEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	godebug := "madvdontneed=0"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if v != "" {
				godebug += "," + v // the runtime reads left to right, later wins
			}
			continue
		}
		if !strings.HasPrefix(kv, "GOTRACEBACK=") {
			out = append(out, kv)
		}
	}
	return append(out, "GOTRACEBACK=single", "GODEBUG="+godebug)
}

// worker is one worker process, used by one Extract call at a time.
type worker struct {
	cmd       *exec.Cmd
	in        *os.File // the worker's stdin
	out       *os.File // the worker's stdout
	rd        *bufio.Reader
	stderr    *cappedBuffer
	docs      int // documents sent to it
	idleTimer *time.Timer

	endOnce sync.Once
	runErr  error
}

// send writes one document to the worker. It fails when the worker is
// gone; a killed worker unblocks it.
func (w *worker) send(pdf []byte) error {
	hdr, _ := json.Marshal(docHeader{Size: int64(len(pdf))})
	if _, err := w.in.Write(append(hdr, '\n')); err != nil {
		return err
	}
	_, err := w.in.Write(pdf)
	return err
}

// A frameError is an answer that is not a frame.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// An overflowError is an answer longer than the parent accepts.
type overflowError struct{ size, limit int64 }

func (e *overflowError) Error() string {
	return fmt.Sprintf("child wrote more than %d bytes (a response of %d)", e.limit, e.size)
}

// receive reads one answer frame of at most limit bytes. An error that is
// neither a frameError nor an overflowError means the worker's stdout
// ended: it died.
func (w *worker) receive(limit int64) ([]byte, error) {
	line, err := w.rd.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, &frameError{fmt.Sprintf("no frame header in the first %d bytes", len(line))}
		}
		if len(line) > 0 {
			return nil, &frameError{fmt.Sprintf("answer cut short after %q", lastLines(string(line), 1))}
		}
		return nil, err
	}
	size, perr := strconv.ParseInt(string(line[:len(line)-1]), 10, 64)
	if perr != nil || size < 0 {
		return nil, &frameError{fmt.Sprintf("frame header %q is not a length", strings.TrimSpace(oneLine(line)))}
	}
	if size > limit {
		return nil, &overflowError{size: size, limit: limit}
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(w.rd, body); err != nil {
		return nil, err // died while answering
	}
	return body, nil
}

func oneLine(b []byte) string {
	s := string(b)
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

// kill stops the worker at once; what it was doing is lost.
func (w *worker) kill() {
	if w.cmd.Process != nil {
		w.cmd.Process.Kill()
	}
}

// end closes the worker's stdin, so that a waiting worker exits, and waits
// for it, killing it if it has not ended within its WaitDelay. It returns
// how the process ended (nil for exit 0); later calls return the same.
func (w *worker) end() error {
	w.endOnce.Do(func() {
		w.in.Close()
		done := make(chan error, 1)
		go func() { done <- w.cmd.Wait() }()
		select {
		case w.runErr = <-done:
		case <-time.After(w.cmd.WaitDelay):
			w.kill()
			w.runErr = <-done
		}
		w.out.Close()
	})
	return w.runErr
}

func (resp response) extraction() corpus.Extraction {
	ex := corpus.Extraction{Status: resp.Status, Error: resp.Error, Warnings: resp.Warnings}
	for _, p := range resp.Pages {
		page := corpus.PageText{Text: p.Text, Label: p.Label, Flags: p.Flags, Warnings: p.Warnings}
		if len(p.Boxes) > 0 {
			// The child is not trusted: bad geometry is dropped, the text
			// kept, and the page says so.
			if err := corpus.ValidateBoxes(p.Boxes, utf8.RuneCountInString(p.Text)); err != nil {
				page.Warnings = append(page.Warnings, "glyph boxes: "+err.Error())
			} else {
				page.Boxes = p.Boxes
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
		if len(p.Orders) > 0 {
			// And bad reading orders.
			if orders, err := corpus.DecodeOrders(p.Orders, p.Text); err != nil {
				page.Warnings = append(page.Warnings, "reading orders: "+err.Error())
			} else {
				page.Orders = orders
			}
		}
		ex.Pages = append(ex.Pages, page)
	}
	return ex
}

// classifyExit reads how a worker that did not answer ended. The Go runtime
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

// cappedBuffer keeps at most limit bytes of what is written to it since
// the last reset.
type cappedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int64
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.limit - int64(c.buf.Len()); room > 0 {
		c.buf.Write(p[:min(int64(len(p)), room)])
	}
	return len(p), nil // keep the worker from blocking on a full pipe
}

func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func (c *cappedBuffer) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Reset()
}
