package pdftext

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// onePage builds a one-page PDF whose fonts are made by fonts and whose
// content is content.
func onePage(t *testing.T, content string, fonts func(b *fixtures.Builder) map[string]int) []byte {
	t.Helper()
	var b fixtures.Builder
	page := fixtures.Page{Content: content, Fonts: fonts(&b)}
	return b.Document([]fixtures.Page{page})
}

func helvetica(b *fixtures.Builder) map[string]int {
	return map[string]int{"F1": b.StandardFont("Helvetica", "WinAnsiEncoding")}
}

func extractText(t *testing.T, pdf []byte) []string {
	t.Helper()
	doc, err := Extract(pdf, Options{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	var pages []string
	for _, p := range doc.Pages {
		pages = append(pages, p.Text)
	}
	return pages
}

// TestAnnotationAppearances: the normal appearance of a visible annotation
// is page text (pdftotext reads it too); hidden ones and popups are not.
func TestAnnotationAppearances(t *testing.T) {
	var b fixtures.Builder
	font := b.StandardFont("Helvetica", "WinAnsiEncoding")
	res := fmt.Sprintf("/Resources << /Font << /F1 %d 0 R >> >>", font)
	ap := func(text string) int {
		return b.AddStream("/Type /XObject /Subtype /Form /BBox [0 0 200 20] "+res, []byte("BT /F1 10 Tf 2 5 Td ("+text+") Tj ET"))
	}
	shown := b.Add(fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /Rect [100 500 300 520] /AP << /N %d 0 R >> >>", ap("a visible note")))
	states := b.Add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /Rect [100 400 300 420] /AS /On /AP << /N << /On %d 0 R /Off %d 0 R >> >> >>", ap("state on"), ap("state off")))
	hidden := b.Add(fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /F 2 /Rect [100 300 300 320] /AP << /N %d 0 R >> >>", ap("hidden note")))
	pdf := b.Document([]fixtures.Page{{Content: "BT /F1 12 Tf 72 700 Td (body) Tj ET", Fonts: map[string]int{"F1": font}, Annots: []int{shown, states, hidden}}})
	got := extractText(t, pdf)
	if want := "body\na visible note\nstate on"; len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestTextLayer pins one feature of the text layer per case, each on a PDF
// built for it.
func TestTextLayer(t *testing.T) {
	tests := []struct {
		name    string
		why     string
		content string
		fonts   func(b *fixtures.Builder) map[string]int
		want    string
	}{
		{
			name:    "kerning",
			why:     "small TJ adjustments inside a word are kerning, not spaces",
			content: "BT /F1 12 Tf 72 700 Td [(W)80(A)-20(V)45(E)] TJ ET",
			fonts:   helvetica,
			want:    "WAVE",
		},
		{
			name:    "tj-word-gaps",
			why:     "a TJ move wider than a tenth of an em between words is a word space",
			content: "BT /F1 12 Tf 72 700 Td [(three)-300(separate)-250(words)] TJ ET",
			fonts:   helvetica,
			want:    "three separate words",
		},
		{
			name:    "tj-threshold",
			why:     "a move of 0.08 em stays inside the word, 0.12 em splits it",
			content: "BT /F1 10 Tf 72 700 Td [(ab)-80(cd)-120(ef)] TJ ET",
			fonts:   helvetica,
			want:    "abcd ef",
		},
		{
			name:    "space-glyph-with-Tw",
			why:     "Tw widens drawn spaces; the text keeps one space, not two",
			content: "BT /F1 12 Tf 72 700 Td 8 Tw (justified line of text) Tj ET",
			fonts:   helvetica,
			want:    "justified line of text",
		},
		{
			name:    "Tc-letter-spacing",
			why:     "character spacing wider than a word gap separates letters: poppler, MuPDF and pdf.js read it so, and some PDFs space words with Tc alone",
			content: "BT /F1 12 Tf 72 700 Td 3 Tc (SPACED) Tj 0 Tc ( OUT) Tj ET",
			fonts:   helvetica,
			want:    "S P A C E D OUT",
		},
		{
			name:    "Tc-word-spacing",
			why:     "a word space made by Tc after the last glyph of a word (The Go Programming Language's typesetting)",
			content: "BT /F1 10 Tf 72 700 Td (Thi) Tj 2.33 Tc 11.1 0 Td (sc) Tj -0.03 Tc 10.2 0 Td (ha) Tj ET",
			fonts:   helvetica,
			want:    "This cha",
		},
		{
			name:    "Tw-cancelled-space",
			why:     "a space glyph whose advance a negative Tw cancels separates nothing",
			content: "BT /F1 10 Tf 72 700 Td -2.5 Tw (pt er) Tj ET",
			fonts:   helvetica,
			want:    "pter",
		},
		{
			name:    "space-inside-wide-glyph",
			why:     "a space glyph drawn inside the extent of an over-wide ligature glyph (MinionPro's T_h) is no word boundary",
			content: "BT /F1 10 Tf 72 700 Td (W) Tj 0.5 0 Td ( e) Tj ET",
			fonts:   helvetica,
			want:    "We",
		},
		{
			name:    "actualtext-inline",
			why:     "/ActualText replaces the glyphs drawn inside its marked-content span",
			content: "BT /F1 10 Tf 72 700 Td (see ) Tj /Span << /ActualText (fish) >> BDC (f) Tj (i) Tj (sh) Tj EMC ( here) Tj ET",
			fonts:   helvetica,
			want:    "see fish here",
		},
		{
			name:    "actualtext-utf16-nested",
			why:     "a UTF-16 ActualText wins over an inner one and over plain BMC nesting",
			content: "BT /F1 10 Tf 72 700 Td /Span << /ActualText <FEFF00E9> >> BDC /X BMC /Span << /ActualText (z) >> BDC (e') Tj EMC EMC EMC ( ok) Tj ET",
			fonts:   helvetica,
			want:    "é ok",
		},
		{
			name:    "unbalanced-emc",
			why:     "a stray EMC is ignored",
			content: "BT /F1 10 Tf 72 700 Td EMC (text) Tj ET",
			fonts:   helvetica,
			want:    "text",
		},
		{
			name:    "fake-bold-line-twice",
			why:     "a line drawn twice, the copy offset by a fraction of a point after the whole original, is read once",
			content: "BT /F1 12 Tf 72 700 Td (Heading) Tj ET BT /F1 12 Tf 72.4 700.2 Td (Heading) Tj ET BT /F1 12 Tf 72 680 Td (body) Tj ET",
			fonts:   helvetica,
			want:    "Heading\nbody",
		},
		{
			name:    "overlapping-lines-keep-their-digits",
			why:     "a glyph on another line's glyph of the same character, with other neighbours, is no copy: issue-912's amount 26406576 drawn over a wrapped line's 144,",
			content: "BT /F1 10 Tf 72 700 Td (144,) Tj ET BT /F1 10 Tf 72.5 700 Td (2640) Tj ET",
			fonts:   helvetica,
			want:    "144,\n2640",
		},
		{
			name:    "fake-bold-run-inside-a-line",
			why:     "a word drawn again a fraction of a point to the right, after the line goes on, is read once: its glyphs repeat their neighbours too",
			content: "BT /F1 12 Tf 72 700 Td (Bold) Tj ET BT /F1 12 Tf 72.3 700 Td (Bold) Tj ET BT /F1 12 Tf 110 700 Td (text) Tj ET",
			fonts:   helvetica,
			want:    "Bold text",
		},
		{
			name:    "accent-over-the-next-letter",
			why:     "a spacing accent drawn over the letter after it, which jumps back under it, joins the word: no space, no line break (poppler's test)",
			content: "BT /F1 10 Tf 72 700 Td (B) Tj ET BT /F1 10 Tf 79.5 700 Td (\\250) Tj ET BT /F1 10 Tf 78.67 700 Td (unning et al.) Tj ET",
			fonts:   helvetica,
			want:    "B\u00a8unning et al.",
		},
		{
			name:    "accent-over-the-previous-letter",
			why:     "a spacing accent drawn over the letter before it leaves the next letter's gap measured from that letter",
			content: "BT /F1 10 Tf 72 700 Td (Age) Tj ET BT /F1 10 Tf 85.35 700 Td (\\210) Tj ET BT /F1 10 Tf 89.9 700 Td (ncia) Tj ET",
			fonts:   helvetica,
			want:    "Age\u02c6ncia",
		},
		{
			name:    "accent-alone",
			why:     "a spacing accent over no letter is a glyph like any other",
			content: "BT /F1 10 Tf 72 700 Td (x ) Tj ET BT /F1 10 Tf 90 700 Td (\\250) Tj ET BT /F1 10 Tf 100 700 Td (y) Tj ET",
			fonts:   helvetica,
			want:    "x \u00a8 y",
		},
		{
			name:    "same-word-elsewhere",
			why:     "the same word drawn again at another place is kept",
			content: "BT /F1 12 Tf 72 700 Td (again) Tj ET BT /F1 12 Tf 72 680 Td (again) Tj ET",
			fonts:   helvetica,
			want:    "again\nagain",
		},
		{
			name:    "Tc-small",
			why:     "character spacing under a tenth of an em does not split a word",
			content: "BT /F1 10 Tf 72 700 Td 0.5 Tc (tight) Tj ET",
			fonts:   helvetica,
			want:    "tight",
		},
		{
			name:    "Tz-condensed",
			why:     "horizontal scaling shrinks widths and gaps alike",
			content: "BT /F1 12 Tf 72 700 Td 50 Tz [(con)-50(densed)-400(words)] TJ ET",
			fonts:   helvetica,
			want:    "condensed words",
		},
		{
			name:    "positioned-words",
			why:     "words placed by Td with no space glyph get a space from the gap",
			content: "BT /F1 12 Tf 72 700 Td (left) Tj 40 0 Td (right) Tj ET",
			fonts:   helvetica,
			want:    "left right",
		},
		{
			name:    "afm-widths",
			why:     "a standard font without /Widths is measured with its AFM widths, so adjacent pieces join",
			content: "BT /F1 12 Tf 72 700 Td (WWW) Tj ET BT /F1 12 Tf 105.984 700 Td (ide) Tj ET",
			fonts:   helvetica,
			want:    "WWWide",
		},
		{
			name:    "baseline-change",
			why:     "a new baseline starts a new line",
			content: "BT /F1 12 Tf 14 TL 72 700 Td (first line) Tj T* (second line) Tj ET",
			fonts:   helvetica,
			want:    "first line\nsecond line",
		},
		{
			name:    "superscript-rise",
			why:     "a raised footnote mark stays on its line",
			content: "BT /F1 12 Tf 72 700 Td (value) Tj 4 Ts (2) Tj 0 Ts ( more) Tj ET",
			fonts:   helvetica,
			want:    "value2 more",
		},
		{
			name:    "quote-operators",
			why:     "' and \" move to the next line and show text; \" also sets Tw and Tc",
			content: "BT /F1 12 Tf 14 TL 72 700 Td (one) Tj (two) ' 1 0 (three) \" ET",
			fonts:   helvetica,
			want:    "one\ntwo\nthree",
		},
		{
			name:    "rotated-text-matrix",
			why:     "text drawn rotated 90 degrees reads along its own direction",
			content: "BT /F1 12 Tf 0 1 -1 0 300 200 Tm [(going)-250(up)] TJ ET",
			fonts:   helvetica,
			want:    "going up",
		},
		{
			name:    "negative-font-size",
			why:     "a negative Tf size turns glyphs half a turn; they advance leftwards and read in drawing order, one line, as all four reference extractors read pdf.js issue14415",
			content: "BT /F1 -12 Tf 1 0 0 1 300 700 Tm (upside down) Tj ET BT /F1 -12 Tf 1 0 0 1 300 680 Tm (second line) Tj ET",
			fonts:   helvetica,
			want:    "upside down\nsecond line",
		},
		{
			name:    "cm-scaled",
			why:     "positions come from the full text rendering matrix, CTM included",
			content: "q 2 0 0 2 0 0 cm BT /F1 6 Tf 36 350 Td (big) Tj 12 0 Td (text) Tj ET Q",
			fonts:   helvetica,
			want:    "big text",
		},
		{
			name:    "content-order",
			why:     "text keeps content-stream order even when drawn right to left on the page",
			content: "BT /F1 12 Tf 300 700 Td (second) Tj ET BT /F1 12 Tf 72 700 Td (first) Tj ET",
			fonts:   helvetica,
			want:    "second\nfirst",
		},
		{
			name:    "fake-bold",
			why:     "a glyph overprinted on itself (fake bold) is kept once",
			content: "BT /F1 12 Tf 72 700 Td (B) Tj ET BT /F1 12 Tf 72.3 700 Td (B) Tj ET BT /F1 12 Tf 80.3 700 Td (old) Tj ET",
			fonts:   helvetica,
			want:    "Bold",
		},
		{
			name:    "differences",
			why:     "Differences renames codes; glyph names map through the AGL, ligatures and uniXXXX included",
			content: "BT /F1 12 Tf 72 700 Td <01020304> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				enc := b.Add("<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /A /fi /uni20AC /f_f_l] >>")
				return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding %d 0 R >>", enc))}
			},
			want: "A\ufb01€ffl",
		},
		{
			name:    "tounicode-bfchar-bfrange",
			why:     "ToUnicode wins over the encoding: bfchar for single codes, bfrange for runs, one code to several characters",
			content: "BT /F1 12 Tf 72 700 Td <0102033132> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				tu := b.ToUnicode(1, map[string]string{"01": "Z", "02": "ffi"}, []string{"<03> <03> <00E9>", "<31> <32> <0061>"})
				return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode %d 0 R >>", tu))}
			},
			want: "Zffiéab",
		},
		{
			name:    "type0-identity-h",
			why:     "a Type0 Identity-H font reads 2-byte codes through its ToUnicode CMap, with widths from W",
			content: "BT /F1 12 Tf 72 700 Td <0005000600070007> Tj [<0008>-400<0009>] TJ ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				tu := b.ToUnicode(2, nil, []string{"<0005> <0009> <0043>"})
				cid := b.Add("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 /W [5 [600 500] 7 9 400] >>")
				return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", cid, tu))}
			},
			want: "CDEEF G",
		},
		{
			name:    "type0-90ms-rksj-h",
			why:     "a predefined Shift-JIS CMap without ToUnicode reads its codes through the character set: 1-byte ASCII, 2-byte kanji",
			content: "BT /F1 12 Tf 72 700 Td <4193fa967b8cea> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				cid := b.Add("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /DW 1000 >>")
				return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /90ms-RKSJ-H /DescendantFonts [%d 0 R] >>", cid))}
			},
			want: "A日本語",
		},
		{
			name:    "cp936-font",
			why:     "a not embedded Chinese font (BaseFont 宋体 in GBK bytes, Flags 4, FontName a string) that claims WinAnsiEncoding holds GBK strings, as MuPDF reads them",
			content: "BT /F1 12 Tf 72 700 Td <C4BFA1A1C2BC31> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				return map[string]int{"F1": b.Add("<< /Type /Font /Subtype /TrueType /BaseFont /#CB#CE#CC#E5 /Encoding /WinAnsiEncoding /FirstChar 0 /LastChar 0 /Widths [500] /FontDescriptor << /Type /FontDescriptor /Flags 4 /FontName <CBCECCE5> /MissingWidth 1000 >> >>")}
			},
			want: "目 录1", // the ideographic space A1A1 is a word space
		},
		{
			name:    "cp936-needs-all-signs",
			why:     "the same font with Flags 32 (nonsymbolic) is taken at its word: WinAnsi",
			content: "BT /F1 12 Tf 72 700 Td <C4BFC2BC> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				return map[string]int{"F1": b.Add("<< /Type /Font /Subtype /TrueType /BaseFont /#CB#CE#CC#E5 /Encoding /WinAnsiEncoding /FontDescriptor << /Type /FontDescriptor /Flags 32 /FontName <CBCECCE5> >> >>")}
			},
			want: "Ä¿Â¼",
		},
		{
			name:    "tex-glyph-names",
			why:     "TeX math fonts' glyph names outside the AGL (CMSY angbracketleft, MSAM squaresolid) map through the TeX list",
			content: "BT /F1 12 Tf 72 700 Td <4178423e4a> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				return map[string]int{"F1": b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /Encoding << /Differences [65 /angbracketleft 66 /angbracketright 74 /squaresolid] >> >>")}
			},
			want: "⟨x⟩>■",
		},
		{
			name:    "tounicode-cidrange",
			why:     "a ToUnicode CMap written with cidrange (Iceni's producer) gives the CID number as the code point, as poppler and MuPDF read it",
			content: "BT /F1 12 Tf 72 700 Td <4e2d56fd> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				tu := b.AddStream("<< >>", []byte("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n2 begincidrange\n<4e00> <4eff> 19968\n<5600> <56ff> 22016\nendcidrange\nendcmap\nend end\n"))
				cid := b.Add("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 >>")
				return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", cid, tu))}
			},
			want: "中国",
		},
		{
			name:    "type3-names-nobody-knows",
			why:     "a Type 3 font's Differences name glyphs B9 and CP: the code is read through the base encoding, as poppler, MuPDF, pdf.js and pdfminer do",
			content: "BT /F1 12 Tf 72 700 Td (Ab) Tj ET",
			fonts:   type3Font("/BaseEncoding /WinAnsiEncoding /Differences [65 /B9 98 /CP]"),
			want:    "Ab",
		},
		{
			name:    "type3-numbered-names",
			why:     "glyph names that spell a code (C41, and hex for every C name once one is C4b) read as that code point, as pdf.js does",
			content: "BT /F1 12 Tf 72 700 Td (AB) Tj ET",
			fonts:   type3Font("/Differences [65 /C41 /C4b]"),
			want:    "AK",
		},
		{
			name:    "type3-capitalized-name",
			why:     "a glyph name the AGL knows in lower case (Bullet) reads as that glyph, not the code's letter",
			content: "BT /F1 12 Tf 72 700 Td (b) Tj ET",
			fonts:   type3Font("/Differences [98 /Bullet]"),
			want:    "•",
		},
		{
			name:    "unmapped-code",
			why:     "a code no encoding maps becomes U+FFFD, never its raw byte",
			content: "BT /F1 12 Tf 72 700 Td <41074243> Tj ET",
			fonts: func(b *fixtures.Builder) map[string]int {
				return map[string]int{"F1": b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Foo /Encoding /StandardEncoding >>")}
			},
			want: "A\uFFFDBC",
		},
		{
			name:    "form-xobject",
			why:     "text inside a form XObject is extracted where the form is drawn",
			content: "BT /F1 12 Tf 72 700 Td (before) Tj ET /Fm1 Do BT /F1 12 Tf 72 600 Td (after) Tj ET",
			fonts:   helvetica,
			want:    "before\ninside the form\nafter",
		},
		{
			name:    "inline-image",
			why:     "inline image data, even holding EI, is skipped and the text after it is kept",
			content: "BT /F1 12 Tf 72 700 Td (above) Tj ET BI /W 4 /H 1 /BPC 8 /CS /G ID \x00EI\xff EI Q BT /F1 12 Tf 72 600 Td (below) Tj ET",
			fonts:   helvetica,
			want:    "above\nbelow",
		},
		{
			name:    "bad-operands",
			why:     "operators with missing or mistyped operands are ignored, not fatal",
			content: "BT /F1 Tf (x) 12 Td /F1 12 Tf 72 700 Td (kept) Tj 1 2 3 Tm ( too) Tj ET",
			fonts:   helvetica,
			want:    "kept too",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pdf []byte
			if tc.name == "form-xobject" {
				pdf = formPDF()
			} else {
				pdf = onePage(t, tc.content, tc.fonts)
			}
			got := extractText(t, pdf)
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("%s\ngot  %q\nwant %q", tc.why, got, tc.want)
			}
		})
	}
}

