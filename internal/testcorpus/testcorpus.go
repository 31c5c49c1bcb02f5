// Package testcorpus is the test support of the packages whose tests
// need a corpus: the TestMain that lets a test binary serve as pdftext's
// extraction child, the builder of a corpus from fixture PDFs, as
// "citecheck extract" builds one, and of one from page texts, as
// "citecheck import-text" does, and in-memory corpora (corpus.Memory) of
// the fixtures' texts. Only tests import this package.
package testcorpus

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/pdftext"
)

// ServeChild runs pdftext's extraction child and exits when the test
// binary was started as one (pdftext.Runner re-executes its own
// executable, which under go test is the test binary), and returns
// otherwise. A TestMain that does more than Main calls it first.
func ServeChild() {
	if len(os.Args) > 1 && os.Args[len(os.Args)-1] == pdftext.ChildCommand {
		os.Exit(pdftext.ChildMain(os.Stdin, os.Stdout, os.Stderr)) // deps: allowed (a test binary's TestMain)
	}
}

// Main is the TestMain of a package whose tests extract PDFs: it serves
// as the extraction child when started as one, else runs the tests,
// removes the folders TempDir made, and exits with the tests' code.
func Main(m *testing.M) {
	ServeChild()
	code := m.Run()
	mu.Lock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	mu.Unlock()
	os.Exit(code) // deps: allowed (a test binary's TestMain)
}

var (
	mu   sync.Mutex
	dirs []string
)

// TempDir makes a folder that outlives each test but not the test binary
// (Main removes it), for a fixture built once and shared by many tests.
func TempDir(pattern string) (string, error) {
	d, err := os.MkdirTemp("", pattern)
	if err == nil {
		mu.Lock()
		dirs = append(dirs, d)
		mu.Unlock()
	}
	return d, err
}

// Options adjusts Build.
type Options struct {
	// Extract, when not nil, wraps the extractor's function, for a test
	// that alters what extraction stores.
	Extract func(ingest.ExtractFunc) ingest.ExtractFunc
}

// Build writes pdfs into dir/pdfs and extracts them into dir/corpus (see
// Extract). It returns the corpus folder and the build's report.
func Build(dir string, pdfs []fixtures.DemoPDF, opts Options) (string, *ingest.Report, error) {
	in := filepath.Join(dir, "pdfs")
	if err := os.MkdirAll(in, 0o755); err != nil {
		return "", nil, err
	}
	for _, d := range pdfs {
		if err := os.WriteFile(filepath.Join(in, d.Name), d.Data, 0o644); err != nil {
			return "", nil, err
		}
	}
	out := filepath.Join(dir, "corpus")
	rep, err := Extract(out, []string{in}, opts)
	return out, rep, err
}

// Extract extracts the PDFs of inputs (files or folders, as
// ingest.Inputs reads them) into the corpus folder out with pdftext's
// isolated extractor, two at a time, as "citecheck extract" does; the
// test binary serves as the child (see Main).
func Extract(out string, inputs []string, opts Options) (*ingest.Report, error) {
	files, err := ingest.Inputs(inputs)
	if err != nil {
		return nil, err
	}
	r := &pdftext.Runner{}
	var extract ingest.ExtractFunc = r.Extract
	if opts.Extract != nil {
		extract = opts.Extract(extract)
	}
	return ingest.Build(context.Background(), out, files, ingest.BuildOptions{Extractor: r.ExtractorID(), Extract: extract, Jobs: 2})
}

// Import makes a corpus in a new temporary folder from page texts, docs
// mapping each document's name to its pages in order, as "citecheck
// import-text" does, and opens it; remove deletes the folder. For
// examples and tests that need a small corpus of known text.
func Import(docs map[string][]string) (store *corpus.Store, remove func(), err error) {
	dir, err := os.MkdirTemp("", "testcorpus-")
	if err != nil {
		return nil, nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	pages := filepath.Join(dir, "pages")
	for name, texts := range docs {
		if err := os.MkdirAll(filepath.Join(pages, name), 0o755); err != nil {
			remove()
			return nil, nil, err
		}
		for i, text := range texts {
			if err := os.WriteFile(filepath.Join(pages, name, fmt.Sprintf("%04d.txt", i+1)), []byte(text), 0o644); err != nil {
				remove()
				return nil, nil, err
			}
		}
	}
	out := filepath.Join(dir, "corpus")
	if _, err := ingest.ImportText(out, []string{pages}, ingest.ImportOptions{}); err != nil {
		remove()
		return nil, nil, err
	}
	if store, err = corpus.Open(out); err != nil {
		remove()
		return nil, nil, err
	}
	return store, remove, nil
}

// DemoDocuments are the demo PDFs' page texts (fixtures.Demo lists the
// lines each page draws) as extraction stores them: a page's lines joined
// by line breaks, each document identified by its PDF's hash. Offsets into
// them are those "citecheck show" prints.
func DemoDocuments() []corpus.MemoryDocument {
	var out []corpus.MemoryDocument
	for _, d := range fixtures.Demo() {
		md := corpus.MemoryDocument{Name: d.Name, BLAKE3: corpus.Hash(d.Data)}
		for _, lines := range d.Pages {
			md.Pages = append(md.Pages, corpus.PageText{Text: strings.Join(lines, "\n")})
		}
		out = append(out, md)
	}
	return out
}

// Memory returns the corpus.Memory of docs (corpus.NewMemory), failing t
// when it refuses them.
func Memory(t testing.TB, docs []corpus.MemoryDocument) *corpus.Memory {
	t.Helper()
	m, err := corpus.NewMemory(docs...)
	require.NoError(t, err, "the test's documents")
	return m
}

// payloadDocuments names the documents the adapters' published payloads
// cite (runs/testdata/adapters) and the file of runs/testdata/adapters/corpus
// holding each one's page text.
var payloadDocuments = map[string]string{
	"prism-test.pdf":        "prism-test.txt",
	"colours.pdf":           "colours.txt",
	"ai.pdf":                "ai.txt",
	"a.txt":                 "a.txt",
	"b.txt":                 "b.txt",
	"c.txt":                 "c.txt",
	"cheetah.pdf":           "cheetah.txt",
	"paul_graham_essay.txt": "paul_graham_essay.txt",
}

// PayloadDocuments are the one-page documents the adapters' published
// payloads cite, read from folder (runs/testdata/adapters as the caller
// reaches it), in name order.
func PayloadDocuments(t testing.TB, folder string) []corpus.MemoryDocument {
	t.Helper()
	var out []corpus.MemoryDocument
	for _, name := range slices.Sorted(maps.Keys(payloadDocuments)) {
		text, err := os.ReadFile(filepath.Join(folder, "corpus", payloadDocuments[name]))
		require.NoError(t, err, "a payload document's page text")
		out = append(out, corpus.MemoryDocument{Name: name, Pages: []corpus.PageText{{Text: string(text)}}})
	}
	return out
}
