package fontfile

import (
	"testing"
)

func TestType1Encoding(t *testing.T) {
	tests := []struct {
		name    string
		program string
		want    map[int]string // nil: not ok
	}{
		{"standard encoding by name", "%!PS-AdobeFont-1.0: X\n/Encoding StandardEncoding def\ncurrentfile eexec\x00\x01", map[int]string{65: "A", 39: "quoteright"}},
		{"dup entries, TeX style", "/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 59 /comma put\ndup 161 /Gamma put\nreadonly def\ncurrentfile eexec", map[int]string{59: "comma", 161: "Gamma", 65: ""}},
		{"names glued to the next token", "/Encoding 256 array dup 32/space put dup 33/exclam put readonly def", map[int]string{32: "space", 33: "exclam"}},
		{"entries after eexec are encrypted text, not read", "/Encoding 256 array\ncurrentfile eexec dup 65 /A put", nil},
		{"out of range codes are ignored", "/Encoding 256 array dup 300 /A put dup -1 /B put dup 7 /C put def", map[int]string{7: "C"}},
		{"no encoding at all", "%!FontType1 /FontName /X def", nil},
		{"PFB segment header", "\x80\x01\x2a\x00\x00\x00/Encoding 256 array dup 65 /B put def\n", map[int]string{65: "B"}},
	}
	for _, tt := range tests {
		enc, ok := Type1Encoding([]byte(tt.program))
		if ok != (tt.want != nil) {
			t.Errorf("%s: ok = %v", tt.name, ok)
			continue
		}
		for code, name := range tt.want {
			if enc[code] != name {
				t.Errorf("%s: code %d = %q, want %q", tt.name, code, enc[code], name)
			}
		}
	}
}

// buildCFF assembles a minimal bare CFF program with three glyphs named by
// a custom charset and a custom format-0 encoding, plus a supplement.
func buildCFF(t testing.TB, encodingFormat byte) []byte {
	index := func(items ...[]byte) []byte {
		b := []byte{0, byte(len(items)), 1}
		off := 1
		b = append(b, byte(off))
		for _, it := range items {
			off += len(it)
			b = append(b, byte(off))
		}
		for _, it := range items {
			b = append(b, it...)
		}
		return b
	}
	num := func(v int) []byte { return []byte{28, byte(v >> 8), byte(v)} }
	header := []byte{1, 0, 4, 1}
	name := index([]byte("X"))
	strs := index([]byte("custom.glyph"))
	gsubr := index()
	// Offsets are fixed after the top dict, whose size does not depend on them
	// (3-byte operands).
	topLen := 3*3 + 3
	topIndexLen := 3 + 2 + topLen
	base := len(header) + len(name) + topIndexLen + len(strs) + len(gsubr)
	charset := []byte{0, 0, 34, 1, 135} // format 0: gid1 = SID 34 ("A"), gid2 = SID 391 (custom.glyph)
	var encoding []byte
	switch encodingFormat {
	case 0:
		encoding = []byte{0x80, 2, 65, 66, 1, 67, 0, 35} // codes 65,66 -> gid 1,2; supplement 67 -> SID 35 ("B")
	case 1:
		encoding = []byte{1, 1, 100, 1} // codes 100..101 -> gid 1..2
	}
	charStrings := index([]byte{14}, []byte{14}, []byte{14})
	charsetOff := base
	encodingOff := charsetOff + len(charset)
	csOff := encodingOff + len(encoding)
	top := append(append(append(num(charsetOff), 15), append(num(encodingOff), 16)...), append(num(csOff), 17)...)
	if len(top) != topLen {
		t.Fatalf("top dict is %d bytes, want %d", len(top), topLen)
	}
	out := append([]byte{}, header...)
	out = append(out, name...)
	out = append(out, index(top)...)
	out = append(out, strs...)
	out = append(out, gsubr...)
	if len(out) != base {
		t.Fatalf("layout: %d != %d", len(out), base)
	}
	out = append(out, charset...)
	out = append(out, encoding...)
	return append(out, charStrings...)
}

