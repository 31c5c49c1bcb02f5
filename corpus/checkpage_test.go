package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCheckPageRefusesAsTheReaders: CheckPage refuses a changed page or
// alternative text with the very error Text and AltTexts give (the CLI's
// exit 3 and its message), and leaves the pages not changed alone.
func TestCheckPageRefusesAsTheReaders(t *testing.T) {

	text := func(s *Store, d *Document) error { _, err := s.Text(d, 1); return err }
	alts := func(s *Store, d *Document) error { _, err := s.AltTexts(d, 1); return err }
	for _, tc := range []struct {
		why    string
		tamper func(t *testing.T, dir string, d *Document)
		read   func(s *Store, d *Document) error
	}{
		{"a page text edited", func(t *testing.T, dir string, d *Document) {
			writeStored(t, dir, stored(t, d, "0001.txt"), "hi thEre")
		}, text},
		{"a page text removed", func(t *testing.T, dir string, d *Document) { removeStored(t, dir, d, "0001.txt") }, text},
		{"an alternative text changed in one byte", func(t *testing.T, dir string, d *Document) {
			writeStored(t, dir, stored(t, d, "0001.alt1.txt"), "hi thErE")
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
		if got := st.CheckPage(d, 1, nil); want == nil || got == nil || got.Error() != want.Error() || !errors.Is(got, ErrIntegrity) {
			t.Errorf("%s: CheckPage of the page changed %v, the reader %v", tc.why, got, want)
		}
		if err := st.CheckPage(d, 2, nil); err != nil {
			t.Errorf("%s: CheckPage of the page not changed: %v", tc.why, err)
		}
	}
}

// TestCheckPage: CheckPage hands over the page's checked text, the
// caller's error as it is, and refuses a page the document lacks.
func TestCheckPage(t *testing.T) {
	st, err := Open(storeWithEveryFile(t))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := st.Manifest().Document("a.pdf")
	var got string
	if err := st.CheckPage(d, 2, func(text []byte) error { got = string(text); return nil }); err != nil || got != "two" {
		t.Errorf("page 2: %q, %v", got, err)
	}
	mine := errors.New("the caller's")
	if err := st.CheckPage(d, 1, func([]byte) error { return mine }); err != mine {
		t.Errorf("the caller's error came back as %v", err)
	}
	for _, p := range []int{0, 3} {
		if err := st.CheckPage(d, p, nil); err == nil || !strings.Contains(err.Error(), "no page") {
			t.Errorf("page %d of 2: %v", p, err)
		}
	}
}

// TestSourcesDigestFromBytes: the digest an opened Store computes from the
// manifest's bytes is SourcesDigest's, whether the bytes are the ones
// encodeManifest wrote (hashed as they are) or the same manifest written
// otherwise (encoded again), and a changed page record changes it.
func TestSourcesDigestFromBytes(t *testing.T) {
	out := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: []PageText{{Text: "alpha one"}, {Text: "alpha two"}}})
	st, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.WriteQuoteIndex("test-index/1", func(w io.Writer) (string, error) { _, err := io.WriteString(w, "index"); return "", err }); err != nil {
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

// BenchmarkCheckPage: checking every stored page text, alternative text
// and reading orders of a store, as a long locate run may check them one
// page at a time, over 2,000 pages in 100 documents (2,000 page texts,
// 1,000 reading orders, 200 alternative texts): the per-file cost, the
// files being small, against the readers Text, AltTexts and CheckOrders.
func BenchmarkCheckPage(b *testing.B) {
	alt := strings.Replace(orderPage, "one", "onE", 1)
	var pages []PageText
	for p := range 20 {
		pt := PageText{Text: orderPage}
		if p%2 == 0 {
			pt.Orders = []Order{layoutOrder()}
		}
		if p%10 == 0 {
			pt.Alts = []string{alt}
		}
		pages = append(pages, pt)
	}
	var docs []MemoryDocument
	for d := range 100 {
		docs = append(docs, MemoryDocument{Name: fmt.Sprintf("doc%03d.pdf", d), Pages: pages})
	}
	dir := storeOf(b, docs...)
	open := func(b *testing.B) *Store {
		st, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	b.Run("CheckPage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := open(b)
			docs := st.Manifest().Documents
			for i := range docs {
				for p := range docs[i].Pages {
					if err := st.CheckPage(&docs[i], p+1, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	// The same through the readers, pages shared among GOMAXPROCS
	// goroutines.
	b.Run("readers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := open(b)
			docs := st.Manifest().Documents
			var next atomic.Int64
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := int(next.Add(1)) - 1; i < len(docs)*20; i = int(next.Add(1)) - 1 {
						d, p := &docs[i/20], i%20+1
						_, err := st.Text(d, p)
						if err == nil {
							_, err = st.AltTexts(d, p)
						}
						if err == nil {
							err = st.CheckOrders(d, p)
						}
						if err != nil {
							b.Error(err)
						}
					}
				}()
			}
			wg.Wait()
		}
	})
}
