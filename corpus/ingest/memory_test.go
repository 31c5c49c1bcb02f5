package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
)

// TestMemoryRecordsWhatBuildRecords: a Memory of the pages an extractor
// returned describes them as the manifest Build writes does (hashes,
// lengths, labels, flags, the stored files' hashes, a document "ok"
// without pages as "malformed"), and reads back what the Store reads.
func TestMemoryRecordsWhatBuildRecords(t *testing.T) {
	pages := map[string][]corpus.PageText{
		"a.pdf": {
			{Text: "hi there", Boxes: corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}), Alts: []string{"hi therE"}, Label: "i", Flags: []string{"extraction_error"}},
			{Text: "ab cd", Orders: []corpus.Order{{Name: "layout", Text: "cd\nab", Map: []int32{3, 4, -1, 0, 1}}}},
			{Text: " \n", Label: "iii"},
			{Text: "\uFFFD\uFFFD x"},
		},
		"b.pdf": nil,
	}
	extract := func(_ context.Context, name string, _ []byte) corpus.Extraction {
		return corpus.Extraction{Status: corpus.StatusOK, Pages: pages[name]}
	}
	in := t.TempDir()
	var files []string
	for name := range pages {
		files = append(files, filepath.Join(in, name))
		require.NoError(t, os.WriteFile(files[len(files)-1], []byte("%PDF-1.4 "+name), 0o644))
	}
	dir := t.TempDir()
	_, err := Build(context.Background(), dir, files, BuildOptions{Extractor: corpus.ExtractorID{Name: "test", Version: "1"}, Extract: extract})
	require.NoError(t, err)
	st, err := corpus.Open(dir)
	require.NoError(t, err)

	var docs []corpus.MemoryDocument
	for _, d := range st.Documents() {
		docs = append(docs, corpus.MemoryDocument{Name: d.Name, BLAKE3: d.BLAKE3, Pages: pages[d.Name]})
	}
	m, err := corpus.NewMemory(docs...)
	require.NoError(t, err)
	require.Len(t, m.Documents(), len(st.Documents()))
	for i, want := range st.Documents() {
		got := m.Documents()[i]
		want.Source, want.Bytes = "", 0 // of the PDF, which a Memory has not
		assert.Equal(t, want, got, want.Name)
		for p := range want.Pages {
			wt, err := st.Text(&want, p+1)
			require.NoError(t, err)
			gt, err := m.Text(&got, p+1)
			require.NoError(t, err)
			assert.Equal(t, wt, gt, "%s page %d text", want.Name, p+1)
			wa, err := st.AltTexts(&want, p+1)
			require.NoError(t, err)
			ga, err := m.AltTexts(&got, p+1)
			require.NoError(t, err)
			assert.Equal(t, wa, ga, "%s page %d alternatives", want.Name, p+1)
			wo, err := st.OrdersOf(&want, p+1, wt)
			require.NoError(t, err)
			gord, err := m.OrdersOf(&got, p+1, gt)
			require.NoError(t, err)
			assert.Equal(t, wo, gord, "%s page %d orders", want.Name, p+1)
		}
	}
	assert.Equal(t, corpus.StatusMalformed, m.Documents()[1].Status, "ok without pages")
	d, ok := m.Document("a.pdf")
	require.True(t, ok)
	_, err = m.Text(d, 5)
	assert.ErrorContains(t, err, "page 5 out of range 1..4")
	_, ok = m.Document("c.pdf")
	assert.False(t, ok)
}
