package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestValidateAlts(t *testing.T) {
	text := "a \u0338= b"
	tests := []struct {
		alts []string
		ok   bool
		why  string
	}{
		{nil, true, "most pages have none"},
		{[]string{"a 6= b"}, true, "one code point replaced by another"},
		{[]string{"a 6= b", "a 6= c"}, true, "two readings"},
		{[]string{"a \u2260= b"}, true, "a code point is one unit whatever its bytes"},
		{[]string{"a = b"}, false, "a shorter text would shift every offset"},
		{[]string{text}, false, "an alternative equal to the text is not stored"},
		{[]string{"a 6= b", "a 6= b"}, false, "the same alternative twice"},
		{[]string{"a\f6= b"}, false, "a form feed separates pages in show"},
		{[]string{"a \xff= b"}, false, "invalid UTF-8"},
		{[]string{"a 1= b", "a 2= b", "a 3= b", "a 4= b", "a 5= b"}, false, "more than MaxAlts"},
	}
	for _, tc := range tests {
		if err := ValidateAlts(tc.alts, text); (err == nil) != tc.ok {
			t.Errorf("%s: ValidateAlts(%q) = %v, want ok %v", tc.why, tc.alts, err, tc.ok)
		}
	}
}

func TestStoreAlts(t *testing.T) {
	pages := []PageText{{Text: "x \u0338= y; z", Alts: []string{"x 6= y; z", "x 6= y; Z"}}, {Text: "no aliases"}}
	dir := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: pages})
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := st.Manifest().Document("a.pdf")
	if got, err := st.AltTexts(doc, 1); err != nil || !slices.Equal(got, pages[0].Alts) {
		t.Fatalf("AltTexts(page 1) = %q, %v", got, err)
	}
	if got, err := st.AltTexts(doc, 2); err != nil || got != nil {
		t.Errorf("AltTexts(page 2) = %q, %v; want none", got, err)
	}
	rel, _ := altFile(doc.BLAKE3, 1, 1)
	os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte("x 7= y; Z"), 0o644)
	if _, err := st.AltTexts(doc, 1); !errors.Is(err, ErrIntegrity) {
		t.Errorf("a changed alternative text: error = %v, want ErrIntegrity", err)
	}
}
