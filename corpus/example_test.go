package corpus_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
)

// A corpus is a folder of page texts and the manifest that pins them by
// hash. ImportText makes one from page files (citecheck extract makes one
// from PDFs); Open reads it back, checking nothing but its form, and Text
// checks each page against its hash as it reads it.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "corpus-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	pages := filepath.Join(dir, "pages", "policy.pdf")
	if err := os.MkdirAll(pages, 0o755); err != nil {
		log.Fatal(err)
	}
	for i, text := range []string{"Orders are delivered within 10 working days.", "Samples: 32 parts per batch."} {
		if err := os.WriteFile(filepath.Join(pages, fmt.Sprintf("%04d.txt", i+1)), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := ingest.ImportText(filepath.Join(dir, "corpus"), []string{filepath.Join(dir, "pages")}, ingest.ImportOptions{}); err != nil {
		log.Fatal(err)
	}

	store, err := corpus.Open(filepath.Join(dir, "corpus"))
	if err != nil {
		log.Fatal(err)
	}
	doc, ok := store.Manifest().Lookup("policy.pdf")
	if !ok {
		log.Fatal("policy.pdf is not in the corpus")
	}
	fmt.Println(doc.Name, doc.Status, len(doc.Pages), "pages")
	text, err := store.Text(doc, 2)
	if err != nil {
		log.Fatal(err) // corpus.ErrIntegrity when the page no longer matches its hash
	}
	fmt.Println(text)
	// Output:
	// policy.pdf ok 2 pages
	// Samples: 32 parts per batch.
}

// Page texts held in memory read as a stored corpus reads: Memory records
// each document as Build would (its hash, its pages' lengths and flags),
// and whatever takes a corpus.Texts (spans.Validate, citations.Build)
// takes it. Tools and tests use it to index texts they did not extract.
func ExampleMemoryOf() {
	texts, err := corpus.MemoryOf(map[string][]string{
		"policy.pdf": {"Orders are delivered within 10 working days.", ""},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range texts.Documents() {
		fmt.Println(d.Name, d.Status, len(d.Pages), "pages, page 2 flags:", d.Pages[1].Flags)
	}
	text, err := corpus.TextOf(texts, "policy.pdf", 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
	// Output:
	// policy.pdf ok 2 pages, page 2 flags: [no_text_layer]
	// Orders are delivered within 10 working days.
}
