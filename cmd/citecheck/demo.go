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
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/pdftext"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
)

const demoAbout = `
Run citecheck's job on documents this program generates, in two parts.

1. An evaluation as a team runs one: ten PDFs of a supplier-quality bank
   (running headers, footers, a two-column page, tables, a footnote,
   ligatures, hyphenation, a rotated page, a page without text), a
   reference of 30 answerable and 10 unknown questions, and two systems'
   answers over three sessions each in the frozen plan's order (arm A in
   Anthropic's Messages format, arm B in LM Studio's). The demo extracts
   the PDFs, validates the reference's spans, plans, freezes, grades both
   runs, computes the metrics and the paired comparison, writes the
   report, and shows a verification refusing a PDF with one bit changed.
2. The pieces, on three small PDFs: a page shown with its offsets, quotes
   located at every matching level, and a reference-free audit of a run.

Files go to DIR (the PDFs, the corpus, reference, plan, lock, runs,
results/ and report/report.html); without --out a temporary folder is used
and removed afterwards. The output is the same on every run.

Example:
  citecheck demo --out bin/demo

Exit status: 0 every step behaved as the README shows; 1 a fixture PDF did
not extract, a span of the reference is wrong or the fresh lock did not
verify; 2 bad usage or an --out that cannot be written; 4 any other step
failed (a bug).`

func runDemo(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "demo", "demo [--out DIR]", demoAbout)
	out := fs.String("out", "", "keep the demo's files in `folder`")
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
	if err := demoEvaluation(e, dir); err != nil {
		return err
	}
	if err := demoPieces(stdout, filepath.Join(dir, "pieces")); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(stdout, "\nThe demo's files are in %s; open %s in a browser.\n", *out, filepath.Join(*out, "report", "report.html"))
	}
	return nil
}

// demoExtract writes the PDFs to dir/pdfs and extracts them into
// dir/corpus through the isolated child processes of "citecheck extract".
func demoExtract(dir string, docs []fixtures.DemoPDF) (*corpus.Store, error) {
	pdfDir := filepath.Join(dir, "pdfs")
	if err := os.MkdirAll(pdfDir, 0o755); err != nil {
		return nil, fmt.Errorf("demo: --out: %w", err)
	}
	for _, d := range docs {
		if err := os.WriteFile(filepath.Join(pdfDir, d.Name), d.Data, 0o644); err != nil {
			return nil, err
		}
	}
	runner := &pdftext.Runner{}
	files, err := ingest.Inputs([]string{pdfDir})
	if err != nil {
		return nil, err
	}
	rep, err := ingest.Build(context.Background(), filepath.Join(dir, "corpus"), files, ingest.BuildOptions{
		Extractor: runner.ExtractorID(), Extract: runner.Extract, Jobs: 2,
	})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if rep.Count(corpus.StatusOK) != len(rep.Results) {
		printExtractReport(os.Stderr, rep, -1)
		return nil, errChecksFailed
	}
	return corpus.Open(filepath.Join(dir, "corpus"))
}

// demoLockName is the evaluation's lock, in the demo's folder.
const demoLockName = "eval.lock"

// demoEvaluation runs the evaluation bank of package fixtures through
// extract, spans, plan, freeze, grade and report, with files named
// relative to dir so that the output is the same wherever it runs.
func demoEvaluation(e *env, dir string) error {
	stdout := e.stdout
	docs := fixtures.Eval()
	fmt.Fprintf(stdout, "== An evaluation: %d PDFs, 40 questions, arms A and B, three sessions each\n", len(docs))
	fmt.Fprintf(stdout, "\n$ citecheck extract --out corpus pdfs\n")
	store, err := demoExtract(dir, docs)
	if err != nil {
		return err
	}
	printDemoCorpus(stdout, store)
	ref, refPath, err := demoReference(stdout, dir, store)
	if err != nil {
		return err
	}
	planData, err := demoPlan(stdout, dir, ref)
	if err != nil {
		return err
	}
	lockPath := filepath.Join(dir, demoLockName)
	fmt.Fprintf(stdout, "\n$ citecheck freeze --corpus corpus %s --plan %s --out %s\n", fixtures.EvalReferenceName, fixtures.EvalPlanName, demoLockName)
	fr, err := freeze.Write(freeze.Inputs{LockPath: lockPath, CorpusDir: filepath.Join(dir, "corpus"), ReferencePath: refPath,
		PlanPath: filepath.Join(dir, fixtures.EvalPlanName), Toolchain: e.toolchain()})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	printFrozen(stdout, demoLockName, fr)
	if err := demoGrade(e, dir, planData); err != nil {
		return err
	}
	if err := demoReport(e, dir); err != nil {
		return err
	}
	if err := demoReview(e, dir); err != nil {
		return err
	}
	return demoTamper(e, dir, docs[0].Name)
}

