package fontenc

import (
	"strings"
	"testing"
)

func TestStandardFontName(t *testing.T) {
	tests := []struct {
		in     string
		want   string // "" for not found
		reason string
	}{
		{"Helvetica", "Helvetica", "canonical name"},
		{"Helvetica-BoldOblique", "Helvetica-BoldOblique", "canonical name"},
		{"Times-Roman", "Times-Roman", "canonical name with Roman"},
		{"Times-BoldItalic", "Times-BoldItalic", "canonical name"},
		{"Courier-Oblique", "Courier-Oblique", "canonical name"},
		{"Symbol", "Symbol", "canonical name"},
		{"ZapfDingbats", "ZapfDingbats", "canonical name"},
		{"ABCDEF+Helvetica", "Helvetica", "subset prefix dropped"},
		{"ABCDE+Helvetica", "", "a prefix must be six letters"},
		{"abcdef+Helvetica", "", "a prefix must be upper case"},
		{"Helvetica,Bold", "Helvetica-Bold", "comma style suffix"},
		{"Helvetica,Italic", "Helvetica-Oblique", "Italic picks the oblique font"},
		{"Helvetica,BoldItalic", "Helvetica-BoldOblique", "comma BoldItalic"},
		{"Times-Italic", "Times-Italic", "Times italic"},
		{"Times,BoldItalic", "Times-BoldItalic", "comma style on Times"},
		{"Arial", "Helvetica", "Arial is metric-compatible with Helvetica"},
		{"ArialMT", "Helvetica", "MT suffix"},
		{"Arial-BoldMT", "Helvetica-Bold", "Monotype bold name"},
		{"Arial-ItalicMT", "Helvetica-Oblique", "Monotype italic name"},
		{"Arial-BoldItalicMT", "Helvetica-BoldOblique", "Monotype bold italic name"},
		{"Arial,Bold", "Helvetica-Bold", "comma style on an alias"},
		{"XYZABC+Arial,BoldItalic", "Helvetica-BoldOblique", "prefix, alias and comma style"},
		{"TimesNewRoman", "Times-Roman", "Times New Roman alias"},
		{"TimesNewRomanPSMT", "Times-Roman", "PostScript name of Times New Roman"},
		{"TimesNewRomanPS-BoldMT", "Times-Bold", "bold PostScript name"},
		{"TimesNewRomanPS-ItalicMT", "Times-Italic", "italic PostScript name"},
		{"TimesNewRomanPS-BoldItalicMT", "Times-BoldItalic", "bold italic PostScript name"},
		{"Times-New-Roman", "Times-Roman", "hyphenated alias"},
		{"Times New Roman,Bold", "Times-Bold", "spaces in a decoded name"},
		{"TimesNewRoman,Italic", "Times-Italic", "comma style on Times New Roman"},
		{"CourierNew", "Courier", "Courier New alias"},
		{"CourierNewPSMT", "Courier", "PostScript name of Courier New"},
		{"CourierNewPS-BoldMT", "Courier-Bold", "bold Courier New"},
		{"CourierNew,BoldItalic", "Courier-BoldOblique", "Courier bold italic is BoldOblique"},
		{"Courier,Italic", "Courier-Oblique", "Courier italic"},
		{"HELVETICA-BOLD", "Helvetica-Bold", "case-insensitive"},
		{"SymbolMT", "Symbol", "Monotype Symbol"},
		{"Symbol,Bold", "Symbol", "style ignored for Symbol"},
		{"ArialNarrow", "", "different metrics"},
		{"Arial-Black", "", "different metrics"},
		{"ArialUnicodeMS", "", "not a known alias"},
		{"HelveticaNeue", "", "different metrics"},
		{"Helvetica-Condensed", "", "different metrics"},
		{"Times-Ten", "", "different metrics"},
		{"Calibri", "", "not a standard font"},
		{"Verdana,Bold", "", "not a standard font"},
		{"", "", "empty"},
		{"Helvetica-Light", "", "unknown weight word"},
		{strings.Repeat("Helvetica", 100), "", "overlong name"},
	}
	for _, tc := range tests {
		got, ok := StandardFontName(tc.in)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("StandardFontName(%q) = %q, %v; want %q (%s)", tc.in, got, ok, tc.want, tc.reason)
		}
		m, mok := StandardFont(tc.in)
		if mok != ok || (mok && m.FontName != tc.want) {
			t.Errorf("StandardFont(%q) disagrees with StandardFontName", tc.in)
		}
	}
}

