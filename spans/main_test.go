package spans_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/pdftext"
)

// TestMain lets the test binary serve as the extraction child, so the
// tests read the text citecheck's real, isolated extractor stores for the
// fixture PDFs.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[len(os.Args)-1] == pdftext.ChildCommand {
		os.Exit(pdftext.ChildMain(os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	if demoDir != "" {
		os.RemoveAll(demoDir)
	}
	os.Exit(code)
}

var (
	demoOnce  sync.Once
	demoDir   string
	demoStore *corpus.Store
	demoErr   error
)

// demoCorpus extracts the fixture PDFs (and one broken PDF, so that a
// document without text exists) into a corpus, once per test binary.
func demoCorpus(t testing.TB) *corpus.Store {
	t.Helper()
	demoOnce.Do(func() {
		demoDir, demoErr = os.MkdirTemp("", "spans-test-")
		if demoErr != nil {
			return
		}
		pdfs := filepath.Join(demoDir, "pdfs")
		if demoErr = os.MkdirAll(pdfs, 0o755); demoErr != nil {
			return
		}
		for _, d := range fixtures.Demo() {
			if demoErr = os.WriteFile(filepath.Join(pdfs, d.Name), d.Data, 0o644); demoErr != nil {
				return
			}
		}
		if demoErr = os.WriteFile(filepath.Join(pdfs, "broken.pdf"), []byte("%PDF-1.7\nnot really\n"), 0o644); demoErr != nil {
			return
		}
		files, err := corpus.Inputs([]string{pdfs})
		if err != nil {
			demoErr = err
			return
		}
		r := &pdftext.Runner{}
		dir := filepath.Join(demoDir, "corpus")
		if _, demoErr = corpus.Build(context.Background(), dir, files, corpus.BuildOptions{Extractor: r.Extractor(), Extract: r.Extract, Jobs: 2}); demoErr != nil {
			return
		}
		demoStore, demoErr = corpus.Open(dir)
		if demoErr == nil {
			if d, _ := demoStore.Manifest().Document("supplier-policy.pdf"); d == nil || d.Status != corpus.StatusOK {
				demoErr = fmt.Errorf("supplier-policy.pdf did not extract")
			}
		}
	})
	if demoErr != nil {
		t.Fatalf("building the fixture corpus: %v", demoErr)
	}
	return demoStore
}
