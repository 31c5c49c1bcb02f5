package report

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
)

// PageSource gives the stored page texts and glyph boxes of the corpus the
// results were graded against; nil when the report has no corpus.
//
// A PageSource whose reads can fail for a reason a reader must see also
// implements PageErrors; StorePages does.
type PageSource interface {
	// Text returns a page's stored text (1-based page); ok false when unknown.
	Text(doc string, page int) (string, bool)
	// Boxes returns the page's glyph boxes (corpus.GlyphBox: code-point
	// offsets [Start,End) into the text and a rectangle in PDF points, y up);
	// ok false when the page has none (imported text, or no boxes stored).
	Boxes(doc string, page int) ([]corpus.GlyphBox, bool)
}

// PageErrors is implemented by a PageSource whose Text or Boxes can fail
// for a reason other than "no such page" or "no boxes stored": a stored
// file that no longer matches the corpus manifest (corpus.ErrIntegrity),
// or one that cannot be read. Text and Boxes then return ok false, and
// PageError returns why; WriteHTML asks it about every page it read and
// shows each error as a warning at the top of the report and in place of
// the page, so a damaged corpus is never shown as a page that is merely
// missing.
type PageErrors interface {
	// PageError returns the error met reading the page's text or boxes, nil
	// when there was none.
	PageError(doc string, page int) error
}

// StorePages reads pages from a corpus store. Pages of documents the
// manifest does not have, pages out of range and pages stored without
// glyph boxes are unknown (ok false, no error); any other failure (an
// integrity error: a stored file that is missing or does not match the
// manifest; an I/O error) is recorded and reported by PageError. It is
// safe for concurrent use.
func StorePages(s *corpus.Store) PageSource {
	return &storePages{s: s, errs: map[pageKey]error{}}
}

type storePages struct {
	s    *corpus.Store
	mu   sync.Mutex
	errs map[pageKey]error
}

type pageKey struct {
	doc  string
	page int
}

func (p *storePages) document(doc string, page int) (*corpus.Document, bool) {
	d, ok := p.s.Manifest().Document(doc)
	if !ok || page < 1 || page > len(d.Pages) {
		return nil, false
	}
	return d, true
}

func (p *storePages) record(doc string, page int, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := pageKey{doc, page}
	if p.errs[k] == nil {
		p.errs[k] = err
	}
}

func (p *storePages) Text(doc string, page int) (string, bool) {
	d, ok := p.document(doc, page)
	if !ok {
		return "", false
	}
	t, err := p.s.Text(d, page)
	if err != nil {
		p.record(doc, page, err)
		return "", false
	}
	return t, true
}

func (p *storePages) Boxes(doc string, page int) ([]corpus.GlyphBox, bool) {
	d, ok := p.document(doc, page)
	if !ok {
		return nil, false
	}
	b, err := p.s.Boxes(d, page)
	if errors.Is(err, corpus.ErrNoBoxes) {
		return nil, false
	}
	if err != nil {
		p.record(doc, page, err)
		return nil, false
	}
	return b, true
}

func (p *storePages) PageError(doc string, page int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errs[pageKey{doc, page}]
}

// pagesOf returns the pages a citation is drawn on: the pages of its
// located spans, else the page the answer gave.
func pagesOf(c *grade.CitationResult) []int {
	var ps []int
	for _, s := range c.Spans {
		if !slices.Contains(ps, s.Page) {
			ps = append(ps, s.Page)
		}
	}
	if len(ps) == 0 && c.Page != nil {
		ps = append(ps, *c.Page)
	}
	sort.Ints(ps)
	return ps
}

func (r *renderer) loadPages() {
	src := r.in.Pages
	if src == nil {
		return
	}
	var keys []pageKey
	for i := range r.in.Results {
		for j := range r.in.Results[i].Citations {
			c := &r.in.Results[i].Citations[j]
			if c.Document == "" {
				continue
			}
			for _, p := range pagesOf(c) {
				k := pageKey{c.Document, p}
				if p >= 1 && r.pages[k] == nil {
					r.pages[k] = &loadedPage{}
					keys = append(keys, k)
				}
			}
		}
	}
	for _, k := range r.reviewPages() {
		if k.page >= 1 && r.pages[k] == nil {
			r.pages[k] = &loadedPage{}
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].doc != keys[j].doc {
			return keys[i].doc < keys[j].doc
		}
		return keys[i].page < keys[j].page
	})
	pe, _ := src.(PageErrors)
	for _, k := range keys {
		lp := r.pages[k]
		text, ok := src.Text(k.doc, k.page)
		if ok {
			lp.text, lp.hasText = []rune(text), true
			if boxes, ok := src.Boxes(k.doc, k.page); ok {
				lp.setBoxes(boxes)
			}
		}
		if pe != nil {
			if err := pe.PageError(k.doc, k.page); err != nil {
				// With its text read, the page's glyph boxes failed: the
				// text view stands in, with the error beside it.
				lp.err, lp.boxes = err, nil
				r.warnings = append(r.warnings, fmt.Sprintf("%s page %d: %v", k.doc, k.page, err))
				continue
			}
		}
		if lp.dropped > 0 {
			r.warnings = append(r.warnings, fmt.Sprintf("%s page %d: %d glyph boxes do not fit the page text and are not drawn", k.doc, k.page, lp.dropped))
		}
		if len(lp.boxes) > 0 {
			id := r.used.take(fmt.Sprintf("page-def-%d", len(r.defs)+1))
			lp.def = fragment(id)
			r.defs = append(r.defs, defView{ID: id, Lines: lp.lines()})
		}
	}
}
