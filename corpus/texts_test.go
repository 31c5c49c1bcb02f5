package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
