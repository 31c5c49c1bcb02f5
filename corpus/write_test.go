package corpus

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storeOf writes docs into a new corpus folder as a builder writes a
// store (DocWriter.WritePage, then Commit), and returns the folder. Each
// document is recorded as NewMemory records it, its source its name and,
// unless given, its identity the hash of its name.
func storeOf(tb testing.TB, docs ...MemoryDocument) string {
	tb.Helper()
	dir := tb.TempDir()
	m := &Manifest{Format: Format, Extractor: ExtractorID{Name: "test", Version: "1"}}
	for _, md := range docs {
		if md.BLAKE3 == "" {
			md.BLAKE3 = Hash([]byte(md.Name))
		}
		mem, err := NewMemory(md)
		require.NoError(tb, err)
		d := mem.Documents()[0]
		d.Source = md.Name
		w, err := NewDocWriter(dir, d.BLAKE3)
		require.NoError(tb, err)
		for i := range d.Pages {
			pg, err := w.WritePage(i+1, md.Pages[i])
			require.NoError(tb, err)
			require.Equal(tb, d.Pages[i], pg, "%s page %d: WritePage records the page as DescribePage does", d.Name, i+1)
		}
		m.Documents = append(m.Documents, d)
	}
	slices.SortFunc(m.Documents, func(a, b Document) int { return strings.Compare(a.Name, b.Name) })
	require.NoError(tb, Commit(dir, nil, m))
	return dir
}

// TestCopyFrom: a document copied from one store into another has the
// same files, each checked on the way: a changed one is refused.
func TestCopyFrom(t *testing.T) {
	src := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: []PageText{
		{Text: "hi there", Boxes: EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}), Alts: []string{"hi therE"}},
		{Text: orderPage, Orders: []Order{layoutOrder()}},
	}})
	st, err := Open(src)
	require.NoError(t, err)
	d, _ := st.Document("a.pdf")
	dst := t.TempDir()
	w, err := NewDocWriter(dst, d.BLAKE3)
	require.NoError(t, err)
	require.NoError(t, w.CopyFrom(context.Background(), st, d))
	for _, name := range []string{"0001.txt", "0001.boxes.gz", "0001.alt1.txt", "0002.txt", "0002.orders.txt"} {
		want, err := os.ReadFile(filepath.Join(src, stored(t, d, name)))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dst, stored(t, d, name)))
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}

	writeStored(t, src, stored(t, d, "0002.orders.txt"), "citecheck-orders/1\n")
	w, err = NewDocWriter(t.TempDir(), d.BLAKE3)
	require.NoError(t, err)
	var ie *IntegrityError
	require.ErrorAs(t, w.CopyFrom(context.Background(), st, d), &ie)
	assert.Equal(t, stored(t, d, "0002.orders.txt"), ie.File)
}

// TestCommit: a commit keeps the quote index record of the manifest it
// replaces only when that index was built from the same texts, and
// removes the page texts of documents no longer recorded.
func TestCommit(t *testing.T) {
	dir := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: []PageText{{Text: "alpha"}}}, MemoryDocument{Name: "b.pdf", Pages: []PageText{{Text: "beta"}}})
	st, err := Open(dir)
	require.NoError(t, err)
	require.NoError(t, st.WriteQuoteIndex("test-index/1", func(w io.Writer) (string, error) { _, err := io.WriteString(w, "index"); return "", err }))
	old := st.Manifest()
	same := *old
	same.QuoteIndex = nil
	require.NoError(t, Commit(dir, old, &same))
	assert.Equal(t, old.QuoteIndex, same.QuoteIndex, "nothing it was built from changed")

	fewer := same
	fewer.Documents = same.Documents[:1]
	require.NoError(t, Commit(dir, &same, &fewer))
	assert.Nil(t, fewer.QuoteIndex, "another manifest")
	reopened, err := Open(dir)
	require.NoError(t, err)
	assert.Nil(t, reopened.Manifest().QuoteIndex)
	_, err = os.Stat(filepath.Join(dir, "text", strings.TrimPrefix(same.Documents[1].BLAKE3, "blake3:")))
	assert.ErrorIs(t, err, fs.ErrNotExist, "the texts of a document no longer recorded")
	_, err = os.Stat(filepath.Join(dir, stored(t, &fewer.Documents[0], "0001.txt")))
	assert.NoError(t, err, "the texts of a document still recorded")
}

// TestDocWriterInPlaceOnlyInItsOwnFolder: a document's files go in place
// into a folder the writer made, which no manifest can name yet, and
// through a rename into one that was there, so that a reader of the old
// file (a manifest's) keeps reading it whole; a path outside the folder is
// refused.
func TestDocWriterInPlaceOnlyInItsOwnFolder(t *testing.T) {
	dir := t.TempDir()
	hash := Hash([]byte("doc"))
	rel, err := pageFile(hash, 1)
	require.NoError(t, err)

	w, err := NewDocWriter(dir, hash)
	require.NoError(t, err)
	require.NoError(t, w.write(rel, []byte("first")))
	require.True(t, w.made, "the folder was not there: written in place")
	b, err := os.ReadFile(filepath.Join(dir, rel))
	require.NoError(t, err)
	require.Equal(t, "first", string(b))

	old, err := os.Open(filepath.Join(dir, rel))
	require.NoError(t, err)
	defer old.Close()
	w, err = NewDocWriter(dir, hash)
	require.NoError(t, err)
	require.NoError(t, w.write(rel, []byte("second, longer")))
	require.False(t, w.made, "the folder was there")
	kept, err := io.ReadAll(old)
	require.NoError(t, err)
	require.Equal(t, "first", string(kept), "a reader of the old file reads it whole: the new one was renamed over it")
	b, err = os.ReadFile(filepath.Join(dir, rel))
	require.NoError(t, err)
	require.Equal(t, "second, longer", string(b))

	other, err := pageFile(Hash([]byte("other")), 1)
	require.NoError(t, err)
	require.Error(t, w.write(other, []byte("x")), "another document's folder")
}

// TestCopyFromKnowsEveryPageField: CopyFrom copies the files storedFiles
// lists, which the manifest's page fields record. A new page field may
// name a new kind of stored file: list it in storedFiles (and here), or
// copied documents (merged shards) lose it.
func TestCopyFromKnowsEveryPageField(t *testing.T) {
	known := map[string]string{
		"page": "a number", "chars": "a length", "label": "text", "flags": "text", "warnings": "text",
		"blake3": "the page text, copied", "boxes": "glyph boxes, copied", "alts": "alternative texts, copied",
		"orders": "reading orders, copied",
	}
	pt := reflect.TypeFor[Page]()
	for i := range pt.NumField() {
		name, _, _ := strings.Cut(pt.Field(i).Tag.Get("json"), ",")
		_, ok := known[name]
		assert.True(t, ok, "manifest page field %q: if it records a stored file, copy it in storedFiles", name)
	}
}
