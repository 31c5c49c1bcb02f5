package fontenc

// Encoding is a simple font's map from a one-byte character code to a glyph
// name. The empty string means the code is not encoded.
type Encoding = [256]string

var (
	standardEncoding  Encoding
	winAnsiEncoding   Encoding
	macRomanEncoding  Encoding
	macExpertEncoding Encoding
	pdfDocEncoding    Encoding
)

// winAnsiBullet lists the WinAnsiEncoding codes above 040 that Table D.2 leaves
// unused; note 3 of the table maps them to bullet.
var winAnsiBullet = [...]byte{0177, 0201, 0215, 0217, 0220, 0235}

func init() {
	for _, r := range latinSet {
		set := func(e *Encoding, code int) {
			if code >= 0 {
				e[code] = r.name
			}
		}
		set(&standardEncoding, r.std)
		set(&macRomanEncoding, r.mac)
		set(&winAnsiEncoding, r.win)
		set(&pdfDocEncoding, r.pdf)
	}
	// Table D.2, notes 5 and 6: duplicate codes.
	winAnsiEncoding[0240] = "space"
	winAnsiEncoding[0255] = "hyphen"
	macRomanEncoding[0312] = "space"
	// Table D.2, note 3.
	for _, c := range winAnsiBullet {
		winAnsiEncoding[c] = "bullet"
	}
	for _, r := range macExpertSet {
		macExpertEncoding[r.code] = r.name
	}
}

// BaseEncoding returns a new copy of the predefined encoding with the given
// PDF name: StandardEncoding, WinAnsiEncoding, MacRomanEncoding,
// MacExpertEncoding or PDFDocEncoding. The caller owns the copy and may
// apply a /Differences array to it. Any other name reports false.
//
// StandardEncoding and PDFDocEncoding are not valid /BaseEncoding values in
// a PDF font dictionary, but both are needed: StandardEncoding is the
// built-in encoding of the Latin standard 14 fonts (and the usual built-in
// encoding of Type 1 fonts), and PDFDocEncoding is the encoding of text
// strings.
func BaseEncoding(name string) (*Encoding, bool) {
	var src *Encoding
	switch name {
	case "StandardEncoding":
		src = &standardEncoding
	case "WinAnsiEncoding":
		src = &winAnsiEncoding
	case "MacRomanEncoding":
		src = &macRomanEncoding
	case "MacExpertEncoding":
		src = &macExpertEncoding
	case "PDFDocEncoding":
		src = &pdfDocEncoding
	default:
		return nil, false
	}
	e := *src
	return &e, true
}

// Symbol returns a new copy of the built-in encoding of the standard Symbol
// font (PDF 32000-1:2008 Table D.5), taken from the font's AFM file.
func Symbol() *Encoding {
	e := std14[fontSymbol].encoding()
	return &e
}

// ZapfDingbats returns a new copy of the built-in encoding of the standard
// ZapfDingbats font (PDF 32000-1:2008 Table D.6), taken from the font's AFM
// file.
func ZapfDingbats() *Encoding {
	e := std14[fontZapfDingbats].encoding()
	return &e
}
