package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/pdftext"
)

func runDemo(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "demo", "demo [--out DIR]", `
Run the pipeline on the fixture PDFs this program generates: write them to
DIR/pdfs, extract them into the corpus DIR/corpus in isolated child
processes, and print what was found; then locate the example quotes of
fixtures/citations/quotes.jsonl and audit the example run
fixtures/citations/run.jsonl against it. Without --out, a temporary folder is
used and removed afterwards. The output is the same on every run.`)
	out := fs.String("out", "", "keep the PDFs and the corpus in `folder`")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("demo: unexpected arguments %q", rest)
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
		return err
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
	return nil
}
