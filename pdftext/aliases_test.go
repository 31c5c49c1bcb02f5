package pdftext

import (
	"fmt"
	"slices"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
)

func TestCodeAliases(t *testing.T) {
	tests := []struct {
		code        int
		name        string
		fromBuiltin bool
		toUnicode   bool
		names       rune // the alias in readingNames
		codes       rune // and in readingCodes
		why         string
	}{
		{'6', "negationslash", false, false, '6', '6', "a TeX name poppler and pdf.js do not know: they read the code"},
		{'I', "trianglerightsld", true, false, 'I', 'I', "an AMS name from the program's own encoding: every reading differs"},
		{';', "comma", true, false, 0, ';', "an AGL name from the program's own encoding: only pdfminer reads the code"},
		{';', "comma", false, false, 0, 0, "an AGL name from /Differences: everybody reads it"},
		{'!', "omega", true, false, 0, '!', "CMMI's omega at code 33: pdfminer's \"!\""},
		{'2', "element", true, false, 0, '2', "an alias may be a digit: the page's own character is not"},
		{'0', "zero", true, false, 0, 0, "a digit of the page is never aliased"},
		{'A', "A", true, false, 0, 0, "a code read as itself needs no alias"},
		{'6', "negationslash", false, true, 0, 0, "a ToUnicode mapping is what every extractor reads"},
		{0x13, "negationslash", false, false, 0, 0, "a control code is nobody's reading"},
	}
	for _, tc := range tests {
		var text [256]string
		var fromBuiltin, viaToUnicode [256]bool
		enc, _ := fontenc.BaseEncoding("StandardEncoding")
		enc[tc.code] = tc.name
		fromBuiltin[tc.code] = tc.fromBuiltin
		viaToUnicode[tc.code] = tc.toUnicode
		s, _ := fontenc.GlyphUnicode(tc.name, false)
		text[tc.code] = s
		got := codeAliases(&text, enc, &fromBuiltin, &viaToUnicode, false)[tc.code]
		if want := (codeAlias{tc.names, tc.codes}); got != want {
			t.Errorf("%s: code %#x /%s: aliases %q, want %q", tc.why, tc.code, tc.name, got[:], want[:])
		}
	}
}

// TestAltTexts: a page whose font names glyphs other extractors read by
// their codes gets alternative texts, code point for code point.
func TestAltTexts(t *testing.T) {
	texFont := func(b *fixtures.Builder) map[string]int {
		return map[string]int{"F1": b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /MSAM10 /Encoding << /Type /Encoding /Differences [73 /trianglerightsld 74 /negationslash 75 /comma] >> >>")}
	}
	tests := []struct {
		name    string
		content string
		fonts   func(b *fixtures.Builder) map[string]int
		text    string
		alts    []string
	}{
		{"TeX names read as codes", "BT /F1 12 Tf 72 700 Td (I item, x J= y) Tj ET", texFont, "\u25b6 item, x \u0338= y", []string{"I item, x J= y"}},
		{"an AGL name in Differences is read by everybody", "BT /F1 12 Tf 72 700 Td (a K b) Tj ET", texFont, "a , b", nil},
		{"ActualText replaces the glyph and its aliases", "BT /F1 12 Tf 72 700 Td /Span << /ActualText (*) >> BDC (I) Tj EMC ( item) Tj ET", texFont, "* item", nil},
		{"a font with ToUnicode has none", "BT /F1 12 Tf 72 700 Td (I item) Tj ET", func(b *fixtures.Builder) map[string]int {
			tu := b.ToUnicode(1, map[string]string{"49": "\u25b6"}, nil)
			return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /MSAM10 /Encoding << /Type /Encoding /Differences [73 /trianglerightsld] >> /ToUnicode %d 0 R >>", tu))}
		}, "\u25b6 item", nil},
	}
	for _, tc := range tests {
		doc, err := Extract(onePage(t, tc.content, tc.fonts), Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := doc.Pages[0]
		if p.Text != tc.text || !slices.Equal(p.Alts, tc.alts) {
			t.Errorf("%s: text %q alts %q, want %q %q", tc.name, p.Text, p.Alts, tc.text, tc.alts)
		}
	}
}
