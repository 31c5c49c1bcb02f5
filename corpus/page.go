package corpus

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Extraction is what an extractor found in one PDF: the outcome and the
// pages a builder (package corpus/ingest) stores.
type Extraction struct {
	Status   Status
	Error    string // why Status is not ok, for a person to read
	Pages    []PageText
	Warnings []string
}

// PageText is one extracted page.
type PageText struct {
	Text     string   // valid UTF-8 without form feeds
	Boxes    []byte   // glyph boxes in BoxesFormat (EncodeBoxes), uncompressed; nil for none
	Alts     []string // alternative texts (ValidateAlts); nil for none
	Orders   []Order  // reading orders (ValidateOrders), sorted by name; nil for none
	Label    string
	Flags    []string
	Warnings []string
}

// ValidatePage checks one page (1-based) against the store's invariants:
// its text valid UTF-8 without form feeds, its glyph boxes, alternative
// texts and reading orders fitting it. A page that fails is the
// extractor's fault: the store never holds it.
func ValidatePage(page int, p PageText) error {
	if !utf8.ValidString(p.Text) {
		return fmt.Errorf("invalid UTF-8 on page %d", page)
	}
	if strings.ContainsRune(p.Text, '\f') {
		return fmt.Errorf("a form feed on page %d", page)
	}
	if p.Boxes == nil {
		// no geometry recorded
	} else if err := ValidateBoxes(p.Boxes, utf8.RuneCountInString(p.Text)); err != nil {
		return fmt.Errorf("bad glyph boxes on page %d: %v", page, err)
	}
	if err := ValidateAlts(p.Alts, p.Text); err != nil {
		return fmt.Errorf("bad alternative texts on page %d: %v", page, err)
	}
	if err := ValidateOrders(p.Orders, p.Text); err != nil {
		return fmt.Errorf("bad reading orders on page %d: %v", page, err)
	}
	return nil
}

// DescribePage describes a valid page (1-based) as the manifest records
// it once stored (DocWriter.WritePage): the hash and length of its text,
// its label and flags, and the hashes of the glyph boxes, alternative
// texts and reading orders it stores.
func DescribePage(page int, p PageText) Page {
	pg := describeText(page, p)
	if len(p.Boxes) > 0 {
		pg.Boxes = Hash(p.Boxes)
	}
	for _, alt := range p.Alts {
		pg.Alts = append(pg.Alts, Hash([]byte(alt)))
	}
	if len(p.Orders) > 0 {
		pg.Orders = Hash(EncodeOrders(p.Orders))
	}
	return pg
}

// describeText is DescribePage without the stored files beside the text.
func describeText(page int, p PageText) Page {
	return Page{
		Page:     page,
		BLAKE3:   Hash([]byte(p.Text)),
		Chars:    utf8.RuneCountInString(p.Text),
		Label:    p.Label,
		Flags:    pageFlags(p.Text, p.Flags),
		Warnings: p.Warnings,
	}
}

// pageFlags adds the flags that follow from the text to the extractor's.
func pageFlags(text string, extra []string) []string {
	flags := slices.Clone(extra)
	visible, bad := 0, 0
	for _, r := range text {
		if unicode.IsSpace(r) {
			continue
		}
		visible++
		if r == utf8.RuneError || isPrivateUse(r) {
			bad++
		}
	}
	if visible == 0 {
		flags = append(flags, FlagNoTextLayer)
	} else if 2*bad >= visible {
		flags = append(flags, FlagUnreliableText)
	}
	slices.Sort(flags)
	return slices.Compact(flags)
}

func isPrivateUse(r rune) bool {
	return (r >= 0xE000 && r <= 0xF8FF) || r >= 0xF0000
}
