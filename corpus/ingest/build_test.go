package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
)

// fakeExtractor returns canned pages keyed by the PDF's bytes and counts its
// calls, so tests can see what Build re-extracts.
type fakeExtractor struct {
	calls atomic.Int32
	pages map[string][]string // by file content
}

func (f *fakeExtractor) extract(_ context.Context, name string, pdf []byte) corpus.Extraction {
	f.calls.Add(1)
	pages, ok := f.pages[string(pdf)]
	if !ok {
		return corpus.Extraction{Status: corpus.StatusMalformed, Error: "not a PDF"}
	}
	var ex corpus.Extraction
	ex.Status = corpus.StatusOK
	for _, p := range pages {
		ex.Pages = append(ex.Pages, corpus.PageText{Text: p})
	}
	return ex
}

var testExtractor = corpus.ExtractorID{Name: "fake", Version: "1", Limits: map[string]int64{"timeout_ms": 1000}}

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
	if got := report.Count(corpus.StatusOK); got != 2 || report.Pages() != 3 {
		t.Fatalf("folders are searched recursively for *.pdf in any case: %+v", report.Results)
	}
	store, err := corpus.Open(out)
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
	oldHash := hexOf(mustDoc(t, out, "a.pdf"))
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

func mustDoc(t *testing.T, dir, name string) *corpus.Document {
	t.Helper()
	s, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := s.Manifest().Document(name)
	if !ok {
		t.Fatalf("%s not in corpus", name)
	}
	return d
}

// hexOf is the name of the folder of d's stored files in "text".
func hexOf(d *corpus.Document) string { return strings.TrimPrefix(d.BLAKE3, "blake3:") }

// pageFile is the path of a page's stored text, relative to the corpus.
func pageFile(d *corpus.Document, page int) string {
	return fmt.Sprintf("text/%s/%04d.txt", hexOf(d), page)
}

// manifestOf reads the manifest of the corpus in dir.
func manifestOf(t *testing.T, dir string) *corpus.Manifest {
	t.Helper()
	st, err := corpus.Open(dir)
	require.NoError(t, err)
	return st.Manifest()
}

func TestBuildRefusesDuplicateNames(t *testing.T) {
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"x/report.pdf": "A", "y/report.pdf": "B", "z/Report.pdf": "C"})
	fx := &fakeExtractor{pages: map[string][]string{"A": {"a"}, "B": {"b"}, "C": {"c"}}}
	_, err := build(t, t.TempDir(), []string{in}, fx)
	if !errors.Is(err, corpus.ErrDuplicateName) {
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
	if _, err := build(t, out, []string{filepath.Join(in, "y")}, fx); !errors.Is(err, corpus.ErrDuplicateName) {
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
	if r := byName["empty-ok.pdf"]; r.Status != corpus.StatusMalformed || !strings.Contains(r.Error, "no pages") {
		t.Errorf("zero pages is never an empty success: %+v", r)
	}
	if r := byName["junk.pdf"]; r.Status != corpus.StatusMalformed {
		t.Errorf("a failed document is recorded with its class: %+v", r)
	}
	scan := mustDoc(t, out, "scan.pdf")
	for _, p := range scan.Pages {
		if !slices.Contains(p.Flags, corpus.FlagNoTextLayer) {
			t.Errorf("page %d without visible text is flagged: %v", p.Page, p.Flags)
		}
	}
	pua := mustDoc(t, out, "pua.pdf")
	if !slices.Contains(pua.Pages[0].Flags, corpus.FlagUnreliableText) || slices.Contains(pua.Pages[1].Flags, corpus.FlagUnreliableText) {
		t.Errorf("unreliable_text marks pages that are mostly U+FFFD or private use: %v / %v", pua.Pages[0].Flags, pua.Pages[1].Flags)
	}
}

func TestBuildRefusesForeignFolder(t *testing.T) {
	out := t.TempDir()
	writeFiles(t, out, map[string]string{"thesis.tex": "precious"})
	in := t.TempDir()
	writeFiles(t, in, map[string]string{"a.pdf": "A"})
	_, err := build(t, out, []string{in}, &fakeExtractor{})
	if !errors.Is(err, corpus.ErrNotCorpus) {
		t.Errorf("got %v, want ErrNotCorpus", err)
	}
}

// TestExtractorBrokeContract: a page the store cannot hold
// (corpus.ValidatePage) is the extractor's bug: its document is recorded
// as a crash, and none of its pages is stored.
func TestExtractorBrokeContract(t *testing.T) {
	bad := map[string]corpus.PageText{
		"ff.pdf":     {Text: "page\fbreak"},
		"utf8.pdf":   {Text: "\xff\xfe"},
		"alt.pdf":    {Text: "x \u0338= y; z", Alts: []string{"x = y"}},
		"orders.pdf": {Text: "ab", Orders: []corpus.Order{{Name: "layout", Text: "ba", Map: []int32{5, 0}}}},
	}
	in := t.TempDir()
	for name := range bad {
		writeFiles(t, in, map[string]string{name: name})
	}
	files, err := Inputs([]string{in})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "c")
	report, err := Build(context.Background(), out, files, BuildOptions{Extractor: testExtractor,
		Extract: func(_ context.Context, name string, _ []byte) corpus.Extraction {
			return corpus.Extraction{Status: corpus.StatusOK, Pages: []corpus.PageText{{Text: "a good page"}, bad[name]}}
		}})
	require.NoError(t, err)
	require.Len(t, report.Results, len(bad))
	for _, r := range report.Results {
		assert.Equal(t, corpus.StatusCrash, r.Status, r.Name)
	}
	_, err = os.Stat(filepath.Join(out, "text"))
	assert.ErrorIs(t, err, fs.ErrNotExist, "no page stored")
}

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
		require.NoError(t, os.Remove(filepath.Join(out, corpus.ManifestFile)))
		require.NoError(t, os.WriteFile(filepath.Join(out, BuildingFile), nil, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(out, "."+corpus.ManifestFile+".tmp-123"), []byte("{"), 0o644))
		return out
	}

	out := killed(t)
	_, err := build(t, out, []string{in}, fx)
	require.NoError(t, err, "the next build starts over")
	st, err := corpus.Open(out)
	require.NoError(t, err)
	require.Len(t, st.Manifest().Documents, 2)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{corpus.ManifestFile, "text"}, names, "the marker and the leftover temporary file are gone")

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
		require.ErrorIs(t, err, corpus.ErrNotCorpus, tc.why)
		after, err := os.ReadDir(out)
		require.NoError(t, err)
		require.Equal(t, len(before), len(after), "%s: nothing removed", tc.why)
	}
}

