package pdftext

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
)

// childModeEnv makes the test binary act as an extraction worker: "extract"
// is the real one (ChildMain); "script" speaks the protocol but does what
// each document's bytes say (scriptWorker), so that the parent's handling
// of real process outcomes can be tested.
const childModeEnv = "PDFTEXT_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" && len(os.Args) > 1 && os.Args[len(os.Args)-1] == ChildCommand {
		if mode == "extract" {
			os.Exit(ChildMain(os.Stdin, os.Stdout, os.Stderr))
		}
		os.Exit(scriptWorker(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// scriptWorker is a worker whose documents are commands: "ok" answers one
// page holding the worker's process id; "grow N" does too and claims N
// bytes of growth; "poison" answers ok but makes every later document of
// this worker panic; the others misbehave as their names say.
func scriptWorker(stdin io.Reader, stdout io.Writer) int {
	in := bufio.NewReader(stdin)
	line, _ := in.ReadBytes('\n')
	var req request
	json.Unmarshal(line, &req)
	if err := limitProcess(fromWire(req.Limits)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	poisoned := false
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var hdr docHeader
		json.Unmarshal(line, &hdr)
		doc := make([]byte, hdr.Size)
		io.ReadFull(in, doc)
		cmd, arg, _ := strings.Cut(string(doc), " ")
		if poisoned {
			panic("poisoned by an earlier document")
		}
		answer := response{Status: corpus.StatusOK, Pages: []wirePage{{Text: strconv.Itoa(os.Getpid())}}}
		switch cmd {
		case "hang":
			select {}
		case "oom":
			var keep [][]byte
			for {
				//lint:ignore SA4010 holding the memory is the point: the worker must run out of it
				keep = append(keep, make([]byte, 16<<20))
			}
		case "stack":
			var recurse func(n int) int
			recurse = func(n int) int { var pad [256]byte; pad[n%256] = 1; return recurse(n+1) + int(pad[0]) }
			return recurse(0)
		case "panic":
			panic("boom")
		case "garbage":
			fmt.Println("this is not a response")
		case "noframe":
			for {
				os.Stdout.Write(make([]byte, 1<<20))
			}
		case "flood":
			fmt.Printf("%d\n", int64(1)<<40)
			for {
				os.Stdout.Write(make([]byte, 1<<20))
			}
		case "exit":
			fmt.Fprintln(os.Stderr, "something went wrong")
			return 7
		case "grow":
			answer.Grown, _ = strconv.ParseInt(arg, 10, 64)
		case "poison":
			poisoned = true
		}
		writeFrame(stdout, answer)
	}
}

func testRunner(t *testing.T, mode string, lim Limits) *Runner {
	t.Setenv(childModeEnv, mode)
	r := &Runner{Command: []string{os.Args[0], "-test.run=^$"}, Limits: lim}
	t.Cleanup(func() { r.Close() })
	return r
}

// smallLimits keep the misbehaving workers' tests short.
func smallLimits() Limits {
	lim := DefaultLimits
	lim.Timeout = 3 * time.Second
	lim.AddressSpace = 1 << 30
	lim.Stack = 16 << 20
	lim.MaxOutput = 1 << 20
	if raceDetector {
		lim.Timeout *= 5 // race-built workers start and run several times slower
	}
	return lim
}

func TestRunnerClassifiesChildOutcomes(t *testing.T) {
	small := smallLimits()
	tests := []struct {
		doc  string
		why  string
		want corpus.Status
		msg  string
	}{
		{"ok", "a well-behaved worker answers", corpus.StatusOK, ""},
		{"hang", "a worker that never finishes is killed at the timeout", corpus.StatusTimeout, "longer than"},
		{"oom", "a worker past its address-space limit dies and is read as a resource limit", corpus.StatusResourceLimit, "out of memory"},
		{"stack", "runaway recursion stops at the stack limit", corpus.StatusResourceLimit, "stack"},
		{"flood", "an answer longer than the output cap is refused as it is announced", corpus.StatusResourceLimit, "more than"},
		{"noframe", "bytes without end and without a frame are nonsense", corpus.StatusCrash, "no frame header"},
		{"panic", "a panic that escapes is a crash, with its message", corpus.StatusCrash, "boom"},
		{"garbage", "an unreadable answer is a crash", corpus.StatusCrash, "unreadable"},
		{"exit", "an unexplained exit code is a crash, with the worker's last words", corpus.StatusCrash, "something went wrong"},
	}
	r := testRunner(t, "script", small)
	for _, tc := range tests {
		t.Run(tc.doc, func(t *testing.T) {
			if tc.doc == "oom" && raceDetector {
				t.Skip("under the race detector ThreadSanitizer's own allocation fails first: the worker crashes before Go reports out of memory")
			}
			start := time.Now()
			ex := r.Extract(context.Background(), "x.pdf", []byte(tc.doc))
			assert.Equal(t, tc.want, ex.Status, tc.why)
			assert.Contains(t, ex.Error, tc.msg, tc.why)
			assert.Less(t, time.Since(start), small.Timeout+5*time.Second, "the parent waited past the timeout")
		})
	}
}

// pidOf returns the worker process that answered a "script" document.
func pidOf(t *testing.T, ex corpus.Extraction) string {
	t.Helper()
	require.Equal(t, corpus.StatusOK, ex.Status, ex.Error)
	require.Len(t, ex.Pages, 1)
	return ex.Pages[0].Text
}

// TestWorkerExtractsManyDocuments: one worker takes document after
// document, and is replaced after WorkerDocuments of them.
func TestWorkerExtractsManyDocuments(t *testing.T) {
	r := testRunner(t, "script", smallLimits())
	r.WorkerDocuments = 3
	var pids []string
	for range 7 {
		pids = append(pids, pidOf(t, r.Extract(context.Background(), "x.pdf", []byte("ok"))))
	}
	assert.Equal(t, []string{pids[0], pids[0], pids[0], pids[3], pids[3], pids[3], pids[6]}, pids)
	assert.NotEqual(t, pids[0], pids[3])
	assert.NotEqual(t, pids[3], pids[6])
}

// TestWorkerReplacedAfterGrowth: a document that left its worker much
// larger than it started is the worker's last, so that the next document
// finds the room its address-space limit promises.
func TestWorkerReplacedAfterGrowth(t *testing.T) {
	r := testRunner(t, "script", smallLimits())
	r.WorkerGrowth = 100 << 20
	a := pidOf(t, r.Extract(context.Background(), "a.pdf", []byte("grow 1000")))
	b := pidOf(t, r.Extract(context.Background(), "b.pdf", []byte(fmt.Sprintf("grow %d", 200<<20))))
	c := pidOf(t, r.Extract(context.Background(), "c.pdf", []byte("ok")))
	assert.Equal(t, a, b, "a little growth keeps the worker")
	assert.NotEqual(t, b, c, "growth past WorkerGrowth replaces it")
}

// TestTimeoutBlamesOnlyTheDocument: a document that runs past its timeout
// is a timeout, its worker is killed, and the next document goes to a new
// worker and extracts.
func TestTimeoutBlamesOnlyTheDocument(t *testing.T) {
	lim := smallLimits()
	lim.Timeout = time.Second
	if raceDetector {
		lim.Timeout *= 5 // as smallLimits: a race-built worker may take a second to start
	}
	r := testRunner(t, "script", lim)
	a := pidOf(t, r.Extract(context.Background(), "a.pdf", []byte("ok")))
	ex := r.Extract(context.Background(), "b.pdf", []byte("hang"))
	assert.Equal(t, corpus.StatusTimeout, ex.Status)
	c := pidOf(t, r.Extract(context.Background(), "c.pdf", []byte("ok")))
	assert.NotEqual(t, a, c, "the timed-out worker was replaced")
}

// TestDeathOfUsedWorkerRetriesOnFreshOne: a worker that dies after earlier
// documents may have died of them, so the document it was extracting is
// extracted again by a new worker, whose outcome stands; a document that
// kills a fresh worker too is blamed.
func TestDeathOfUsedWorkerRetriesOnFreshOne(t *testing.T) {
	r := testRunner(t, "script", smallLimits())
	a := pidOf(t, r.Extract(context.Background(), "a.pdf", []byte("poison")))
	b := pidOf(t, r.Extract(context.Background(), "b.pdf", []byte("ok")))
	assert.NotEqual(t, a, b, "the innocent document was extracted again by a new worker")

	pidOf(t, r.Extract(context.Background(), "c.pdf", []byte("ok")))
	ex := r.Extract(context.Background(), "d.pdf", []byte("panic"))
	assert.Equal(t, corpus.StatusCrash, ex.Status, "a document that kills a fresh worker too is a crash")
	assert.Contains(t, ex.Error, "boom")
}

// TestRunnerConcurrentCallers: Extract from several goroutines uses as
// many workers, each document answered by exactly one.
func TestRunnerConcurrentCallers(t *testing.T) {
	r := testRunner(t, "script", smallLimits())
	var wg sync.WaitGroup
	errs := make([]corpus.Status, 12)
	for i := range errs {
		wg.Go(func() { errs[i] = r.Extract(context.Background(), "x.pdf", []byte("ok")).Status })
	}
	wg.Wait()
	for _, s := range errs {
		assert.Equal(t, corpus.StatusOK, s)
	}
	require.NoError(t, r.Close())
	r.mu.Lock()
	defer r.mu.Unlock()
	assert.Empty(t, r.idle, "Close ends the idle workers")
}

// TestRunnerInterrupted: a cancelled context stops the worker at once and
// the document is reported interrupted.
func TestRunnerInterrupted(t *testing.T) {
	r := testRunner(t, "script", smallLimits())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	ex := r.Extract(ctx, "x.pdf", []byte("hang"))
	assert.Equal(t, corpus.StatusCrash, ex.Status)
	assert.Equal(t, "interrupted", ex.Error)
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestRunnerExtractsThroughChild(t *testing.T) {
	r := testRunner(t, "extract", Limits{})
	for _, d := range fixtures.Demo() {
		ex := r.Extract(context.Background(), d.Name, d.Data)
		require.Equal(t, corpus.StatusOK, ex.Status, "%s: %s", d.Name, ex.Error)
		direct, err := Extract(d.Data, Options{})
		require.NoError(t, err)
		for i, p := range ex.Pages {
			assert.Equal(t, direct.Pages[i].Text, p.Text, "%s page %d: the worker's text differs from in-process extraction", d.Name, i+1)
			for _, line := range d.Pages[i] {
				assert.Contains(t, p.Text, line, "%s page %d", d.Name, i+1)
			}
		}
	}
}

// TestResponseDropsBrokenGeometryAndAlts: the parent trusts nothing the
// child sends; glyph boxes or alternative texts that do not fit the page
// text are dropped, the text kept, and the page says why.
func TestResponseDropsBrokenGeometryAndAlts(t *testing.T) {
	tests := []struct {
		name    string
		page    wirePage
		boxes   bool
		alts    int
		warning string
	}{
		{"good", wirePage{Text: "a \u0338= b", Boxes: corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 1, X1: 1, Y1: 1}}), Alts: []string{"a 6= b"}}, true, 1, ""},
		{"boxes past the text", wirePage{Text: "ab", Boxes: corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 5, X1: 1, Y1: 1}})}, false, 0, "glyph boxes:"},
		{"an alternative of another length", wirePage{Text: "a \u0338= b", Alts: []string{"a = b"}}, false, 0, "alternative texts:"},
	}
	for _, tc := range tests {
		ex := response{Status: corpus.StatusOK, Pages: []wirePage{tc.page}}.extraction()
		p := ex.Pages[0]
		if p.Text != tc.page.Text || (p.Boxes != nil) != tc.boxes || len(p.Alts) != tc.alts {
			t.Errorf("%s: text %q boxes %v alts %q", tc.name, p.Text, p.Boxes != nil, p.Alts)
		}
		warned := len(p.Warnings) == 1 && strings.HasPrefix(p.Warnings[0], tc.warning)
		if (tc.warning != "") != warned {
			t.Errorf("%s: warnings %q, want one starting %q", tc.name, p.Warnings, tc.warning)
		}
	}
}

