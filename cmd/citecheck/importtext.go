package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
)

const importTextAbout = `
Make or update the corpus folder CORPUS from page texts that need no
extraction: the output of OCR on scanned PDFs, or text you already trust.
Each DIR holds one folder per document, named as the document is to be
cited, holding its pages 0001.txt, 0002.txt, ... (the 1-based page number
in exactly four digits), UTF-8, kept byte for byte:

  pages/supplier-qa.pdf/0001.txt
  pages/supplier-qa.pdf/0002.txt
  pages/price-list.pdf/0001.txt

  citecheck import-text --out corpus pages

A document's identity is the BLAKE3 of its pages in order, each followed by
a form feed; its source in the manifest is "text:" and its folder's path
relative to CORPUS, which "citecheck freeze" pins and re-hashes. Importing
the same folders again changes nothing; a folder whose pages changed
replaces its document; documents not named stay. A corpus holds PDFs
("citecheck extract") or page texts, never both.

Refused with exit status 2, naming the file, and nothing written: a page
that is not valid UTF-8 (with the byte offset) or holds a form feed; pages
not numbered 0001 to N without a gap (a missing page, 0000, another file
name, an empty folder); a file directly in DIR; a document name given by two
DIRs or already in CORPUS from another folder; a CORPUS made from PDFs.

Exit status: 0 imported (or unchanged); 2 bad usage or refused, as above.`

func runImportText(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "import-text", "import-text --out CORPUS [--json] DIR...", importTextAbout)
	out := fs.String("out", "", "corpus `folder` to create or update (required)")
	asJSON := fs.Bool("json", false, "print the per-document results as JSON instead of a table")
	dirs, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("import-text: --out CORPUS is required")
	}
	if len(dirs) == 0 {
		return usageErrorf("import-text: no folder of page texts given")
	}
	if err := checkOutCorpus("import-text", *out); err != nil {
		return err
	}
	report, err := ingest.ImportText(*out, dirs, ingest.ImportOptions{})
	if err != nil {
		return fmt.Errorf("import-text: %w", err)
	}
	if err := storeIndex("import-text", *out); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, struct {
			Results []ingest.Result `json:"results"`
		}{report.Results})
	}
	store, err := corpus.Open(*out)
	if err != nil {
		return fmt.Errorf("import-text: %w", err)
	}
	printImportReport(stdout, *out, report, store.Manifest())
	return nil
}

// printImportReport prints each imported document with its identity, then
// a summary line.
func printImportReport(w io.Writer, dir string, r *ingest.Report, m *corpus.Manifest) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "document\tstate\tpages\tbytes\tblake3\n")
	unchanged := 0
	for _, res := range r.Results {
		d, ok := m.Document(res.Name)
		if !ok {
			continue
		}
		state := "imported"
		if res.Reused {
			state = "unchanged"
			unchanged++
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", d.Name, state, d.PageCount, d.Bytes, d.BLAKE3)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s: %s, %s (%d unchanged); the corpus holds %s\n", dir,
		countOf(len(r.Results), "document"), countOf(r.Pages(), "page"), unchanged, countOf(len(m.Documents), "document"))
}