func TestStandardFontWidths(t *testing.T) {
	tests := []struct {
		font, glyph string
		want        float64
		ok          bool
		reason      string
	}{
		{"Helvetica", "a", 556, true, "Helvetica.afm"},
		{"Helvetica", "space", 278, true, "Helvetica.afm"},
		{"Helvetica", "Euro", 556, true, "unencoded glyphs have widths too"},
		{"Helvetica-Bold", "W", 944, true, "Helvetica-Bold.afm"},
		{"Helvetica-Bold", "fi", 611, true, "Helvetica-Bold.afm"},
		{"Times-Roman", "space", 250, true, "Times-Roman.afm"},
		{"Times-Roman", "a", 444, true, "Times-Roman.afm"},
		{"Times-BoldItalic", "W", 889, true, "Times-BoldItalic.afm"},
		{"Courier", "W", 600, true, "fixed pitch"},
		{"Courier-BoldOblique", "space", 600, true, "fixed pitch"},
		{"Symbol", "alpha", 631, true, "Symbol.afm"},
		{"Symbol", "apple", 790, true, "unencoded Symbol glyph"},
		{"ZapfDingbats", "a1", 974, true, "ZapfDingbats.afm"},
		{"Helvetica", "alpha", 0, false, "Helvetica has no Greek"},
		{"Helvetica", "uni0041", 0, false, "widths are by AFM name only"},
	}
	for _, tc := range tests {
		m, ok := StandardFont(tc.font)
		if !ok {
			t.Fatalf("StandardFont(%q) not found", tc.font)
		}
		got, gok := m.Width(tc.glyph)
		if got != tc.want || gok != tc.ok {
			t.Errorf("%s.Width(%q) = %v, %v; want %v, %v (%s)", tc.font, tc.glyph, got, gok, tc.want, tc.ok, tc.reason)
		}
	}
}

func TestStandardFontHeaders(t *testing.T) {
	tests := []struct {
		font       string
		fixed      bool
		symbolic   bool
		angle      float64
		glyphs     int
		capHeight  float64
		bboxLLX    float64
		encAt0101  string
		familyName string
	}{
		{"Courier", true, false, 0, 315, 562, -23, "A", "Courier"},
		{"Courier-BoldOblique", true, false, -12, 315, 562, -57, "A", "Courier"},
		{"Helvetica", false, false, 0, 315, 718, -166, "A", "Helvetica"},
		{"Times-Italic", false, false, -15.5, 315, 653, -169, "A", "Times"},
		{"Symbol", false, true, 0, 190, 0, -180, "Alpha", "Symbol"},
		{"ZapfDingbats", false, true, 0, 202, 0, -1, "a10", "ZapfDingbats"},
	}
	for _, tc := range tests {
		m, ok := StandardFont(tc.font)
		if !ok {
			t.Fatalf("StandardFont(%q) not found", tc.font)
		}
		if m.FixedPitch != tc.fixed || m.Symbolic != tc.symbolic || m.ItalicAngle != tc.angle ||
			m.NumGlyphs() != tc.glyphs || m.CapHeight != tc.capHeight || m.BBox[0] != tc.bboxLLX ||
			m.Encoding()[0101] != tc.encAt0101 || m.FamilyName != tc.familyName {
			t.Errorf("%s: got fixed=%v symbolic=%v angle=%v glyphs=%d cap=%v llx=%v enc[0101]=%q family=%q",
				tc.font, m.FixedPitch, m.Symbolic, m.ItalicAngle, m.NumGlyphs(), m.CapHeight, m.BBox[0], m.Encoding()[0101], m.FamilyName)
		}
	}
}

func TestStandardFontShared(t *testing.T) {
	a, _ := StandardFont("Helvetica")
	b, _ := StandardFont("ArialMT")
	if a != b {
		t.Error("aliases should return the same shared Metrics")
	}
	e := a.Encoding()
	e[0101] = "changed"
	if a.Encoding()[0101] != "A" {
		t.Error("Encoding() is not a copy")
	}
}

func BenchmarkStandardFontLookup(b *testing.B) {
	for b.Loop() {
		StandardFont("ABCDEF+TimesNewRomanPS-BoldItalicMT")
	}
}