func formPDF() []byte {
	var b fixtures.Builder
	font := b.StandardFont("Helvetica", "WinAnsiEncoding")
	form := b.AddStream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 500 100] /Matrix [1 0 0 1 0 650] /Resources << /Font << /F9 %d 0 R >> >>", font),
		[]byte("BT /F9 12 Tf 72 0 Td (inside the form) Tj ET"))
	return b.Document([]fixtures.Page{{
		Content:  "BT /F1 12 Tf 72 700 Td (before) Tj ET /Fm1 Do BT /F1 12 Tf 72 600 Td (after) Tj ET",
		Fonts:    map[string]int{"F1": font},
		XObjects: map[string]int{"Fm1": form},
	}})
}

func TestPageRotationKeepsText(t *testing.T) {
	var b fixtures.Builder
	font := b.StandardFont("Times-Roman", "WinAnsiEncoding")
	content := "BT /F1 12 Tf 72 700 Td (rotated page text) Tj ET"
	pages := []fixtures.Page{}
	for _, rot := range []int{0, 90, 180, 270, -90} {
		pages = append(pages, fixtures.Page{Content: content, Fonts: map[string]int{"F1": font}, Rotate: rot})
	}
	for i, text := range extractText(t, b.Document(pages)) {
		if text != "rotated page text" {
			t.Errorf("page %d: /Rotate changes the display, not the text: got %q", i+1, text)
		}
	}
}

