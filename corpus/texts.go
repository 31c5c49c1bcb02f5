package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// Texts is a corpus's page texts as the readers after extraction read them
// (the reference checks of package spans, the quote index of package
// citations): its documents, as a manifest describes them, and per page its
// stored text, alternative texts and reading orders. *Store implements it,
// checking every file it reads against the manifest; *Memory holds page
// texts in memory, for tests and tools, described as a manifest would
// describe them.
type Texts interface {
	// Documents returns every document, sorted by name; names are unique.
	// Callers must not modify them.
	Documents() []Document
	// Document returns the document named name, one of Documents.
	Document(name string) (*Document, bool)
	// Text returns the stored text of a page (1-based) of doc, one of
	// Documents.
	Text(doc *Document, page int) (string, error)
	// AltTexts returns the alternative texts (alt.go) of a page of doc; nil
	// when it has none.
	AltTexts(doc *Document, page int) ([]string, error)
	// OrdersOf returns the reading orders (orders.go) of a page of doc,
	// whose text, as Text returned it, is text; nil when it has none.
	OrdersOf(doc *Document, page int, text string) ([]Order, error)
}

// Documents returns the manifest's documents, sorted by name.
func (s *Store) Documents() []Document { return s.manifest.Documents }

// Document returns the document named name.
func (s *Store) Document(name string) (*Document, bool) { return s.manifest.Document(name) }

// TextOf returns the text of a page (1-based) of the document of t named
// name: Texts.Text for a caller holding a name.
func TextOf(t Texts, name string, page int) (string, error) {
	d, ok := t.Document(name)
	if !ok {
		return "", fmt.Errorf("%q: no such document in the corpus", name)
	}
	return t.Text(d, page)
}

// Memory is Texts held in memory: documents a test or a tool supplies,
// described as a builder records them (NewMemory). Its reads fail only for
// a page out of range.
type Memory struct {
	manifest Manifest              // its Documents, sorted by name
	pages    map[string][]PageText // by document name
}

// MemoryDocument is one document given to NewMemory: its name, what
// extracting it gave, and optionally its identity.
type MemoryDocument struct {
	Name string
	// BLAKE3 is the document's identity, "blake3:<hex>"; "" records its
	// TextHash, as importing page texts would.
	BLAKE3 string
	// Status is the extraction's outcome; "" means StatusOK. Pages of a
	// document whose Status is not ok are not recorded.
	Status Status
	Pages  []PageText // page 1 first
}

// NewMemory returns a Memory of docs, given in any order. Each is recorded
// as a builder records an extraction: a document "ok" without pages is
// "malformed"; a page's hash, length and stored files' hashes are those of
// its text, glyph boxes, alternative texts and reading orders; its flags
// are its Flags and those its text implies (FlagNoTextLayer,
// FlagUnreliableText). A page breaking the store's invariants (invalid
// UTF-8, a form feed, alternative texts or reading orders that do not fit
// the text), an empty name, an invalid status or digest, and a name given
// twice (ErrDuplicateName) are errors. The Memory keeps the page texts
// given: callers must not modify them.
func NewMemory(docs ...MemoryDocument) (*Memory, error) {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b MemoryDocument) int { return strings.Compare(a.Name, b.Name) })
	m := &Memory{manifest: Manifest{Documents: make([]Document, len(docs))}, pages: map[string][]PageText{}}
	for i, md := range docs {
		switch {
		case md.Name == "":
			return nil, fmt.Errorf("corpus: document %d has no name", i)
		case i > 0 && docs[i-1].Name == md.Name:
			return nil, fmt.Errorf("corpus: %q: %w", md.Name, ErrDuplicateName)
		}
		st := md.Status
		if st == "" {
			st = StatusOK
		}
		if !st.Valid() {
			return nil, fmt.Errorf("corpus: %q: unknown status %q", md.Name, st)
		}
		d := &m.manifest.Documents[i]
		d.Name, d.Status = md.Name, st
		if st == StatusOK && len(md.Pages) == 0 {
			d.Status, d.Error = StatusMalformed, "no pages found in a file that has content"
		}
		texts := make([]string, 0, len(md.Pages))
		if d.Status == StatusOK {
			d.PageCount = len(md.Pages)
			for k, p := range md.Pages {
				if err := ValidatePage(k+1, p); err != nil {
					return nil, fmt.Errorf("corpus: %q: %w", md.Name, err)
				}
				d.Pages = append(d.Pages, DescribePage(k+1, p))
				texts = append(texts, p.Text)
			}
			m.pages[md.Name] = md.Pages
		}
		d.BLAKE3 = md.BLAKE3
		if d.BLAKE3 == "" {
			d.BLAKE3 = TextHash(texts)
		} else if _, err := hashHex(d.BLAKE3); err != nil {
			return nil, fmt.Errorf("corpus: %q: %w", md.Name, err)
		}
	}
	return m, nil
}

// MemoryOf returns the Memory of documents given as plain page texts: each
// document's name to its pages, page 1 first (NewMemory).
func MemoryOf(pages map[string][]string) (*Memory, error) {
	docs := make([]MemoryDocument, 0, len(pages))
	for name, texts := range pages {
		md := MemoryDocument{Name: name}
		for _, t := range texts {
			md.Pages = append(md.Pages, PageText{Text: t})
		}
		docs = append(docs, md)
	}
	return NewMemory(docs...)
}

// Documents returns the documents, sorted by name.
func (m *Memory) Documents() []Document { return m.manifest.Documents }

// Document returns the document named name.
func (m *Memory) Document(name string) (*Document, bool) { return m.manifest.Document(name) }

// page returns the given page (1-based) of doc.
func (m *Memory) page(doc *Document, page int) (*PageText, error) {
	pages := m.pages[doc.Name]
	if page < 1 || page > len(pages) {
		return nil, fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(pages))
	}
	return &pages[page-1], nil
}

// Text returns the text of a page (1-based) of doc.
func (m *Memory) Text(doc *Document, page int) (string, error) {
	p, err := m.page(doc, page)
	if err != nil {
		return "", err
	}
	return p.Text, nil
}

// AltTexts returns the alternative texts of a page (1-based) of doc.
func (m *Memory) AltTexts(doc *Document, page int) ([]string, error) {
	p, err := m.page(doc, page)
	if err != nil {
		return nil, err
	}
	return p.Alts, nil
}

// OrdersOf returns the reading orders of a page (1-based) of doc; text is
// not read (it is the page's).
func (m *Memory) OrdersOf(doc *Document, page int, _ string) ([]Order, error) {
	p, err := m.page(doc, page)
	if err != nil {
		return nil, err
	}
	return p.Orders, nil
}

var (
	_ Texts = (*Store)(nil)
	_ Texts = (*Memory)(nil)
)
