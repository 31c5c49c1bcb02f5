package fontenc

import (
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed agl/glyphlist.txt
var aglText string

//go:embed agl/zapfdingbats.txt
var zapfText string

//go:embed texglyphs.txt
var texText string

var (
	aglOnce sync.Once
	aglMap  map[string]string // glyph name -> UTF-8 text
	zapfMap map[string]string
	texMap  map[string]string
)

func loadAGL() {
	aglMap = parseGlyphList(aglText)
	zapfMap = parseGlyphList(zapfText)
	texMap = parseGlyphList(texText)
}

// parseGlyphList reads the Adobe Glyph List format: comment lines start with
// '#', other lines are "name;XXXX[ XXXX...]" with uppercase hex scalar values
// separated by spaces. Malformed lines are skipped (the embedded files have
// none: a test checks the counts).
func parseGlyphList(text string) map[string]string {
	m := make(map[string]string, strings.Count(text, "\n"))
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		name, codes, ok := strings.Cut(line, ";")
		if !ok || name == "" {
			continue
		}
		var b strings.Builder
		valid := true
		for _, f := range strings.Fields(codes) {
			r, ok := parseHexScalar(f, false)
			if !ok {
				valid = false
				break
			}
			b.WriteRune(r)
		}
		if valid && b.Len() > 0 {
			m[name] = b.String()
		}
	}
	return m
}

// parseHexScalar parses s as a hexadecimal Unicode scalar value (no
// surrogates, at most U+10FFFF). Lower-case digits are accepted only when
// lower is true.
func parseHexScalar(s string, lower bool) (rune, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(s); i++ {
		d, ok := hexDigit(s[i], lower)
		if !ok {
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	if v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
		return 0, false
	}
	return v, true
}

func hexDigit(c byte, lower bool) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case lower && 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// GlyphUnicode maps a glyph name to the Unicode text it stands for, following
// the Adobe Glyph List Specification's algorithm (AGL 2.0):
//
//  1. drop everything from the first period on ("Aacute.sc" -> "Aacute");
//  2. split the rest at underscores into components ("f_f_i" -> f, f, i);
//  3. map each component and concatenate the results:
//     - if zapf is true (the font is ZapfDingbats) and the component is in
//     the ITC Zapf Dingbats Glyph List (a1 ... a191), that list's value;
//     - else if the component is in the Adobe Glyph List, its value;
//     - else if it is a TeX font's glyph name (texglyphs.txt: CMSY, CMMI,
//     CMEX, MSAM, MSBM names such as "angbracketleft" or "negationslash"),
//     that value: a deviation from the AGL algorithm, for the many pdfTeX
//     documents whose math fonts have no ToUnicode CMap;
//     - else "uni" followed by groups of four hex digits, each group a
//     scalar value outside D800-DFFF ("uni00410042" -> "AB");
//     - else "u" followed by four to six hex digits naming a scalar value
//     outside D800-DFFF, at most 10FFFF ("u1F600");
//     - else nothing (the component maps to the empty string).
//
// The result is reported with true when it is not empty; a name of which no
// component maps (".notdef", "g12", "G12", "cid1234", "glyph7", "index3",
// "c41") reports ("", false). A name some of whose components map keeps the
// mapped part, as the AGL specification says: "f_xyz" -> "f".
//
// One deviation, because real fonts use it: the hex digits of the "uni" and
// "u" forms may be lower case ("uni00e9") when the name is not in the
// glyph lists. The specification allows upper case only.
//
// Names in the lists map to the Unicode values Adobe assigned in 2002,
// including private-use values for glyph variants (e.g. "Asmall" ->
// U+F761, "dotlessj" -> U+F6BE): the caller decides what to do with those.
func GlyphUnicode(name string, zapf bool) (string, bool) {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if name == "" {
		return "", false
	}
	aglOnce.Do(loadAGL)
	if strings.IndexByte(name, '_') < 0 {
		// The common case: one component, no allocation.
		s := componentUnicode(name, zapf)
		return s, s != ""
	}
	var b strings.Builder
	for comp := range strings.SplitSeq(name, "_") {
		b.WriteString(componentUnicode(comp, zapf))
	}
	return b.String(), b.Len() > 0
}

func componentUnicode(c string, zapf bool) string {
	if c == "" {
		return ""
	}
	if zapf {
		if s, ok := zapfMap[c]; ok {
			return s
		}
	}
	if s, ok := aglMap[c]; ok {
		return s
	}
	if s, ok := texMap[c]; ok {
		return s
	}
	if len(c) >= 7 && strings.HasPrefix(c, "uni") && (len(c)-3)%4 == 0 {
		hex := c[3:]
		var buf [64]byte
		out := buf[:0]
		for i := 0; i < len(hex); i += 4 {
			r, ok := parseHexScalar(hex[i:i+4], true)
			if !ok {
				return ""
			}
			out = utf8.AppendRune(out, r)
		}
		return string(out)
	}
	if len(c) >= 5 && len(c) <= 7 && c[0] == 'u' {
		r, ok := parseHexScalar(c[1:], true)
		if !ok {
			return ""
		}
		return string(r)
	}
	return ""
}

// GlyphListSize reports the number of entries in the embedded Adobe Glyph
// List, ITC Zapf Dingbats Glyph List and TeX glyph names.
func GlyphListSize() (agl, zapf, tex int) {
	aglOnce.Do(loadAGL)
	return len(aglMap), len(zapfMap), len(texMap)
}

// KnownToAGL reports whether every component of name maps through the
// Adobe Glyph List alone (or the Zapf Dingbats list when zapf is set, or
// the "uniXXXX" and "uXXXXX" forms): a name every extractor that follows
// the AGL specification reads. TeX's names ("negationslash",
// "trianglerightsld") are not: poppler and pdf.js read such a glyph as its
// code's character, and so does anything that fails to map a name.
func KnownToAGL(name string, zapf bool) bool {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if name == "" {
		return false
	}
	aglOnce.Do(loadAGL)
	for c := range strings.SplitSeq(name, "_") {
		if c == "" {
			return false
		}
		if _, ok := aglMap[c]; ok {
			continue
		}
		if _, ok := zapfMap[c]; ok && zapf {
			continue
		}
		if _, ok := texMap[c]; ok {
			return false
		}
		if componentUnicode(c, false) == "" {
			return false
		}
	}
	return true
}
