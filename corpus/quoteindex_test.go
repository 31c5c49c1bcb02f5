package corpus

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuoteIndexStored: a stored quote index is recorded in the manifest
// under its hash, bound to the manifest's texts (SourcesDigest, which the
// record itself does not change), replaced atomically, and refused when
// stale, missing, cut short or edited. (What a commit keeps of it:
// TestCommit.)
func TestQuoteIndexStored(t *testing.T) {
	out := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: []PageText{{Text: "alpha one"}, {Text: "alpha two"}}})
	store, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := store.QuoteIndexPath(); ok || err != nil {
		t.Fatalf("a corpus without an index: ok %v, err %v", ok, err)
	}
	digest := store.Manifest().SourcesDigest()
	put := func(content string) *QuoteIndex {
		t.Helper()
		if err := store.WriteQuoteIndex("test-index/1", func(w io.Writer) (string, error) { _, err := io.WriteString(w, content); return "", err }); err != nil {
			t.Fatal(err)
		}
		return store.Manifest().QuoteIndex
	}
	first := put("first index")
	q := put("second index")
	if q.Bytes != int64(len("second index")) || q.BLAKE3 != Hash([]byte("second index")) || q.Sources != digest {
		t.Errorf("record %+v", q)
	}
	reopened, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := reopened.Manifest().SourcesDigest(); got != digest {
		t.Errorf("the index's record changed the sources digest: %s, was %s", got, digest)
	}
	if err := reopened.CheckQuoteIndex(); err != nil {
		t.Errorf("the stored index does not check: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(first.File))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the replaced index file stays: %v", err)
	}
	path := filepath.Join(out, filepath.FromSlash(q.File))
	refused := func(why, want string, check func(*Store) error) {
		t.Helper()
		s, err := Open(out)
		if err == nil {
			err = check(s)
		}
		if !errors.Is(err, ErrQuoteIndex) || !errors.Is(err, ErrIntegrity) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v (want ErrQuoteIndex naming %q)", why, err, want)
		}
	}
	pathErr := func(s *Store) error { _, _, _, err := s.QuoteIndexPath(); return err }
	os.WriteFile(path, []byte("second inde"), 0o644)
	refused("cut short", "12", pathErr)
	os.WriteFile(path, []byte("second indeX"), 0o644)
	refused("edited, its size kept", "hashes to", (*Store).CheckQuoteIndex)
	os.Remove(path)
	refused("missing", "missing", pathErr)
	os.WriteFile(path, []byte("second index"), 0o644)

	// A record naming another file than its hash does not open.
	s, _ := Open(out)
	m := *s.Manifest()
	bad := *q
	bad.File = "quote-index/x.bin"
	m.QuoteIndex = &bad
	b, _ := encodeManifest(&m)
	if _, err := decodeManifest(b, "manifest.json"); err == nil || !strings.Contains(err.Error(), "quote_index") {
		t.Errorf("a record with a wrong file name: %v", err)
	}
}
