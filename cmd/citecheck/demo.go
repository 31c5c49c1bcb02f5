package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/pdftext"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/spans"
)

func runDemo(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "demo", "demo [--out DIR]", `
Run the pipeline on the fixture PDFs this program generates: write them to
DIR/pdfs, extract them into the corpus DIR/corpus in isolated child
processes, and print what was found; locate the example quotes of
fixtures/citations/quotes.jsonl and audit the example run
fixtures/citations/run.jsonl against it; then validate the embedded
reference's evidence spans (DIR/reference.json), make the session plan
(DIR/plan.json), freeze everything into DIR/citecheck.lock, verify the lock,
and show verify refusing a PDF with one bit changed. Without --out, a temporary folder is
used and removed afterwards. The output is the same on every run.

Example:
  citecheck demo --out ev

Exit status: 0 every step behaved as the README shows; 1 a fixture PDF did
not extract or the fresh lock did not verify; 2 bad usage or an --out that
cannot be written; 4 any other step failed (a bug).`)
	out := fs.String("out", "", "keep the PDFs and the corpus in `folder`")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("demo: unexpected arguments %q", rest)
	}
	if err := checkOutFolder("demo", *out); err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir, err = os.MkdirTemp("", "citecheck-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	pdfDir := filepath.Join(dir, "pdfs")
	corpusDir := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(pdfDir, 0o755); err != nil {
		return fmt.Errorf("demo: --out: %w", err)
	}
	docs := fixtures.Demo()
	for _, d := range docs {
		if err := os.WriteFile(filepath.Join(pdfDir, d.Name), d.Data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "== citecheck extract: %d fixture PDFs\n\n", len(docs))
	runner := &pdftext.Runner{}
	files, err := corpus.Inputs([]string{pdfDir})
	if err != nil {
		return err
	}
	report, err := corpus.Build(context.Background(), corpusDir, files, corpus.BuildOptions{
		Extractor: runner.Extractor(), Extract: runner.Extract, Jobs: 2,
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	printExtractReport(stdout, report, -1)

	store, err := corpus.Open(corpusDir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n== the corpus manifest, by document\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "document\tstatus\tpages\tbytes\tblake3\n")
	for _, d := range store.Manifest().Documents {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s…\n", d.Name, d.Status, d.PageCount, d.Bytes, d.BLAKE3[:23])
	}
	tw.Flush()

	doc, _ := store.Manifest().Document("supplier-policy.pdf")
	fmt.Fprintf(stdout, "\n== citecheck show --ruler supplier-policy.pdf 2\n\n")
	text, err := store.Text(doc, 2)
	if err != nil {
		return err
	}
	writeRuler(stdout, text)

	// Locate and audit: the fixture files show one case of each status,
	// level and audit class, so their non-zero "checks failed" outcome is
	// the point of the demo, not a failure of it.
	ix, err := citations.NewIndex(store, citations.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n== citecheck locate --corpus CORPUS fixtures/citations/quotes.jsonl\n\n")
	reqs, err := citations.ReadLocateRequests(bytes.NewReader(fixtures.Quotes()), "fixtures/citations/quotes.jsonl")
	if err != nil {
		return err
	}
	if _, err := writeLocate(stdout, ix, reqs); err != nil {
		return err
	}
	const runName = "fixtures/citations/run.jsonl"
	fmt.Fprintf(stdout, "\n== citecheck audit --corpus CORPUS %s\n\n", runName)
	runs, err := citations.ReadRunRecords(bytes.NewReader(fixtures.Run()), runName)
	if err != nil {
		return err
	}
	fileOf := make([]string, len(runs))
	for i := range fileOf {
		fileOf[i] = runName
	}
	if _, err := writeAudit(stdout, ix, runs, fileOf, false); err != nil {
		return err
	}
	if report.Count(corpus.StatusOK) != len(report.Results) {
		return errChecksFailed
	}
	if err := demoFreeze(stdout, dir, store); err != nil {
		return err
	}
	if *out != "" {
		demoKept(stdout, *out)
	}
	return nil
}

// demoFreeze runs spans, plan, freeze and verify on the embedded reference,
// then shows verify refusing a PDF with one byte changed. Files are named
// relative to the demo folder so the output is the same wherever it runs.
func demoFreeze(stdout io.Writer, dir string, store *corpus.Store) error {
	refPath := filepath.Join(dir, fixtures.ReferenceName)
	planPath := filepath.Join(dir, fixtures.PlanName)
	lockName := "citecheck.lock"
	lockPath := filepath.Join(dir, lockName)
	if err := os.WriteFile(refPath, fixtures.Reference(), 0o644); err != nil {
		return err
	}

	fmt.Fprintf(stdout, "\n== citecheck spans --corpus corpus %s\n\n", fixtures.ReferenceName)
	ref, err := spans.Decode(fixtures.Reference(), fixtures.ReferenceName)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	rep, err := spans.Validate(ref, spans.StoreCorpus(store), spans.Options{})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	printSpansReport(stdout, rep)

	fmt.Fprintf(stdout, "\n== citecheck plan %s --arms %s --repeats %d --seed %d --out %s\n\n",
		fixtures.ReferenceName, strings.Join(fixtures.PlanArms, ","), fixtures.PlanRepeats, fixtures.PlanSeed, fixtures.PlanName)
	p, err := plan.New(ref, plan.Options{Arms: fixtures.PlanArms, Repetitions: fixtures.PlanRepeats, Seed: fixtures.PlanSeed})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := os.WriteFile(planPath, p.Encode(), 0o644); err != nil {
		return err
	}
	printPlanSummary(stdout, p)
	fmt.Fprintf(stdout, "wrote %s\n", fixtures.PlanName)

	fmt.Fprintf(stdout, "\n== citecheck freeze --corpus corpus %s --plan %s --out %s\n\n", fixtures.ReferenceName, fixtures.PlanName, lockName)
	fr, err := freeze.Write(freeze.Inputs{
		LockPath: lockPath, CorpusDir: filepath.Join(dir, "corpus"), ReferencePath: refPath, PlanPath: planPath, Toolchain: toolchain(),
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdout, "spans: %s\n", fr.Spans.Summary())
	printFrozen(stdout, lockName, fr)
	fmt.Fprintf(stdout, "\n$ grep -E '^(pdf|reference|plan) ' %s\n", lockName)
	for _, r := range fr.Lock.Records {
		if r.Kind == "pdf" || r.Kind == "reference" || r.Kind == "plan" {
			fmt.Fprintln(stdout, r)
		}
	}

	fmt.Fprintf(stdout, "\n== citecheck freeze --verify %s\n\n", lockName)
	vr, err := freeze.Check(lockPath, toolchain())
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	printVerifyReport(stdout, lockName, vr)
	if !vr.OK() {
		return errChecksFailed
	}
	if err := demoGrade(stdout, dir, lockName); err != nil {
		return err
	}
	if err := demoReport(stdout, dir, lockName); err != nil {
		return err
	}

	// Tamper with one byte of a PDF, show the refusal, put it back.
	victim := filepath.Join(dir, "pdfs", "price-list.pdf")
	orig, err := os.ReadFile(victim)
	if err != nil {
		return err
	}
	bad := append([]byte(nil), orig...)
	bad[len(bad)/2] ^= 0x01
	if err := os.WriteFile(victim, bad, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n== one bit of pdfs/price-list.pdf flipped; citecheck freeze --verify %s\n\n", lockName)
	vr, err = freeze.Check(lockPath, toolchain())
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	printVerifyReport(stdout, lockName, vr)
	fmt.Fprintf(stdout, "(exit status %d)\n", exitIntegrity)
	if err := os.WriteFile(victim, orig, 0o644); err != nil {
		return err
	}
	if vr.OK() {
		return fmt.Errorf("demo: verify accepted a changed PDF")
	}
	return nil
}

// demoGrade grades the example run against the lock, as "citecheck grade"
// does, with names relative to the demo folder. The run fails and is
// unresolved on purpose; that is not a failure of the demo.
func demoGrade(stdout io.Writer, dir, lockName string) error {
	runPath := filepath.Join(dir, "graded.jsonl")
	if err := os.WriteFile(runPath, fixtures.GradedRun(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n== citecheck grade --lock %s --out results %s\n\n", lockName, fixtures.GradedRunName)
	out := filepath.Join(dir, "results")
	fail := &failingList{limit: failingShown}
	sum, err := gradeRuns(stdout, io.Discard, gradeJob{lock: filepath.Join(dir, lockName), out: out, format: "run",
		runs: []string{runPath}, names: []string{fixtures.GradedRunName}, failing: fail})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	writeGradeTable(stdout, sum)
	writeFailing(stdout, sum, fail)
	fmt.Fprintf(stdout, "\nwrote results/results.jsonl: %s\n", countOf(sum.Results, "result"))
	return nil
}

// demoReport computes the metrics of the graded run and writes the three
// report files, as "citecheck report" does.
func demoReport(stdout io.Writer, dir, lockName string) error {
	fmt.Fprintf(stdout, "\n== citecheck report results --lock %s --out report\n\n", lockName)
	sum, err := makeReport(stdout, reportJob{paths: []string{filepath.Join(dir, "results")}, names: []string{"results"},
		out: filepath.Join(dir, "report"), lock: filepath.Join(dir, lockName), thresholds: metrics.DefaultThresholds(),
		compare: defaultCompare()})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := report.WriteTable(stdout, sum); err != nil {
		return err
	}
	if cmp := sum.Comparison; cmp != nil {
		fmt.Fprintln(stdout)
		writeComparison(stdout, cmp)
	}
	fmt.Fprintf(stdout, "\nwrote report/summary.md, report/summary.json, report/report.html\n")
	return nil
}

// demoKept tells, after a demo run with --out, where its report is.
func demoKept(stdout io.Writer, out string) {
	fmt.Fprintf(stdout, "\nThe demo's files are in %s; open %s in a browser.\n", out, filepath.Join(out, "report", "report.html"))
}