// printDemoCorpus lists the extracted documents: pages, flagged pages and
// hash.
func printDemoCorpus(stdout io.Writer, store *corpus.Store) {
	docs := store.Manifest().Documents
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "document\tpages\tflagged pages\tblake3\n")
	pages := 0
	for _, d := range docs {
		var flagged []string
		for _, p := range d.Pages {
			if len(p.Flags) > 0 {
				flagged = append(flagged, fmt.Sprintf("%d: %s", p.Page, strings.Join(p.Flags, ", ")))
			}
		}
		pages += d.PageCount
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s…\n", d.Name, d.PageCount, strings.Join(flagged, "; "), d.BLAKE3[:19])
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%d documents, %d pages, every one extracted\n", len(docs), pages)
}

// demoReference writes the evaluation's reference into dir and checks its
// spans against the corpus, as "citecheck spans" does. The reference is
// written by its passages' text; its offsets come from the extracted
// pages, as "citecheck spans --fix" would fill them.
func demoReference(stdout io.Writer, dir string, store *corpus.Store) (*spans.Reference, string, error) {
	refData, err := fixtures.EvalReference(func(name string, page int) (string, error) { return corpus.TextOf(store, name, page) })
	if err != nil {
		return nil, "", fmt.Errorf("demo: %w", err)
	}
	refPath := filepath.Join(dir, fixtures.EvalReferenceName)
	if err := os.WriteFile(refPath, refData, 0o644); err != nil {
		return nil, "", err
	}
	ref, err := spans.Decode(refData, fixtures.EvalReferenceName)
	if err != nil {
		return nil, "", fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdout, "\n$ citecheck spans --corpus corpus %s\n", fixtures.EvalReferenceName)
	srep, err := spans.Validate(ref, store, spans.Options{})
	if err != nil {
		return nil, "", fmt.Errorf("demo: %w", err)
	}
	printSpansReport(stdout, srep)
	if srep.HasErrors() {
		return nil, "", errChecksFailed
	}
	return ref, refPath, nil
}

// demoPlan makes the evaluation's plan, writes it into dir and returns its
// bytes, from which the runs are written.
func demoPlan(stdout io.Writer, dir string, ref *spans.Reference) ([]byte, error) {
	fmt.Fprintf(stdout, "\n$ citecheck plan %s --arms %s --repeats %d --seed %d --out %s\n", fixtures.EvalReferenceName,
		strings.Join(fixtures.EvalPlanArms, ","), fixtures.EvalPlanRepeats, fixtures.EvalPlanSeed, fixtures.EvalPlanName)
	p, err := plan.New(ref, plan.Options{Arms: fixtures.EvalPlanArms, Repetitions: fixtures.EvalPlanRepeats, Seed: fixtures.EvalPlanSeed})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	planData := p.Encode()
	if err := os.WriteFile(filepath.Join(dir, fixtures.EvalPlanName), planData, 0o644); err != nil {
		return nil, err
	}
	labels := make([]string, len(p.Sessions))
	for i, s := range p.Sessions {
		labels[i] = s.Label()
	}
	fmt.Fprintf(stdout, "sessions in the declared order: %s; one question order per repetition\n", strings.Join(labels, " "))
	return planData, nil
}

// demoGrade writes the two systems' answers, in their vendors' formats,
// and grades them against the lock.
func demoGrade(e *env, dir string, planData []byte) error {
	stdout := e.stdout
	anthropic, lmstudio, err := fixtures.EvalRuns(planData)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	runNames := []string{fixtures.EvalAnthropicName, fixtures.EvalLMStudioName}
	var runPaths []string
	for i, data := range [][]byte{anthropic, lmstudio} {
		path := filepath.Join(dir, filepath.FromSlash(runNames[i]))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		runPaths = append(runPaths, path)
	}
	fmt.Fprintf(stdout, "\n$ citecheck grade --lock %s --out results %s\n", demoLockName, strings.Join(runNames, " "))
	fail := &failingList{limit: 8}
	sum, err := gradeRuns(stdout, io.Discard, gradeJob{toolchain: e.toolchain, lock: filepath.Join(dir, demoLockName), out: filepath.Join(dir, "results"), format: runs.FormatAuto,
		runs: runPaths, names: runNames, failing: fail})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	writeGradeTable(stdout, sum)
	writeFailing(stdout, sum, fail)
	return nil
}

// demoReport reports the graded results: the table and findings here,
// every result in report/report.html.
func demoReport(e *env, dir string) error {
	stdout := e.stdout
	fmt.Fprintf(stdout, "\n$ citecheck report results --lock %s --out report\n", demoLockName)
	msum, err := makeReport(stdout, reportJob{toolchain: e.toolchain, paths: []string{filepath.Join(dir, "results")}, names: []string{"results"},
		out: filepath.Join(dir, "report"), lock: filepath.Join(dir, demoLockName), thresholds: metrics.DefaultThresholds(), compare: defaultCompare()})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := printReport(stdout, msum); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nreport/report.html shows every result, and each citation on its page.\n")
	return nil
}

// The demo's review: its blinded shuffle's seed, and where its files go.
const (
	demoReviewSeed  = 20261203
	demoItemsName   = "review/items.jsonl"
	demoPageName    = "review/review.html"
	demoDecisions   = "review/decisions.jsonl"
	demoReviewedDir = "report-reviewed"
)

