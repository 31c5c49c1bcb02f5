package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/runs"
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
(arm, session, question) of the arms the runs hold gets exactly one result,
in the plan's order, with attempt status ok, error, timeout, interrupted or
missing; a second record for one planned attempt (duplicate) and a record
the plan does not have (extra) get their own results after them, graded as
failures. A record's session is its arm's repetition number (A2 is arm A's
second session). Without a plan every record is graded in input order.

Arms may be graded apart (one grade per arm, then "citecheck report" of
both folders): each grading writes only its own arms' planned attempts, so
none is counted twice. --arms names arms whose planned attempts are written
even though no record names them, all missing (a system that produced no
answer); with --arms, RUN files may be left out.

  citecheck grade --lock eval.lock --out results-b --arms B

--corpus C --reference R [--plan P] instead of --lock grades unfrozen
inputs; results then say "frozen": false.

RUN files hold run records (formats: docs/formats.md#run-records) or one
envelope per line around a vendor's native response
(docs/formats.md#envelopes), told apart by each file's first record unless
--format names the format (see "citecheck audit --help").

Writes DIR/results.jsonl (one JSON line per result, docs/results.md) and
prints a table per arm and session: attempts, attempts that are not ok,
factual and supported verdicts (pass/unresolved/fail) of answerable
questions, abstention verdicts of unknown ones, the emitted citations'
verdicts, and answers with no citation.

Progress goes to stderr: a spinner on a terminal; otherwise (a CI log) a
line every 10 seconds once grading takes that long.

Exit status: 0 every result passes (every attempt ok, every verdict and
citation pass); 1 something failed or is unresolved; 2 bad usage or input
(file:line: field: fault; a question the reference lacks; a run file with
no records); 3 the lock or the corpus changed.`

func runGrade(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "grade", "grade (--lock LOCK | --corpus CORPUS --reference REF [--plan PLAN]) --out DIR [--format F] [--arms A,B] [--json] RUN...", gradeAbout)
	lockPath := fs.String("lock", "", "the evaluation's lock `file` (citecheck freeze)")
	corpusDir := fs.String("corpus", "", "corpus `folder`, to grade without a lock")
	refPath := fs.String("reference", "", "reference `file`, to grade without a lock")
	planPath := fs.String("plan", "", "plan `file`, to grade without a lock")
	out := fs.String("out", "", "results `folder` (created if needed; results.jsonl is replaced)")
	format := fs.String("format", runs.FormatAuto, "input `format`: auto (told by each file's first record), "+strings.Join(runs.Formats, ", "))
	asJSON := fs.Bool("json", false, "print the summary as JSON instead of a table")
	armList := fs.String("arms", "", "comma-separated planned `arms` graded even where no record names them (their attempts missing)")
	runFiles, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	arms := splitList(*armList)
	switch {
	case *out == "":
		return usageErrorf("grade: --out DIR is required")
	case len(runFiles) == 0 && len(arms) == 0:
		return usageErrorf("grade: no RUN file given (or --arms, for arms that produced nothing)")
	case *lockPath != "" && (*corpusDir != "" || *refPath != "" || *planPath != ""):
		return usageErrorf("grade: --lock names the corpus, reference and plan; give it alone, or --corpus and --reference without it")
	case *lockPath == "" && (*corpusDir == "" || *refPath == ""):
		return usageErrorf("grade: want --lock LOCK, or --corpus CORPUS --reference REF")
	}
	if !knownFormat(*format) {
		return usageErrorf("grade: unknown --format %q (want auto or one of %s)", *format, strings.Join(runs.Formats, ", "))
	}

	fail := &failingList{limit: failingShown}
	sum, err := gradeRuns(stdout, stderr, gradeJob{stdin: e.stdin, toolchain: e.toolchain, lock: *lockPath, corpus: *corpusDir, reference: *refPath, plan: *planPath,
		out: *out, format: *format, runs: runFiles, arms: arms, failing: fail})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(stdout, sum.rows); err != nil {
			return err
		}
	} else {
		writeGradeTable(stdout, sum)
		writeFailing(stdout, sum, fail)
		fmt.Fprintf(stdout, "\nwrote %s: %s\n", filepath.Join(*out, grade.ResultsFile), countOf(sum.results, "result"))
	}
	if !sum.allPass {
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

// gradeJob is what one grading needs: a lock, or a corpus and reference
// (and a plan); the output folder; the run files and their format.
type gradeJob struct {
	stdin                         io.Reader               // the run file "-"
	toolchain                     func() freeze.Toolchain // what the lock is checked against
	lock, corpus, reference, plan string
	out, format                   string
	runs                          []string
	arms                          []string // RunOptions.Arms
	// names, when set, are the runs' names in results and messages.
	names []string
	// failing collects the results that do not pass, for the listing.
	failing *failingList
}

// gradeRuns verifies the lock (or reads the unfrozen inputs), builds the
// index, grades the runs into job.out/results.jsonl and returns the
// summary. A changed lock prints the verification report to stdout.
func gradeRuns(stdout, stderr io.Writer, job gradeJob) (*gradeSummary, error) {
	var ref *spans.Reference
	var pl *plan.Plan
	var err error
	dir, frozen := job.corpus, false
	if job.lock != "" {
		ev, err := freeze.Open(job.lock, job.toolchain())
		switch {
		case errors.Is(err, freeze.ErrChanged) && ev != nil && ev.Report != nil && !ev.Report.OK():
			printVerifyReport(stdout, job.lock, ev.Report)
			return nil, errRefused
		case err != nil:
			return nil, fmt.Errorf("grade: %w", err)
		}
		for _, w := range ev.Report.Warnings {
			fmt.Fprintf(stderr, "citecheck: grade: warning: %s\n", w)
		}
		ref, pl, dir, frozen = ev.Reference, ev.Plan, ev.CorpusDir, true
	} else {
		if ref, err = spans.ReadFile(job.reference); err != nil {
			return nil, fmt.Errorf("grade: %w", err)
		}
		if job.plan != "" {
			if pl, _, err = plan.ReadFile(job.plan); err != nil {
				return nil, fmt.Errorf("grade: %w", err)
			}
			if err := freeze.MatchPlan(pl, ref); err != nil {
				return nil, fmt.Errorf("grade: %w", err)
			}
		}
	}
	if err := grade.CheckArms(pl, job.arms); err != nil {
		return nil, fmt.Errorf("grade: --arms: %w", err)
	}
	// Each run file is read up to its first record before the index is
	// built, so that an empty file or a first line at fault is refused at
	// once; the records are counted again as they are graded (stdin can
	// only be read then).
	names := make([]string, len(job.runs))
	for i, path := range job.runs {
		names[i] = path
		if job.names != nil {
			names[i] = job.names[i]
		}
		if path != "-" {
			if err := firstRun(path, names[i], job.format); err != nil {
				return nil, fmt.Errorf("grade: %w", err)
			}
		}
	}
	if err := checkOutFolder("grade", job.out); err != nil {
		return nil, err
	}
	ix, err := openIndex("grade", dir)
	if err != nil {
		return nil, err
	}
	relaxGC()
	g, err := grade.New(ix, ref, frozen)
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	inputs := make([]grade.Input, len(job.runs))
	for i, path := range job.runs {
		inputs[i] = grade.Input{File: names[i], Each: func(fn func(*runs.Record) error) error {
			n := 0
			count := func(rec *runs.Record) error { n++; return fn(rec) }
			var err error
			if path == "-" {
				err = runs.EachRun(job.stdin, "stdin", job.format, count)
			} else if f, oerr := os.Open(path); oerr != nil {
				err = oerr
			} else {
				err = runs.EachRun(f, names[i], job.format, count)
				f.Close()
			}
			if err == nil && n == 0 {
				err = noRecords(names[i])
			}
			return err
		}}
	}
	if err := os.MkdirAll(job.out, 0o755); err != nil {
		return nil, fmt.Errorf("grade: --out: %w", err)
	}
	dst, err := atomicfile.Create(filepath.Join(job.out, grade.ResultsFile))
	if err != nil {
		return nil, fmt.Errorf("grade: --out: %w", err)
	}
	defer dst.Abort()
	bar := startProgress(stderr, "grade", "records graded", -1)
	tally := newGradeTally(job.failing)
	err = g.Run(inputs, dst, grade.RunOptions{Plan: pl, Arms: job.arms, SpillDir: job.out, Progress: bar.set, Written: tally.add})
	bar.finish()
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	if err := dst.Commit(); err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	return tally.summary(pl), nil
}

// errFirstRun stops firstRun's read at the first record.
var errFirstRun = errors.New("first record read")

// firstRun reads the run file path (named name in errors) up to its first
// record: nil when there is one, its input error, or noRecords.
func firstRun(path, name, format string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	err = runs.EachRun(f, name, format, func(*runs.Record) error { return errFirstRun })
	switch {
	case errors.Is(err, errFirstRun):
		return nil
	case err != nil:
		return err
	}
	return noRecords(name)
}

func knownFormat(f string) bool {
	if f == runs.FormatAuto {
		return true
	}
	for _, k := range runs.Formats {
		if k == f {
			return true
		}
	}
	return false
}

// failingShown is how many results that do not pass grade lists.
const failingShown = 12

// failingList keeps the descriptions of the first results that do not
// pass and counts the rest.
type failingList struct {
	limit int
	lines []string
	more  int
}

func (f *failingList) add(r *grade.Result) {
	if len(f.lines) < f.limit {
		f.lines = append(f.lines, describeResult(r))
	} else {
		f.more++
	}
}

// writeFailing lists, after the table, the first results that ran but do
// not pass, one line each with what failed or is open; missing work is
// counted, not listed.
func writeFailing(w io.Writer, sum *gradeSummary, f *failingList) {
	if len(f.lines) > 0 {
		fmt.Fprintf(w, "\nresults that do not pass:\n")
	}
	for _, l := range f.lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if f.more > 0 {
		fmt.Fprintf(w, "  ... and %d more in results.jsonl\n", f.more)
	}
	if n := sum.missing; n > 0 {
		fmt.Fprintf(w, "%s never run (attempt \"missing\")\n", countOf(n, "planned attempt"))
	}
	for _, h := range sum.hints {
		fmt.Fprintf(w, "hint: %s\n", h)
	}
}

// describeResult says in one line why a result does not pass, or "" when
// it passes.
func describeResult(r *grade.Result) string {
	var parts []string
	if r.Attempt != grade.AttemptOK {
		parts = append(parts, "attempt "+r.Attempt)
	} else {
		fields := make([]string, 0, len(r.Fields))
		for f := range r.Fields {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			if v := r.Fields[f]; v.Verdict != grade.Correct {
				reasons := make([]string, len(v.Reasons))
				for i, reason := range v.Reasons {
					reasons[i] = string(reason)
				}
				parts = append(parts, fmt.Sprintf("%s %s (%s)", f, v.Verdict, strings.Join(reasons, ", ")))
			}
		}
		if r.Abstention != nil && *r.Abstention != grade.Pass {
			parts = append(parts, fmt.Sprintf("abstention %s (%s)", *r.Abstention, strings.Join(r.AbstentionReasons, ", ")))
		}
		for _, c := range r.Citations {
			if c.Verdict == grade.Pass {
				continue
			}
			id := "-"
			if c.ID != nil {
				id = *c.ID
			}
			parts = append(parts, fmt.Sprintf("citation %s %s %s", id, c.Verdict, c.Reason))
		}
		if len(parts) == 0 && r.Supported != nil && *r.Supported != grade.Pass {
			parts = append(parts, "supported "+string(*r.Supported))
		}
		if len(r.Unread) > 0 {
			parts = append(parts, "citations not read ("+strings.Join(r.Unread, "; ")+")")
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "not every verdict passes")
	}
	where := ""
	if r.Source != nil {
		where = fmt.Sprintf("%s:%d ", filepath.Base(r.Source.File), r.Source.Line)
	}
	return fmt.Sprintf("%s%s/%d #%d %s: %s", where, r.Arm, r.Session, r.Position, r.Question, strings.Join(parts, "; "))
}
