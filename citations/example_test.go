package citations_test

import (
	"fmt"
	"log"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// An index holds a corpus's page texts normalized for search; Locate finds
// where a cited quote lies, at which level of normalization, and checks
// the page the citation gave.
func ExampleIndex_Locate() {
	store, remove, err := testcorpus.Import(map[string][]string{"policy.pdf": {"Orders are deliv-\nered within 10 working days."}})
	if err != nil {
		log.Fatal(err)
	}
	defer remove()

	ix, err := citations.NewIndex(store, citations.Options{})
	if err != nil {
		log.Fatal(err) // corpus.ErrIntegrity when a page no longer matches its hash
	}
	for _, q := range []citations.Query{
		{Document: "policy.pdf", Quote: "delivered within 10 working days", Page: 1},
		{Document: "policy.pdf", Quote: "delivered within 5 working days"},
	} {
		if r := ix.Locate(q); r.Found() {
			fmt.Println(r.Status, "on pages", r.Pages(), "at level", r.Level, "clean:", r.Clean())
		} else {
			fmt.Println(r.Status, "clean:", r.Clean())
		}
	}
	// Output:
	// unique on pages [1] at level hyphenation clean: true
	// not_found clean: false
}