func TestFormCycleIsBroken(t *testing.T) {
	var b fixtures.Builder
	font := b.StandardFont("Helvetica", "WinAnsiEncoding")
	form := b.Reserve()
	b.SetStream(form, fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 %d 0 R >> /XObject << /Me %d 0 R >> >>", font, form),
		[]byte("BT /F1 12 Tf 72 700 Td (loop) Tj ET /Me Do"))
	pdf := b.Document([]fixtures.Page{{Content: "/Me Do", XObjects: map[string]int{"Me": form}}})
	doc, err := Extract(pdf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Pages[0].Text; got != "loop" {
		t.Errorf("a form drawing itself runs once: got %q", got)
	}
	if !strings.Contains(strings.Join(doc.Pages[0].Warnings, "\n"), "cycle") {
		t.Errorf("the broken cycle is reported: warnings %q", doc.Pages[0].Warnings)
	}
}

func TestEncryptedWithEmptyPassword(t *testing.T) {
	plain := onePage(t, "BT /F1 12 Tf 72 700 Td (secret but readable) Tj ET", helvetica)
	for _, conf := range []*model.Configuration{
		model.NewRC4Configuration("", "owner", 128),
		model.NewAESConfiguration("", "owner", 128),
		model.NewAESConfiguration("", "owner", 256),
	} {
		var enc bytes.Buffer
		if err := api.Encrypt(bytes.NewReader(plain), &enc, conf); err != nil {
			t.Fatalf("encrypting the fixture: %v", err)
		}
		if bytes.Contains(enc.Bytes(), []byte("secret")) {
			t.Fatal("fixture is not encrypted")
		}
		got := extractText(t, enc.Bytes())
		if len(got) != 1 || got[0] != "secret but readable" {
			t.Errorf("%v-bit %s, empty user password: got %q", conf.EncryptKeyLength, map[bool]string{true: "AES", false: "RC4"}[conf.EncryptUsingAES], got)
		}
	}
}

func TestEncryptedNeedsPassword(t *testing.T) {
	plain := onePage(t, "BT /F1 12 Tf 72 700 Td (locked) Tj ET", helvetica)
	var enc bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(plain), &enc, model.NewAESConfiguration("user", "owner", 256)); err != nil {
		t.Fatal(err)
	}
	if _, err := Extract(enc.Bytes(), Options{}); !errors.Is(err, ErrEncrypted) {
		t.Errorf("without the password: got %v, want ErrEncrypted", err)
	}
	if _, err := Extract(enc.Bytes(), Options{Passwords: []string{"wrong"}}); !errors.Is(err, ErrEncrypted) {
		t.Errorf("with a wrong password: got %v, want ErrEncrypted", err)
	}
	doc, err := Extract(enc.Bytes(), Options{Passwords: []string{"wrong", "user"}})
	if err != nil || doc.Pages[0].Text != "locked" {
		t.Errorf("with the user password among the candidates: %v %+v", err, doc)
	}
}

