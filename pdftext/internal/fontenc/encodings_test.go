package fontenc

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

func mustBase(t *testing.T, name string) *Encoding {
	t.Helper()
	e, ok := BaseEncoding(name)
	if !ok {
		t.Fatalf("BaseEncoding(%q) not found", name)
	}
	return e
}

func countEncoded(e *Encoding) int {
	n := 0
	for _, s := range e {
		if s != "" {
			n++
		}
	}
	return n
}

func TestBaseEncodingSpotChecks(t *testing.T) {
	tests := []struct {
		enc    string
		code   byte
		want   string
		reason string
	}{
		{"StandardEncoding", 0047, "quoteright", "Standard puts the typographic apostrophe at ASCII '"},
		{"StandardEncoding", 0140, "quoteleft", "Standard puts the left quote at ASCII `"},
		{"StandardEncoding", 0251, "quotesingle", "Standard's straight apostrophe is moved up"},
		{"StandardEncoding", 0256, "fi", "Standard encodes the fi ligature"},
		{"StandardEncoding", 0200, "", "Standard leaves 0200-0240 unused"},
		{"StandardEncoding", 0365, "dotlessi", "Table D.2 row dotlessi"},
		{"WinAnsiEncoding", 0047, "quotesingle", "WinAnsi is ASCII at 047"},
		{"WinAnsiEncoding", 0140, "grave", "WinAnsi is ASCII at 0140"},
		{"WinAnsiEncoding", 0200, "Euro", "note 1: Euro added in PDF 1.3"},
		{"WinAnsiEncoding", 0216, "Zcaron", "note 2"},
		{"WinAnsiEncoding", 0236, "zcaron", "note 2"},
		{"WinAnsiEncoding", 0225, "bullet", "the one code assigned to bullet"},
		{"WinAnsiEncoding", 0201, "bullet", "note 3: unused codes above 040 map to bullet"},
		{"WinAnsiEncoding", 0177, "bullet", "note 3 covers 0177 too"},
		{"WinAnsiEncoding", 0240, "space", "note 6: non-breaking space is space"},
		{"WinAnsiEncoding", 0255, "hyphen", "note 5: soft hyphen is hyphen"},
		{"WinAnsiEncoding", 0037, "", "control codes stay unencoded"},
		{"MacRomanEncoding", 0047, "quotesingle", "Table D.2 gives MacRoman 047 to quotesingle"},
		{"MacRomanEncoding", 0312, "space", "note 6"},
		{"MacRomanEncoding", 0333, "currency", "note 1: PDF kept currency, not Apple's Euro"},
		{"MacRomanEncoding", 0255, "", "notequal is outside the Latin set"},
		{"MacRomanEncoding", 0360, "", "the Apple logo is not in PDF's MacRoman"},
		{"MacRomanEncoding", 0336, "fi", "MacRoman fi"},
		{"PDFDocEncoding", 0030, "breve", "PDFDoc puts accents at 030-037"},
		{"PDFDocEncoding", 0212, "minus", "minus is only in PDFDoc"},
		{"PDFDocEncoding", 0240, "Euro", "note 1"},
		{"PDFDocEncoding", 0255, "", "PDFDoc 0255 is undefined"},
		{"MacExpertEncoding", 0043, "centoldstyle", "Table D.4"},
		{"MacExpertEncoding", 0126, "ff", "Table D.4"},
		{"MacExpertEncoding", 0104, "Ethsmall", "Table D.4"},
		{"MacExpertEncoding", 0372, "Dotaccentsmall", "Table D.4"},
		{"MacExpertEncoding", 0101, "", "MacExpert leaves 0101 unused"},
	}
	for _, tc := range tests {
		e := mustBase(t, tc.enc)
		if got := e[tc.code]; got != tc.want {
			t.Errorf("%s[0%03o] = %q, want %q (%s)", tc.enc, tc.code, got, tc.want, tc.reason)
		}
	}
}