// TestWorkersDoNotChangeTheStore: how documents are spread over workers
// changes no byte of the store. A process per document (WorkerDocuments
// 1, how extraction worked before workers), one worker taking every
// document in turn, and two workers sharing them build the same store.
func TestWorkersDoNotChangeTheStore(t *testing.T) {
	in := t.TempDir()
	for _, d := range append(fixtures.Demo(), fixtures.Eval()...) {
		require.NoError(t, os.WriteFile(filepath.Join(in, d.Name), d.Data, 0o644))
	}
	files, err := ingest.Inputs([]string{in})
	require.NoError(t, err)
	tests := []struct {
		why       string
		documents int
		jobs      int
	}{
		{"a process per document, as before workers", 1, 2},
		{"one worker takes every document in turn", 1000, 1},
		{"two workers share them, replaced every third document", 3, 2},
	}
	var first map[string][]byte
	for _, tc := range tests {
		r := testRunner(t, "extract", Limits{})
		r.WorkerDocuments = tc.documents
		out := filepath.Join(t.TempDir(), "corpus")
		_, err := ingest.Build(context.Background(), out, files, ingest.BuildOptions{Extractor: r.ExtractorID(), Extract: r.Extract, Jobs: tc.jobs})
		require.NoError(t, err, tc.why)
		store := readTree(t, out)
		if first == nil {
			first = store
			require.Greater(t, len(first), len(files), "a store with page texts")
			continue
		}
		assert.Equal(t, first, store, tc.why)
	}
}

func TestWorkerEnv(t *testing.T) {
	tests := []struct {
		env  []string
		want []string
		why  string
	}{
		{[]string{"HOME=/h"}, []string{"HOME=/h", "GOTRACEBACK=single", "GODEBUG=madvdontneed=0"}, "MADV_FREE and short tracebacks by default"},
		{[]string{"GODEBUG=gctrace=1", "GOTRACEBACK=all"}, []string{"GOTRACEBACK=single", "GODEBUG=madvdontneed=0,gctrace=1"}, "the caller's GODEBUG kept"},
		{[]string{"GODEBUG=madvdontneed=1"}, []string{"GOTRACEBACK=single", "GODEBUG=madvdontneed=0,madvdontneed=1"}, "the caller's madvdontneed comes later, and wins"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, workerEnv(tc.env), tc.why)
	}
}
