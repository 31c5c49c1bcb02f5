package pdftext

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	readingorder "github.com/citecheck/citecheck/layout"
)

// Version identifies the extractor's behaviour. Any change that can change a
// page text changes it, since stored offsets depend on the text.
const Version = "0.7.0"

// Name is the extractor's name in corpus manifests.
const Name = "citecheck-pdftext"

// FlagExtractionError marks a page whose extraction stopped on an internal
// error; its text is what was read before the error.
const FlagExtractionError = "extraction_error"

// Options configures Extract.
type Options struct {
	// Passwords are tried, after the empty password, on an encrypted file.
	Passwords []string
	Limits    Limits
	// KeepCopies keeps the glyphs drawn again on top of themselves (fake
	// bold, shadows), which extraction otherwise reads once: for measuring
	// what that rule drops. The text then differs from what a corpus
	// stores; Runner never sets it.
	KeepCopies bool
}

// Document is the text of one PDF.
type Document struct {
	Pages    []Page
	Warnings []string // document-level repairs and problems
}

// Page is one page's text.
type Page struct {
	Text string
	// Alts are Text as other extractors read glyphs that have no ToUnicode
	// mapping, by their font codes ("6=" where we read CMSY's negationslash
	// and "="), code point for code point (codeAlias); nil for most pages.
	Alts  []string
	Boxes []corpus.GlyphBox // where each glyph's text lies on the page
	// Orders are the page read in the orders of layout-ordered extractors
	// (package layout: as pdftotext and pdfminer read it), computed from
	// Boxes and the page's /Rotate; nil when no order differs from Text.
	Orders   []corpus.Order
	Label    string   // from /PageLabels, when the document declares them
	Flags    []string // FlagExtractionError
	Warnings []string
}

// Extract returns the text of every page of the PDF in data, in this
// process. It bounds its own work (see Limits) but cannot bound memory or
// stop a runaway parser: untrusted files go through Runner, which runs
// Extract in a child process. Errors wrap ErrEncrypted, ErrMalformed,
// ErrUnsupported or ErrResourceLimit.
func Extract(data []byte, opts Options) (*Document, error) {
	doc := &Document{}
	warnings, err := extractPages(data, opts, false, func(p Page) { doc.Pages = append(doc.Pages, p) })
	if err != nil {
		return nil, err
	}
	doc.Warnings = warnings
	return doc, nil
}

// extractPages extracts the PDF in data page by page, handing each page
// to keep as it is done, and returns the document's warnings. With
// borrowed, a page's Boxes are the interpreter's buffer, valid until keep
// returns: a worker encodes them at once instead of keeping a copy of
// every page's boxes to the end of the document.
func extractPages(data []byte, opts Options, borrowed bool, keep func(Page)) ([]string, error) {
	lim := opts.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	xref, warnings, err := readPDF(data, opts.Passwords, lim)
	if err != nil {
		return nil, err
	}
	obj := objects{xref: xref}
	pages, pw := obj.pages(lim)
	warnings = append(warnings, pw...)
	if len(pages) == 0 {
		return nil, fmt.Errorf("%w: no pages found in a file that has content", ErrMalformed)
	}
	labels := obj.pageLabels(len(pages))
	x := newInterp(obj, lim)
	x.keepCopies = opts.KeepCopies
	x.scratch.borrowed = borrowed
	var total int64
	for i, p := range pages {
		page, err := extractPage(x, p)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
		if labels != nil {
			page.Label = labels[i]
		}
		total += int64(len(page.Text))
		if total > lim.MaxOutput {
			return nil, fmt.Errorf("%w: more than %d bytes of text", ErrResourceLimit, lim.MaxOutput)
		}
		keep(page)
	}
	return warnings, nil
}

// extractPage runs one page. A panic in the interpreter or the object layer
// is a bug of ours or of the PDF library; it costs this page, not the
// document, and the page says so.
func extractPage(x *interp, p pageInfo) (page Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, boxes, alts := x.scratch.layout(x.glyphs, x.keepCopies)
			page = Page{
				Text:     text,
				Alts:     alts,
				Boxes:    boxes,
				Orders:   orders(text, boxes, p.rotate),
				Flags:    []string{FlagExtractionError},
				Warnings: append(x.warnings, fmt.Sprintf("internal error, page text may be incomplete: %v", r)),
			}
			err = nil
		}
	}()
	glyphs, warnings, err := x.page(p)
	if err != nil {
		if errors.Is(err, ErrResourceLimit) {
			return Page{}, err
		}
		warnings = append(warnings, err.Error())
	}
	text, boxes, alts := x.scratch.layout(glyphs, x.keepCopies)
	return Page{Text: text, Alts: alts, Boxes: boxes, Orders: orders(text, boxes, p.rotate), Warnings: warnings}, nil
}

// orders computes the page's reading orders (package layout) as the
// corpus stores them.
func orders(text string, boxes []corpus.GlyphBox, rotate int) []corpus.Order {
	var out []corpus.Order
	for _, o := range readingorder.Orders(text, boxes, rotate) {
		out = append(out, corpus.Order{Name: o.Name, Text: o.Text, Map: o.Map})
	}
	slices.SortFunc(out, func(a, b corpus.Order) int { return strings.Compare(a.Name, b.Name) })
	return out
}
