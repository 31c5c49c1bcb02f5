package cmap

import (
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// The predefined CMaps whose codes are a national character set (Shift-JIS,
// EUC, GBK, Big5, UHC) rather than Unicode. Adobe's CMap files map those
// codes to CIDs of the Adobe-*-N collections; what a text extractor needs is
// the Unicode text, and the codes are exactly the bytes of the legacy
// encoding, so golang.org/x/text's decoders give it directly. CID is not
// answered (no CID tables are shipped; see the BUG note in doc.go).

// legacyCharset names a decoder and whether codes must first be moved to
// the high half (the ISO-2022 row/cell codes of the JIS "H" and "V" CMaps,
// which are EUC-JP with the top bit cleared).
type legacyCharset struct {
	enc     encoding.Encoding
	setHigh bool
}

var (
	shiftJIS = legacyCharset{enc: japanese.ShiftJIS}
	eucJP    = legacyCharset{enc: japanese.EUCJP}
	jisRows  = legacyCharset{enc: japanese.EUCJP, setHigh: true}
	gbk      = legacyCharset{enc: simplifiedchinese.GBK}
	gb18030  = legacyCharset{enc: simplifiedchinese.GB18030}
	big5     = legacyCharset{enc: traditionalchinese.Big5}
	uhc      = legacyCharset{enc: korean.EUCKR} // x/text's EUC-KR is Microsoft's code page 949 (UHC), a superset
)

func r1(lo, hi byte) csRange { return csRange{n: 1, lo: [4]byte{lo}, hi: [4]byte{hi}} }
func r2(lo0, hi0, lo1, hi1 byte) csRange {
	return csRange{n: 2, lo: [4]byte{lo0, lo1}, hi: [4]byte{hi0, hi1}}
}

// legacyCMap is a family of predefined CMaps decoded through a national
// character set: its codespace ranges (those of Adobe's CMap files) and the
// writing modes Adobe defines it in ("H", "V").
type legacyCMap struct {
	cs      legacyCharset
	ranges  []csRange
	written []string
}

// legacyCMaps lists the predefined CMaps of PDF 32000-1:2008 Table 118
// that this package decodes through a national character set, by the name
// before "-H"/"-V" ("" for the JIS "H" and "V").
func legacyCMaps() map[string]legacyCMap {
	hv := []string{"H", "V"}
	rksj := []csRange{r1(0x00, 0x80), r1(0xA0, 0xDF), r1(0xFD, 0xFF), r2(0x81, 0x9F, 0x40, 0xFC), r2(0xE0, 0xFC, 0x40, 0xFC)}
	euc := []csRange{r1(0x00, 0x80), r2(0x8E, 0x8E, 0xA0, 0xDF), r2(0xA1, 0xFE, 0xA1, 0xFE)}
	eucPlain := []csRange{r1(0x00, 0x80), r2(0xA1, 0xFE, 0xA1, 0xFE)} // ASCII and 94x94 rows
	gbkRanges := []csRange{r1(0x00, 0x80), r2(0x81, 0xFE, 0x40, 0xFE)}
	gb18030Ranges := []csRange{r1(0x00, 0x80), r2(0x81, 0xFE, 0x40, 0x7E), r2(0x81, 0xFE, 0x80, 0xFE),
		{n: 4, lo: [4]byte{0x81, 0x30, 0x81, 0x30}, hi: [4]byte{0xFE, 0x39, 0xFE, 0x39}}}
	big5Ranges := []csRange{r1(0x00, 0x80), r2(0x81, 0xFE, 0x40, 0x7E), r2(0x81, 0xFE, 0xA1, 0xFE)}
	uhcRanges := []csRange{r1(0x00, 0x80), r2(0x81, 0xFE, 0x41, 0xFE)}
	return map[string]legacyCMap{
		// Japanese.
		"83pv-RKSJ":  {shiftJIS, rksj, []string{"H"}},
		"90ms-RKSJ":  {shiftJIS, rksj, hv},
		"90msp-RKSJ": {shiftJIS, rksj, hv},
		"90pv-RKSJ":  {shiftJIS, rksj, []string{"H"}},
		"Add-RKSJ":   {shiftJIS, rksj, hv},
		"Ext-RKSJ":   {shiftJIS, rksj, hv},
		"EUC":        {eucJP, euc, hv},
		"":           {jisRows, []csRange{r2(0x21, 0x7E, 0x21, 0x7E)}, hv}, // "H" and "V"
		// Simplified Chinese.
		"GB-EUC":   {gbk, eucPlain, hv},
		"GBpc-EUC": {gbk, eucPlain, hv},
		"GBK-EUC":  {gbk, gbkRanges, hv},
		"GBKp-EUC": {gbk, gbkRanges, hv},
		"GBK2K":    {gb18030, gb18030Ranges, hv},
		// Traditional Chinese.
		"B5pc":      {big5, big5Ranges, hv},
		"HKscs-B5":  {big5, big5Ranges, hv},
		"ETen-B5":   {big5, big5Ranges, hv},
		"ETenms-B5": {big5, big5Ranges, hv},
		// Korean.
		"KSC-EUC":      {uhc, eucPlain, hv},
		"KSCpc-EUC":    {uhc, eucPlain, []string{"H"}},
		"KSCms-UHC":    {uhc, uhcRanges, hv},
		"KSCms-UHC-HW": {uhc, uhcRanges, hv},
	}
}

// legacyUnicode decodes one code of a legacy CMap. A code the charset does
// not define reports false (x/text decodes it to U+FFFD).
func legacyUnicode(cs *legacyCharset, code Code) (string, bool) {
	var b [4]byte
	n := int(code.Len)
	for i := 0; i < n; i++ {
		b[i] = byte(code.Value >> (8 * (n - 1 - i)))
		if cs.setHigh {
			b[i] |= 0x80
		}
	}
	out, err := cs.enc.NewDecoder().Bytes(b[:n])
	if err != nil || len(out) == 0 {
		return "", false
	}
	if r, _ := utf8.DecodeRune(out); r == utf8.RuneError || (n > 1 && r < 0x80) {
		return "", false
	}
	return string(out), true
}
