package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/spans"
)

const freezeAbout = `
Freeze an evaluation's inputs: validate REFERENCE against CORPUS exactly as
"citecheck spans" does and refuse on any error; check that PLAN was made for
REFERENCE's questions; then write LOCK (format ` + freeze.Format + `): a sorted,
line-oriented list of every PDF's path, size and BLAKE3, every stored page
text's BLAKE3, the raw and canonical reference hashes (and one per question
and question part), the plan's hash (and one per repetition's order), the
extractor and its limits, and the tool, module, Go, Unicode and
normalization versions, closed by a root hash over all of it. Paths are
relative to the lock's folder.

--verify LOCK re-hashes everything the lock pins, at its recorded path, and
names every input that changed. It never repairs anything. A different
toolchain (tool, module, Go, Unicode or normalization version) alone is a
warning.

--reviews FILE (repeatable) also pins the decisions files of a source
review (citecheck review, docs/review.md), each read strictly first: a
report made with the lock applies exactly those, and --verify refuses one
that changed.

Examples:
  citecheck freeze --corpus corpus reference.json --plan plan.json --out eval.lock
  citecheck freeze --verify eval.lock

Exit status: 0 lock written, or verified with every input unchanged; 1 the
reference has span errors (nothing written); 2 bad usage or unreadable
inputs (a reference without questions, a plan made for other questions,
a file that is not a lock); 3 integrity refusal: a frozen input changed,
the lock was edited, or the corpus no longer matches its PDFs.`

func runFreeze(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "freeze", "freeze --corpus CORPUS REFERENCE [--plan PLAN] [--reviews FILE]... --out LOCK | freeze --verify LOCK", freezeAbout)
	dir := fs.String("corpus", "", "corpus `folder`")
	planPath := fs.String("plan", "", "session plan `file` to pin")
	out := fs.String("out", "", "write the lock to `file`")
	verify := fs.String("verify", "", "check the lock `file` instead of writing one")
	var reviews reviewsFlag
	fs.Var(&reviews, "reviews", "also pin the decisions `file` of a source review (repeat for several; docs/review.md)")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *verify != "" {
		if *dir != "" || *planPath != "" || *out != "" || len(reviews) > 0 || len(rest) > 0 {
			return usageErrorf("freeze: --verify LOCK takes no other flag or argument: the lock names its inputs")
		}
		return runVerify(e, *verify)
	}
	if *dir == "" || *out == "" || len(rest) != 1 {
		return usageErrorf("freeze: want --corpus CORPUS REFERENCE --out LOCK (or --verify LOCK)")
	}
	// The corpus and reference are read first so that a corpus folder
	// that is no corpus, and a reference without questions, are refused
	// as such; freeze.Write reads them again.
	if _, err := corpus.Open(*dir); err != nil {
		return fmt.Errorf("freeze: %w", err)
	}
	if ref, err := spans.ReadFile(rest[0]); err == nil && len(ref.Questions) == 0 {
		return fmt.Errorf("freeze: %w: the reference has no questions", noRecords(rest[0]))
	}
	if err := checkDecisionFiles(reviews); err != nil {
		return err
	}
	fr, err := freeze.Write(freeze.Inputs{
		LockPath: *out, CorpusDir: *dir, ReferencePath: rest[0], PlanPath: *planPath, Toolchain: e.toolchain(),
		Reviews: reviews,
	})
	if fr != nil && fr.Spans != nil {
		for _, p := range fr.Spans.Problems {
			fmt.Fprintln(stdout, p)
		}
		fmt.Fprintf(stdout, "spans: %s\n", fr.Spans.Summary())
	}
	switch {
	case errors.Is(err, freeze.ErrReferenceInvalid):
		fmt.Fprintf(stdout, "freeze: refused: the reference has %s; nothing was written\n", countOf(fr.Spans.Count(spans.Error), "span error"))
		return errChecksFailed
	case err != nil:
		return err
	}
	printFrozen(stdout, *out, fr)
	printPinnedReviews(stdout, fr.Lock)
	fmt.Fprintf(stdout, "root %s\n", fr.Lock.Root)
	return nil
}

// printFrozen prints the plan's warnings and what the lock pins; the root
// is left to the caller (it depends on the toolchain, which the demo's
// reproducible output must not).
func printFrozen(w io.Writer, name string, fr *freeze.Frozen) {
	if fr.Plan != nil {
		for _, warn := range fr.Plan.Warnings() {
			fmt.Fprintf(w, "plan: warning: %s\n", warn)
		}
	}
	l := fr.Lock
	docs := fmt.Sprintf("%d PDFs", len(l.Find("pdf")))
	if n := len(l.Find("text")); n > 0 && len(l.Find("pdf")) == 0 {
		docs = countOf(n, "text document")
	} else if n > 0 {
		docs += ", " + countOf(n, "text document")
	}
	fmt.Fprintf(w, "wrote %s: pinned %s, %d page texts, the reference and its %d questions, %d plan orders, the toolchain\n",
		name, docs, len(l.Find("page")), len(l.Find("question")), len(l.Find("plan.order")))
}

func runVerify(e *env, lockPath string) error {
	stdout := e.stdout
	rep, err := freeze.Check(lockPath, e.toolchain())
	if err != nil {
		return err
	}
	printVerifyReport(stdout, lockPath, rep)
	if rep.Reviews > 0 {
		fmt.Fprintf(stdout, "reviews: %s re-hashed\n", countOf(rep.Reviews, "decisions file"))
	}
	if !rep.OK() {
		return errRefused
	}
	return nil
}

func printVerifyReport(w io.Writer, lockPath string, rep *freeze.Report) {
	for _, c := range rep.Changes {
		fmt.Fprintf(w, "changed: %s\n", c)
	}
	for _, c := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", c)
	}
	fmt.Fprintf(w, "verify %s: %s\n", lockPath, rep.Summary())
	if rep.Moved != "" {
		fmt.Fprintf(w, "hint: %s\n", rep.Moved)
	}
	if rep.OK() {
		fmt.Fprintf(w, "ok: every frozen input matches the lock\n")
	} else {
		fmt.Fprintf(w, "refused: %s; nothing may be graded against this lock\n", changedInputs(len(rep.Changes)))
	}
}

func changedInputs(n int) string {
	return countOf(n, "frozen input") + " changed"
}

// countOf writes "1 thing" or "n things".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
