package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCheckStored: CheckStored hands each page's checked text to its
// caller, once per page, and refuses a changed page or alternative text
// with the very error Text and AltTexts give (the CLI's exit 3 and its
// message), and the caller's own error as it is.
func TestCheckStored(t *testing.T) {
	dir := storeWithEveryFile(t)
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]string{}
	if err := st.CheckStored(func(d *Document, p int, text []byte) error {
		mu.Lock()
		defer mu.Unlock()
		seen[fmt.Sprintf("%s/%d", d.Name, p)] = string(text)
		return nil
	}); err != nil {
		t.Fatalf("an untouched store: %v", err)
	}
	if want := map[string]string{"a.pdf/1": "hi there", "a.pdf/2": "two"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("texts handed over %v, want %v", seen, want)
	}
	mine := errors.New("the caller's")
	if err := st.CheckStored(func(*Document, int, []byte) error { return mine }); err != mine {
		t.Errorf("the caller's error came back as %v", err)
	}

	text := func(s *Store, d *Document) error { _, err := s.Text(d, 1); return err }
	alts := func(s *Store, d *Document) error { _, err := s.AltTexts(d, 1); return err }
	for _, tc := range []struct {
		why    string
		tamper func(t *testing.T, dir string, d *Document)
		read   func(s *Store, d *Document) error
	}{
		{"a page text edited", func(t *testing.T, dir string, d *Document) {
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.txt"): "hi thEre"})
		}, text},
		{"a page text removed", func(t *testing.T, dir string, d *Document) { removeStored(t, dir, d, "0001.txt") }, text},
		{"an alternative text changed in one byte", func(t *testing.T, dir string, d *Document) {
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.alt1.txt"): "hi thErE"})
		}, alts},
		{"an alternative text removed", func(t *testing.T, dir string, d *Document) { removeStored(t, dir, d, "0001.alt1.txt") }, alts},
		{"a page length the alternative text, hashing as recorded, no longer fits", func(t *testing.T, dir string, d *Document) {
			editManifest(t, dir, `"chars": 8,`, `"chars": 1,`)
		}, alts},
	} {
		dir := storeWithEveryFile(t)
		st, _ := Open(dir)
		d, _ := st.Manifest().Document("a.pdf")
		tc.tamper(t, dir, d)
		st, err := Open(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		d, _ = st.Manifest().Document("a.pdf")
		want := tc.read(st, d)
		got := st.CheckStored(func(*Document, int, []byte) error { return nil })
		if want == nil || got == nil || got.Error() != want.Error() || !errors.Is(got, ErrIntegrity) {
			t.Errorf("%s: CheckStored %v, the reader %v", tc.why, got, want)
		}
	}
}

// TestSourcesDigestFromBytes: the digest an opened Store computes from the
// manifest's bytes is SourcesDigest's, whether the bytes are the ones
// encodeManifest wrote (hashed as they are) or the same manifest written
// otherwise (encoded again), and a changed page record changes it.
func TestSourcesDigestFromBytes(t *testing.T) {
	in, out := t.TempDir(), filepath.Join(t.TempDir(), "corpus")
	writeFiles(t, in, map[string]string{"a.pdf": "A"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"alpha one", "alpha two"}}}
	if _, err := build(t, out, []string{in}, fx); err != nil {
		t.Fatal(err)
	}
	st, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.WriteQuoteIndex("test-index/1", func(w io.Writer) error { _, err := io.WriteString(w, "index"); return err }); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, ManifestFile)
	canonical, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := decodeManifest(canonical, path)
	if err != nil {
		t.Fatal(err)
	}
	want := m.SourcesDigest()
	if got := m.sourcesDigestOf(canonical); got != want || m.QuoteIndex.Sources != want {
		t.Errorf("from the stored bytes %s, encoded again %s, recorded %s", got, want, m.QuoteIndex.Sources)
	}
	compact, _ := json.Marshal(m) // the same manifest, other bytes
	if got := m.sourcesDigestOf(compact); got != want {
		t.Errorf("from compact bytes %s, want %s", got, want)
	}
	editManifest(t, out, `"chars": 9`, `"chars": 8`) // both pages: the index is now stale
	changed, _ := os.ReadFile(path)
	m2, err := decodeManifest(changed, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := m2.sourcesDigestOf(changed); got != m2.SourcesDigest() || got == want {
		t.Errorf("a changed manifest: %s, encoded again %s, before %s", got, m2.SourcesDigest(), want)
	}
}
