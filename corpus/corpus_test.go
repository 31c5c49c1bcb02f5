package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeStored writes content as the file rel (slash-separated) of the
// corpus in dir, in a folder that is there.
func writeStored(t *testing.T, dir, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// storeWithEveryFile makes a corpus of one document, a.pdf, whose page 1
// has every kind of stored file but reading orders: its text "hi there",
// glyph boxes and an alternative text; page 2 has a text only. It returns
// the corpus folder.
func storeWithEveryFile(tb testing.TB) string {
	tb.Helper()
	return storeOf(tb, MemoryDocument{Name: "a.pdf", Pages: []PageText{
		{Text: "hi there", Boxes: EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}), Alts: []string{"hi therE"}},
		{Text: "two", Label: "ii"},
	}})
}

// TestStoreDetectsTampering: every stored file a verb reads (page text,
// alternative text, glyph boxes) is checked against the manifest, and any
// difference, whether in the file or in the manifest, is refused with an
// *IntegrityError (ErrIntegrity; the CLI's exit 3), never another error
// (which the CLI reports as internal, exit 4).
func TestStoreDetectsTampering(t *testing.T) {
	text := func(s *Store, d *Document) error { _, err := s.Text(d, 1); return err }
	alts := func(s *Store, d *Document) error { _, err := s.AltTexts(d, 1); return err }
	boxes := func(s *Store, d *Document) error { _, err := s.Boxes(d, 1); return err }
	tests := []struct {
		why    string
		file   string // the stored file of page 1 refused
		tamper func(t *testing.T, dir string, d *Document)
		read   func(s *Store, d *Document) error
	}{
		{"a page text edited", "0001.txt", func(t *testing.T, dir string, d *Document) {
			writeStored(t, dir, stored(t, d, "0001.txt"), "hi thEre")
		}, text},
		{"a page text removed: the manifest still records it", "0001.txt", func(t *testing.T, dir string, d *Document) {
			removeStored(t, dir, d, "0001.txt")
		}, text},
		{"one byte of an alternative text changed: same length, valid UTF-8, only its hash tells", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			writeStored(t, dir, stored(t, d, "0001.alt1.txt"), "hi thErE")
		}, alts},
		{"an alternative text removed: the manifest still records it", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			removeStored(t, dir, d, "0001.alt1.txt")
		}, alts},
		{"one byte of a boxes.gz changed: the gzip fails its checksum", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			gz := compressBoxes(EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}))
			gz[len(gz)-8] ^= 1 // the trailer's CRC-32
			writeStored(t, dir, stored(t, d, "0001.boxes.gz"), string(gz))
		}, boxes},
		{"a boxes.gz emptied: not gzip at all", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			writeStored(t, dir, stored(t, d, "0001.boxes.gz"), "")
		}, boxes},
		{"a boxes.gz replaced by a valid gzip of other boxes: only the uncompressed hash tells", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			other := compressBoxes(EncodeBoxes([]GlyphBox{{Start: 0, End: 1, X1: 9, Y1: 9}}))
			writeStored(t, dir, stored(t, d, "0001.boxes.gz"), string(other))
		}, boxes},
		{"a boxes.gz removed: the manifest still records it", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			removeStored(t, dir, d, "0001.boxes.gz")
		}, boxes},
		{"the manifest edited: another hash recorded for the alternative text", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			editManifest(t, dir, d.Pages[0].Alts[0], Hash([]byte("hi thErE")))
		}, alts},
		{"the manifest edited: another hash recorded for the glyph boxes", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			editManifest(t, dir, d.Pages[0].Boxes, Hash(EncodeBoxes(nil)))
		}, boxes},
		{"the manifest edited: a page length the alternative text, hashing as recorded, no longer fits", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			editManifest(t, dir, `"chars": 8,`, `"chars": 1,`)
		}, alts},
		{"the manifest edited: a page length the glyph boxes, hashing as recorded, no longer fit", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			editManifest(t, dir, `"chars": 8,`, `"chars": 1,`)
		}, boxes},
	}
	for _, tc := range tests {
		dir := storeWithEveryFile(t)
		st, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := st.Manifest().Document("a.pdf")
		for _, read := range []func(*Store, *Document) error{text, alts, boxes} {
			if err := read(st, d); err != nil {
				t.Fatalf("%s: before tampering: %v", tc.why, err)
			}
		}
		tc.tamper(t, dir, d)
		if st, err = Open(dir); err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		d, _ = st.Manifest().Document("a.pdf")
		err = tc.read(st, d)
		var ie *IntegrityError
		if !errors.Is(err, ErrIntegrity) || !errors.As(err, &ie) || ie.File != stored(t, d, tc.file) {
			t.Errorf("%s: error %v, want an *IntegrityError for %s", tc.why, err, tc.file)
		}
	}
}

