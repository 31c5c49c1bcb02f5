package fontenc

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

func TestGlyphListFiles(t *testing.T) {
	tests := []struct {
		name, text, sum string
	}{
		{"glyphlist.txt", aglText, "a3b2f61ced9f3644cc0d4ecde5c59df34ca286c689d9484a43a710a81c466789"},
		{"zapfdingbats.txt", zapfText, "f6394e3cb8a447e84a1dad75d4baaf2aa7f45dc104faf369f4720e1a774ef2dc"},
	}
	for _, tc := range tests {
		if got := fmt.Sprintf("%x", sha256.Sum256([]byte(tc.text))); got != tc.sum {
			t.Errorf("%s: sha256 %s, want %s (the file must be Adobe's, unmodified)", tc.name, got, tc.sum)
		}
		if !strings.Contains(tc.text, "Copyright 2002-2019 Adobe") {
			t.Errorf("%s: licence header missing", tc.name)
		}
	}
	agl, zapf, tex := GlyphListSize()
	if want := strings.Count(texText, "\n") - strings.Count(texText, "\n#") - strings.Count(texText[:1], "#"); tex != want {
		t.Errorf("TeX glyph names: %d entries parsed of %d lines: a malformed line", tex, want)
	}
	for name := range texMap {
		if _, ok := aglMap[name]; ok {
			t.Errorf("TeX glyph name %q is in the AGL: the AGL value wins, so the entry is dead", name)
		}
	}
	if agl != 4281 {
		t.Errorf("AGL has %d entries, want 4281", agl)
	}
	if zapf != 201 {
		t.Errorf("Zapf Dingbats list has %d entries, want 201", zapf)
	}
}

