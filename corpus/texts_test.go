package corpus

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryRecordsWhatBuildRecords: a Memory of the pages an extractor
// returned describes them as the manifest Build writes does (hashes,
// lengths, labels, flags, the stored files' hashes, a document "ok"
// without pages as "malformed"), and reads back what the Store reads.
func TestMemoryRecordsWhatBuildRecords(t *testing.T) {
	pages := map[string][]PageText{
		"a.pdf": {
			{Text: "hi there", Boxes: EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}), Alts: []string{"hi therE"}, Label: "i", Flags: []string{"extraction_error"}},
			{Text: orderPage, Orders: []Order{layoutOrder()}},
			{Text: " \n", Label: "iii"},
			{Text: "\uFFFD\uFFFD x"},
		},
		"b.pdf": nil,
	}
	extract := func(_ context.Context, name string, _ []byte) Extraction {
		return Extraction{Status: StatusOK, Pages: pages[name]}
	}
	in := t.TempDir()
	var files []string
	for name := range pages {
		files = append(files, filepath.Join(in, name))
		require.NoError(t, os.WriteFile(files[len(files)-1], []byte("%PDF-1.4 "+name), 0o644))
	}
	dir := t.TempDir()
	_, err := Build(context.Background(), dir, files, BuildOptions{Extractor: ExtractorID{Name: "test", Version: "1"}, Extract: extract})
	require.NoError(t, err)
	st, err := Open(dir)
	require.NoError(t, err)

	var docs []MemoryDocument
	for _, d := range st.Documents() {
		docs = append(docs, MemoryDocument{Name: d.Name, BLAKE3: d.BLAKE3, Pages: pages[d.Name]})
	}
	m, err := NewMemory(docs...)
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
	assert.Equal(t, StatusMalformed, m.Documents()[1].Status, "ok without pages")
	d, ok := m.Document("a.pdf")
	require.True(t, ok)
	_, err = m.Text(d, 5)
	assert.ErrorContains(t, err, "page 5 out of range 1..4")
	_, ok = m.Document("c.pdf")
	assert.False(t, ok)
}

// TestMemoryOf: plain page strings are documents "ok", identified as
// ImportText identifies them (TextHash), sorted by name; TextOf reads a
// page by the document's name.
func TestMemoryOf(t *testing.T) {
	m, err := MemoryOf(map[string][]string{"b.pdf": {"one", "two"}, "a.pdf": {""}})
	require.NoError(t, err)
	docs := m.Documents()
	require.Len(t, docs, 2)
	assert.Equal(t, "a.pdf", docs[0].Name)
	assert.Equal(t, []string{FlagNoTextLayer}, docs[0].Pages[0].Flags)
	assert.Equal(t, TextHash([]string{"one", "two"}), docs[1].BLAKE3)
	assert.Equal(t, StatusOK, docs[1].Status)
	text, err := TextOf(m, "b.pdf", 2)
	require.NoError(t, err)
	assert.Equal(t, "two", text)
	_, err = TextOf(m, "c.pdf", 1)
	assert.ErrorContains(t, err, `"c.pdf": no such document`)
}

// TestNewMemoryRefuses: what Build would refuse from an extractor, and
// names the corpus cannot hold, are errors naming the document.
func TestNewMemoryRefuses(t *testing.T) {
	page := func(p PageText) []MemoryDocument { return []MemoryDocument{{Name: "a.pdf", Pages: []PageText{p}}} }
	for _, tc := range []struct {
		why  string
		docs []MemoryDocument
		want string
	}{
		{"a name twice", []MemoryDocument{{Name: "a.pdf"}, {Name: "a.pdf"}}, "two documents with the same name"},
		{"no name", []MemoryDocument{{Name: ""}}, "has no name"},
		{"an unknown status", []MemoryDocument{{Name: "a.pdf", Status: "fine"}}, `unknown status "fine"`},
		{"a digest that is none", []MemoryDocument{{Name: "a.pdf", BLAKE3: "blake3:00ff"}}, "bad digest"},
		{"invalid UTF-8", page(PageText{Text: "\xff"}), "invalid UTF-8 on page 1"},
		{"a form feed", page(PageText{Text: "a\fb"}), "a form feed on page 1"},
		{"an alternative of another length", page(PageText{Text: "x \u0338= y", Alts: []string{"x 6 = y"}}), "bad alternative texts on page 1"},
		{"orders that do not fit", page(PageText{Text: "ab", Orders: []Order{{Name: "layout", Text: "abc", Map: []int32{0, 1, 5}}}}), "bad reading orders on page 1"},
	} {
		_, err := NewMemory(tc.docs...)
		assert.ErrorContains(t, err, tc.want, tc.why)
	}
	_, err := NewMemory(MemoryDocument{Name: "a.pdf"}, MemoryDocument{Name: "a.pdf"})
	assert.ErrorIs(t, err, ErrDuplicateName)
}