// stored returns the path of a stored file of d (name: "0001.txt",
// "0001.alt1.txt", ...) relative to the corpus folder.
func stored(t *testing.T, d *Document, name string) string {
	t.Helper()
	h, err := hashHex(d.BLAKE3)
	if err != nil {
		t.Fatal(err)
	}
	return "text/" + h + "/" + name
}

func removeStored(t *testing.T, dir string, d *Document, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(stored(t, d, name)))); err != nil {
		t.Fatal(err)
	}
}

// editManifest replaces every old in the corpus manifest with new.
func editManifest(t *testing.T, dir, old, new string) {
	t.Helper()
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	writeStored(t, dir, ManifestFile, strings.ReplaceAll(string(b), old, new))
}

func TestOpenRejectsBadManifests(t *testing.T) {
	tests := []struct{ name, manifest string }{
		{"wrong format", `{"format":"citecheck-corpus/0","extractor":{},"documents":[]}`},
		{"unknown field", `{"format":"citecheck-corpus/1","extractor":{},"documents":[],"extra":1}`},
		{"unsorted", `{"format":"citecheck-corpus/1","extractor":{},"documents":[
			{"name":"b","source":"b","bytes":1,"blake3":"blake3:` + strings.Repeat("0", 64) + `","status":"malformed","page_count":0},
			{"name":"a","source":"a","bytes":1,"blake3":"blake3:` + strings.Repeat("0", 64) + `","status":"malformed","page_count":0}]}`},
		{"bad digest", `{"format":"citecheck-corpus/1","extractor":{},"documents":[
			{"name":"a","source":"a","bytes":1,"blake3":"sha256:00","status":"malformed","page_count":0}]}`},
		{"ok without pages", `{"format":"citecheck-corpus/1","extractor":{},"documents":[
			{"name":"a","source":"a","bytes":1,"blake3":"blake3:` + strings.Repeat("0", 64) + `","status":"ok","page_count":0}]}`},
		{"trailing data", `{"format":"citecheck-corpus/1","extractor":{},"documents":[]} {}`},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		writeStored(t, dir, ManifestFile, tc.manifest)
		if _, err := Open(dir); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

func TestHash(t *testing.T) {
	// BLAKE3 of the empty input, from the BLAKE3 reference test vectors.
	if got, want := Hash(nil), "blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"; got != want {
		t.Errorf("Hash(empty) = %s, want %s", got, want)
	}
}

// TestNotCorpusSaysHowToMakeOne: a folder given as a corpus that is not
// one is refused with the command that makes one of what it holds.
func TestNotCorpusSaysHowToMakeOne(t *testing.T) {
	pdfs := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(pdfs, "a.pdf"), []byte("%PDF-1.4"), 0o644))
	empty := t.TempDir()
	for _, tc := range []struct {
		dir, want, why string
	}{
		{pdfs, `it holds 1 PDF file; make a corpus of them first with "citecheck extract --out CORPUS ` + pdfs + `"`, "a folder of PDFs: extract them"},
		{empty, `from PDFs with "citecheck extract --out ` + empty + ` PDF..." or from page texts with "citecheck import-text --out ` + empty + ` DIR"`, "anything else: both ways"},
		{filepath.Join(empty, "nope"), "there is no such folder", "a folder that is not there"},
	} {
		_, err := Open(tc.dir)
		require.ErrorIs(t, err, ErrNotCorpus, tc.why)
		require.Contains(t, err.Error(), tc.want, tc.why)
	}
}
