package runs_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
)

// demoSources are the demo PDFs' page texts as extraction stores them
// (fixtures.Demo lists the lines each page draws; the extractor joins them
// with line breaks).
func demoSources() []citations.Source {
	var out []citations.Source
	for _, d := range fixtures.Demo() {
		s := citations.Source{Name: d.Name, BLAKE3: corpus.Hash(d.Data)}
		for _, lines := range d.Pages {
			s.Pages = append(s.Pages, citations.SourcePage{Text: strings.Join(lines, "\n")})
		}
		out = append(out, s)
	}
	return out
}

var (
	demoOnce sync.Once
	demoIx   *citations.Index
)

// testIndex indexes the demo corpus once for all tests: what the adapters'
// citations are audited against.
func testIndex(t testing.TB) *citations.Index {
	t.Helper()
	demoOnce.Do(func() {
		ix, err := citations.Build(demoSources(), citations.Options{})
		if err != nil {
			panic(err)
		}
		demoIx = ix
	})
	return demoIx
}

func ptr[T any](v T) *T { return &v }
