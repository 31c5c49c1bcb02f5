package pdftext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/pdftext/internal/cmap"
	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
	"github.com/citecheck/citecheck/pdftext/internal/fontfile"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// replacement stands for a glyph whose meaning the font does not say: a
// flagged U+FFFD, never the raw code bytes.
const replacement = "\uFFFD"

// defaultWidth is used when a simple font gives no width for a code and is
// not a standard font: half an em keeps word gaps roughly right.
const defaultWidth = 500

// font is what the interpreter needs of a PDF font: how a shown string
// splits into codes, and each code's text and advance width.
type font struct {
	name      string
	composite bool
	vertical  bool
	// Simple fonts: per byte code.
	text  [256]string
	width [256]float64 // glyph space, 1/1000 text space unit (after FontMatrix for Type3)
	alias [256]codeAlias
	// Composite fonts.
	encoding  *cmap.CMap
	toUnicode *cmap.CMap
	cidText   *cmap.CMap // CID to Unicode of the font's character collection
	// An embedded TrueType program's own cmap, inverted, for CID fonts with
	// no other way to text; cidToGID is the CIDToGIDMap stream (nil:
	// Identity).
	gidText  map[uint16]rune
	cidToGID []byte
	cidWidth map[uint32]float64
	dw       float64
	dw2      float64 // vertical advance (negative: downwards)
	// unmapped counts codes with no known text, for the page flags.
	unmapped bool
	// byteWidths: a simple font read through a 2-byte CMap (cp936Font)
	// keeps its /Widths for 1-byte codes.
	byteWidths bool
	// decoded remembers the composite codes read so far (decode).
	decoded map[uint64]glyphCode
}

// glyphCode is one code of a shown string.
type glyphCode struct {
	text  string
	alias codeAlias
	width float64 // glyph space units / 1000
	// wordSpace is true for the single-byte code 32, to which Tw applies.
	wordSpace bool
}

// decode splits s into codes, appending to dst.
func (f *font) decode(dst []glyphCode, s []byte) []glyphCode {
	if !f.composite {
		for _, c := range s {
			dst = append(dst, glyphCode{text: f.text[c], alias: f.alias[c], width: f.width[c], wordSpace: c == 32})
		}
		return dst
	}
	for len(s) > 0 {
		code := f.encoding.NextCode(s)
		if code.Len <= 0 {
			code.Len = 1
		}
		s = s[min(code.Len, len(s)):]
		// A code's text and width depend on its length and value alone.
		k := uint64(code.Len)<<32 | uint64(code.Value)
		g, ok := f.decoded[k]
		if !ok {
			g = f.compositeCode(code)
			if len(f.decoded) < maxDecodedCodes {
				if f.decoded == nil {
					f.decoded = map[uint64]glyphCode{}
				}
				f.decoded[k] = g
			}
		}
		dst = append(dst, g)
	}
	return dst
}

// maxDecodedCodes bounds the codes a composite font remembers: a hostile
// string of distinct 4-byte codes must not grow the table past what a
// real font uses.
const maxDecodedCodes = 1 << 16

// compositeCode reads one code of a composite font.
func (f *font) compositeCode(code cmap.Code) glyphCode {
	g := glyphCode{wordSpace: code.Len == 1 && code.Value == 32}
	var ok bool
	if f.toUnicode != nil {
		g.text, ok = toUnicodeText(f.toUnicode, code)
	}
	if !ok && f.encoding.CodesAreUnicode() {
		g.text, ok = f.encoding.Unicode(code)
	}
	cid, _ := f.encoding.CID(code)
	if !ok && f.cidText != nil {
		g.text, ok = f.cidText.Unicode(cmap.Code{Value: cid, Len: 2, Valid: true})
	}
	if !ok && f.gidText != nil {
		gid, inRange := cid, true
		if f.cidToGID != nil {
			inRange = int(cid)*2+2 <= len(f.cidToGID)
			if inRange {
				gid = uint32(f.cidToGID[2*cid])<<8 | uint32(f.cidToGID[2*cid+1])
			}
		}
		if r, found := f.gidText[uint16(gid)]; inRange && gid <= 0xFFFF && found {
			g.text, ok = string(r), true
		}
	}
	if !ok {
		g.text = replacement
	}
	if f.vertical {
		g.width = f.dw2
	} else if w, ok := f.cidWidth[cid]; ok {
		g.width = w
	} else if f.byteWidths && code.Len == 1 {
		g.width = f.width[byte(code.Value)]
	} else {
		g.width = f.dw
	}
	return g
}

