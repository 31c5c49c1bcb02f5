package corpus

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeExtractor returns canned pages keyed by the PDF's bytes and counts its
// calls, so tests can see what Build re-extracts.
type fakeExtractor struct {
	calls atomic.Int32
	pages map[string][]string // by file content
}

func (f *fakeExtractor) extract(_ context.Context, name string, pdf []byte) Extraction {
	f.calls.Add(1)
	pages, ok := f.pages[string(pdf)]
	if !ok {
		return Extraction{Status: StatusMalformed, Error: "not a PDF"}
	}
	var ex Extraction
	ex.Status = StatusOK
	for _, p := range pages {
		ex.Pages = append(ex.Pages, PageText{Text: p})
	}
	return ex
}

var testExtractor = ExtractorID{Name: "fake", Version: "1", Limits: map[string]int64{"timeout_ms": 1000}}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func build(t *testing.T, out string, paths []string, fx *fakeExtractor) (*Report, error) {
	t.Helper()
	files, err := Inputs(paths)
	if err != nil {
		t.Fatal(err)
	}
	return Build(context.Background(), out, files, BuildOptions{Extractor: testExtractor, Extract: fx.extract, Jobs: 3})
}

func TestBuildStoresPagesAndSkipsUnchanged(t *testing.T) {
	in, out := t.TempDir(), filepath.Join(t.TempDir(), "corpus")
	writeFiles(t, in, map[string]string{"a.pdf": "A", "sub/b.PDF": "B", "notes.txt": "ignored"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"alpha one", "alpha two"}, "B": {"béta"}, "A2": {"changed"}}}
	report, err := build(t, out, []string{in}, fx)
	if err != nil {
		t.Fatal(err)
	}
	if got := report.Count(StatusOK); got != 2 || report.Pages() != 3 {
		t.Fatalf("folders are searched recursively for *.pdf in any case: %+v", report.Results)
	}
	store, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := store.Manifest().Document("b.PDF")
	text, err := store.Text(b, 1)
	if err != nil || text != "béta" {
		t.Fatalf("page text round trip: %q %v", text, err)
	}
	if b.Pages[0].Chars != 4 {
		t.Errorf("chars counts code points: got %d", b.Pages[0].Chars)
	}
	absOut, _ := filepath.Abs(out)
	want, _ := filepath.Rel(absOut, filepath.Join(in, "sub", "b.PDF"))
	if b.Source != filepath.ToSlash(want) || filepath.IsAbs(b.Source) {
		t.Errorf("source is relative to the corpus folder: %q, want %q", b.Source, want)
	}

	// Unchanged: nothing extracted again.
	fx.calls.Store(0)
	report, err = build(t, out, []string{in}, fx)
	if err != nil {
		t.Fatal(err)
	}
	if fx.calls.Load() != 0 || !report.Results[0].Reused {
		t.Errorf("an unchanged PDF is recognised by its hash: %d extractions", fx.calls.Load())
	}

	// Changed bytes: extracted again, old texts removed.
	oldHash, _ := hashHex(mustDoc(t, out, "a.pdf").BLAKE3)
	writeFiles(t, in, map[string]string{"a.pdf": "A2"})
	if _, err := build(t, out, []string{in}, fx); err != nil {
		t.Fatal(err)
	}
	if fx.calls.Load() != 1 {
		t.Errorf("only the changed PDF is extracted: %d calls", fx.calls.Load())
	}
	if d := mustDoc(t, out, "a.pdf"); d.PageCount != 1 {
		t.Errorf("the new version replaces the old: %+v", d)
	}
	if _, err := os.Stat(filepath.Join(out, "text", oldHash)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old version's texts are removed: %v", err)
	}
}

func mustDoc(t *testing.T, dir, name string) *Document {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := s.Manifest().Document(name)
	if !ok {
		t.Fatalf("%s not in corpus", name)
	}
	return d
}

func TestBuildRefusesDuplicateNames(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"x/report.pdf": "A", "y/report.pdf": "B", "z/Report.pdf": "C"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"a"}, "B": {"b"}, "C": {"c"}}}
	_, err := build(t, t.TempDir(), []string{in}, fx)
	if !errors.Is(err, ErrDuplicateName) {
		t.Fatalf("got %v, want ErrDuplicateName", err)
	}
	for _, want := range []string{"x/report.pdf", "y/report.pdf", "z/Report.pdf"} {
		if !strings.Contains(filepath.ToSlash(err.Error()), want) {
			t.Errorf("the error names every clashing path, missing %s: %v", want, err)
		}
	}
	if fx.calls.Load() != 0 {
		t.Error("nothing is extracted before names are checked")
	}

	// A name already in the corpus from another path clashes too.
	out := filepath.Join(t.TempDir(), "c")
	if _, err := build(t, out, []string{filepath.Join(in, "x")}, fx); err != nil {
		t.Fatal(err)
	}
	if _, err := build(t, out, []string{filepath.Join(in, "y")}, fx); !errors.Is(err, ErrDuplicateName) {
		t.Errorf("same name from another folder: got %v", err)
	}
}

