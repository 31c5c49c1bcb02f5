package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

const gradeAbout = `
Grade every attempt of the runs against a frozen evaluation: each
citation (pass, fail or unresolved, with a reason), each required field of
an answerable question (correct, incorrect or unresolved), the abstention
of an unknown question, and the derived factual and supported verdicts,
by the scoring policy's grade_response (docs/grading.md).

  citecheck grade --lock eval.lock --out results runs/A.jsonl runs/B.jsonl

The lock is verified first; if any pinned input changed, nothing is graded
(exit 3) and each change is named. With a plan in the lock, every planned
(arm, session, question) gets exactly one result, in the plan's order, with
attempt status ok, error, timeout, interrupted or missing; a second record
for one planned attempt (duplicate) and a record the plan does not have
(extra) get their own results after them, graded as failures. A record's
session is its arm's repetition number (A2 is arm A's second session).
Without a plan every record is graded in input order.

--corpus C --reference R [--plan P] instead of --lock grades unfrozen
inputs; results then say "frozen": false.

RUN files hold run records (--format run) or one envelope per line around a
vendor's native response (--format anthropic|openai|gemini|lmstudio|
langchain|llamaindex; see "citecheck audit --help").

Writes DIR/results.jsonl (one JSON line per result, docs/results.md) and
prints a table per arm and session: attempts, attempts that are not ok,
factual and supported verdicts (pass/unresolved/fail) of answerable
questions, abstention verdicts of unknown ones, the emitted citations'
verdicts, and answers with no citation.

Exit status: 0 every result passes (every attempt ok, every verdict and
citation pass); 1 something failed or is unresolved; 2 bad usage or input
(file:line: field: fault; a question the reference lacks); 3 the lock or
the corpus changed.`