// loadFont reads a font dictionary. It never fails: what it cannot read
// becomes replacement text and default widths, with a warning.
func (x *interp) loadFont(obj types.Object) (*font, []string) {
	o := x.obj
	d := o.dict(obj)
	if d == nil {
		return nil, []string{"font resource is not a dictionary"}
	}
	var warnings []string
	warn := func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) }
	f := &font{name: o.nameEntry(d, "BaseFont")}
	if f.name == "" {
		f.name = o.nameEntry(d, "Name") // Type 3 fonts have no BaseFont
	}
	if f.name == "" {
		f.name = "(unnamed)"
	}
	subtype := o.nameEntry(d, "Subtype")

	var toUnicode *cmap.CMap
	if sd, num := o.stream(d["ToUnicode"]); sd != nil {
		data, w, err := x.dec.decode(sd, num)
		if w != "" {
			warn("font %s ToUnicode: %s", f.name, w)
		}
		if err == nil && len(data) > 0 {
			cm, err := cmap.Parse(data)
			if err != nil {
				warn("font %s ToUnicode: %v", f.name, err)
			} else {
				toUnicode = cm
				if cm.NumCIDMappings() > 0 {
					warn("font %s ToUnicode: cidchar or cidrange mappings, read as code points", f.name)
				}
			}
		}
	}

	if subtype == "Type0" {
		x.loadComposite(f, d, toUnicode, warn)
	} else {
		x.loadSimple(f, d, subtype, toUnicode, warn)
		if toUnicode == nil && x.cp936Font(d) {
			f.composite, f.byteWidths = true, true
			f.encoding, _ = cmap.Predefined("GBK-EUC-H")
			f.dw = x.obj.numberEntry(x.obj.dictEntry(d, "FontDescriptor"), "MissingWidth", 1000)
			warn("font %s: a Chinese font that is not embedded and claims WinAnsiEncoding; its strings read as code page 936 (GBK), as MuPDF does", f.name)
		}
	}
	return f, warnings
}

// cp936Font reports a simple font that Chinese producers write with
// WinAnsiEncoding while their strings are code page 936 (GBK): MuPDF's rule,
// a not embedded TrueType or Type1 font whose descriptor's FontName is a
// string and whose Flags are exactly 4 (symbolic), and whose BaseFont is a
// Chinese name in GBK bytes ("宋体", "仿宋_GB2312"; MuPDF lists five such
// names, this accepts any that decodes).
func (x *interp) cp936Font(d types.Dict) bool {
	o := x.obj
	if enc, _ := o.name(o.get(d, "Encoding")); enc != "WinAnsiEncoding" {
		return false
	}
	desc := o.dictEntry(d, "FontDescriptor")
	if desc == nil || o.numberEntry(desc, "Flags", 0) != 4 {
		return false
	}
	for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
		if _, ok := desc[k]; ok {
			return false
		}
	}
	switch o.resolve(desc["FontName"]).(type) {
	case types.StringLiteral, types.HexLiteral:
	default:
		return false
	}
	name := o.nameEntry(d, "BaseFont")
	name, _, _ = strings.Cut(name, ",")
	name = strings.TrimSuffix(name, "_GB2312")
	return gbkName(name)
}

// gbkName reports whether s is two or more GBK double-byte characters, all
// CJK ideographs.
func gbkName(s string) bool {
	enc, _ := cmap.Predefined("GBK-EUC-H")
	b := []byte(s)
	if len(b) < 4 || len(b)%2 != 0 {
		return false
	}
	for i := 0; i < len(b); i += 2 {
		if b[i] < 0x81 {
			return false
		}
		t, ok := enc.Unicode(cmap.Code{Value: uint32(b[i])<<8 | uint32(b[i+1]), Len: 2, Valid: true})
		if !ok {
			return false
		}
		r, _ := utf8.DecodeRuneInString(t)
		if r < 0x4E00 || r > 0x9FFF {
			return false
		}
	}
	return true
}