func TestCFFEncoding(t *testing.T) {
	enc, ok := CFFEncoding(buildCFF(t, 0))
	if !ok {
		t.Fatal("format 0 encoding not read")
	}
	for code, want := range map[int]string{65: "A", 66: "custom.glyph", 67: "B", 68: ""} {
		if enc[code] != want {
			t.Errorf("format 0: code %d = %q, want %q", code, enc[code], want)
		}
	}
	enc, ok = CFFEncoding(buildCFF(t, 1))
	if !ok {
		t.Fatal("format 1 encoding not read")
	}
	if enc[100] != "A" || enc[101] != "custom.glyph" {
		t.Errorf("format 1: codes 100, 101 = %q, %q", enc[100], enc[101])
	}
	if _, ok := CFFEncoding([]byte{1, 0, 4}); ok {
		t.Error("a truncated program was read")
	}
}

func FuzzFontPrograms(f *testing.F) {
	f.Add(buildCFF(f, 0))
	f.Add(buildCFF(f, 1))
	f.Add([]byte("/Encoding 256 array dup 32/space put readonly def"))
	f.Add(buildSfnt(1, format4([][3]uint16{{'A', 'C', 3}})))
	f.Fuzz(func(t *testing.T, b []byte) {
		CFFEncoding(b)
		Type1Encoding(b)
		TrueTypeGlyphText(b)
	})
}

// buildSfnt wraps one cmap subtable (platform 3, encoding enc) in a minimal
// sfnt program.
func buildSfnt(enc uint16, sub []byte) []byte {
	put16 := func(b []byte, v uint16) []byte { return append(b, byte(v>>8), byte(v)) }
	put32 := func(b []byte, v uint32) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	cmap := put16(put16(nil, 0), 1)
	cmap = put32(put16(put16(cmap, 3), enc), 12)
	cmap = append(cmap, sub...)
	head := put32(nil, 0x00010000)
	head = put16(put16(put16(put16(head, 1), 16), 0), 0)
	head = append(head, "cmap"...)
	head = put32(put32(put32(head, 0), 28), uint32(len(cmap)))
	return append(head, cmap...)
}

func format4(segs [][3]uint16) []byte { // start, end, delta; idRangeOffset 0
	put16 := func(b []byte, v uint16) []byte { return append(b, byte(v>>8), byte(v)) }
	segs = append(segs, [3]uint16{0xFFFF, 0xFFFF, 1})
	n := uint16(len(segs))
	b := put16(put16(put16(nil, 4), 0), 0)
	b = put16(put16(put16(put16(b, 2*n), 0), 0), 0)
	for _, s := range segs {
		b = put16(b, s[1])
	}
	b = put16(b, 0)
	for _, s := range segs {
		b = put16(b, s[0])
	}
	for _, s := range segs {
		b = put16(b, s[2])
	}
	for range segs {
		b = put16(b, 0)
	}
	return b
}

func TestTrueTypeGlyphText(t *testing.T) {
	// 'A'..'C' -> glyphs 3..5 (delta 3-65); 'a' -> glyph 3 too (a shared glyph keeps 'A').
	delta := func(from, to int) uint16 { return uint16(to - from) } // modulo 65536, as the format says
	prog := buildSfnt(1, format4([][3]uint16{{'A', 'C', delta('A', 3)}, {'a', 'a', delta('a', 3)}}))
	m := TrueTypeGlyphText(prog)
	for gid, want := range map[uint16]rune{3: 'A', 4: 'B', 5: 'C'} {
		if m[gid] != want {
			t.Errorf("format 4: glyph %d = %q, want %q", gid, m[gid], want)
		}
	}
	put32 := func(b []byte, v uint32) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	f12 := []byte{0, 12, 0, 0}
	f12 = put32(put32(put32(f12, 28), 0), 1)
	f12 = put32(put32(put32(f12, 0x1F600), 0x1F601), 7)
	m = TrueTypeGlyphText(buildSfnt(10, f12))
	if m[7] != 0x1F600 || m[8] != 0x1F601 {
		t.Errorf("format 12: glyphs 7, 8 = %q, %q", m[7], m[8])
	}
	if TrueTypeGlyphText([]byte("not a font")) != nil {
		t.Error("garbage gave a map")
	}
}