func TestBaseEncodingNames(t *testing.T) {
	for _, name := range []string{"Identity-H", "winansiencoding", "Standard", "", "SymbolEncoding"} {
		if _, ok := BaseEncoding(name); ok {
			t.Errorf("BaseEncoding(%q) found; PDF names are exact and case-sensitive", name)
		}
	}
}

func TestBaseEncodingIsCopy(t *testing.T) {
	e := mustBase(t, "WinAnsiEncoding")
	e[0101] = "changed"
	if f := mustBase(t, "WinAnsiEncoding"); f[0101] != "A" {
		t.Fatalf("a change to one copy leaked into the next: %q", f[0101])
	}
	s := Symbol()
	s[0141] = "changed"
	if Symbol()[0141] != "alpha" {
		t.Fatal("Symbol() is not a copy")
	}
}

func TestEncodingSizes(t *testing.T) {
	tests := []struct {
		name   string
		enc    *Encoding
		want   int
		reason string
	}{
		{"StandardEncoding", mustBase(t, "StandardEncoding"), 149, "the codes of an AdobeStandardEncoding AFM"},
		{"WinAnsiEncoding", mustBase(t, "WinAnsiEncoding"), 224, "every code from 040 to 0377 (note 3)"},
		{"MacRomanEncoding", mustBase(t, "MacRomanEncoding"), 208, "Mac OS Roman's 223 printable codes less 15 outside the Latin set"},
		{"PDFDocEncoding", mustBase(t, "PDFDocEncoding"), 95 + 8 + 31 + 1 + 94, "Table D.2's PDF column"},
		{"MacExpertEncoding", mustBase(t, "MacExpertEncoding"), 165, "Table D.4 rows"},
		{"Symbol", Symbol(), 189, "Symbol.afm encodes 189 of its 190 glyphs (not apple)"},
		{"ZapfDingbats", ZapfDingbats(), 202, "ZapfDingbats.afm encodes all 202 glyphs"},
	}
	for _, tc := range tests {
		if got := countEncoded(tc.enc); got != tc.want {
			t.Errorf("%s encodes %d codes, want %d (%s)", tc.name, got, tc.want, tc.reason)
		}
	}
}

// The STD column of Table D.2 must equal the built-in encoding in each Latin
// standard font's AFM file, an independent source.
func TestStandardEncodingMatchesAFM(t *testing.T) {
	std := mustBase(t, "StandardEncoding")
	for i := fontCourier; i <= fontTimesBoldItalic; i++ {
		afm := std14[i].encoding()
		if afm != *std {
			for c := range afm {
				if afm[c] != std[c] {
					t.Errorf("%s: code 0%03o: AFM %q, StandardEncoding %q", std14[i].name, c, afm[c], std[c])
				}
			}
		}
	}
}

// Every glyph of the Latin character set (Table D.2) must have a width in
// every Latin standard font, as Annex D.2 requires.
func TestLatinSetInStandardFonts(t *testing.T) {
	for i := fontCourier; i <= fontTimesBoldItalic; i++ {
		m, ok := StandardFont(std14[i].name)
		if !ok {
			t.Fatalf("StandardFont(%q) not found", std14[i].name)
		}
		for _, r := range latinSet {
			if _, ok := m.Width(r.name); !ok {
				t.Errorf("%s has no width for %q", m.FontName, r.name)
			}
		}
	}
}

// WinAnsiEncoding is Windows code page 1252; compare through the glyph list
// with golang.org/x/text's table for it.
func TestWinAnsiMatchesCP1252(t *testing.T) {
	win := mustBase(t, "WinAnsiEncoding")
	exceptions := map[byte]string{
		0240: "space",  // note 6: NBSP
		0255: "hyphen", // note 5: soft hyphen
	}
	for _, c := range winAnsiBullet {
		exceptions[c] = "bullet" // note 3
	}
	dec := charmap.Windows1252
	for code := 0; code < 256; code++ {
		name := win[code]
		if code < 040 {
			if name != "" {
				t.Errorf("WinAnsi[0%03o] = %q, want unencoded control code", code, name)
			}
			continue
		}
		if want, ok := exceptions[byte(code)]; ok {
			if name != want {
				t.Errorf("WinAnsi[0%03o] = %q, want %q by Table D.2's notes", code, name, want)
			}
			continue
		}
		r := dec.DecodeByte(byte(code))
		got, ok := GlyphUnicode(name, false)
		if !ok || got != string(r) {
			t.Errorf("WinAnsi[0%03o] = %q -> %q, cp1252 has %U", code, name, got, r)
		}
	}
}

