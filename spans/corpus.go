package spans

import (
	"errors"
	"fmt"
	"sort"

	"github.com/citecheck/citecheck/corpus"
)

// Corpus is what validation reads: document names, page counts and page
// texts. StoreCorpus adapts a corpus store; Pages is an in-memory corpus.
type Corpus interface {
	// Documents returns every document name, sorted.
	Documents() []string
	// PageCount returns how many pages the named document has, or an error
	// wrapping ErrUnknownDocument or ErrNoText.
	PageCount(document string) (int, error)
	// Text returns the stored text of a page (1-based).
	Text(document string, page int) (string, error)
}

// Outcomes of Corpus.PageCount that validation reports as problems rather
// than failing.
var (
	ErrUnknownDocument = errors.New("no such document in the corpus")
	ErrNoText          = errors.New("the document has no extracted text")
)

// StoreCorpus returns the Corpus view of an opened corpus store. Its Text
// checks each page against the manifest's hash, so a page text edited after
// extraction fails with corpus.ErrIntegrity.
func StoreCorpus(s *corpus.Store) Corpus { return storeCorpus{s} }

type storeCorpus struct{ s *corpus.Store }

func (c storeCorpus) Documents() []string {
	docs := c.s.Manifest().Documents
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = d.Name
	}
	return names // the manifest keeps documents sorted by name
}

func (c storeCorpus) PageCount(name string) (int, error) {
	d, ok := c.s.Manifest().Document(name)
	if !ok {
		return 0, fmt.Errorf("%q: %w", name, ErrUnknownDocument)
	}
	if d.Status != corpus.StatusOK {
		return 0, fmt.Errorf("%q: %w: extraction ended %s", name, ErrNoText, d.Status)
	}
	return len(d.Pages), nil
}

func (c storeCorpus) Text(name string, page int) (string, error) {
	d, ok := c.s.Manifest().Document(name)
	if !ok {
		return "", fmt.Errorf("%q: %w", name, ErrUnknownDocument)
	}
	return c.s.Text(d, page)
}

// Pages is an in-memory Corpus: document name to page texts (page 1 first).
type Pages map[string][]string

// Documents returns the names, sorted.
func (p Pages) Documents() []string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PageCount returns the number of pages of name.
func (p Pages) PageCount(name string) (int, error) {
	pages, ok := p[name]
	if !ok {
		return 0, fmt.Errorf("%q: %w", name, ErrUnknownDocument)
	}
	if len(pages) == 0 {
		return 0, fmt.Errorf("%q: %w", name, ErrNoText)
	}
	return len(pages), nil
}

// Text returns a page's text.
func (p Pages) Text(name string, page int) (string, error) {
	pages, ok := p[name]
	if !ok {
		return "", fmt.Errorf("%q: %w", name, ErrUnknownDocument)
	}
	if page < 1 || page > len(pages) {
		return "", fmt.Errorf("%q: page %d out of range 1..%d", name, page, len(pages))
	}
	return pages[page-1], nil
}
