package cmap

import (
	"fmt"
	"strings"
	"testing"
)

// fmtCodes renders codes as "<hex>" for valid ones and "!<hex>" for invalid.
func fmtCodes(codes []Code) string {
	var parts []string
	for _, c := range codes {
		s := fmt.Sprintf("<%0*X>", 2*c.Len, c.Value)
		if !c.Valid {
			s = "!" + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestSplit(t *testing.T) {
	japan := mustParse(t, specJapan1)
	identity, _ := Predefined("Identity-H")
	utf16, _ := Predefined("UniJIS-UTF16-H")
	utf8cs := mustParse(t, `begincmap 4 begincodespacerange
<00><7f>
<c080><dfbf>
<e08080><efbfbf>
<f0808080><f7bfbfbf>
endcodespacerange endcmap`)
	oneByte := mustParse(t, "begincmap 1 begincodespacerange <20> <79> endcodespacerange endcmap")
	numeric := mustParse(t, "begincmap 1 begincodespacerange <02e3> <70bb> endcodespacerange endcmap")
	if len(numeric.Warnings()) != 2 { // read as numbers; no mappings
		t.Errorf("numeric codespace warnings: %q", numeric.Warnings())
	}

	tests := []struct {
		name   string
		c      *CMap
		in     string
		want   string
		reason string
	}{
		{"spec 1-byte", japan, "A", "<41>", "§9.7.6.2: 0x41 is in <00>-<80>"},
		{"spec 2-byte", japan, "\x81\x40", "<8140>", "first byte 81-9F, second 40-FC"},
		{"spec mixed", japan, "A\x81\x40\xa5\xe0\x40\x80", "<41> <8140> <A5> <E040> <80>", "shortest match first"},
		{"spec byte-wise", japan, "\x9f\xfc\x82\x3f", "<9FFC> !<823F>", "ranges are byte-wise: 3F is below 40"},
		{"spec invalid 2-byte", japan, "\x81\x20A", "!<8120> <41>", "invalid: the length of the shortest range for first byte 81"},
		{"spec invalid 1-byte", japan, "\xfdA", "!<FD> <41>", "no range admits FD: one byte"},
		{"spec truncated", japan, "A\x81", "<41> !<81>", "a partial code at the end takes what is left"},
		{"identity", identity, "\x00A\x01\x02", "<0041> <0102>", "Identity-H: 2-byte codes"},
		{"identity odd", identity, "\x00A\x00", "<0041> !<00>", "odd trailing byte"},
		{"utf16 BMP", utf16, "\x00A\x4e\x2d", "<0041> <4E2D>", "2-byte UTF-16 units"},
		{"utf16 pair", utf16, "\xd8\x3d\xde\x00\x00A", "<D83DDE00> <0041>", "surrogate pair is one 4-byte code"},
		{"utf16 bad pair", utf16, "\xd8\x00\x00\x41", "!<D8000041>", "high surrogate without low: invalid 4-byte code"},
		{"utf8 ranges", utf8cs, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "<41> <C3A9> <E282AC> <F09F9880>", "1- to 4-byte ranges"},
		{"utf8 invalid", utf8cs, "\x80\xc3", "!<80> !<C3>", "continuation byte alone; truncated lead"},
		{"restricted 1-byte", oneByte, "\x20\x79\x7a\x00", "<20> <79> !<7A> !<00>", "codes outside <20>-<79> are invalid"},
		{"numeric range", numeric, "\x10\x00\x02\xe3\x70\xbb\x02\xe2\x70\xbc", "<1000> <02E3> <70BB> !<02E2> !<70BC>",
			"bounds not ordered byte-wise are read as numbers (a real file has <02e3> <70bb>)"},
		{"empty", identity, "", "", "no codes"},
	}
	for _, tc := range tests {
		codes := tc.c.Split([]byte(tc.in))
		if got := fmtCodes(codes); got != tc.want {
			t.Errorf("%s: Split(%q) = %s, want %s (%s)", tc.name, tc.in, got, tc.want, tc.reason)
		}
		checkCover(t, codes, []byte(tc.in))
	}
}

// checkCover checks that codes cover s exactly, each 1-4 bytes long, with
// the values of the bytes they cover.
func checkCover(t *testing.T, codes []Code, s []byte) {
	t.Helper()
	i := 0
	for _, c := range codes {
		if c.Len < 1 || c.Len > 4 {
			t.Fatalf("code %+v: length out of 1..4", c)
		}
		if i+c.Len > len(s) {
			t.Fatalf("code %+v runs past the end of %d bytes", c, len(s))
		}
		if v := beValue(s[i : i+c.Len]); v != c.Value {
			t.Fatalf("code %+v: value of bytes is %X", c, v)
		}
		i += c.Len
	}
	if i != len(s) {
		t.Fatalf("codes cover %d of %d bytes", i, len(s))
	}
}

func TestNextCodeMatchesSplit(t *testing.T) {
	c := mustParse(t, specJapan1)
	s := []byte("A\x81\x40\xa5\xe0\x40\x81\x20\xfd\x9f")
	codes := c.Split(s)
	var again []Code
	for rest := s; len(rest) > 0; {
		cd := c.NextCode(rest)
		again = append(again, cd)
		rest = rest[cd.Len:]
	}
	if fmtCodes(codes) != fmtCodes(again) {
		t.Errorf("NextCode loop %s, Split %s", fmtCodes(again), fmtCodes(codes))
	}
}

func TestNoAllocations(t *testing.T) {
	c := mustParse(t, specToUnicode)
	s := []byte("\x00\x21\x00\x5f\x3a\x51\x00\x62")
	buf := make([]Code, 0, 16)
	n := testing.AllocsPerRun(100, func() {
		codes := c.AppendCodes(buf[:0], s)
		for _, cd := range codes {
			c.Unicode(cd)
			c.CID(cd)
		}
	})
	if n != 0 {
		t.Errorf("AppendCodes + lookups allocate %v times per run, want 0", n)
	}
	ucs, _ := Predefined("UniGB-UCS2-H")
	ucs.Unicode(code(2, 0x4E2D)) // build the BMP table outside the count
	n = testing.AllocsPerRun(100, func() {
		for _, cd := range ucs.AppendCodes(buf[:0], []byte("\x4e\x2d\x00A")) {
			ucs.Unicode(cd)
		}
	})
	if n != 0 {
		t.Errorf("predefined UCS2 lookups allocate %v times per run, want 0", n)
	}
}

func BenchmarkSplitUnicode(b *testing.B) {
	c, err := Parse([]byte(specToUnicode))
	if err != nil {
		b.Fatal(err)
	}
	s := []byte(strings.Repeat("\x00\x21\x00\x45\x00\x5f\x00\x30", 64))
	buf := make([]Code, 0, len(s))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		for _, cd := range c.AppendCodes(buf[:0], s) {
			c.Unicode(cd)
		}
	}
}

func BenchmarkSplitMixedCodespace(b *testing.B) {
	c, err := Parse([]byte(specJapan1))
	if err != nil {
		b.Fatal(err)
	}
	s := []byte(strings.Repeat("A\x81\x40\xa5\xe0\x40", 64))
	buf := make([]Code, 0, len(s))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		for _, cd := range c.AppendCodes(buf[:0], s) {
			c.CID(cd)
		}
	}
}

func TestSetBits(t *testing.T) {
	for _, r := range [][2]int{{0, 0}, {0, 63}, {0, 64}, {5, 200}, {63, 64}, {100, 100}, {0, 65535}, {65500, 65535}} {
		var words [1 << 16 / 64]uint64
		setBits(words[:], r[0], r[1])
		for v := 0; v < 1<<16; v++ {
			set := words[v>>6]&(1<<(v&63)) != 0
			if set != (v >= r[0] && v <= r[1]) {
				t.Fatalf("setBits(%d, %d): bit %d is %v", r[0], r[1], v, set)
			}
		}
	}
}
