package runs_test

import (
	"sync"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

var (
	demoOnce sync.Once
	demoIx   *citations.Index
)

// testIndex indexes the demo corpus once for all tests: what the adapters'
// citations are audited against.
func testIndex(t testing.TB) *citations.Index {
	t.Helper()
	demoOnce.Do(func() {
		m, err := corpus.NewMemory(testcorpus.DemoDocuments()...)
		if err != nil {
			panic(err)
		}
		ix, err := citations.Build(m, citations.Options{})
		if err != nil {
			panic(err)
		}
		demoIx = ix
	})
	return demoIx
}

func ptr[T any](v T) *T { return &v }
