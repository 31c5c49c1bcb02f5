package main

import (
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
)

const reportAbout = `
Compute an evaluation's metrics from graded results and write them for
people and tools: DIR/summary.md, DIR/summary.json (format
citecheck-summary/1, docs/results.md) and DIR/report.html.

  citecheck report results --out report

RESULTS is a folder holding results.jsonl as "citecheck grade" writes it,
or the file itself; several are read together (arms graded apart). Per arm
and session, and per arm pooled: supported-answer success, canonical
factual correctness, emitted-citation precision (answers with no citation
counted apart) and clean abstention, each with a lower bound (unresolved
as fail) and an upper bound (unresolved as pass) and the Wilson 95% ends
beside them; a zero denominator is n/a, never 0% or 100%. Every planned
attempt counts; errors, timeouts, interruptions, missing, duplicate and
extra work count as failures and are listed. Each session is qualified by
the policy's thresholds (lower bounds of 90% supported, 95% citations, 90%
abstention; 30 answerable and 10 unknown planned questions; graded against
a frozen lock; no failed attempt), which the flags can change. With two
arms (or --arms A,B) the paired whole-question comparison of "citecheck
compare" is included. Latency per arm and phase, and stop reasons.

Exit status: 0 every session qualifies; 1 some session does not; 2 bad
usage or input (file:line: field: fault); 4 internal error.`

func runReport(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "report", "report RESULTS... --out DIR [--arms A,B] [--seed N] [--replicates N] [thresholds]", reportAbout)
	out := fs.String("out", "", "report `folder` (created if needed)")
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
	t, err := q.thresholds()
	if err != nil {
		return err
	}
	results, err := readResultSets(paths)
	if err != nil {
		return err
	}
	b := metrics.NewBuilder()
	for i := range results {
		b.Add(&results[i])
	}
	sum := b.Summary(t)
	if cmp, err := c.compare(results, sum, false); err != nil {
		return err
	} else {
		sum.Comparison = cmp
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("report: --out: %w", err)
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"summary.json", func(w io.Writer) error { return report.WriteJSON(w, sum) }},
		{"summary.md", func(w io.Writer) error { return report.WriteMarkdown(w, sum) }},
	} {
		if err := writeAtomic(filepath.Join(*out, f.name), f.write); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	if err := report.WriteTable(stdout, sum); err != nil {
		return err
	}
	if cmp := sum.Comparison; cmp != nil {
		fmt.Fprintln(stdout)
		writeComparison(stdout, cmp)
	}
	fmt.Fprintf(stdout, "\nwrote %s, %s\n", filepath.Join(*out, "summary.md"), filepath.Join(*out, "summary.json"))
	for _, g := range sum.Sessions {
		if g.Qualified == nil || !*g.Qualified {
			return errChecksFailed
		}
	}
	return nil
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

// readResultSets reads results.jsonl from each path (a folder holding it,
// or the file), in order.
func readResultSets(paths []string) ([]grade.Result, error) {
	var out []grade.Result
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "results.jsonl")
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		err = metrics.ReadResults(f, p, func(r *grade.Result) error {
			out = append(out, *r)
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
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
