package cmap

import (
	"strings"
	"testing"
)

func TestPredefinedNames(t *testing.T) {
	for _, wm := range []string{"H", "V"} {
		names := []string{"Identity-" + wm}
		for _, s := range []string{"GB", "CNS", "JIS", "KS"} {
			names = append(names, "Uni"+s+"-UCS2-"+wm, "Uni"+s+"-UTF16-"+wm)
		}
		for _, n := range names {
			c, ok := Predefined(n)
			if !ok {
				t.Errorf("Predefined(%q) not found", n)
				continue
			}
			wantW := 0
			if wm == "V" {
				wantW = 1
			}
			if c.Name() != n || c.WMode() != wantW || c.UseCMap() != "" {
				t.Errorf("%s: Name %q WMode %d", n, c.Name(), c.WMode())
			}
			if got := c.CodesAreUnicode(); got != (n[:3] == "Uni") {
				t.Errorf("%s: CodesAreUnicode = %v", n, got)
			}
		}
	}
	for _, n := range []string{"Identity", "identity-h", "UniJIS-UTF8-H", "UniJIS-UTF32-H", "CNS-EUC-H", "83pv-RKSJ-V", "Adobe-Japan1-UCS2", ""} {
		if _, ok := Predefined(n); ok {
			t.Errorf("Predefined(%q) found; no tables are shipped for it", n)
		}
	}
	for _, n := range []string{"90ms-RKSJ-H", "90ms-RKSJ-V", "H", "V", "EUC-H", "GBK-EUC-H", "GBK2K-V", "B5pc-H", "ETen-B5-V", "KSCms-UHC-H", "KSC-EUC-V"} {
		c, ok := Predefined(n)
		if !ok || !c.CodesAreUnicode() || c.Name() != n {
			t.Errorf("Predefined(%q): found %v; want a legacy CMap whose codes give Unicode", n, ok)
			continue
		}
		if wantV := n == "V" || strings.HasSuffix(n, "-V"); (c.WMode() == 1) != wantV {
			t.Errorf("%s: WMode %d", n, c.WMode())
		}
	}
	a, _ := Predefined("Identity-H")
	b, _ := Predefined("Identity-H")
	if a != b {
		t.Error("predefined CMaps should be shared")
	}
}

func TestPredefinedLookups(t *testing.T) {
	tests := []struct {
		cmap   string
		code   Code
		uni    string
		uniOK  bool
		cid    uint32
		cidOK  bool
		reason string
	}{
		{"Identity-H", code(2, 0x0041), "", false, 0x41, true, "identity: CID = code, no Unicode"},
		{"Identity-V", code(2, 0xFFFF), "", false, 0xFFFF, true, "identity over the whole range"},
		{"Identity-H", code(1, 0x41), "", false, 0, false, "identity is for 2-byte codes"},
		{"UniJIS-UCS2-H", code(2, 0x3042), "\u3042", true, 0, false, "UCS2 code is the character; no CID table"},
		{"UniGB-UCS2-V", code(2, 0x0041), "A", true, 0, false, "ASCII through UCS2"},
		{"UniKS-UCS2-H", code(2, 0x00E9), "\u00E9", true, 0, false, "2-byte UTF-8 result"},
		{"UniKS-UCS2-H", code(2, 0xD800), "", false, 0, false, "a surrogate is no character"},
		{"UniCNS-UTF16-H", code(2, 0x4E2D), "\u4E2D", true, 0, false, "BMP character"},
		{"UniCNS-UTF16-H", code(4, 0xD83DDE00), "\U0001F600", true, 0, false, "surrogate pair"},
		{"UniCNS-UTF16-H", code(4, 0xD83D0041), "", false, 0, false, "not a pair"},
		{"UniJIS-UTF16-V", code(1, 0x41), "", false, 0, false, "1-byte codes are not UTF-16"},
		{"90ms-RKSJ-H", code(2, 0x93FA), "\u65E5", true, 0, false, "Shift-JIS 93FA is 日; no CID table"},
		{"90ms-RKSJ-H", code(1, 0xB1), "\uFF71", true, 0, false, "Shift-JIS 1-byte katakana: halfwidth ｱ"},
		{"90ms-RKSJ-H", code(1, 0x41), "A", true, 0, false, "ASCII"},
		{"H", code(2, 0x467C), "\u65E5", true, 0, false, "JIS row/cell 467C is EUC C6FC, 日"},
		{"EUC-H", code(2, 0xC6FC), "\u65E5", true, 0, false, "EUC-JP"},
		{"GBK-EUC-H", code(2, 0xD6D0), "\u4E2D", true, 0, false, "GBK D6D0 is 中"},
		{"GBK2K-H", code(4, 0x81308130), "\u0080", true, 0, false, "GB18030 four-byte code"},
		{"B5pc-H", code(2, 0xA4A4), "\u4E2D", true, 0, false, "Big5 A4A4 is 中"},
		{"KSCms-UHC-H", code(2, 0xB0A1), "\uAC00", true, 0, false, "UHC B0A1 is 가"},
		{"GBK-EUC-H", code(2, 0xFFFF), "", false, 0, false, "outside GBK: unmapped, not U+FFFD"},
	}
	for _, tc := range tests {
		c, ok := Predefined(tc.cmap)
		if !ok {
			t.Fatalf("Predefined(%q) not found", tc.cmap)
		}
		u, uok := c.Unicode(tc.code)
		cid, cok := c.CID(tc.code)
		if u != tc.uni || uok != tc.uniOK || cid != tc.cid || cok != tc.cidOK {
			t.Errorf("%s %+v: Unicode %q,%v CID %d,%v; want %q,%v %d,%v (%s)",
				tc.cmap, tc.code, u, uok, cid, cok, tc.uni, tc.uniOK, tc.cid, tc.cidOK, tc.reason)
		}
	}
}

func TestBMPTable(t *testing.T) {
	for _, r := range []rune{0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF} {
		got, ok := bmpString(r)
		if !ok || got != string(r) {
			t.Errorf("bmpString(%U) = %q, %v", r, got, ok)
		}
	}
	for _, r := range []rune{-1, 0xD800, 0xDFFF, 0x10000} {
		if _, ok := bmpString(r); ok {
			t.Errorf("bmpString(%U) reported ok", r)
		}
	}
}

// TestCIDUnicode checks one well-known CID of each collection against its
// published Unicode value, and that other orderings are refused.
func TestCIDUnicode(t *testing.T) {
	tests := []struct {
		ordering string
		cid      uint32
		want     string
		why      string
	}{
		{"Japan1", 34, "A", "Adobe-Japan1 CID 34 is the proportional Latin A"},
		{"Japan1", 843, "あ", "Adobe-Japan1 CID 843 is hiragana a"},
		{"GB1", 34, "A", "Adobe-GB1 CID 34 is Latin A"},
		{"CNS1", 34, "A", "Adobe-CNS1 CID 34 is Latin A"},
		{"Korea1", 34, "A", "Adobe-Korea1 CID 34 is Latin A"},
	}
	for _, tt := range tests {
		c, ok := CIDUnicode(tt.ordering)
		if !ok {
			t.Fatalf("%s: no table", tt.ordering)
		}
		got, ok := c.Unicode(Code{Value: tt.cid, Len: 2, Valid: true})
		if !ok || got != tt.want {
			t.Errorf("%s: CID %d = %q, %v; want %q", tt.why, tt.cid, got, ok, tt.want)
		}
	}
	if _, ok := CIDUnicode("Identity"); ok {
		t.Error("Identity has no CID-to-Unicode table")
	}
}