// demoReview lists the items the rules left unresolved, blinded, with the
// page a reviewer works in; takes the reviewer's decisions (the fixture,
// as saved from that page) and reports again with them: the automatic
// figures and those after review side by side.
func demoReview(e *env, dir string) error {
	stdout := e.stdout
	if err := os.MkdirAll(filepath.Join(dir, "review"), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n$ citecheck review --lock %s --blind --seed %d --html %s --out %s results\n", demoLockName, demoReviewSeed, demoPageName, demoItemsName)
	err := listReview(stdout, e.stderr, reviewJob{toolchain: e.toolchain, lock: filepath.Join(dir, demoLockName), paths: []string{filepath.Join(dir, "results")},
		blind: true, seed: demoReviewSeed, out: filepath.Join(dir, filepath.FromSlash(demoItemsName)), outName: demoItemsName,
		html: filepath.Join(dir, filepath.FromSlash(demoPageName)), htmlName: demoPageName})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	decisions := filepath.Join(dir, filepath.FromSlash(demoDecisions))
	if err := os.WriteFile(decisions, fixtures.EvalDecisions(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n$ (a reviewer judges each item in %s and saves %s: %s)\n", demoPageName, demoDecisions, fixtures.EvalDecisionsName)
	fmt.Fprintf(stdout, "$ citecheck report results --lock %s --reviews %s --out %s\n", demoLockName, demoDecisions, demoReviewedDir)
	sum, err := makeReport(stdout, reportJob{toolchain: e.toolchain, paths: []string{filepath.Join(dir, "results")}, names: []string{"results"},
		out: filepath.Join(dir, demoReviewedDir), lock: filepath.Join(dir, demoLockName), thresholds: metrics.DefaultThresholds(), compare: defaultCompare(),
		reviews: []string{decisions}, reviewNames: []string{demoDecisions}})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := printReport(stdout, sum); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s/report.html shows both figures, and the review mode.\n", demoReviewedDir)
	return nil
}

// demoTamper flips one bit of the PDF name in dir/pdfs and verifies the
// lock: nothing may be graded any more. The PDF is restored afterwards.
func demoTamper(e *env, dir, name string) error {
	stdout := e.stdout
	victim := filepath.Join(dir, "pdfs", name)
	orig, err := os.ReadFile(victim)
	if err != nil {
		return err
	}
	bad := bytes.Clone(orig)
	bad[len(bad)/2] ^= 0x01
	if err := os.WriteFile(victim, bad, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n$ (one bit of pdfs/%s flipped) citecheck freeze --verify %s\n", name, demoLockName)
	vr, err := freeze.Check(filepath.Join(dir, demoLockName), e.toolchain())
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	for _, c := range vr.Changes {
		fmt.Fprintf(stdout, "changed: %s\n", clip(c.String(), 110))
	}
	fmt.Fprintf(stdout, "refused: %s; nothing may be graded against this lock (exit status %d)\n", changedInputs(len(vr.Changes)), exitIntegrity)
	if err := os.WriteFile(victim, orig, 0o644); err != nil {
		return err
	}
	if vr.OK() {
		return fmt.Errorf("demo: verify accepted a changed PDF")
	}
	return nil
}

// demoPieces shows the verbs one at a time on the three small fixture
// PDFs: a page with its offsets, quotes located at every level, and an
// audit of a run with no reference. Their reference is written beside
// them for docs/freezing.md's walkthrough.
func demoPieces(stdout io.Writer, dir string) error {
	docs := fixtures.Demo()
	fmt.Fprintf(stdout, "\n== The pieces, on %d small PDFs (in pieces/)\n", len(docs))
	store, err := demoExtract(dir, docs)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, fixtures.ReferenceName), fixtures.Reference(), 0o644); err != nil {
		return err
	}
	doc, _ := store.Manifest().Document("supplier-policy.pdf")
	fmt.Fprintf(stdout, "\n$ citecheck show --corpus corpus --ruler supplier-policy.pdf 2\n")
	text, err := store.Text(doc, 2)
	if err != nil {
		return err
	}
	writeRuler(stdout, text)

	// The fixture files show one case of each status, level and audit
	// class: their "checks failed" outcome is the point, not a failure.
	ix, err := citations.NewIndex(store, citations.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n$ citecheck locate --corpus corpus fixtures/citations/quotes.jsonl\n")
	reqs, err := citations.ReadLocateRequests(bytes.NewReader(fixtures.Quotes()), "fixtures/citations/quotes.jsonl")
	if err != nil {
		return err
	}
	if _, err := writeLocate(stdout, ix, reqs, nil); err != nil {
		return err
	}
	const runName = "fixtures/citations/run.jsonl"
	fmt.Fprintf(stdout, "\n$ citecheck audit --corpus corpus %s\n", runName)
	recs, err := runs.ReadRecords(bytes.NewReader(fixtures.Run()), runName)
	if err != nil {
		return err
	}
	fileOf := make([]string, len(recs))
	for i := range fileOf {
		fileOf[i] = runName
	}
	_, err = writeAudit(stdout, ix, recs, fileOf, false, nil)
	return err
}
