package spans_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// TestMain lets the test binary serve as the extraction child, so the
// tests read the text citecheck's real, isolated extractor stores for the
// fixture PDFs.
func TestMain(m *testing.M) { testcorpus.Main(m) }

var (
	demoOnce  sync.Once
	demoStore *corpus.Store
	demoErr   error
)

// demoCorpus extracts the fixture PDFs (and one broken PDF, so that a
// document without text exists) into a corpus, once per test binary.
func demoCorpus(t testing.TB) *corpus.Store {
	t.Helper()
	demoOnce.Do(func() {
		dir, err := testcorpus.TempDir("spans-test-")
		if err != nil {
			demoErr = err
			return
		}
		broken := fixtures.DemoPDF{Name: "broken.pdf", Data: []byte("%PDF-1.7\nnot really\n")}
		cdir, _, err := testcorpus.Build(dir, append(fixtures.Demo(), broken), testcorpus.Options{})
		if err != nil {
			demoErr = err
			return
		}
		demoStore, demoErr = corpus.Open(cdir)
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
