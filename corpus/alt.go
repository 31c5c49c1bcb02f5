package corpus

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A page's alternative texts, <page>.alt1.txt, <page>.alt2.txt, ..., are
// the page text as other extractors read it where they read some glyphs by
// their font codes: the stored text with those glyphs replaced, code point
// for code point, so that every offset into an alternative is an offset
// into the page text. pdftext writes them for a page whose fonts have no
// ToUnicode CMap and name glyphs that poppler, pdf.js or pdfminer read by
// their codes ("6=" for "≠" in a TeX document, "I" for a beamer bullet);
// the quote locator searches them at a match level of its own. Most pages
// have none.

// MaxAlts bounds the alternative texts of one page.
const MaxAlts = 4

// ValidateAlts checks a page's alternative texts against its text: at most
// MaxAlts, each valid UTF-8 without form feeds, of the text's length in
// code points, and different from the text and from each other.
func ValidateAlts(alts []string, text string) error {
	if len(alts) > MaxAlts {
		return fmt.Errorf("%d alternative texts, at most %d", len(alts), MaxAlts)
	}
	n := utf8.RuneCountInString(text)
	for k, alt := range alts {
		switch {
		case !utf8.ValidString(alt):
			return fmt.Errorf("alternative %d: invalid UTF-8", k+1)
		case strings.ContainsRune(alt, '\f'):
			return fmt.Errorf("alternative %d: a form feed", k+1)
		case utf8.RuneCountInString(alt) != n:
			return fmt.Errorf("alternative %d: %d code points for a text of %d", k+1, utf8.RuneCountInString(alt), n)
		case alt == text:
			return fmt.Errorf("alternative %d: equal to the text", k+1)
		case slices.Contains(alts[:k], alt):
			return fmt.Errorf("alternative %d: equal to an earlier one", k+1)
		}
	}
	return nil
}

func altFile(docHash string, page, k int) (string, error) {
	rel, err := pageFile(docHash, page)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s.alt%d.txt", strings.TrimSuffix(rel, ".txt"), k+1), nil
}

// AltTexts returns the alternative texts of a page (1-based) of doc, each
// checked against the manifest's hash; nil when it has none. A stored
// alternative that is missing, hashes otherwise or does not fit the page's
// length is an *IntegrityError (ErrIntegrity).
func (s *Store) AltTexts(doc *Document, page int) ([]string, error) {
	if page < 1 || page > len(doc.Pages) {
		return nil, fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	var alts []string
	for k := range doc.Pages[page-1].Alts {
		alt, err := s.AltText(doc, page, k+1)
		if err != nil {
			return nil, err
		}
		alts = append(alts, alt)
	}
	return alts, nil
}

// AltText returns alternative text k (1-based, as in <page>.alt<k>.txt) of
// a page (1-based) of doc, checked as AltTexts checks it.
func (s *Store) AltText(doc *Document, page, k int) (string, error) {
	if page < 1 || page > len(doc.Pages) {
		return "", fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	p := doc.Pages[page-1]
	if k < 1 || k > len(p.Alts) {
		return "", fmt.Errorf("%s page %d: alternative text %d out of range 1..%d", doc.Name, page, k, len(p.Alts))
	}
	rel, err := altFile(doc.BLAKE3, page, k-1)
	if err != nil {
		return "", err
	}
	b, err := s.readStored(doc, page, rel, p.Alts[k-1], false)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) || utf8.RuneCount(b) != p.Chars {
		// It hashes as recorded, so the manifest's length no longer fits it.
		return "", &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: p.Alts[k-1], Stored: p.Alts[k-1], Err: errAltLength}
	}
	return string(b), nil
}

var errAltLength = errors.New("not valid UTF-8 of the page text's length")
