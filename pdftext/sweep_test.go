package pdftext

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/shareddata"
)

// TestCorpusSweep extracts every shared PDF through the isolated runner:
// each must end ok or with a typed error, none may crash the extractor or
// run into its timeout, and the real-world corpus keeps its floor of ok
// documents (it only rises).
func TestCorpusSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep skipped in -short mode")
	}
	sweeps := []struct {
		dir     string
		floorOK int
	}{
		{"pdf-corpus", 238},     // pdftotext opens 236 here; 9 need a user password
		{"pdf-corpus-ext", 882}, // odd and broken files
	}
	for _, s := range sweeps {
		t.Run(s.dir, func(t *testing.T) {
			dir := shareddata.Path(t, s.dir)
			files, err := ingest.Inputs([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			r := testRunner(t, "extract", Limits{})
			out := t.TempDir()
			report, err := ingest.Build(context.Background(), out, files, ingest.BuildOptions{
				Extractor: r.ExtractorID(), Extract: r.Extract, Jobs: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range report.Results {
				switch res.Status {
				case corpus.StatusCrash, corpus.StatusTimeout:
					t.Errorf("%s: %s: %s", res.Name, res.Status, res.Error)
				}
			}
			counts := map[corpus.Status]int{}
			for _, st := range corpus.Statuses {
				counts[st] = report.Count(st)
			}
			t.Logf("%s: %d files, %v, %d pages", s.dir, len(files), counts, report.Pages())
			if ok := report.Count(corpus.StatusOK); ok < s.floorOK {
				t.Errorf("%d documents ok, below the floor of %d", ok, s.floorOK)
			}
			// The parent drops glyph boxes or alternative texts that break
			// their contract, with a page warning: ours never should.
			st, err := corpus.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range st.Manifest().Documents {
				for _, p := range d.Pages {
					for _, w := range p.Warnings {
						if strings.HasPrefix(w, "alternative texts:") || strings.HasPrefix(w, "glyph boxes:") {
							t.Errorf("%s page %d: %s", d.Name, p.Page, w)
						}
					}
				}
			}
		})
	}
}

// TestExtractionIsDeterministic builds the same corpus twice and compares
// every byte of the two stores.
func TestExtractionIsDeterministic(t *testing.T) {
	in := t.TempDir()
	for _, d := range fixtures.Demo() {
		if err := os.WriteFile(filepath.Join(in, d.Name), d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ingest.Inputs([]string{in})
	if err != nil {
		t.Fatal(err)
	}
	r := testRunner(t, "extract", Limits{})
	var stores []map[string][]byte
	for range 2 {
		out := filepath.Join(t.TempDir(), "corpus")
		if _, err := ingest.Build(context.Background(), out, files, ingest.BuildOptions{Extractor: r.ExtractorID(), Extract: r.Extract, Jobs: 2}); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, readTree(t, out))
	}
	if len(stores[0]) < 2 {
		t.Fatalf("store has only %d files", len(stores[0]))
	}
	for name, b := range stores[0] {
		if !bytes.Equal(b, stores[1][name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
	if len(stores[0]) != len(stores[1]) {
		t.Errorf("the two builds hold %d and %d files", len(stores[0]), len(stores[1]))
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// FuzzExtract feeds arbitrary bytes to the in-process extractor, the code
// that runs inside the child: it must return a typed error or valid text,
// never panic. Seeds are the fixture PDFs and, when present, a sample of the
// odd files of the shared corpus.
func FuzzExtract(f *testing.F) {
	for _, d := range fixtures.Demo() {
		f.Add(d.Data)
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>"))
	if dir := os.Getenv("CITECHECK_FUZZ_SEEDS"); dir != "" {
		matches, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
		for _, m := range matches {
			if b, err := os.ReadFile(m); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
	lim := DefaultLimits
	lim.MaxDecoded = 16 << 20
	lim.MaxOperators = 1 << 20
	lim.MaxPages = 64
	lim.MaxObjectNum = 100_000
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Extract(data, Options{Limits: lim})
		if err != nil {
			if statusOf(err) == corpus.StatusCrash {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		if len(doc.Pages) == 0 {
			t.Fatal("ok with zero pages")
		}
		for _, p := range doc.Pages {
			if !utf8.ValidString(p.Text) || bytes.ContainsRune([]byte(p.Text), '\f') {
				t.Fatalf("page text not storable: %q", p.Text)
			}
		}
	})
}