func (x *interp) loadComposite(f *font, d types.Dict, toUnicode *cmap.CMap, warn func(string, ...any)) {
	o := x.obj
	f.composite = true
	f.toUnicode = toUnicode
	f.dw, f.dw2 = 1000, -1000
	switch enc := o.get(d, "Encoding").(type) {
	case types.Name:
		name, _ := o.name(enc)
		if cm, ok := cmap.Predefined(name); ok {
			f.encoding = cm
		} else {
			warn("font %s: predefined CMap %s is not supported; codes read as 2-byte CIDs", f.name, name)
		}
	case types.StreamDict:
		sd, num := o.stream(d["Encoding"])
		data, w, err := x.dec.decode(sd, num)
		if w != "" {
			warn("font %s encoding CMap: %s", f.name, w)
		}
		if err == nil {
			if cm, err := cmap.Parse(data); err == nil {
				if parent, ok := cmap.Predefined(cm.UseCMap()); ok {
					cm = cm.Merge(parent)
				}
				f.encoding = cm
			}
		}
	}
	if f.encoding == nil {
		f.encoding, _ = cmap.Predefined("Identity-H")
	}
	f.vertical = f.encoding.WMode() == 1
	desc := o.dict(first(o.arrayEntry(d, "DescendantFonts")))
	if desc == nil {
		warn("font %s: no descendant font", f.name)
		return
	}
	f.dw = o.numberEntry(desc, "DW", 1000)
	if dw2 := o.arrayEntry(desc, "DW2"); len(dw2) == 2 {
		if v, ok := o.number(dw2[1]); ok {
			f.dw2 = v
		}
	}
	f.cidWidth = map[uint32]float64{}
	w := o.arrayEntry(desc, "W")
	budget := 1 << 20 // widths defined; bounds a hostile W array
	for i := 0; i < len(w) && budget > 0; {
		start, ok := o.number(w[i])
		if !ok || i+1 >= len(w) {
			break
		}
		if arr := o.array(w[i+1]); arr != nil {
			for k, v := range arr {
				if wv, ok := o.number(v); ok && budget > 0 {
					f.cidWidth[uint32(start)+uint32(k)] = wv
					budget--
				}
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			break
		}
		end, ok1 := o.number(w[i+1])
		wv, ok2 := o.number(w[i+2])
		if ok1 && ok2 && end >= start && start >= 0 {
			for c := start; c <= end && budget > 0; c++ {
				f.cidWidth[uint32(c)] = wv
				budget--
			}
		}
		i += 3
	}
	info := o.dictEntry(desc, "CIDSystemInfo")
	if o.stringEntry(info, "Registry") == "Adobe" {
		f.cidText, _ = cmap.CIDUnicode(o.stringEntry(info, "Ordering"))
	}
	if toUnicode == nil && f.cidText == nil && !f.encoding.CodesAreUnicode() && o.nameEntry(desc, "Subtype") == "CIDFontType2" {
		if sd, num := o.stream(o.dictEntry(desc, "FontDescriptor")["FontFile2"]); sd != nil {
			if data, _, err := x.dec.decode(sd, num); err == nil {
				f.gidText = fontfile.TrueTypeGlyphText(data)
			}
		}
		if sd, num := o.stream(desc["CIDToGIDMap"]); sd != nil && f.gidText != nil {
			if data, _, err := x.dec.decode(sd, num); err == nil {
				f.cidToGID = data
			}
		}
	}
	if toUnicode == nil && !f.encoding.CodesAreUnicode() && f.cidText == nil && f.gidText == nil {
		f.unmapped = true
		warn("font %s: composite font without ToUnicode; its text is replaced by U+FFFD", f.name)
	}
}

func first(a types.Array) types.Object {
	if len(a) == 0 {
		return nil
	}
	return a[0]
}

// simpleFont is one simple font being loaded: its dictionaries, and the
// encoding its widths and text are read through.
type simpleFont struct {
	f        *font
	d, desc  types.Dict
	subtype  string
	std      *fontenc.Metrics // the standard font it names, if any
	zapf     bool             // ZapfDingbats, whose glyph names are its own
	baseName string           // the base encoding the dictionary names
	enc      *fontenc.Encoding
	base     fontenc.Encoding // before Differences: the fallback for names nobody knows
	// fromBuiltin: the code's name is the embedded program's own.
	fromBuiltin [256]bool
}

func (x *interp) loadSimple(f *font, d types.Dict, subtype string, toUnicode *cmap.CMap, warn func(string, ...any)) {
	sf := &simpleFont{f: f, d: d, desc: x.obj.dictEntry(d, "FontDescriptor"), subtype: subtype}
	if std, ok := fontenc.StandardFont(f.name); ok {
		sf.std, sf.zapf = std, std.FontName == "ZapfDingbats"
	}
	x.simpleEncoding(sf, warn)
	x.simpleWidths(sf)
	x.simpleText(sf, toUnicode, warn)
}

// simpleEncoding reads a simple font's encoding: the base encoding the
// dictionary names, else the embedded program's own, else the standard
// font's or a default; then the dictionary's Differences; then the
// program's own names for the codes still empty.
func (x *interp) simpleEncoding(sf *simpleFont, warn func(string, ...any)) {
	o := x.obj
	flags := int(o.numberEntry(sf.desc, "Flags", 0))
	symbolic := flags&4 != 0 && flags&32 == 0
	encObj := o.get(sf.d, "Encoding")
	sf.baseName, _ = o.name(encObj)
	if ed := o.dict(encObj); ed != nil {
		sf.baseName = o.nameEntry(ed, "BaseEncoding")
	}
	if sf.baseName != "" {
		sf.enc, _ = fontenc.BaseEncoding(sf.baseName)
	}
	// The embedded program's own encoding is the base when the dictionary
	// names none, and fills codes the dictionary leaves empty (as poppler
	// does: TeX's math fonts rely on it).
	builtin := x.builtinEncoding(sf.desc, sf.f.name, warn)
	if sf.enc == nil && builtin != nil {
		cp := *builtin
		sf.enc = &cp
		for c := range sf.enc {
			sf.fromBuiltin[c] = sf.enc[c] != ""
		}
	}
	if sf.enc == nil {
		switch {
		case sf.std != nil:
			sf.enc = sf.std.Encoding()
		case sf.subtype == "TrueType" && !symbolic:
			sf.enc, _ = fontenc.BaseEncoding("WinAnsiEncoding")
		default:
			sf.enc, _ = fontenc.BaseEncoding("StandardEncoding")
		}
	}
	sf.base = *sf.enc
	if ed := o.dict(encObj); ed != nil {
		code := 0
		for _, v := range o.arrayEntry(ed, "Differences") {
			if n, ok := o.number(v); ok {
				code = int(n)
				continue
			}
			if name, ok := o.name(v); ok && code >= 0 && code < 256 {
				sf.enc[code] = name
				sf.fromBuiltin[code] = false
				code++
			}
		}
	}
	if builtin != nil {
		for c, name := range builtin {
			if sf.enc[c] == "" {
				sf.enc[c] = name
				sf.fromBuiltin[c] = name != ""
			}
		}
	}
}

// simpleWidths reads a simple font's widths: /Widths, else the standard
// font's metrics, else MissingWidth.
func (x *interp) simpleWidths(sf *simpleFont) {
	o := x.obj
	scale := 1.0
	if sf.subtype == "Type3" {
		// Type3 widths are in glyph space; FontMatrix maps them to text
		// space, where 1000 units make one em.
		fm := o.matrixOf(o.get(sf.d, "FontMatrix"), matrix{0.001, 0, 0, 0.001, 0, 0})
		scale = fm[0] * 1000
	}
	missing := o.numberEntry(sf.desc, "MissingWidth", 0)
	firstChar := int(o.numberEntry(sf.d, "FirstChar", 0))
	widths := o.arrayEntry(sf.d, "Widths")
	for c := range 256 {
		w, ok := 0.0, false
		if i := c - firstChar; i >= 0 && i < len(widths) {
			w, ok = o.number(widths[i])
		}
		if !ok && sf.std != nil {
			w, ok = sf.std.Width(sf.enc[c])
		}
		if !ok && missing > 0 {
			w, ok = missing, true
		}
		if !ok {
			w = defaultWidth
		}
		sf.f.width[c] = w * scale
	}
}

// simpleText reads the text of a simple font's codes: ToUnicode first,
// then glyph names, then a glyph name known in lower case ("Bullet"), then
// names that spell a number ("C41", "G41"), then, for a Type 3 font or one
// that names its base encoding, the base encoding's glyph for a name
// nobody knows (Differences naming glyphs "B9", "CP": poppler, MuPDF,
// pdf.js and pdfminer all read the code so).
func (x *interp) simpleText(sf *simpleFont, toUnicode *cmap.CMap, warn func(string, ...any)) {
	f, enc, zapf := sf.f, sf.enc, sf.zapf
	numbered, numberedUsed, baseUsed, caseUsed := fontenc.NewNumberedNames(enc), false, false, false
	useBase := sf.subtype == "Type3" || sf.baseName != ""
	var viaToUnicode [256]bool
	for c := range 256 {
		if toUnicode != nil {
			if s, ok := toUnicodeText(toUnicode, cmap.Code{Value: uint32(c), Len: 1, Valid: true}); ok {
				f.text[c], viaToUnicode[c] = s, true
				continue
			}
			if s, ok := toUnicodeText(toUnicode, cmap.Code{Value: uint32(c), Len: 2, Valid: true}); ok {
				f.text[c], viaToUnicode[c] = s, true
				continue
			}
		}
		if name := enc[c]; name != "" {
			if s, ok := fontenc.GlyphUnicode(name, zapf); ok {
				f.text[c] = s
				continue
			}
			if lower := strings.ToLower(name); lower != name {
				if s, ok := fontenc.GlyphUnicode(lower, zapf); ok {
					f.text[c], caseUsed = s, true // "Bullet"
					continue
				}
			}
			if s, ok := numbered.Unicode(name, c); ok {
				f.text[c], numberedUsed = s, true
				continue
			}
			if b := sf.base[c]; useBase && b != "" && b != name {
				if s, ok := fontenc.GlyphUnicode(b, zapf); ok {
					f.text[c], baseUsed = s, true
					continue
				}
			}
		}
		f.text[c] = replacement
	}
	f.alias = codeAliases(&f.text, enc, &sf.fromBuiltin, &viaToUnicode, zapf)
	if caseUsed {
		warn("font %s: glyph names matched in lower case", f.name)
	}
	if numberedUsed {
		warn("font %s: glyph names read as numbers (C41, G41 and the like)", f.name)
	}
	if baseUsed {
		warn("font %s: unknown glyph names read through the base encoding", f.name)
	}
}

// codeAlias is how other extractors read a glyph that we read by its name,
// per reading (readingNames, readingCodes): the code as its own character,
// or 0 where that reading agrees with ours.
type codeAlias [numReadings]rune

// The readings codeAliases emulates.
const (
	// readingNames: a glyph name outside the AGL read as its code (poppler
	// and pdf.js: "6" for CMSY's negationslash, "I" for MSAM's
	// trianglerightsld, "S" for CMEX's big union).
	readingNames = iota
	// readingCodes: that, and also a font whose names come from its
	// embedded program read through StandardEncoding (pdfminer: ";" for
	// CMMI's comma, "!" for its omega, "2" for CMSY's element sign).
	readingCodes
	numReadings
)

// codeAliases returns each code's codeAlias. Only a printable ASCII code
// whose text comes from no ToUnicode CMap and is one code point gets one,
// and never for a digit or white space: a digit of the page is read as
// that digit in every reading.
func codeAliases(text *[256]string, enc *fontenc.Encoding, fromBuiltin, viaToUnicode *[256]bool, zapf bool) [256]codeAlias {
	var alias [256]codeAlias
	for c := 0x21; c <= 0x7e; c++ {
		if viaToUnicode[c] {
			continue
		}
		r, n := utf8.DecodeRuneInString(text[c])
		if n == 0 || n != len(text[c]) || r == rune(c) || unicode.IsDigit(r) || unicode.IsSpace(r) {
			continue
		}
		if name := enc[c]; name == "" || !fontenc.KnownToAGL(name, zapf) {
			alias[c][readingNames] = rune(c)
			alias[c][readingCodes] = rune(c)
		} else if fromBuiltin[c] {
			alias[c][readingCodes] = rune(c)
		}
	}
	return alias
}

// builtinEncoding reads the encoding of an embedded Type 1 or CFF font
// program, or returns nil.
func (x *interp) builtinEncoding(desc types.Dict, fontName string, warn func(string, ...any)) *fontenc.Encoding {
	o := x.obj
	if desc == nil {
		return nil
	}
	read := func(key string) ([]byte, *types.StreamDict) {
		sd, num := o.stream(desc[key])
		if sd == nil {
			return nil, nil
		}
		data, w, err := x.dec.decode(sd, num)
		if w != "" {
			warn("font %s %s: %s", fontName, key, w)
		}
		if err != nil {
			return nil, nil
		}
		return data, sd
	}
	if data, _ := read("FontFile"); data != nil {
		if enc, ok := fontfile.Type1Encoding(data); ok {
			return enc
		}
		return nil
	}
	if data, sd := read("FontFile3"); data != nil && o.nameEntry(sd.Dict, "Subtype") == "Type1C" {
		if enc, ok := fontfile.CFFEncoding(data); ok {
			return enc
		}
	}
	return nil
}

// sanitize makes glyph text safe to store: control characters other than
// white space become U+FFFD and white space becomes a plain space, so a page
// text holds no form feed or stray control code.
func sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7F {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7F:
			b.WriteString(replacement)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// toUnicodeText looks a code up in a font's ToUnicode CMap. A code only a
// cidchar or cidrange mapping covers takes the CID number as its code
// point: such mappings have no place in a ToUnicode CMap, but producers
// write them (Iceni's, where the numbers are the characters' code points),
// and poppler and MuPDF read them so.
func toUnicodeText(cm *cmap.CMap, code cmap.Code) (string, bool) {
	if s, ok := cm.Unicode(code); ok {
		return s, true
	}
	cid, ok := cm.CIDMapping(code)
	if !ok || cid == 0 || cid > unicode.MaxRune || 0xD800 <= cid && cid <= 0xDFFF {
		return "", false
	}
	return string(rune(cid)), true
}