// TestBuildInterruptedLeavesNoHalfCorpus: a first build that does not
// finish (interrupted here after its first document) takes away what it
// wrote, so that the folder is absent, or empty as it was, and the next
// build into it runs; a build into an existing corpus that does not
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
			Extract: func(c context.Context, name string, pdf []byte) corpus.Extraction {
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
	before, err := os.ReadFile(filepath.Join(out, corpus.ManifestFile))
	require.NoError(t, err)
	fx.pages["D"], fx.pages["E"] = []string{"delta"}, []string{"epsilon"}
	writeFiles(t, in, map[string]string{"d.pdf": "D", "e.pdf": "E"})
	files, err = Inputs([]string{in})
	require.NoError(t, err)
	require.ErrorIs(t, interrupted(out), context.Canceled)
	after, err := os.ReadFile(filepath.Join(out, corpus.ManifestFile))
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	st, err := corpus.Open(out)
	require.NoError(t, err)
	d, _ := st.Manifest().Document("a.pdf")
	text, err := st.Text(d, 1)
	require.NoError(t, err)
	require.Equal(t, "alpha", text)
}

// TestInputsFollowLinks: a folder of symbolic links to PDFs (as a user
// makes to pick files out of a larger tree) is a folder of PDFs; a link to
// a folder is searched, and a link that loops back ends the search.
func TestInputsFollowLinks(t *testing.T) {
	root := t.TempDir()
	store := filepath.Join(root, "store")
	require.NoError(t, os.MkdirAll(filepath.Join(store, "deep"), 0o755))
	for _, f := range []string{"a.pdf", "b.pdf", filepath.Join("deep", "c.pdf")} {
		require.NoError(t, os.WriteFile(filepath.Join(store, f), []byte("%PDF-1.4"), 0o644))
	}
	picked := filepath.Join(root, "picked")
	require.NoError(t, os.MkdirAll(picked, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(store, "a.pdf"), filepath.Join(picked, "a.pdf")))
	require.NoError(t, os.Symlink(filepath.Join(store, "deep"), filepath.Join(picked, "deep")))
	require.NoError(t, os.Symlink(picked, filepath.Join(picked, "loop")))
	files, err := Inputs([]string{picked})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(picked, "a.pdf"), filepath.Join(store, "deep", "c.pdf")}, files)

	require.NoError(t, os.Symlink(filepath.Join(root, "gone.pdf"), filepath.Join(picked, "gone.pdf")))
	_, err = Inputs([]string{picked})
	assert.ErrorContains(t, err, "gone.pdf: a symbolic link to nothing readable")
}