func TestBuildOutcomes(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"empty-ok.pdf": "E", "junk.pdf": "J", "scan.pdf": "S", "pua.pdf": "P"})
	fx := &fakeExtractor{pages: map[string][]string{
		"E": {},
		"S": {"", "  \n "},
		"P": {"\ue000\ue001\ue002 ok", "mostly fine text \ufffd"},
	}}
	out := filepath.Join(t.TempDir(), "c")
	report, err := build(t, out, []string{in}, fx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Result{}
	for _, r := range report.Results {
		byName[r.Name] = r
	}
	if r := byName["empty-ok.pdf"]; r.Status != StatusMalformed || !strings.Contains(r.Error, "no pages") {
		t.Errorf("zero pages is never an empty success: %+v", r)
	}
	if r := byName["junk.pdf"]; r.Status != StatusMalformed {
		t.Errorf("a failed document is recorded with its class: %+v", r)
	}
	scan := mustDoc(t, out, "scan.pdf")
	for _, p := range scan.Pages {
		if !slices.Contains(p.Flags, FlagNoTextLayer) {
			t.Errorf("page %d without visible text is flagged: %v", p.Page, p.Flags)
		}
	}
	pua := mustDoc(t, out, "pua.pdf")
	if !slices.Contains(pua.Pages[0].Flags, FlagUnreliableText) || slices.Contains(pua.Pages[1].Flags, FlagUnreliableText) {
		t.Errorf("unreliable_text marks pages that are mostly U+FFFD or private use: %v / %v", pua.Pages[0].Flags, pua.Pages[1].Flags)
	}
}

func TestBuildRefusesForeignFolder(t *testing.T) {
	out := t.TempDir()
	writeFiles(t, out, map[string]string{"thesis.tex": "precious"})
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"a.pdf": "A"})
	_, err := build(t, out, []string{in}, &fakeExtractor{})
	if !errors.Is(err, ErrNotCorpus) {
		t.Errorf("got %v, want ErrNotCorpus", err)
	}
}

func TestExtractorBrokeContract(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"ff.pdf": "F", "bad.pdf": "B"})
	fx := &fakeExtractor{pages: map[string][]string{"F": {"page\fbreak"}, "B": {"\xff\xfe"}}}
	report, err := build(t, filepath.Join(t.TempDir(), "c"), []string{in}, fx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range report.Results {
		if r.Status != StatusCrash {
			t.Errorf("%s: text the store cannot hold (form feed, invalid UTF-8) is an extractor bug: %+v", r.Name, r)
		}
	}
}

