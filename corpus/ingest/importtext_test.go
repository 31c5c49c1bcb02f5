package ingest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/blake3"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/shareddata"
)

// writeTree writes files under root; a key ending in "/" makes an empty
// folder.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFiles(t, root, map[string]string{name: content})
	}
}

// independentHash computes a text document's identity from its definition
// in the package doc, without the package's code: BLAKE3-256 over each page
// followed by one form feed.
func independentHash(pages ...string) string {
	var b bytes.Buffer
	for _, p := range pages {
		b.WriteString(p)
		b.WriteByte('\f')
	}
	sum := blake3.Sum256(b.Bytes())
	return "blake3:" + hex.EncodeToString(sum[:])
}

func inputsUnder(root string, rel ...string) []string {
	var out []string
	for _, r := range rel {
		out = append(out, filepath.Join(root, filepath.FromSlash(r)))
	}
	return out
}

// snapshot returns every file under dir by its slash-separated path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return files
	}
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestImportTextRefuses(t *testing.T) {
	good := map[string]string{"ok/a.pdf/0001.txt": "page one\n", "ok/a.pdf/0002.txt": "page two\n"}
	tests := []struct {
		name   string
		reason string
		files  map[string]string // under the test's root, besides good
		setup  func(t *testing.T, root, out string)
		inputs []string // relative to root
		opts   ImportOptions
		is     error
		file   string // relative to root ("out" for the corpus folder)
		offset int64
	}{
		{name: "invalid UTF-8",
			reason: "stored texts are valid UTF-8; the first bad byte is named",
			files:  map[string]string{"in/doc.pdf/0001.txt": "fine\n", "in/doc.pdf/0002.txt": "abc\xffdef"},
			inputs: []string{"in"}, is: ErrInvalidUTF8Page, file: "in/doc.pdf/0002.txt", offset: 3},
		{name: "truncated UTF-8 sequence",
			reason: "a multi-byte character cut at the end of the file is invalid at its first byte",
			files:  map[string]string{"in/doc.pdf/0001.txt": "caf\xc3"},
			inputs: []string{"in"}, is: ErrInvalidUTF8Page, file: "in/doc.pdf/0001.txt", offset: 3},
		{name: "encoded surrogate",
			reason: "UTF-8 of a UTF-16 surrogate (CESU-8) is not UTF-8",
			files:  map[string]string{"in/doc.pdf/0001.txt": "é \xed\xa0\x80"},
			inputs: []string{"in"}, is: ErrInvalidUTF8Page, file: "in/doc.pdf/0001.txt", offset: 3},
		{name: "form feed",
			reason: "show separates pages with a form feed and the identity ends each page with one",
			files:  map[string]string{"in/doc.pdf/0001.txt": "a\fb"},
			inputs: []string{"in"}, is: ErrFormFeedPage, file: "in/doc.pdf/0001.txt", offset: 1},
		{name: "gap",
			reason: "pages run 0001..N with none missing; the missing file is named",
			files:  map[string]string{"in/doc.pdf/0001.txt": "1", "in/doc.pdf/0003.txt": "3"},
			inputs: []string{"in"}, is: ErrPageGap, file: "in/doc.pdf/0002.txt", offset: -1},
		{name: "first page missing",
			reason: "a document starts at page 0001",
			files:  map[string]string{"in/doc.pdf/0002.txt": "2"},
			inputs: []string{"in"}, is: ErrPageGap, file: "in/doc.pdf/0001.txt", offset: -1},
		{name: "page 0000",
			reason: "pages are 1-based: a 0-based export would shift every page",
			files:  map[string]string{"in/doc.pdf/0000.txt": "0", "in/doc.pdf/0001.txt": "1"},
			inputs: []string{"in"}, is: ErrPageGap, file: "in/doc.pdf/0000.txt", offset: -1},
		{name: "empty document folder",
			reason: "zero pages is never an empty success",
			files:  map[string]string{"in/doc.pdf/": ""},
			inputs: []string{"in"}, is: ErrPageGap, file: "in/doc.pdf", offset: -1},
		{name: "page number without padding",
			reason: "exactly four digits: 1.txt would sort after 10.txt",
			files:  map[string]string{"in/doc.pdf/1.txt": "1"},
			inputs: []string{"in"}, is: ErrPageName, file: "in/doc.pdf/1.txt", offset: -1},
		{name: "five digits",
			reason: "exactly four digits",
			files:  map[string]string{"in/doc.pdf/00001.txt": "1"},
			inputs: []string{"in"}, is: ErrPageName, file: "in/doc.pdf/00001.txt", offset: -1},
		{name: "other extension",
			reason: "only .txt pages; nothing is skipped silently",
			files:  map[string]string{"in/doc.pdf/0001.txt": "1", "in/doc.pdf/0002.md": "2"},
			inputs: []string{"in"}, is: ErrPageName, file: "in/doc.pdf/0002.md", offset: -1},
		{name: "stray file",
			reason: "a document folder holds only its pages",
			files:  map[string]string{"in/doc.pdf/0001.txt": "1", "in/doc.pdf/notes.txt": "n"},
			inputs: []string{"in"}, is: ErrPageName, file: "in/doc.pdf/notes.txt", offset: -1},
		{name: "page named folder",
			reason: "a page is a regular file",
			files:  map[string]string{"in/doc.pdf/0001.txt/": ""},
			inputs: []string{"in"}, is: ErrPageName, file: "in/doc.pdf/0001.txt", offset: -1},
		{name: "file directly in DIR",
			reason: "DIR holds one folder per document, nothing else",
			files:  map[string]string{"in/doc.pdf/0001.txt": "1", "in/README": "r"},
			inputs: []string{"in"}, is: ErrNotTextFolder, file: "in/README", offset: -1},
		{name: "a document folder given as DIR",
			reason: "its pages are files directly in DIR",
			files:  map[string]string{"in/doc.pdf/0001.txt": "1"},
			inputs: []string{"in/doc.pdf"}, is: ErrNotTextFolder, file: "in/doc.pdf/0001.txt", offset: -1},
		{name: "empty DIR",
			reason: "an input with no document is a mistake, not an empty corpus",
			files:  map[string]string{"in/": ""},
			inputs: []string{"in"}, is: ErrNotTextFolder, file: "in", offset: -1},
		{name: "DIR is a file",
			reason: "inputs are folders",
			files:  map[string]string{"in.txt": "x"},
			inputs: []string{"in.txt"}, is: ErrNotTextFolder, file: "in.txt", offset: -1},
		{name: "DIR missing",
			reason: "an unreadable input is named",
			inputs: []string{"absent"}, is: fs.ErrNotExist, file: "absent", offset: -1},
		{name: "page too large",
			reason: "a page file over the cap is refused unread",
			files:  map[string]string{"in/doc.pdf/0001.txt": "12345"},
			inputs: []string{"in"}, opts: ImportOptions{MaxPageBytes: 4}, is: ErrPageTooLarge, file: "in/doc.pdf/0001.txt", offset: -1},
		{name: "name clash across DIRs",
			reason: "names are unique in a corpus; the later folder is named",
			files:  map[string]string{"a/doc.pdf/0001.txt": "1", "b/doc.pdf/0001.txt": "2"},
			inputs: []string{"a", "b"}, is: corpus.ErrDuplicateName, file: "b/doc.pdf", offset: -1},
		{name: "name clash ignoring case",
			reason: "a reference naming doc.pdf must not silently match DOC.pdf",
			files:  map[string]string{"a/DOC.pdf/0001.txt": "1", "b/doc.pdf/0001.txt": "2"},
			inputs: []string{"a", "b"}, is: corpus.ErrDuplicateName, file: "b/doc.pdf", offset: -1},
		{name: "name clash with the corpus",
			reason: "a name already in the corpus from another folder",
			files:  map[string]string{"b/a.pdf/0001.txt": "other"},
			setup: func(t *testing.T, root, out string) {
				if _, err := ImportText(out, inputsUnder(root, "ok"), ImportOptions{}); err != nil {
					t.Fatal(err)
				}
			},
			inputs: []string{"b"}, is: corpus.ErrDuplicateName, file: "b/a.pdf", offset: -1},
		{name: "PDF corpus as --out",
			reason: "a corpus is built from PDFs or from text, never mixed",
			setup: func(t *testing.T, root, out string) {
				writeFiles(t, root, map[string]string{"pdfs/x.pdf": "X"})
				fx := &fakeExtractor{pages: map[string][]string{"X": {"x"}}}
				if _, err := build(t, out, []string{filepath.Join(root, "pdfs")}, fx); err != nil {
					t.Fatal(err)
				}
			},
			inputs: []string{"ok"}, is: corpus.ErrMixedCorpus, file: "out/manifest.json", offset: -1},
		{name: "foreign folder as --out",
			reason: "a non-empty folder without a manifest is not written into",
			setup: func(t *testing.T, root, out string) {
				writeFiles(t, out, map[string]string{"thesis.tex": "precious"})
			},
			inputs: []string{"ok"}, is: corpus.ErrNotCorpus, file: "out", offset: -1},
		{name: "the first fault in name order",
			reason: "a fault in a later document does not hide an earlier one, and nothing is written",
			files:  map[string]string{"in/b.pdf/0001.txt": "\xff", "in/a.pdf/0002.txt": "gap"},
			inputs: []string{"in"}, is: ErrPageGap, file: "in/a.pdf/0001.txt", offset: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(root, "out")
			writeTree(t, root, good)
			writeTree(t, root, tc.files)
			if tc.setup != nil {
				tc.setup(t, root, out)
			}
			before := snapshot(t, out)
			_, err := ImportText(out, inputsUnder(root, tc.inputs...), tc.opts)
			var ie *ImportError
			if !errors.As(err, &ie) || !errors.Is(err, tc.is) {
				t.Fatalf("%s: got %v, want an *ImportError wrapping %v", tc.reason, err, tc.is)
			}
			if got := filepath.ToSlash(strings.TrimPrefix(ie.File, root+string(filepath.Separator))); got != tc.file {
				t.Errorf("%s: the error names %s, want %s (%v)", tc.reason, got, tc.file, err)
			}
			if ie.Offset != tc.offset {
				t.Errorf("%s: offset %d, want %d (%v)", tc.reason, ie.Offset, tc.offset, err)
			}
			if !strings.HasPrefix(err.Error(), ie.File+": ") {
				t.Errorf("the message starts with the file: %v", err)
			}
			if tc.offset >= 0 && !strings.Contains(err.Error(), fmt.Sprintf(": byte %d: ", tc.offset)) {
				t.Errorf("the message gives the byte offset: %v", err)
			}
			if after := snapshot(t, out); !maps(before, after) {
				t.Errorf("a refused import changed the corpus folder: %d files before, %d after", len(before), len(after))
			}
		})
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestImportTextRoundTrip(t *testing.T) {
	root := t.TempDir()
	pages := map[string][]string{
		"scan.pdf":  {"\ufeffFirst page, with a BOM.\r\nCRLF kept.\r\n", "", "  \n", "Ünïcödé: ﬁ “quotes” — 𝔘 \x00 end"},
		"other.pdf": {"\ue000\ue001\ue002 ok"},
	}
	for name, ps := range pages {
		for i, p := range ps {
			writeFiles(t, root, map[string]string{fmt.Sprintf("in/%s/%04d.txt", name, i+1): p})
		}
	}
	out := filepath.Join(root, "corpora", "c")
	report, err := ImportText(out, []string{filepath.Join(root, "in")}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	require.Len(t, report.Results, 2)
	require.Equal(t, "other.pdf", report.Results[0].Name, "the report is sorted by name")
	require.Equal(t, []int{5, 2}, []int{report.Pages(), report.Count(corpus.StatusOK)}, "pages, documents ok")
	store, err := corpus.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	m := store.Manifest()
	if !m.Extractor.Equal(corpus.TextExtractorID()) || m.Extractor.Limits == nil {
		t.Errorf("extractor %+v, want %+v", m.Extractor, corpus.TextExtractorID())
	}
	raw, _ := os.ReadFile(filepath.Join(out, corpus.ManifestFile))
	if !bytes.Contains(raw, []byte(`"name": "citecheck-import-text",`)) || !bytes.Contains(raw, []byte(`"limits": {}`)) {
		t.Errorf("manifest extractor:\n%s", raw)
	}
	for name, ps := range pages {
		d, ok := m.Document(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		if want := independentHash(ps...); d.BLAKE3 != want || corpus.TextHash(ps) != want {
			t.Errorf("%s: identity %s, independently %s", name, d.BLAKE3, want)
		}
		var size int64
		for _, p := range ps {
			size += int64(len(p))
		}
		if d.Bytes != size || d.Status != corpus.StatusOK || d.PageCount != len(ps) {
			t.Errorf("%s: bytes %d (want %d), status %s, page_count %d", name, d.Bytes, size, d.Status, d.PageCount)
		}
		if want := "text:../../in/" + name; d.Source != want {
			t.Errorf("%s: source %q, want %q", name, d.Source, want)
		}
		for i, p := range ps {
			text, err := store.Text(d, i+1)
			if err != nil || text != p {
				t.Errorf("%s page %d: %q %v, want the exact bytes %q", name, i+1, text, err, p)
			}
			want := corpus.DescribePage(i+1, corpus.PageText{Text: p}) // as Build describes a page
			got := d.Pages[i]
			assert.Equal(t, want.Flags, got.Flags, "%s page %d", name, i+1)
			assert.Equal(t, want.Chars, got.Chars, "%s page %d", name, i+1)
			assert.Equal(t, corpus.Hash([]byte(p)), got.BLAKE3, "%s page %d", name, i+1)
		}
	}
	scan, _ := m.Document("scan.pdf")
	for i, want := range [][]string{nil, {corpus.FlagNoTextLayer}, {corpus.FlagNoTextLayer}, nil} {
		if !slices.Equal(scan.Pages[i].Flags, want) {
			t.Errorf("scan.pdf page %d flags %v, want %v", i+1, scan.Pages[i].Flags, want)
		}
	}
	if other, _ := m.Document("other.pdf"); !slices.Equal(other.Pages[0].Flags, []string{corpus.FlagUnreliableText}) {
		t.Errorf("a page mostly of private-use characters is unreliable_text: %v", other.Pages[0].Flags)
	}

	// ReadTextDocument describes a folder as the manifest does.
	td, err := ReadTextDocument(filepath.Join(root, "in", "scan.pdf"), ImportOptions{})
	require.NoError(t, err)
	assert.Equal(t, scan.BLAKE3, td.BLAKE3)
	assert.Equal(t, scan.Bytes, td.Bytes)
	assert.Len(t, td.Pages, 4)
}

func TestImportTextDeterministic(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pages/b.pdf/0001.txt": "bee\n", "pages/b.pdf/0002.txt": "two\n",
		"pages/a.pdf/0001.txt": "ay\n",
		"more/c.pdf/0001.txt":  "sea\n",
	})
	var snaps []map[string]string
	for _, sub := range []string{"x", "y"} {
		out := filepath.Join(root, sub, "corpus")
		// Inputs in another order: the output is the same.
		in := inputsUnder(root, "pages", "more")
		if sub == "y" {
			in = inputsUnder(root, "more", "pages")
		}
		if _, err := ImportText(out, in, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snapshot(t, out))
	}
	if !maps(snaps[0], snaps[1]) {
		t.Errorf("two imports into fresh folders differ:\n%v\n%v", snaps[0], snaps[1])
	}
	if len(snaps[0]) != 1+4 {
		t.Errorf("the manifest and 4 page texts, got %d files", len(snaps[0]))
	}
	for name := range snaps[0] {
		if strings.Contains(name, ".tmp") {
			t.Errorf("temporary file left: %s", name)
		}
	}
}

func TestImportTextIdempotentAndReplaces(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pages/a.pdf/0001.txt": "alpha 1\n", "pages/a.pdf/0002.txt": "alpha 2\n",
		"pages/b.pdf/0001.txt": "beta\n",
		"late/c.pdf/0001.txt":  "gamma\n",
	})
	out := filepath.Join(root, "corpus")
	in := inputsUnder(root, "pages")
	if _, err := ImportText(out, in, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, out)
	report, err := ImportText(out, in, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps(first, snapshot(t, out)) {
		t.Error("re-importing the same folders changed the corpus")
	}
	for _, r := range report.Results {
		if !r.Reused {
			t.Errorf("%s: unchanged pages are reported unchanged", r.Name)
		}
	}

	// A damaged stored text is repaired by importing again.
	a := mustDoc(t, out, "a.pdf")
	rel := pageFile(a, 2)
	writeFiles(t, out, map[string]string{rel: "damaged"})
	if _, err := ImportText(out, in, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !maps(first, snapshot(t, out)) {
		t.Error("re-importing did not restore a damaged stored text")
	}

	// Another folder adds its documents; the others stay.
	if _, err := ImportText(out, inputsUnder(root, "late"), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	s, _ := corpus.Open(out)
	if n := len(s.Manifest().Documents); n != 3 {
		t.Fatalf("documents not named stay: %d documents", n)
	}

	// An updated page replaces the document; its old texts go.
	oldHex := hexOf(a)
	writeFiles(t, root, map[string]string{"pages/a.pdf/0002.txt": "alpha 2, corrected\n"})
	report, err = ImportText(out, in, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, "a.pdf", report.Results[0].Name)
	assert.Equal(t, []bool{false, true}, []bool{report.Results[0].Reused, report.Results[1].Reused}, "only a.pdf changed: reused")
	a2 := mustDoc(t, out, "a.pdf")
	if want := independentHash("alpha 1\n", "alpha 2, corrected\n"); a2.BLAKE3 != want {
		t.Errorf("a.pdf identity %s, want %s", a2.BLAKE3, want)
	}
	if _, err := os.Stat(filepath.Join(out, "text", oldHex)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old version's texts are removed: %v", err)
	}
	s, _ = corpus.Open(out)
	if text, err := s.Text(a2, 2); err != nil || text != "alpha 2, corrected\n" {
		t.Errorf("updated page: %q %v", text, err)
	}

	// A page removed: the document shrinks.
	os.Remove(filepath.Join(root, "pages", "a.pdf", "0002.txt"))
	if _, err := ImportText(out, in, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := mustDoc(t, out, "a.pdf"); d.PageCount != 1 {
		t.Errorf("a.pdf has %d pages, want 1", d.PageCount)
	}
}

func TestBuildRefusesTextCorpus(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"pages/a.pdf/0001.txt": "a", "pdfs/b.pdf": "B"})
	out := filepath.Join(root, "corpus")
	if _, err := ImportText(out, inputsUnder(root, "pages"), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)
	fx := &fakeExtractor{pages: map[string][]string{"B": {"b"}}}
	_, err := build(t, out, inputsUnder(root, "pdfs"), fx)
	if !errors.Is(err, corpus.ErrMixedCorpus) || !strings.Contains(err.Error(), "import-text") {
		t.Errorf("extracting PDFs into an imported corpus: got %v, want ErrMixedCorpus", err)
	}
	if fx.calls.Load() != 0 || !maps(before, snapshot(t, out)) {
		t.Error("nothing is extracted or written")
	}
}

func TestParseTextPageName(t *testing.T) {
	for name, want := range map[string]int{"0001.txt": 1, "0042.txt": 42, "9999.txt": 9999, "0000.txt": 0} {
		if got, ok := ParseTextPageName(name); !ok || got != want || (want > 0 && TextPageName(want) != name) {
			t.Errorf("%s: %d %v", name, got, ok)
		}
	}
	for _, name := range []string{"1.txt", "00001.txt", "0001.TXT", "0001.txt~", "+001.txt", "０００１.txt", ".txt", "0001"} {
		if _, ok := ParseTextPageName(name); ok {
			t.Errorf("%s parsed", name)
		}
	}
}

// TestImportSharedPages imports ../shared/grading/pages, the page texts of
// the grading examples, which have no PDFs.
func TestImportSharedPages(t *testing.T) {
	pages := shareddata.Path(t, "grading/pages")
	out := filepath.Join(t.TempDir(), "corpus")
	report, err := ImportText(out, []string{pages}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"inspection-procedure.pdf": 3, "price-list.pdf": 2, "supplier-qa.pdf": 3, "warehouse-sop.pdf": 3}
	if len(report.Results) != len(want) || report.Pages() != 11 {
		t.Fatalf("want 4 documents, 11 pages: %+v", report.Results)
	}
	store, err := corpus.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range want {
		d, ok := store.Manifest().Document(name)
		if !ok || d.PageCount != n {
			t.Errorf("%s: %v, want %d pages", name, d, n)
			continue
		}
		var texts []string
		for p := 1; p <= n; p++ {
			b, err := os.ReadFile(filepath.Join(pages, name, TextPageName(p)))
			if err != nil {
				t.Fatal(err)
			}
			text, err := store.Text(d, p)
			if err != nil || text != string(b) {
				t.Errorf("%s page %d: the stored text is not the file's bytes (%v)", name, p, err)
			}
			if footer := fmt.Sprintf("%s Page %d\n", name, p); !strings.HasSuffix(text, footer) {
				t.Errorf("%s page %d does not end with its footer %q", name, p, footer)
			}
			if len(d.Pages[p-1].Flags) != 0 {
				t.Errorf("%s page %d flagged %v", name, p, d.Pages[p-1].Flags)
			}
			texts = append(texts, text)
		}
		if got := independentHash(texts...); d.BLAKE3 != got {
			t.Errorf("%s: identity %s, independently %s", name, d.BLAKE3, got)
		}
		if !strings.HasPrefix(d.Source, "text:") || !strings.HasSuffix(d.Source, "/grading/pages/"+name) {
			t.Errorf("%s: source %q", name, d.Source)
		}
	}
}
