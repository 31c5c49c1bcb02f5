package cmap

import (
	"strings"
	"sync"
)

var (
	predefOnce sync.Once
	predef     map[string]*CMap
)

// Predefined returns one of the predefined CMaps this package knows
// (PDF 32000-1:2008 §9.7.5.2, Table 118), and false for any other name:
//
//   - Identity-H, Identity-V: 2-byte codes <0000>-<FFFF>, CID = code;
//   - Uni{GB,CNS,JIS,KS}-UCS2-{H,V}: 2-byte codes <0000>-<FFFF> that are
//     UTF-16 code units (UCS-2);
//   - Uni{GB,CNS,JIS,KS}-UTF16-{H,V}: UTF-16BE codes, 2 bytes
//     (<0000>-<D7FF>, <E000>-<FFFF>) or 4 bytes for a surrogate pair
//     (<D800DC00>-<DBFFDFFF>);
//   - the CMaps of national character sets: {83pv,90ms,90msp,90pv,Add,Ext}-RKSJ,
//     EUC, H and V (Japanese); GB-EUC, GBpc-EUC, GBK-EUC, GBKp-EUC, GBK2K
//     (Simplified Chinese); B5pc, HKscs-B5, ETen-B5, ETenms-B5 (Traditional
//     Chinese); KSC-EUC, KSCpc-EUC, KSCms-UHC, KSCms-UHC-HW (Korean), each
//     -H and, where Adobe defines it, -V. Their codes decode to Unicode
//     through golang.org/x/text (see legacy.go).
//
// For the Unicode-based and the legacy ones CodesAreUnicode is true,
// Unicode answers from the code itself and CID reports false (no CID
// tables are shipped). The returned CMap is shared; it is immutable like
// every CMap.
func Predefined(name string) (*CMap, bool) {
	predefOnce.Do(buildPredefined)
	c, ok := predef[name]
	return c, ok
}

func buildPredefined() {
	predef = make(map[string]*CMap)
	mk := func(name string, ranges []csRange, identity bool, ucs uniKind) {
		c := &CMap{name: name, identity: identity, ucs: ucs, offs: []uint32{0}, wmodeOK: true}
		if strings.HasSuffix(name, "-V") {
			c.wmode = 1
		}
		c.cs.ranges = ranges
		c.cs.build()
		predef[name] = c
	}
	two := []csRange{fullRange(2)}
	utf16 := []csRange{
		{n: 2, lo: [4]byte{0x00, 0x00}, hi: [4]byte{0xD7, 0xFF}},
		{n: 4, lo: [4]byte{0xD8, 0x00, 0xDC, 0x00}, hi: [4]byte{0xDB, 0xFF, 0xDF, 0xFF}},
		{n: 2, lo: [4]byte{0xE0, 0x00}, hi: [4]byte{0xFF, 0xFF}},
	}
	for base, l := range legacyCMaps() {
		for _, wm := range l.written {
			name := wm
			if base != "" {
				name = base + "-" + wm
			}
			mk(name, l.ranges, false, uniLegacy)
			predef[name].legacy = &l.cs
			if wm == "V" {
				predef[name].wmode = 1
			}
		}
	}
	for _, wm := range []string{"H", "V"} {
		mk("Identity-"+wm, two, true, uniNone)
		for _, script := range []string{"GB", "CNS", "JIS", "KS"} {
			mk("Uni"+script+"-UCS2-"+wm, two, false, uniUCS2)
			mk("Uni"+script+"-UTF16-"+wm, utf16, false, uniUTF16)
		}
	}
}
