package main

import (
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/spans"
)

const reportAbout = `
Compute an evaluation's metrics from graded results and write them for
people and tools: DIR/summary.md, DIR/summary.json (format
citecheck-summary/2, docs/formats.md#summary) and DIR/report.html, one
self-contained page (no network) with every metric, the comparison, every
result side by side per question, and each citation drawn on its page
with the located and the declared span (with --lock, or --corpus).

  citecheck report results --lock eval.lock --out report

RESULTS is a folder holding results.jsonl as "citecheck grade" writes it,
or the file itself; several are read together (arms graded apart). Per arm
and session, and per arm pooled: supported-answer success, canonical
factual correctness, emitted-citation precision (answers with no citation
counted apart) and clean abstention, each with a lower bound (unresolved
as fail) and an upper bound (unresolved as pass) and the Wilson 95% ends
beside them; a zero denominator is n/a, never 0% or 100%. Every planned
attempt counts; errors, timeouts, interruptions, missing, duplicate and
extra work count as failures and are listed. Extra attempts of an arm or
session the plan does not have are listed apart ("outside the plan"),
never as a session, and counted as failures in their arm's pooled row;
a session that also holds extra attempts is marked "*". After the table:
per session every reason it does not qualify, and the plan's accounting
(missing, duplicate, extra, out_of_order), each with its count; summary.md
says the same. Each planned attempt must be in one input only: arms
graded apart are reported together, but an attempt given twice (the same
arm graded in two folders) is refused, naming both. Each session is qualified by
the policy's thresholds (lower bounds of 90% supported, 95% citations, 90%
abstention; 30 answerable and 10 unknown planned questions; graded against
a frozen lock; no failed attempt), which the flags can change. With two
arms (or --arms A,B) the paired whole-question comparison of "citecheck
compare" is included. Latency per arm and phase, and stop reasons.

report.html has a review mode (with --lock, or --corpus and --reference):
each verdict the rules left unresolved, once per distinct content, with
verdict buttons and a note, saved as a decisions file (citecheck review
lists the same items). --reviews FILE applies such files: summary.json
(then format citecheck-summary/3), summary.md, report.html and the table
show each figure after review beside the automatic one, which stays as the
rules decided it; reviewers who disagree leave an item unresolved, and
with two or more their agreement (share, Cohen's kappa) is reported. A
decision whose hash matches no unresolved item, or one on a verdict the
rules decided, is refused (exit 2) with its file and line. A lock that
pins decisions files (freeze --reviews) applies them; --reviews must then
name the same files (docs/review.md).

Exit status: 0 every session qualifies (after review, when reviews are
applied); 1 some session does not; 2 bad usage or input (file:line:
field: fault); 3 the lock's inputs changed, or --reviews names files the
lock does not pin; 4 internal error.`

func runReport(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "report", "report RESULTS... --out DIR [--lock LOCK | --corpus C [--reference R]] [--reviews FILE]... [--arms A,B] [--seed N] [--replicates N] [thresholds]", reportAbout)
	out := fs.String("out", "", "report `folder` (created if needed)")
	lockPath := fs.String("lock", "", "the evaluation's lock: report.html shows each citation on its page and the declared spans")
	corpusDir := fs.String("corpus", "", "corpus `folder`, for the pages in report.html (without --lock)")
	refPath := fs.String("reference", "", "reference `file`, for the declared spans in report.html (without --lock)")
	var reviews reviewsFlag
	fs.Var(&reviews, "reviews", "apply the decisions `file` of a source review (repeat for several; needs --lock, or --corpus and --reference)")
	var q qualifyFlags
	q.register(fs)
	var c compareFlags
	c.register(fs)
	paths, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("report: --out DIR is required")
	}
	if len(paths) == 0 {
		return usageErrorf("report: no RESULTS given")
	}
	if *lockPath != "" && (*corpusDir != "" || *refPath != "") {
		return usageErrorf("report: --lock names the corpus and reference; give it alone, or --corpus (and --reference) without it")
	}
	t, err := q.thresholds()
	if err != nil {
		return err
	}
	sum, err := makeReport(stdout, reportJob{toolchain: e.toolchain, paths: paths, out: *out, lock: *lockPath, corpus: *corpusDir, reference: *refPath,
		thresholds: t, compare: &c, reviews: reviews})
	if err != nil {
		return err
	}
	if err := printReport(stdout, sum); err != nil {
		return err
	}
	if cmp := sum.Comparison; cmp != nil {
		fmt.Fprintln(stdout)
		writeComparison(stdout, cmp)
	}
	fmt.Fprintf(stdout, "\nwrote %s, %s, %s\n", filepath.Join(*out, "summary.md"), filepath.Join(*out, "summary.json"), filepath.Join(*out, "report.html"))
	for _, g := range sum.Sessions {
		q := g.Qualified
		if g.Reviewed != nil {
			q = g.Reviewed.Qualified
		}
		if q == nil || !*q {
			return errChecksFailed
		}
	}
	return nil
}

