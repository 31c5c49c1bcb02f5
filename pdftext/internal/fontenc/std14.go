package fontenc

import (
	"strings"
	"sync"
)

//go:generate go run gen.go

// afmGlyph is one character metrics line of an AFM file: glyph name, code in
// the font's built-in encoding (-1 for none) and advance width in 1/1000 em.
type afmGlyph struct {
	name  string
	code  int16
	width uint16
}

// afmFont is the part of an AFM file that std14_afm.go keeps.
type afmFont struct {
	name, family, weight                    string
	italicAngle                             float64
	fixedPitch                              bool
	bbox                                    [4]int16
	capHeight, xHeight, ascender, descender int16
	glyphs                                  []afmGlyph
}

func (f *afmFont) encoding() Encoding {
	var e Encoding
	for _, g := range f.glyphs {
		if g.code >= 0 && g.code <= 255 {
			e[g.code] = g.name
		}
	}
	return e
}

// Metrics holds the metrics of one of the standard 14 fonts, from Adobe's
// AFM file for it. All lengths are in glyph space units: 1/1000 of the font
// size (1/1000 em). A Metrics is shared and must not be modified.
type Metrics struct {
	// FontName is the canonical PostScript name, e.g. "Helvetica-Bold".
	FontName string
	// FamilyName is "Courier", "Helvetica", "Times", "Symbol" or
	// "ZapfDingbats".
	FamilyName string
	// Weight is the AFM Weight value, e.g. "Medium", "Bold", "Roman".
	Weight string
	// ItalicAngle is in degrees counter-clockwise from vertical (negative for
	// right-leaning fonts).
	ItalicAngle float64
	// FixedPitch is true for the Courier family.
	FixedPitch bool
	// Symbolic is true for Symbol and ZapfDingbats, whose glyphs are outside
	// the standard Latin character set and whose built-in encodings are
	// their own.
	Symbolic bool
	// BBox is the font bounding box: llx, lly, urx, ury.
	BBox [4]float64
	// CapHeight, XHeight, Ascent and Descent are 0 where the AFM file gives
	// none (Symbol and ZapfDingbats).
	CapHeight, XHeight, Ascent, Descent float64

	widths   map[string]float64
	encoding Encoding
}

// Width returns the advance width of the named glyph in 1/1000 em, and false
// if the font has no glyph of that name.
func (m *Metrics) Width(glyphName string) (float64, bool) {
	w, ok := m.widths[glyphName]
	return w, ok
}

// Encoding returns a new copy of the font's built-in encoding:
// StandardEncoding for the Latin fonts, the fonts' own encodings for Symbol
// and ZapfDingbats.
func (m *Metrics) Encoding() *Encoding {
	e := m.encoding
	return &e
}

// NumGlyphs returns the number of glyphs the font has metrics for.
func (m *Metrics) NumGlyphs() int { return len(m.widths) }

var (
	std14Once    sync.Once
	std14Metrics [len(std14)]*Metrics
)

func loadStd14() {
	for i := range std14 {
		f := &std14[i]
		m := &Metrics{
			FontName:    f.name,
			FamilyName:  f.family,
			Weight:      f.weight,
			ItalicAngle: f.italicAngle,
			FixedPitch:  f.fixedPitch,
			Symbolic:    i == fontSymbol || i == fontZapfDingbats,
			BBox:        [4]float64{float64(f.bbox[0]), float64(f.bbox[1]), float64(f.bbox[2]), float64(f.bbox[3])},
			CapHeight:   float64(f.capHeight),
			XHeight:     float64(f.xHeight),
			Ascent:      float64(f.ascender),
			Descent:     float64(f.descender),
			widths:      make(map[string]float64, len(f.glyphs)),
		}
		for _, g := range f.glyphs {
			m.widths[g.name] = float64(g.width)
		}
		if m.Symbolic {
			m.encoding = f.encoding()
		} else {
			m.encoding = standardEncoding
		}
		std14Metrics[i] = m
	}
}