// storeWithEveryFile builds a corpus of one document, a.pdf, whose page 1
// has every kind of stored file: its text "hi there", glyph boxes and an
// alternative text; page 2 has a text only. It returns the corpus folder.
func storeWithEveryFile(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	extract := func(_ context.Context, _ string, _ []byte) Extraction {
		return Extraction{Status: StatusOK, Pages: []PageText{{Text: "hi there", Boxes: EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}), Alts: []string{"hi therE"}}, {Text: "two", Label: "ii"}}}
	}
	pdf := filepath.Join(tb.TempDir(), "a.pdf")
	if err := os.WriteFile(pdf, []byte("%PDF-1.4 a"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if _, err := Build(context.Background(), dir, []string{pdf}, BuildOptions{Extractor: ExtractorID{Name: "test", Version: "1"}, Extract: extract}); err != nil {
		tb.Fatal(err)
	}
	return dir
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
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.txt"): "hi thEre"})
		}, text},
		{"a page text removed: the manifest still records it", "0001.txt", func(t *testing.T, dir string, d *Document) {
			removeStored(t, dir, d, "0001.txt")
		}, text},
		{"one byte of an alternative text changed: same length, valid UTF-8, only its hash tells", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.alt1.txt"): "hi thErE"})
		}, alts},
		{"an alternative text removed: the manifest still records it", "0001.alt1.txt", func(t *testing.T, dir string, d *Document) {
			removeStored(t, dir, d, "0001.alt1.txt")
		}, alts},
		{"one byte of a boxes.gz changed: the gzip fails its checksum", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			gz := compressBoxes(EncodeBoxes([]GlyphBox{{Start: 0, End: 2, X1: 1, Y1: 1}}))
			gz[len(gz)-8] ^= 1 // the trailer's CRC-32
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.boxes.gz"): string(gz)})
		}, boxes},
		{"a boxes.gz emptied: not gzip at all", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.boxes.gz"): ""})
		}, boxes},
		{"a boxes.gz replaced by a valid gzip of other boxes: only the uncompressed hash tells", "0001.boxes.gz", func(t *testing.T, dir string, d *Document) {
			other := compressBoxes(EncodeBoxes([]GlyphBox{{Start: 0, End: 1, X1: 9, Y1: 9}}))
			writeFiles(t, dir, map[string]string{stored(t, d, "0001.boxes.gz"): string(other)})
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
	writeFiles(t, dir, map[string]string{ManifestFile: strings.ReplaceAll(string(b), old, new)})
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
		writeFiles(t, dir, map[string]string{ManifestFile: tc.manifest})
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

// TestBuildInterruptedLeavesNoHalfCorpus: a first build that does not
// finish (interrupted here after its first document) takes away what it
// wrote, so that the folder is absent, or empty as it was, and the next
// build into it runs (before, it refused the folder as not a corpus); a
// build into an existing corpus that does not
// TestBuildKilledOutrightStartsOver: a first build killed outright (a
// crash, SIGKILL) cannot take its files away; it leaves page texts, its
// BuildingFile and no manifest, and the next build empties that folder and
// starts over. A folder without the marker, or with anything a build does
// not write, is still refused and left as it is.
func TestBuildKilledOutrightStartsOver(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"a.pdf": "A", "b.pdf": "B"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"alpha"}, "B": {"beta"}}}
	// What a kill between the page texts and the manifest leaves.
	killed := func(t *testing.T) string {
		out := filepath.Join(t.TempDir(), "corpus")
		_, err := build(t, out, []string{in}, fx)
		require.NoError(t, err)
		require.NoError(t, os.Remove(filepath.Join(out, ManifestFile)))
		require.NoError(t, os.WriteFile(filepath.Join(out, BuildingFile), nil, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(out, "."+ManifestFile+".tmp-123"), []byte("{"), 0o644))
		return out
	}

	out := killed(t)
	_, err := build(t, out, []string{in}, fx)
	require.NoError(t, err, "the next build starts over")
	st, err := Open(out)
	require.NoError(t, err)
	require.Len(t, st.Manifest().Documents, 2)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{ManifestFile, "text"}, names, "the marker and the leftover temporary file are gone")

	for _, tc := range []struct {
		why  string
		edit func(out string)
	}{
		{"no marker: someone's folder, not a build's", func(out string) { os.Remove(filepath.Join(out, BuildingFile)) }},
		{"a file no build writes", func(out string) { os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644) }},
	} {
		out := killed(t)
		tc.edit(out)
		before, err := os.ReadDir(out)
		require.NoError(t, err)
		_, err = build(t, out, []string{in}, fx)
		require.ErrorIs(t, err, ErrNotCorpus, tc.why)
		after, err := os.ReadDir(out)
		require.NoError(t, err)
		require.Equal(t, len(before), len(after), "%s: nothing removed", tc.why)
	}
}

// finish leaves that corpus as it was.
func TestBuildInterruptedLeavesNoHalfCorpus(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"a.pdf": "A", "b.pdf": "B", "c.pdf": "C"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"alpha"}, "B": {"beta"}, "C": {"gamma"}}}
	files, err := Inputs([]string{in})
	require.NoError(t, err)
	interrupted := func(out string) error {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var n atomic.Int32
		_, err := Build(ctx, out, files, BuildOptions{Extractor: testExtractor, Jobs: 1,
			Extract: func(c context.Context, name string, pdf []byte) Extraction {
				if n.Add(1) == 2 {
					cancel() // as an interrupt once the first document is stored
				}
				return fx.extract(c, name, pdf)
			}})
		return err
	}
	for _, tc := range []struct {
		why    string
		exists bool
	}{{"a folder the build made", false}, {"an empty folder the user made", true}} {
		out := filepath.Join(t.TempDir(), "corpus")
		if tc.exists {
			require.NoError(t, os.Mkdir(out, 0o755))
		}
		require.ErrorIs(t, interrupted(out), context.Canceled, tc.why)
		entries, err := os.ReadDir(out)
		if tc.exists {
			require.NoError(t, err, tc.why)
			require.Empty(t, entries, tc.why)
		} else {
			require.ErrorIs(t, err, fs.ErrNotExist, tc.why)
		}
		_, err = build(t, out, []string{in}, fx)
		require.NoError(t, err, "%s: the next build runs", tc.why)
	}

	// An existing corpus stays as it was: its manifest and page texts.
	out := filepath.Join(t.TempDir(), "corpus")
	_, err = build(t, out, []string{in}, fx)
	require.NoError(t, err)
	before, err := os.ReadFile(filepath.Join(out, ManifestFile))
	require.NoError(t, err)
	fx.pages["D"], fx.pages["E"] = []string{"delta"}, []string{"epsilon"}
	writeFiles(t, in, map[string]string{"d.pdf": "D", "e.pdf": "E"})
	files, err = Inputs([]string{in})
	require.NoError(t, err)
	require.ErrorIs(t, interrupted(out), context.Canceled)
	after, err := os.ReadFile(filepath.Join(out, ManifestFile))
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	st, err := Open(out)
	require.NoError(t, err)
	d, _ := st.Manifest().Document("a.pdf")
	text, err := st.Text(d, 1)
	require.NoError(t, err)
	require.Equal(t, "alpha", text)
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
