package testcorpus_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// The test binary is pdftext's extraction child too: Build re-executes it.
func TestMain(m *testing.M) { testcorpus.Main(m) }

// TestBuildExtractsThroughTheChild: Build writes the fixture PDFs and
// extracts every one with the isolated extractor (the test binary serving
// as the child), through the Extract wrapper when one is given, into a
// corpus that opens and holds their text.
func TestBuildExtractsThroughTheChild(t *testing.T) {
	pdfs := fixtures.Demo()
	var wrapped atomic.Int64
	dir, rep, err := testcorpus.Build(t.TempDir(), pdfs, testcorpus.Options{
		Extract: func(next ingest.ExtractFunc) ingest.ExtractFunc {
			return func(ctx context.Context, name string, pdf []byte) corpus.Extraction {
				wrapped.Add(1)
				return next(ctx, name, pdf)
			}
		},
	})
	require.NoError(t, err)
	assert.Equal(t, len(pdfs), rep.Count(corpus.StatusOK), "every fixture PDF extracted")
	assert.Equal(t, int64(len(pdfs)), wrapped.Load(), "the wrapper saw every PDF")
	store, err := corpus.Open(dir)
	require.NoError(t, err)
	d, ok := store.Manifest().Lookup(pdfs[0].Name)
	require.True(t, ok, "%s is in the corpus", pdfs[0].Name)
	text, err := store.Text(d, 1)
	require.NoError(t, err)
	assert.NotEmpty(t, text, "page 1 has text")
}

// TestImportKeepsPagesInOrder: Import stores each document's pages in the
// order given, byte for byte, and remove deletes the folder.
func TestImportKeepsPagesInOrder(t *testing.T) {
	store, remove, err := testcorpus.Import(map[string][]string{
		"a.pdf": {"first page", "second page"},
		"b.pdf": {"only page"},
	})
	require.NoError(t, err)
	for name, pages := range map[string][]string{"a.pdf": {"first page", "second page"}, "b.pdf": {"only page"}} {
		d, ok := store.Manifest().Lookup(name)
		require.True(t, ok, name)
		for i, want := range pages {
			got, err := store.Text(d, i+1)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%s page %d", name, i+1)
		}
	}
	root := filepath.Dir(store.Dir())
	remove()
	_, err = os.Stat(root)
	assert.True(t, os.IsNotExist(err), "remove deletes %s", root)
}

// TestTempDirOutlivesTheTest: a TempDir folder exists after the test that
// made it (Main removes it when the binary ends).
func TestTempDirOutlivesTheTest(t *testing.T) {
	d, err := testcorpus.TempDir("testcorpus-test-")
	require.NoError(t, err)
	fi, err := os.Stat(d)
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
}

// TestDemoDocumentsAreWhatExtractionStores: DemoDocuments hold, per
// fixture PDF, the identity and page texts the extractor stores for it, so
// offsets into them are a store's; Memory makes them a corpus.Texts.
func TestDemoDocumentsAreWhatExtractionStores(t *testing.T) {
	dir, _, err := testcorpus.Build(t.TempDir(), fixtures.Demo(), testcorpus.Options{})
	require.NoError(t, err)
	store, err := corpus.Open(dir)
	require.NoError(t, err)
	docs := testcorpus.DemoDocuments()
	m := testcorpus.Memory(t, docs)
	require.Len(t, m.Documents(), len(docs))
	for _, md := range docs {
		d, ok := store.Document(md.Name)
		require.True(t, ok, md.Name)
		assert.Equal(t, d.BLAKE3, md.BLAKE3, md.Name)
		require.Len(t, md.Pages, len(d.Pages), md.Name)
		for p, pt := range md.Pages {
			text, err := store.Text(d, p+1)
			require.NoError(t, err)
			assert.Equal(t, text, pt.Text, "%s page %d", md.Name, p+1)
		}
	}
}
