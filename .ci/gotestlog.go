// Command gotestlog turns the output of "make test TESTFLAGS=-json" into
// what go test prints without -json, and checks that the tests CI must run
// did run. .ci/run pipes the test run through it.
//
// Lines that are not test2json events (make's, gofmt's, go vet's) pass
// through unchanged. Of the events it prints each package's own output
// (its "ok" or "FAIL" line, a build failure), the whole output of a test
// that failed, the output of a test that skipped, and the output of the
// tests named by -show even when they pass (the fidelity ratchet's floors).
// It ends with "gotestlog: N passed, N failed, N skipped".
//
// A skip is a CI failure when a -must matches the test, or when its
// message matches -forbid (a test that needs ../shared saying it is
// absent), unless the test is one -allow matches (a test of the skipping
// itself); so is a -must that matches no test that ran. -must may be given
// more than once, each for tests of their own (the fidelity ratchet, the
// Slurm job array), so that each is required to run. The exit status is
// 1 for any of these, or for input that holds no test at all; the test
// run's own status is the caller's to check.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

func main() {
	show := flag.String("show", "", "regexp of tests whose output is printed even when they pass")
	var must []*regexp.Regexp
	flag.Func("must", "regexp of tests that must run and not skip (repeatable)", func(expr string) error {
		re, err := regexp.Compile(expr)
		must = append(must, re)
		return err
	})
	forbid := flag.String("forbid", "", "regexp of skip messages that fail CI")
	allow := flag.String("allow", "", "regexp of tests that may skip whatever their message")
	flag.Parse()
	os.Exit(run(os.Stdin, os.Stdout, filters{show: compile(*show), must: must, forbid: compile(*forbid), allow: compile(*allow)}))
}

func compile(expr string) *regexp.Regexp {
	if expr == "" {
		return nil
	}
	return regexp.MustCompile(expr)
}

func matches(re *regexp.Regexp, s string) bool { return re != nil && re.MatchString(s) }

// filters are the flags: which tests to show, which must run, which skip
// messages fail CI and which tests may skip whatever they say.
type filters struct {
	show          *regexp.Regexp
	must          []*regexp.Regexp
	forbid, allow *regexp.Regexp
}

type key struct{ pkg, test string }

// logger keeps what the events said until their tests end.
type logger struct {
	filters
	w                       *bufio.Writer
	outputs                 map[key]*strings.Builder
	passed, failed, skipped int
	badSkips                []string
	mustRan                 []bool // mustRan[i]: a test must[i] matches passed or failed
}

func run(in io.Reader, out io.Writer, f filters) int {
	l := &logger{filters: f, w: bufio.NewWriter(out), outputs: map[key]*strings.Builder{}, mustRan: make([]bool, len(f.must))}
	defer l.w.Flush()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		var e event
		switch {
		case !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil || e.Action == "":
			fmt.Fprintln(l.w, line)
		case e.Test == "":
			l.packageEvent(e)
		default:
			l.testEvent(e)
		}
		l.w.Flush()
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(l.w, "gotestlog: reading the test output: %v\n", err)
		return 1
	}
	return l.finish()
}

func (l *logger) ran(test string) {
	for i, re := range l.must {
		l.mustRan[i] = l.mustRan[i] || re.MatchString(test)
	}
}

func (l *logger) isMust(test string) bool {
	return slices.ContainsFunc(l.must, func(re *regexp.Regexp) bool { return re.MatchString(test) })
}

// packageEvent prints the package's own lines: "ok", "FAIL", a panic
// outside any test, build errors. The bare "PASS" of -v mode is noise.
func (l *logger) packageEvent(e event) {
	if e.Action == "fail" || strings.HasPrefix(e.Output, "FAIL\t") {
		// Tests still running when the package failed (the test binary's
		// timeout, a crash) never end: print what they said, the
		// timeout's panic included, and count them failed.
		var open []key
		for k := range l.outputs {
			if k.pkg == e.Package {
				open = append(open, k)
			}
		}
		slices.SortFunc(open, func(a, b key) int { return strings.Compare(a.test, b.test) })
		for _, k := range open {
			fmt.Fprint(l.w, l.outputs[k].String())
			delete(l.outputs, k)
			l.failed++
			l.ran(k.test)
		}
	}
	if (e.Action == "output" || e.Action == "build-output") && e.Output != "PASS\n" {
		fmt.Fprint(l.w, e.Output)
	}
}

// testEvent keeps a test's output until it ends, then prints it as go test
// would and counts the outcome.
func (l *logger) testEvent(e event) {
	k := key{e.Package, e.Test}
	switch e.Action {
	case "output":
		b := l.outputs[k]
		if b == nil {
			b = &strings.Builder{}
			l.outputs[k] = b
		}
		b.WriteString(e.Output)
		return
	case "pass", "fail", "skip":
	default:
		return
	}
	if e.Action != "skip" {
		l.ran(e.Test)
	}
	text := ""
	if b := l.outputs[k]; b != nil {
		text = b.String()
	}
	delete(l.outputs, k)
	switch e.Action {
	case "pass":
		l.passed++
		if matches(l.show, e.Test) {
			fmt.Fprint(l.w, text)
		}
	case "fail":
		l.failed++
		fmt.Fprint(l.w, text)
	case "skip":
		l.skipped++
		fmt.Fprint(l.w, text)
		if !matches(l.allow, e.Test) && (l.isMust(e.Test) || matches(l.forbid, text)) {
			l.badSkips = append(l.badSkips, fmt.Sprintf("%s %s: %s", e.Package, e.Test, skipMessage(text)))
		}
	}
}

// finish counts the tests that never ended, prints the totals and the
// skips CI refuses, and returns the exit status.
func (l *logger) finish() int {
	for k, b := range l.outputs {
		// Tests that never ended in output that stopped short.
		fmt.Fprint(l.w, b.String())
		l.failed++
		l.ran(k.test)
	}
	fmt.Fprintf(l.w, "gotestlog: %d passed, %d failed, %d skipped\n", l.passed, l.failed, l.skipped)
	status := 0
	if len(l.badSkips) > 0 {
		fmt.Fprintf(l.w, "gotestlog: %d tests that CI must run skipped:\n", len(l.badSkips))
		for _, s := range l.badSkips {
			fmt.Fprintf(l.w, "gotestlog:   %s\n", s)
		}
		status = 1
	}
	for i, re := range l.must {
		if !l.mustRan[i] {
			fmt.Fprintf(l.w, "gotestlog: no test matching %q ran\n", re)
			status = 1
		}
	}
	if l.passed+l.failed+l.skipped == 0 {
		fmt.Fprintln(l.w, "gotestlog: no test ran")
		status = 1
	}
	return status
}

// skipMessage is the skip's reason: the last output line that is neither
// go test's "=== RUN" nor its "--- SKIP" line.
func skipMessage(text string) string {
	msg := ""
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "=== ") && !strings.HasPrefix(t, "--- ") {
			msg = t
		}
	}
	return msg
}