// StandardFont returns the metrics of the standard 14 font that baseFont (a
// font dictionary's /BaseFont name, already decoded from #xx escapes) names
// or is a well-known alias of. See StandardFontName for the names accepted.
func StandardFont(baseFont string) (*Metrics, bool) {
	i, ok := standardFontIndex(baseFont)
	if !ok {
		return nil, false
	}
	std14Once.Do(loadStd14)
	return std14Metrics[i], true
}

// StandardFontName returns the canonical name of the standard 14 font that
// baseFont names, e.g. "Helvetica-BoldOblique" for "ABCDEF+Arial,BoldItalic".
//
// The lookup, ASCII case-insensitive:
//   - drops a subset prefix: six letters A–Z and "+";
//   - drops spaces, hyphens and underscores, and reads a style after the
//     first comma (",Bold", ",Italic", ",BoldItalic") like one after a hyphen;
//   - takes the family from the start of the name: Courier or CourierNew
//     (Courier), Helvetica or Arial (Helvetica), Times or TimesNewRoman
//     (Times), Symbol, ZapfDingbats;
//   - accepts after the family only these words, in any order: Bold,
//     Italic, Oblique, Roman, Regular, Normal, PS, MT (so ArialMT,
//     Arial-BoldMT, TimesNewRomanPS-BoldItalicMT and CourierNewPSMT match).
//
// Any other word makes the lookup fail, because the font's metrics differ
// from the standard font's: Arial Narrow, Arial Black, Helvetica Neue,
// Helvetica Condensed, Times Ten, Courier Std and the like report false.
// Bold and Italic/Oblique pick the style; Symbol and ZapfDingbats ignore it.
func StandardFontName(baseFont string) (string, bool) {
	i, ok := standardFontIndex(baseFont)
	if !ok {
		return "", false
	}
	return std14[i].name, true
}

// familyPrefixes are tried in order; longer names first where one is a
// prefix of another.
var familyPrefixes = [...]struct {
	prefix string
	family int // fontCourier, fontHelvetica, fontTimesRoman, fontSymbol, fontZapfDingbats
}{
	{"timesnewroman", fontTimesRoman},
	{"times", fontTimesRoman},
	{"couriernew", fontCourier},
	{"courier", fontCourier},
	{"helvetica", fontHelvetica},
	{"arial", fontHelvetica},
	{"symbol", fontSymbol},
	{"zapfdingbats", fontZapfDingbats},
}

// styleWords are the words accepted after a family name, longest first.
var styleWords = [...]string{"oblique", "regular", "italic", "normal", "roman", "bold", "ps", "mt"}

const maxFontNameLen = 256

func standardFontIndex(baseFont string) (int, bool) {
	s := baseFont
	if len(s) > maxFontNameLen {
		return 0, false
	}
	if len(s) > 7 && s[6] == '+' && isUpperASCII(s[:6]) {
		s = s[7:]
	}
	var buf [maxFontNameLen]byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '-' || c == '_' || c == ',':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	compact := string(buf[:n])
	family := -1
	rest := ""
	for _, p := range familyPrefixes {
		if strings.HasPrefix(compact, p.prefix) {
			family, rest = p.family, compact[len(p.prefix):]
			break
		}
	}
	if family < 0 {
		return 0, false
	}
	bold, italic := false, false
	for rest != "" {
		matched := false
		for _, w := range styleWords {
			if strings.HasPrefix(rest, w) {
				switch w {
				case "bold":
					bold = true
				case "italic", "oblique":
					italic = true
				}
				rest = rest[len(w):]
				matched = true
				break
			}
		}
		if !matched {
			return 0, false
		}
	}
	switch family {
	case fontSymbol, fontZapfDingbats:
		return family, true
	}
	// Each Latin family is four consecutive entries: regular, bold,
	// italic/oblique, bold italic/oblique.
	off := 0
	switch {
	case bold && italic:
		off = 3
	case bold:
		off = 1
	case italic:
		off = 2
	}
	return family + off, true
}

func isUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
