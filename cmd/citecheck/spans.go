package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/spans"
)

func spansAbout() string {
	var codes strings.Builder
	for _, c := range spans.Codes {
		fmt.Fprintf(&codes, "  %-7s  %-30s %s\n", c.Severity, c.Code, c.Meaning)
	}
	return `
Validate a reference (gold file, format ` + spans.Format + `) against the page
texts of CORPUS: every question's fields, claims and abstention data, and
every evidence span {document, page, start, end, text}. Offsets are Unicode
code points into the stored page text (citecheck show --ruler), 0-based, end
exclusive; pages are 1-based. Prints one line per problem,

  FILE:LINE:COL: SEVERITY: JSON.PATH: CODE: what is wrong; fix: how

then a summary. Errors make freeze refuse the reference; warnings are for a
person to look at.

--fix --out NEW writes a corrected copy to NEW with the start and end of
every span that had none filled in, when its text occurs exactly once on
its page; REFERENCE itself is never edited, and nothing else is changed.

Problem codes:
` + codes.String() + `
Examples:
  citecheck spans --corpus corpus reference.json
  citecheck spans --corpus corpus --fix --out fixed.json draft.json

Exit status: 0 no errors; 1 errors found; 2 bad usage or an unreadable or
malformed reference (file:line:col and the JSON path), or one without
questions; 3 a stored page text no longer matches the corpus manifest.`
}

func runSpans(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "spans", "spans --corpus CORPUS [--fix --out NEW] [--json] REFERENCE", spansAbout())
	dir := fs.String("corpus", "", "corpus `folder` (required)")
	fix := fs.Bool("fix", false, "fill missing offsets that are unique; needs --out")
	out := fs.String("out", "", "with --fix, write the corrected reference to `file` (never REFERENCE itself)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageErrorf("spans: --corpus CORPUS is required")
	}
	if len(rest) != 1 {
		return usageErrorf("spans: want one REFERENCE, got %d arguments", len(rest))
	}
	if *fix != (*out != "") {
		return usageErrorf("spans: --fix and --out NEW go together")
	}
	if *fix && samePath(rest[0], *out) {
		return usageErrorf("spans: --out %s is the reference itself; --fix never edits in place", *out)
	}
	store, err := corpus.Open(*dir)
	if err != nil {
		return fmt.Errorf("spans: %w", err)
	}
	ref, err := spans.ReadFile(rest[0])
	if err != nil {
		return err
	}
	if len(ref.Questions) == 0 {
		return fmt.Errorf("spans: %w: the reference has no questions", noRecords(rest[0]))
	}
	rep, err := spans.Validate(ref, store, spans.Options{Fill: *fix})
	if err != nil {
		return err
	}
	if *fix {
		fixed, err := spans.Fix(ref, rep)
		if err != nil {
			return err
		}
		if err := atomicfile.Write(*out, fixed); err != nil {
			return fmt.Errorf("spans: --out: %w", err)
		}
	}
	if *asJSON {
		if rep.Problems == nil {
			rep.Problems = []spans.Problem{}
		}
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		printSpansReport(stdout, rep)
		if *fix {
			fmt.Fprintf(stdout, "wrote %s (%s filled)\n", *out, countOf(len(rep.Fills), "span"))
		}
	}
	if rep.HasErrors() {
		return errChecksFailed
	}
	return nil
}

// printSpansReport prints one line per problem and the summary.
func printSpansReport(w io.Writer, rep *spans.Report) {
	for _, p := range rep.Problems {
		fmt.Fprintln(w, p)
	}
	fmt.Fprintf(w, "spans: %s\n", rep.Summary())
}

// samePath reports whether two paths name the same file (or would).
func samePath(a, b string) bool {
	if fa, err := os.Stat(a); err == nil {
		if fb, err := os.Stat(b); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
