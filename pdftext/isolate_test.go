package pdftext

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
)

// childModeEnv makes the test binary act as an extraction child; the modes
// other than "extract" misbehave on purpose, so that the parent's
// classification of real process outcomes can be tested.
const childModeEnv = "PDFTEXT_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" && len(os.Args) > 1 && os.Args[len(os.Args)-1] == ChildCommand {
		os.Exit(misbehave(mode))
	}
	os.Exit(m.Run())
}

func misbehave(mode string) int {
	if mode == "extract" {
		return ChildMain(os.Stdin, os.Stdout, os.Stderr)
	}
	line, _ := bufio.NewReader(os.Stdin).ReadBytes('\n')
	var req request
	json.Unmarshal(line, &req)
	if err := limitProcess(fromWire(req.Limits)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	switch mode {
	case "hang":
		select {}
	case "oom":
		var keep [][]byte
		for {
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
	case "flood":
		for {
			os.Stdout.Write(make([]byte, 1<<20))
		}
	case "exit":
		fmt.Fprintln(os.Stderr, "something went wrong")
		return 7
	}
	return 0
}

func testRunner(t *testing.T, mode string, lim Limits) *Runner {
	t.Setenv(childModeEnv, mode)
	return &Runner{Command: []string{os.Args[0], "-test.run=^$"}, Limits: lim}
}

func TestRunnerClassifiesChildOutcomes(t *testing.T) {
	pdf := fixtures.Demo()[0].Data
	small := DefaultLimits
	small.Timeout = 3 * time.Second
	small.AddressSpace = 1 << 30
	small.Stack = 16 << 20
	small.MaxOutput = 1 << 20
	tests := []struct {
		mode string
		why  string
		want corpus.Status
		msg  string
	}{
		{"extract", "a well-behaved child answers", corpus.StatusOK, ""},
		{"hang", "a child that never finishes is killed at the timeout", corpus.StatusTimeout, "longer than"},
		{"oom", "a child past its address-space limit dies and is read as a resource limit", corpus.StatusResourceLimit, "out of memory"},
		{"stack", "runaway recursion stops at the stack limit", corpus.StatusResourceLimit, "stack"},
		{"flood", "a child writing without end is stopped at the output cap", corpus.StatusResourceLimit, "more than"},
		{"panic", "a panic that escapes is a crash, with its message", corpus.StatusCrash, "boom"},
		{"garbage", "an unreadable answer is a crash", corpus.StatusCrash, "unreadable"},
		{"exit", "an unexplained exit code is a crash, with the child's last words", corpus.StatusCrash, "something went wrong"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			start := time.Now()
			ex := testRunner(t, tc.mode, small).Extract(context.Background(), "x.pdf", pdf)
			if ex.Status != tc.want || !strings.Contains(ex.Error, tc.msg) {
				t.Errorf("%s: got %s %q, want %s containing %q", tc.why, ex.Status, ex.Error, tc.want, tc.msg)
			}
			if d := time.Since(start); d > small.Timeout+5*time.Second {
				t.Errorf("the parent waited %v, past the timeout", d)
			}
		})
	}
}

func TestRunnerExtractsThroughChild(t *testing.T) {
	r := testRunner(t, "extract", Limits{})
	for _, d := range fixtures.Demo() {
		ex := r.Extract(context.Background(), d.Name, d.Data)
		if ex.Status != corpus.StatusOK {
			t.Fatalf("%s: %s %s", d.Name, ex.Status, ex.Error)
		}
		direct, err := Extract(d.Data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range ex.Pages {
			if p.Text != direct.Pages[i].Text {
				t.Errorf("%s page %d: the child's text differs from in-process extraction", d.Name, i+1)
			}
			for _, line := range d.Pages[i] {
				if !strings.Contains(p.Text, line) {
					t.Errorf("%s page %d: line %q missing from %q", d.Name, i+1, line, p.Text)
				}
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
		{"good", wirePage{Text: "a \u0338= b", Boxes: string(corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 1, X1: 1, Y1: 1}})), Alts: []string{"a 6= b"}}, true, 1, ""},
		{"boxes past the text", wirePage{Text: "ab", Boxes: string(corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 5, X1: 1, Y1: 1}}))}, false, 0, "glyph boxes:"},
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