// reportJob is what one report needs: the results, where to write, the
// lock or corpus (and reference) for report.html, the thresholds and the
// comparison's flags.
type reportJob struct {
	toolchain                    func() freeze.Toolchain // what the lock is checked against
	paths                        []string
	names                        []string // shown for paths in report.html; paths when nil
	out, lock, corpus, reference string
	thresholds                   metrics.Thresholds
	compare                      *compareFlags
	// reviews are decisions files to apply (report --reviews), with the
	// names summaries give them (reviewNames; the paths when nil).
	reviews, reviewNames []string
}

// makeReport reads the results, computes the summary and comparison and
// writes summary.json, summary.md and report.html to job.out. A changed
// lock prints its verification report to stdout.
func makeReport(stdout io.Writer, job reportJob) (*metrics.Summary, error) {
	results, err := grade.ReadResultFiles(job.paths)
	if err != nil {
		return nil, err
	}
	b := metrics.NewBuilder()
	for i := range results {
		b.Add(&results[i])
	}
	sum := b.Summary(job.thresholds)
	cmp, err := job.compare.compare(results, sum, false)
	if err != nil {
		return nil, err
	}
	sum.Comparison = cmp
	title := job.names
	if title == nil {
		title = job.paths
	}
	html := report.HTMLInput{Summary: sum, Results: results, Title: strings.Join(title, ", ")}
	var pinned []freeze.ReviewFile
	switch {
	case job.lock != "":
		ev, err := openLock(stdout, job.toolchain(), job.lock, "report")
		if err != nil {
			return nil, err
		}
		store, err := corpus.Open(ev.CorpusDir)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		html.Pages, html.Reference, pinned = report.StorePages(store), ev.Reference, ev.Reviews
	case job.corpus != "":
		store, err := corpus.Open(job.corpus)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		html.Pages = report.StorePages(store)
		if job.reference != "" {
			if html.Reference, err = spans.ReadFile(job.reference); err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
		}
	}
	if err := applyReviews(&html, results, job, pinned); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(job.out, 0o755); err != nil {
		return nil, fmt.Errorf("report: --out: %w", err)
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"summary.json", func(w io.Writer) error { return report.WriteJSON(w, sum) }},
		{"summary.md", func(w io.Writer) error { return report.WriteMarkdown(w, sum) }},
		{"report.html", func(w io.Writer) error { return report.WriteHTML(w, html) }},
	} {
		if err := writeAtomic(filepath.Join(job.out, f.name), f.write); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	return sum, nil
}

// printReport prints a summary's table and findings, as report and the
// demo show them.
func printReport(stdout io.Writer, sum *metrics.Summary) error {
	if err := report.WriteTable(stdout, sum); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	return report.WriteFindings(stdout, sum)
}

// writeAtomic writes a file through atomicfile.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// qualifyFlags are the qualification thresholds a user may change.
type qualifyFlags struct {
	supported, citations, abstention *string
	answerable, unknown              *int
}

func (q *qualifyFlags) register(fs interface {
	String(string, string, string) *string
	Int(string, int, string) *int
}) {
	d := metrics.DefaultThresholds()
	q.supported = fs.String("min-supported", metrics.Round6(d.Supported), "qualifying lower bound of supported-answer success (a `fraction`)")
	q.citations = fs.String("min-citations", metrics.Round6(d.Citations), "qualifying lower bound of citation precision (a `fraction`)")
	q.abstention = fs.String("min-abstention", metrics.Round6(d.Abstention), "qualifying lower bound of clean abstention (a `fraction`)")
	q.answerable = fs.Int("answerable", d.Answerable, "planned answerable questions a session must have")
	q.unknown = fs.Int("unknown", d.Unknown, "planned unknown questions a session must have")
}

func (q *qualifyFlags) thresholds() (metrics.Thresholds, error) {
	t := metrics.Thresholds{Answerable: *q.answerable, Unknown: *q.unknown}
	for _, f := range []struct {
		name string
		in   string
		dst  **big.Rat
	}{{"min-supported", *q.supported, &t.Supported}, {"min-citations", *q.citations, &t.Citations}, {"min-abstention", *q.abstention, &t.Abstention}} {
		r, ok := new(big.Rat).SetString(strings.TrimSpace(f.in))
		if !ok || r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
			return t, usageErrorf("--%s %q: want a fraction between 0 and 1", f.name, f.in)
		}
		*f.dst = r
	}
	if t.Answerable < 0 || t.Unknown < 0 {
		return t, usageErrorf("--answerable and --unknown cannot be negative")
	}
	return t, nil
}