// MacRomanEncoding is Mac OS Roman restricted to the standard Latin set.
func TestMacRomanMatchesMacintosh(t *testing.T) {
	mac := mustBase(t, "MacRomanEncoding")
	notInLatinSet := map[byte]bool{
		0255: true, 0260: true, 0262: true, 0263: true, 0266: true, 0267: true,
		0270: true, 0271: true, 0272: true, 0275: true, 0303: true, 0305: true,
		0306: true, 0327: true, 0360: true,
	}
	dec := charmap.Macintosh
	for code := 0; code < 256; code++ {
		name := mac[code]
		switch {
		case code < 040 || code == 0177:
			if name != "" {
				t.Errorf("MacRoman[0%03o] = %q, want unencoded control code", code, name)
			}
			continue
		case notInLatinSet[byte(code)]:
			if name != "" {
				t.Errorf("MacRoman[0%03o] = %q, want unencoded (outside the Latin set)", code, name)
			}
			continue
		case code == 0333:
			if name != "currency" {
				t.Errorf("MacRoman[0333] = %q, want currency (Table D.2 note 1)", name)
			}
			continue
		case code == 0312:
			if name != "space" {
				t.Errorf("MacRoman[0312] = %q, want space (Table D.2 note 6)", name)
			}
			continue
		}
		r := dec.DecodeByte(byte(code))
		got, ok := GlyphUnicode(name, false)
		if !ok || got != string(r) {
			t.Errorf("MacRoman[0%03o] = %q -> %q, Mac OS Roman has %U", code, name, got, r)
		}
	}
}

// The PDF column of Table D.2 and the PDFDocEncoding text table (Annex D.3)
// are two views of one encoding.
func TestPDFDocNamesMatchRunes(t *testing.T) {
	pdf := mustBase(t, "PDFDocEncoding")
	for code := 0; code < 256; code++ {
		name := pdf[code]
		r, ok := PDFDocRune(byte(code))
		if name == "" {
			if ok && code != 0x09 && code != 0x0A && code != 0x0D {
				t.Errorf("PDFDoc 0x%02X: no glyph name but rune %U", code, r)
			}
			continue
		}
		got, gok := GlyphUnicode(name, false)
		if !gok || !ok || got != string(r) {
			t.Errorf("PDFDoc 0x%02X: glyph %q -> %q, text table %U", code, name, got, r)
		}
	}
}

// Every glyph name in every encoding table must map to Unicode; this checks
// the tables' spelling against the glyph lists.
func TestEncodingNamesHaveUnicode(t *testing.T) {
	encs := map[string]*Encoding{"Symbol": Symbol(), "ZapfDingbats": ZapfDingbats()}
	for _, n := range []string{"StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding", "MacExpertEncoding", "PDFDocEncoding"} {
		encs[n] = mustBase(t, n)
	}
	for en, e := range encs {
		zapf := en == "ZapfDingbats"
		for code, name := range e {
			if name == "" {
				continue
			}
			if s, ok := GlyphUnicode(name, zapf); !ok || !utf8.ValidString(s) {
				t.Errorf("%s[0%03o] = %q has no Unicode value", en, code, name)
			}
		}
	}
}

func TestMacExpertTableWellFormed(t *testing.T) {
	seenName := map[string]bool{}
	seenCode := map[int]bool{}
	for _, r := range macExpertSet {
		if seenName[r.name] || seenCode[r.code] {
			t.Errorf("duplicate MacExpert row %q 0%03o", r.name, r.code)
		}
		seenName[r.name], seenCode[r.code] = true, true
		if r.code < 040 || r.code > 0377 {
			t.Errorf("MacExpert %q code 0%03o out of range", r.name, r.code)
		}
	}
}