func TestGlyphUnicode(t *testing.T) {
	tests := []struct {
		name   string
		zapf   bool
		want   string
		ok     bool
		reason string
	}{
		// Well-known AGL entries.
		{"A", false, "A", true, "AGL: A"},
		{"Aacute", false, "\u00C1", true, "AGL: Aacute"},
		{"fi", false, "\uFB01", true, "AGL maps the ligature name to the presentation form"},
		{"afii10017", false, "\u0410", true, "AGL: Cyrillic A by its AFII number"},
		{"summation", false, "\u2211", true, "AGL: n-ary summation"},
		{"dotlessi", false, "\u0131", true, "AGL: dotless i"},
		{"space", false, " ", true, "AGL: space"},
		{"Euro", false, "\u20AC", true, "AGL: Euro"},
		{"Delta", false, "\u2206", true, "AGL maps Delta to INCREMENT, not the Greek letter"},
		{"Asmall", false, "\uF761", true, "AGL assigns private-use values to small caps"},
		{"dalethatafpatah", false, "\u05D3\u05B2", true, "AGL entry with two scalar values"},
		{"H18533", false, "\u25CF", true, "AGL names that look generated are still AGL names"},
		// The algorithm.
		{"Aacute.sc", false, "\u00C1", true, "suffix after the first period is dropped"},
		{"f_f_i", false, "ffi", true, "underscore-separated ligature components"},
		{"f_f_i.liga", false, "ffi", true, "period rule before the underscore rule"},
		{"T_h", false, "Th", true, "ligature of two AGL names"},
		{"uni20AC", false, "\u20AC", true, "uniXXXX"},
		{"uni00410042", false, "AB", true, "uni with several groups of four"},
		{"uni004", false, "", false, "uni needs a multiple of four digits"},
		{"uniD800", false, "", false, "uni refuses surrogates"},
		{"u1F600", false, "\U0001F600", true, "uXXXXX beyond the BMP"},
		{"u10FFFF", false, "\U0010FFFF", true, "u with six digits up to 10FFFF"},
		{"u110000", false, "", false, "beyond Unicode"},
		{"uDC00", false, "", false, "u refuses surrogates"},
		{"u12", false, "", false, "u needs four to six digits"},
		{"u1234567", false, "", false, "u needs four to six digits"},
		{"uni00e9", false, "\u00E9", true, "lower-case hex accepted (deviation, documented)"},
		{"u00e9", false, "\u00E9", true, "lower-case hex accepted (deviation, documented)"},
		{"uni20AC_f", false, "\u20ACf", true, "uni form as a ligature component"},
		{"f_xyzzy", false, "f", true, "AGL spec: an unknown component maps to nothing"},
		// TeX font names, after the AGL.
		{"angbracketleft", false, "\u27E8", true, "CMSY: mathematical left angle bracket, as mutool reads it"},
		{"negationslash", false, "\u0338", true, "CMSY: the slash TeX overprints on = to write ≠"},
		{"squaresolid", false, "\u25A0", true, "MSAM: the end-of-proof square"},
		{"parenleftBigg", false, "(", true, "CMEX: a size variant is its base character"},
		{"prime", false, "\u2032", true, "CMSY: prime"},
		{"minus", false, "\u2212", true, "an AGL name keeps its AGL value"},
		// ZapfDingbats.
		{"a1", true, "\u2701", true, "ZapfDingbats list when the font is ZapfDingbats"},
		{"a1", false, "", false, "a1 is not an AGL name outside ZapfDingbats"},
		{"a191", true, "\u27BE", true, "last entry of the ZapfDingbats list"},
		{"space", true, " ", true, "AGL still applies in ZapfDingbats"},
		// Deliberately not mapped.
		{".notdef", false, "", false, "nothing is left after the period rule"},
		{"", false, "", false, "empty name"},
		{"g12", false, "", false, "gNN is a glyph index, not text"},
		{"G12", false, "", false, "GNN is a glyph index, not text"},
		{"cid01234", false, "", false, "cidNN is a CID, not text"},
		{"glyph123", false, "", false, "Identity-style generated name"},
		{"index12", false, "", false, "generated name"},
		{"c41", false, "", false, "cNN (a code in decimal or hex) is not guessed"},
		{"_", false, "", false, "only empty components"},
	}
	for _, tc := range tests {
		got, ok := GlyphUnicode(tc.name, tc.zapf)
		if got != tc.want || ok != tc.ok {
			t.Errorf("GlyphUnicode(%q, %v) = %q, %v; want %q, %v (%s)", tc.name, tc.zapf, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
}

func TestGlyphUnicodeNoAllocForSimpleNames(t *testing.T) {
	GlyphUnicode("a", false)
	n := testing.AllocsPerRun(100, func() {
		GlyphUnicode("Aacute.sc", false)
		GlyphUnicode("quotedblleft", false)
	})
	if n != 0 {
		t.Errorf("GlyphUnicode allocates %v times for list names, want 0", n)
	}
}

func BenchmarkGlyphUnicode(b *testing.B) {
	names := []string{"a", "quotedblleft", "uni20AC", "f_f_i", "g12"}
	for i := 0; b.Loop(); i++ {
		GlyphUnicode(names[i%len(names)], false)
	}
}

func TestKnownToAGL(t *testing.T) {
	tests := []struct {
		name string
		zapf bool
		want bool
		why  string
	}{
		{"comma", false, true, "an AGL name"},
		{"f_f_i", false, true, "a ligature of AGL names"},
		{"uni2260", false, true, "the uniXXXX form"},
		{"u1F600", false, true, "the uXXXXX form"},
		{"Aacute.sc", false, true, "a suffix is ignored"},
		{"negationslash", false, false, "a TeX name: poppler and pdf.js read the code instead"},
		{"trianglerightsld", false, false, "an AMS symbol name"},
		{"a12", true, true, "a Zapf Dingbats name in ZapfDingbats"},
		{"a12", false, false, "the same name in another font is unknown"},
		{"C41", false, false, "a numbered name is no AGL name"},
		{"", false, false, "no name"},
		{"f__i", false, false, "an empty component"},
	}
	for _, tc := range tests {
		if got := KnownToAGL(tc.name, tc.zapf); got != tc.want {
			t.Errorf("%s: KnownToAGL(%q, %v) = %v, want %v", tc.why, tc.name, tc.zapf, got, tc.want)
		}
	}
}