func TestMalformedInputs(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrMalformed},
		{"blank", []byte(" \n\t "), ErrMalformed},
		{"not-pdf", []byte("hello, this is a text file\n"), ErrMalformed},
		{"header-only", []byte("%PDF-1.7\n%%EOF\n"), ErrMalformed},
	}
	for _, tc := range tests {
		if _, err := Extract(tc.data, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestBrokenXRefIsRebuilt(t *testing.T) {
	pdf := onePage(t, "BT /F1 12 Tf 72 700 Td (survives a bad xref) Tj ET", helvetica)
	// Shift every object by inserting bytes after the header: all xref
	// offsets are now wrong, and the startxref points into garbage.
	broken := bytes.Replace(pdf, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n% padding that moves every object by forty bytes\n"), 1)
	broken = bytes.Replace(broken, []byte("startxref"), []byte("startxref\n999999\n%%EOF\nstartxref"), 1)
	doc, err := Extract(broken, Options{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if doc.Pages[0].Text != "survives a bad xref" {
		t.Errorf("got %q", doc.Pages[0].Text)
	}
}

func TestMissingCatalogFindsPages(t *testing.T) {
	var b fixtures.Builder
	font := b.StandardFont("Helvetica", "WinAnsiEncoding")
	content := b.AddStream("", []byte("BT /F1 12 Tf 72 700 Td (orphan page) Tj ET"))
	b.Add(fmt.Sprintf("<< /Type /Page /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", content, font))
	pdf := b.Bytes("") // no /Root at all
	doc, err := Extract(pdf, Options{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(doc.Pages) != 1 || doc.Pages[0].Text != "orphan page" {
		t.Errorf("got %+v", doc.Pages)
	}
}

func TestPageLabels(t *testing.T) {
	var b fixtures.Builder
	font := b.StandardFont("Helvetica", "WinAnsiEncoding")
	var pages []fixtures.Page
	for i := range 5 {
		pages = append(pages, fixtures.Page{Content: fmt.Sprintf("BT /F1 12 Tf 72 700 Td (p%d) Tj ET", i+1), Fonts: map[string]int{"F1": font}})
	}
	pdf := b.Document(pages)
	// Add /PageLabels to the catalog (object 2 of Document's numbering).
	pdf = bytes.Replace(pdf, []byte("<< /Type /Catalog"), []byte("<< /PageLabels << /Nums [0 << /S /r >> 2 << /S /D >> 4 << /P (A-) /S /D /St 7 >>] >> /Type /Catalog"), 1)
	doc, err := Extract(pdf, Options{}) // offsets moved: the rebuild path reads it
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Pages {
		got = append(got, p.Label)
	}
	want := []string{"i", "ii", "1", "2", "A-7"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}

func TestASCIIHexTolerant(t *testing.T) {
	tests := []struct {
		in, want string
		warn     bool
		why      string
	}{
		{"48 65\n6c6C6f>", "Hello", false, "white space skipped, case ignored, > ends"},
		{"414", "A@", false, "an odd final digit is followed by 0"},
		{"41\x13zz42>43", "AB", true, "non-hex bytes are skipped with a warning; nothing after > is read"},
	}
	for _, tt := range tests {
		got, err := asciiHex([]byte(tt.in))
		if string(got) != tt.want || (err != nil) != tt.warn {
			t.Errorf("%s: asciiHex(%q) = %q, %v; want %q, warning %v", tt.why, tt.in, got, err, tt.want, tt.warn)
		}
	}
}

// TestGlyphBoxes pins the geometry: one box per glyph, at the glyph's
// origin and width (Helvetica A = 667/1000 em), from 0.2 em below the
// baseline to 0.8 em above, none for inserted separators, and one box
// covering every code point of a ligature's text.
func TestGlyphBoxes(t *testing.T) {
	pdf := onePage(t, "BT /F1 10 Tf 72 700 Td (AV) Tj 20 0 Td (A) Tj 0 -20 Td (A) Tj ET", helvetica)
	doc, err := Extract(pdf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	if p.Text != "AV A\nA" {
		t.Fatalf("text %q", p.Text)
	}
	want := []corpus.GlyphBox{
		{Start: 0, End: 1, X0: 72, Y0: 698, X1: 78.67, Y1: 708},
		{Start: 1, End: 2, X0: 78.67, Y0: 698, X1: 85.34, Y1: 708},
		{Start: 3, End: 4, X0: 92, Y0: 698, X1: 98.67, Y1: 708},
		{Start: 5, End: 6, X0: 92, Y0: 678, X1: 98.67, Y1: 688},
	}
	if len(p.Boxes) != len(want) {
		t.Fatalf("%d boxes, want %d: %v", len(p.Boxes), len(want), p.Boxes)
	}
	for i, w := range want {
		g := p.Boxes[i]
		if g.Start != w.Start || g.End != w.End || math.Abs(g.X0-w.X0) > 0.01 || math.Abs(g.Y0-w.Y0) > 0.01 || math.Abs(g.X1-w.X1) > 0.01 || math.Abs(g.Y1-w.Y1) > 0.01 {
			t.Errorf("box %d = %+v, want %+v", i, g, w)
		}
	}

	var b fixtures.Builder
	tu := b.ToUnicode(1, map[string]string{"01": "ffi"}, nil)
	font := b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode %d 0 R >>", tu))
	doc, err = Extract(b.Document([]fixtures.Page{{Content: "BT /F1 10 Tf 72 700 Td <0141> Tj ET", Fonts: map[string]int{"F1": font}}}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := doc.Pages[0]; p.Text != "ffiA" || len(p.Boxes) != 2 || p.Boxes[0].End != 3 || p.Boxes[1].Start != 3 {
		t.Errorf("ligature: text %q boxes %+v; want one box over ffi, one over A", p.Text, p.Boxes)
	}
}

// TestRightToLeft: a Hebrew line drawn left to right (visual order, as
// producers write it) comes out in logical order, with an embedded Latin
// word and number kept left to right; a left-to-right line is untouched.
func TestRightToLeft(t *testing.T) {
	var b fixtures.Builder
	tu := b.ToUnicode(1, map[string]string{"01": "ם", "02": "ו", "03": "ל", "04": "ש"}, []string{"<20> <7E> <0020>"})
	font := b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode %d 0 R >>", tu))
	content := "BT /F1 10 Tf 72 700 Td (abc 123 ) Tj <01020304> Tj ET BT /F1 10 Tf 72 680 Td <0102> Tj ( x) Tj ET BT /F1 10 Tf 72 660 Td (left to right) Tj ET"
	doc, err := Extract(b.Document([]fixtures.Page{{Content: content, Fonts: map[string]int{"F1": font}}}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	if want := "שלום abc 123\nx ום\nleft to right"; p.Text != want {
		t.Errorf("got %q, want %q", p.Text, want)
	}
	runes := []rune(p.Text)
	for _, bx := range p.Boxes {
		if bx.Start == 0 && (string(runes[0]) != "ש" || bx.X0 < 100) {
			t.Errorf("the first code point's box %+v should be the rightmost glyph, ש", bx)
		}
	}
}

// type3Font returns a fonts function for a Type 3 font F1 with the given
// encoding dictionary entries; every glyph draws nothing and is 600 wide.
func type3Font(encoding string) func(b *fixtures.Builder) map[string]int {
	return func(b *fixtures.Builder) map[string]int {
		proc := b.AddStream("<< >>", []byte("600 0 d0"))
		procs := fmt.Sprintf("<< /B9 %[1]d 0 R /CP %[1]d 0 R /C41 %[1]d 0 R /C4b %[1]d 0 R /Bullet %[1]d 0 R >>", proc)
		widths := strings.TrimSpace(strings.Repeat("600 ", 256))
		return map[string]int{"F1": b.Add(fmt.Sprintf("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs %s /Encoding << /Type /Encoding %s >> /FirstChar 0 /LastChar 255 /Widths [%s] >>", procs, encoding, widths))}
	}
}
