package fontenc

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// pdfDocRunes maps PDFDocEncoding codes to Unicode as PDF 32000-1:2008
// Table D.2 (Annex D.3, "PDFDocEncoding character set") lists them. Codes the
// table leaves undefined hold utf8.RuneError.
var pdfDocRunes = func() (t [256]rune) {
	for i := range t {
		switch {
		case i == 0x09 || i == 0x0A || i == 0x0D:
			t[i] = rune(i)
		case 0x20 <= i && i <= 0x7E, 0xA1 <= i && i <= 0xFF && i != 0xAD:
			t[i] = rune(i)
		default:
			t[i] = utf8.RuneError
		}
	}
	special := [...]struct {
		code byte
		r    rune
	}{
		{0x18, 0x02D8}, {0x19, 0x02C7}, {0x1A, 0x02C6}, {0x1B, 0x02D9},
		{0x1C, 0x02DD}, {0x1D, 0x02DB}, {0x1E, 0x02DA}, {0x1F, 0x02DC},
		{0x80, 0x2022}, {0x81, 0x2020}, {0x82, 0x2021}, {0x83, 0x2026},
		{0x84, 0x2014}, {0x85, 0x2013}, {0x86, 0x0192}, {0x87, 0x2044},
		{0x88, 0x2039}, {0x89, 0x203A}, {0x8A, 0x2212}, {0x8B, 0x2030},
		{0x8C, 0x201E}, {0x8D, 0x201C}, {0x8E, 0x201D}, {0x8F, 0x2018},
		{0x90, 0x2019}, {0x91, 0x201A}, {0x92, 0x2122}, {0x93, 0xFB01},
		{0x94, 0xFB02}, {0x95, 0x0141}, {0x96, 0x0152}, {0x97, 0x0160},
		{0x98, 0x0178}, {0x99, 0x017D}, {0x9A, 0x0131}, {0x9B, 0x0142},
		{0x9C, 0x0153}, {0x9D, 0x0161}, {0x9E, 0x017E}, {0xA0, 0x20AC},
	}
	for _, s := range special {
		t[s.code] = s.r
	}
	return t
}()

// PDFDocRune returns the Unicode character for a PDFDocEncoding code, and
// false (with U+FFFD) for the codes the encoding leaves undefined: 0x00-0x08,
// 0x0B, 0x0C, 0x0E-0x17, 0x7F, 0x9F and 0xAD.
func PDFDocRune(code byte) (rune, bool) {
	r := pdfDocRunes[code]
	return r, r != utf8.RuneError
}

// DecodeTextString decodes a PDF text string (PDF 32000-1:2008 §7.9.2.2,
// PDF 2.0 §7.9.2.2) to UTF-8:
//   - bytes FE FF first: UTF-16BE;
//   - bytes EF BB BF first: UTF-8 (PDF 2.0);
//   - bytes FF FE first: UTF-16LE. Not allowed by the spec, but written by
//     some producers; PDFDocEncoding would turn it into "ÿþ" and noise;
//   - otherwise PDFDocEncoding.
//
// The byte order mark is not part of the result. Every invalid sequence
// becomes U+FFFD: a lone surrogate, a trailing odd byte of UTF-16, each byte
// of an invalid UTF-8 sequence, and each PDFDocEncoding code the encoding
// leaves undefined (see PDFDocRune). In the Unicode forms, language escape
// sequences (U+001B, a language code, U+001B) are removed; a lone U+001B is
// dropped.
func DecodeTextString(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return stripLangEscapes(decodeUTF16(b[2:], true))
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return stripLangEscapes(decodeUTF8(b[3:]))
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return stripLangEscapes(decodeUTF16(b[2:], false))
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for _, c := range b {
		sb.WriteRune(pdfDocRunes[c])
	}
	return sb.String()
}

func decodeUTF16(b []byte, bigEndian bool) string {
	var sb strings.Builder
	sb.Grow(len(b))
	unit := func(i int) rune {
		if bigEndian {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	i := 0
	for ; i+1 < len(b); i += 2 {
		u := unit(i)
		switch {
		case utf16.IsSurrogate(u) && u < 0xDC00 && i+3 < len(b):
			u2 := unit(i + 2)
			if r := utf16.DecodeRune(u, u2); r != utf8.RuneError {
				sb.WriteRune(r)
				i += 2
				continue
			}
			sb.WriteRune(utf8.RuneError)
		case utf16.IsSurrogate(u):
			sb.WriteRune(utf8.RuneError)
		default:
			sb.WriteRune(u)
		}
	}
	if i < len(b) {
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String()
}

func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		sb.WriteRune(r) // RuneError for each invalid byte (n == 1)
		b = b[n:]
	}
	return sb.String()
}

// stripLangEscapes removes language escape sequences: U+001B, an ISO 639
// language code, an optional ISO 3166 country code, U+001B.
func stripLangEscapes(s string) string {
	if strings.IndexByte(s, 0x1B) < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for {
		i := strings.IndexByte(s, 0x1B)
		if i < 0 {
			sb.WriteString(s)
			break
		}
		sb.WriteString(s[:i])
		s = s[i+1:]
		if j := strings.IndexByte(s, 0x1B); j >= 0 && j <= 8 {
			s = s[j+1:]
		}
	}
	return sb.String()
}