func runGrade(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "grade", "grade (--lock LOCK | --corpus CORPUS --reference REF [--plan PLAN]) --out DIR [--format F] [--json] RUN...", gradeAbout)
	lockPath := fs.String("lock", "", "the evaluation's lock `file` (citecheck freeze)")
	corpusDir := fs.String("corpus", "", "corpus `folder`, to grade without a lock")
	refPath := fs.String("reference", "", "reference `file`, to grade without a lock")
	planPath := fs.String("plan", "", "plan `file`, to grade without a lock")
	out := fs.String("out", "", "results `folder` (created if needed; results.jsonl is replaced)")
	format := fs.String("format", "run", "input `format`: "+strings.Join(citations.Formats, ", "))
	asJSON := fs.Bool("json", false, "print the summary as JSON instead of a table")
	runs, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf("grade: --out DIR is required")
	case len(runs) == 0:
		return usageErrorf("grade: no RUN file given")
	case *lockPath != "" && (*corpusDir != "" || *refPath != "" || *planPath != ""):
		return usageErrorf("grade: --lock names the corpus, reference and plan; give it alone, or --corpus and --reference without it")
	case *lockPath == "" && (*corpusDir == "" || *refPath == ""):
		return usageErrorf("grade: want --lock LOCK, or --corpus CORPUS --reference REF")
	}
	if !knownFormat(*format) {
		return usageErrorf("grade: unknown --format %q (want one of %s)", *format, strings.Join(citations.Formats, ", "))
	}

	var ref *spans.Reference
	var pl *plan.Plan
	dir, frozen := *corpusDir, false
	if *lockPath != "" {
		ev, err := freeze.Open(*lockPath, toolchain())
		switch {
		case errors.Is(err, freeze.ErrChanged) && ev != nil && ev.Report != nil && !ev.Report.OK():
			printVerifyReport(stdout, *lockPath, ev.Report)
			return &exitError{code: exitIntegrity, err: errors.New("integrity refusal"), silent: true}
		case errors.Is(err, freeze.ErrChanged), errors.Is(err, freeze.ErrMalformed):
			return &exitError{code: exitIntegrity, err: fmt.Errorf("grade: %w", err)}
		case err != nil:
			return inputError(fmt.Errorf("grade: %w", err))
		}
		for _, w := range ev.Report.Warnings {
			fmt.Fprintf(stderr, "citecheck: grade: warning: %s\n", w)
		}
		ref, pl, dir, frozen = ev.Reference, ev.Plan, ev.CorpusDir, true
	} else {
		if ref, err = spans.ReadFile(*refPath); err != nil {
			return inputError(fmt.Errorf("grade: %w", err))
		}
		if *planPath != "" {
			if pl, _, err = plan.ReadFile(*planPath); err != nil {
				return inputError(fmt.Errorf("grade: %w", err))
			}
			if err := freeze.MatchPlan(pl, ref); err != nil {
				return inputError(fmt.Errorf("grade: %w", err))
			}
		}
	}
	ix, err := openIndex("grade", dir)
	if err != nil {
		return err
	}
	relaxGC()
	g, err := grade.New(ix, ref, frozen)
	if err != nil {
		return inputError(fmt.Errorf("grade: %w", err))
	}
	inputs := make([]grade.Input, len(runs))
	for i, path := range runs {
		inputs[i] = grade.Input{File: path, Each: func(fn func(*citations.RunRecord) error) error {
			if path == "-" {
				return citations.EachRun(inputStdin, "stdin", *format, fn)
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			return citations.EachRun(f, path, *format, fn)
		}}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return inputError(fmt.Errorf("grade: --out: %w", err))
	}
	dst, err := atomicfile.Create(filepath.Join(*out, "results.jsonl"))
	if err != nil {
		return inputError(fmt.Errorf("grade: --out: %w", err))
	}
	defer dst.Abort()
	bar := newProgress(stderr, -1)
	sum, err := g.Run(inputs, dst, grade.RunOptions{Plan: pl, SpillDir: *out, Progress: func(n int) {
		if bar != nil {
			bar.Set(n)
		}
	}})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		var ie *citations.InputError
		if errors.As(err, &ie) || isNotExist(err) {
			return inputError(fmt.Errorf("grade: %w", err))
		}
		return fmt.Errorf("grade: %w", err)
	}
	if err := dst.Commit(); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if *asJSON {
		if err := writeJSON(stdout, sum.Rows); err != nil {
			return err
		}
	} else {
		writeGradeTable(stdout, sum)
		fmt.Fprintf(stdout, "\nwrote %s: %s\n", filepath.Join(*out, "results.jsonl"), countOf(sum.Results, "result"))
	}
	if !sum.AllPass {
		return errChecksFailed
	}
	return nil
}

// relaxGC paces the collector after the index is built. Grading allocates
// much short-lived garbage; at openIndex's 50% of a small index the
// collector ran a third of the time. A soft memory limit of the live heap
// plus 64 MiB (or half the live heap, for a large index) lets garbage
// collect in large batches while bounding the peak by the same figure
// whatever the number of attempts; the growth target stays as a backstop
// should the live heap itself grow past the limit.
func relaxGC() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	live := ms.HeapAlloc
	debug.SetMemoryLimit(int64(live + max(64<<20, live/2)))
	debug.SetGCPercent(400)
}

func knownFormat(f string) bool {
	for _, k := range citations.Formats {
		if k == f {
			return true
		}
	}
	return false
}

// writeGradeTable prints the summary rows: "p/u/f" is pass, unresolved,
// fail.
func writeGradeTable(w io.Writer, sum *grade.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "arm\tsession\tattempts\tnot_ok\tanswerable\tfactual p/u/f\tsupported p/u/f\tunknown\tabstention p/u/f\tcitations p/u/f\tno_citation\t\n")
	for _, r := range sum.Rows {
		arm, session := r.Arm, fmt.Sprint(r.Session)
		if arm == "" {
			arm = "all"
		}
		if r.Session == 0 {
			session = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%d\t%s\t%s\t%d\t\n", arm, session, r.Attempts, r.NotOK, r.Answerable,
			puf(r.Factual), puf(r.Supported), r.Unknown, puf(r.Abstention), puf(r.Citations), r.MissingCitations)
	}
	tw.Flush()
}

func puf(c grade.Counts3) string { return fmt.Sprintf("%d/%d/%d", c.Pass, c.Unresolved, c.Fail) }
