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
	os.Exit(run(os.Stdin, os.Stdout, compile(*show), must, compile(*forbid), compile(*allow)))
}

func compile(expr string) *regexp.Regexp {
	if expr == "" {
		return nil
	}
	return regexp.MustCompile(expr)
}

func matches(re *regexp.Regexp, s string) bool { return re != nil && re.MatchString(s) }

func run(in io.Reader, out io.Writer, show *regexp.Regexp, must []*regexp.Regexp, forbid, allow *regexp.Regexp) int {
	w := bufio.NewWriter(out)
	defer w.Flush()
	type key struct{ pkg, test string }
	outputs := map[key]*strings.Builder{}
	var passed, failed, skipped int
	var badSkips []string
	// mustRan[i]: a test must[i] matches passed or failed.
	mustRan := make([]bool, len(must))
	ran := func(test string) {
		for i, re := range must {
			mustRan[i] = mustRan[i] || re.MatchString(test)
		}
	}
	isMust := func(test string) bool {
		return slices.ContainsFunc(must, func(re *regexp.Regexp) bool { return re.MatchString(test) })
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil || e.Action == "" {
			fmt.Fprintln(w, line)
			w.Flush()
			continue
		}
		if e.Test == "" {
			// The package's own lines: "ok", "FAIL", a panic outside any
			// test, build errors. The bare "PASS" of -v mode is noise.
			if e.Action == "fail" || strings.HasPrefix(e.Output, "FAIL\t") {
				// Tests still running when the package failed (the test
				// binary's timeout, a crash) never end: print what they
				// said, the timeout's panic included, and count them
				// failed.
				var open []key
				for k := range outputs {
					if k.pkg == e.Package {
						open = append(open, k)
					}
				}
				slices.SortFunc(open, func(a, b key) int { return strings.Compare(a.test, b.test) })
				for _, k := range open {
					fmt.Fprint(w, outputs[k].String())
					delete(outputs, k)
					failed++
					ran(k.test)
				}
			}
			if (e.Action == "output" || e.Action == "build-output") && e.Output != "PASS\n" {
				fmt.Fprint(w, e.Output)
			}
			w.Flush()
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			b := outputs[k]
			if b == nil {
				b = &strings.Builder{}
				outputs[k] = b
			}
			b.WriteString(e.Output)
		case "pass", "fail", "skip":
			if e.Action != "skip" {
				ran(e.Test)
			}
			text := ""
			if b := outputs[k]; b != nil {
				text = b.String()
			}
			delete(outputs, k)
			switch e.Action {
			case "pass":
				passed++
				if matches(show, e.Test) {
					fmt.Fprint(w, text)
				}
			case "fail":
				failed++
				fmt.Fprint(w, text)
			case "skip":
				skipped++
				fmt.Fprint(w, text)
				if !matches(allow, e.Test) && (isMust(e.Test) || matches(forbid, text)) {
					badSkips = append(badSkips, fmt.Sprintf("%s %s: %s", e.Package, e.Test, skipMessage(text)))
				}
			}
			w.Flush()
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "gotestlog: reading the test output: %v\n", err)
		return 1
	}
	for k, b := range outputs {
		// Tests that never ended in output that stopped short.
		fmt.Fprint(w, b.String())
		failed++
		ran(k.test)
	}
	fmt.Fprintf(w, "gotestlog: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	status := 0
	if len(badSkips) > 0 {
		fmt.Fprintf(w, "gotestlog: %d tests that CI must run skipped:\n", len(badSkips))
		for _, s := range badSkips {
			fmt.Fprintf(w, "gotestlog:   %s\n", s)
		}
		status = 1
	}
	for i, re := range must {
		if !mustRan[i] {
			fmt.Fprintf(w, "gotestlog: no test matching %q ran\n", re)
			status = 1
		}
	}
	if passed+failed+skipped == 0 {
		fmt.Fprintln(w, "gotestlog: no test ran")
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
