package cmap

import "testing"

func TestMergeToUnicode(t *testing.T) {
	parent := mustParse(t, `/CMapName /Parent def begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
1 beginbfrange <0041> <0043> <0061> endbfrange
1 beginbfchar <0050> <0070> endbfchar
endcmap`)
	child := mustParse(t, `/CMapName /Child def /Parent usecmap begincmap
2 beginbfchar <0042> <0058> <0060> <0059> endbfchar
endcmap`)
	if child.UseCMap() != "Parent" {
		t.Fatalf("UseCMap = %q", child.UseCMap())
	}
	m := child.Merge(parent)
	tests := []struct {
		code   Code
		want   string
		reason string
	}{
		{code(2, 0x41), "a", "parent entry"},
		{code(2, 0x42), "X", "child wins over parent"},
		{code(2, 0x43), "c", "parent range continues after the override"},
		{code(2, 0x50), "p", "parent bfchar"},
		{code(2, 0x60), "Y", "child-only entry"},
	}
	for _, tc := range tests {
		if got, _ := m.Unicode(tc.code); got != tc.want {
			t.Errorf("merged Unicode(%+v) = %q, want %q (%s)", tc.code, got, tc.want, tc.reason)
		}
	}
	if m.Name() != "Child" || m.UseCMap() != "" {
		t.Errorf("merged Name %q UseCMap %q", m.Name(), m.UseCMap())
	}
	// The child declared no codespace: the parent's replaces the inferred one.
	if got := fmtCodes(m.Split([]byte("\x00\x41\x00"))); got != "<0041> !<00>" {
		t.Errorf("merged Split = %s", got)
	}
	// The inputs are unchanged.
	if got, _ := parent.Unicode(code(2, 0x42)); got != "b" {
		t.Errorf("parent changed: %q", got)
	}
	if _, ok := child.Unicode(code(2, 0x41)); ok {
		t.Error("child changed")
	}
}

func TestMergePredefined(t *testing.T) {
	identity, _ := Predefined("Identity-V")
	child := mustParse(t, `/Identity-V usecmap begincmap
1 begincodespacerange <00> <1F> endcodespacerange
1 begincidrange <0100> <01FF> 5000 endcidrange
1 begincidchar <05> 7 endcidchar
endcmap`)
	m := child.Merge(identity)
	tests := []struct {
		code   Code
		want   uint32
		ok     bool
		reason string
	}{
		{code(2, 0x0041), 0x41, true, "identity fallback from the parent"},
		{code(2, 0x0105), 5005, true, "child cidrange wins over identity"},
		{code(1, 0x05), 7, true, "child 1-byte cidchar"},
		{code(1, 0x06), 0, false, "1-byte code without mapping"},
	}
	for _, tc := range tests {
		got, ok := m.CID(tc.code)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CID(%+v) = %d, %v; want %d, %v (%s)", tc.code, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
	if m.WMode() != 1 {
		t.Errorf("WMode = %d: the child gave none, so the parent's applies", m.WMode())
	}
	// Codespace union: 1-byte <00>-<1F> from the child, 2-byte from the parent.
	if got := fmtCodes(m.Split([]byte("\x05\x30\x41"))); got != "<05> <3041>" {
		t.Errorf("merged Split = %s", got)
	}

	ucs, _ := Predefined("UniJIS-UCS2-H")
	tu := mustParse(t, "begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfchar <0041> <0042> endbfchar endcmap")
	m2 := tu.Merge(ucs)
	if got, _ := m2.Unicode(code(2, 0x41)); got != "B" {
		t.Errorf("child mapping lost: %q", got)
	}
	if got, _ := m2.Unicode(code(2, 0x3042)); got != "\u3042" {
		t.Errorf("Unicode-code fallback lost: %q", got)
	}
	if !m2.CodesAreUnicode() {
		t.Error("CodesAreUnicode not inherited")
	}
}

func TestMergeChain(t *testing.T) {
	grand := mustParse(t, "/CMapName /G def begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <0061> endbfchar endcmap")
	parent := mustParse(t, "/CMapName /P def /G usecmap begincmap 1 beginbfchar <42> <0062> endbfchar endcmap")
	child := mustParse(t, "/CMapName /C def /P usecmap begincmap 1 beginbfchar <43> <0063> endbfchar endcmap")
	m := child.Merge(parent)
	if m.UseCMap() != "G" {
		t.Fatalf("UseCMap after one merge = %q, want the parent's reference", m.UseCMap())
	}
	m = m.Merge(grand)
	for c, want := range map[uint32]string{0x41: "a", 0x42: "b", 0x43: "c"} {
		if got, _ := m.Unicode(code(1, c)); got != want {
			t.Errorf("Unicode(%X) = %q, want %q", c, got, want)
		}
	}
	if m.UseCMap() != "" {
		t.Errorf("UseCMap at the end of the chain = %q", m.UseCMap())
	}
}

func TestPaintOverlaps(t *testing.T) {
	// Definition order: a wide range, a narrower one inside it, a single
	// code inside that, and a range overlapping the wide one's end.
	defs := []def{
		{lo: makeKey(1, 0x10), hi: makeKey(1, 0x30), val: 100},
		{lo: makeKey(1, 0x18), hi: makeKey(1, 0x1F), val: 200},
		{lo: makeKey(1, 0x1A), hi: makeKey(1, 0x1A), val: 300},
		{lo: makeKey(1, 0x2E), hi: makeKey(1, 0x40), val: 400},
		{lo: makeKey(2, 0x0010), hi: makeKey(2, 0x0010), val: 500},
	}
	segs := paint(defs, true)
	tests := []struct {
		key  uint64
		want uint32
		ok   bool
	}{
		{makeKey(1, 0x0F), 0, false},
		{makeKey(1, 0x10), 100, true},
		{makeKey(1, 0x17), 107, true},
		{makeKey(1, 0x18), 200, true},
		{makeKey(1, 0x19), 201, true},
		{makeKey(1, 0x1A), 300, true},
		{makeKey(1, 0x1B), 203, true},
		{makeKey(1, 0x1F), 207, true},
		{makeKey(1, 0x20), 116, true},
		{makeKey(1, 0x2D), 129, true},
		{makeKey(1, 0x2E), 400, true},
		{makeKey(1, 0x40), 418, true},
		{makeKey(1, 0x41), 0, false},
		{makeKey(2, 0x0010), 500, true},
		{makeKey(2, 0x0011), 0, false},
	}
	for _, tc := range tests {
		s, ok := find(segs, tc.key)
		var got uint32
		if ok {
			got = s.val + uint32(tc.key-s.lo)
		}
		if got != tc.want || ok != tc.ok {
			t.Errorf("key %X: %d, %v; want %d, %v", tc.key, got, ok, tc.want, tc.ok)
		}
	}
	for i := 1; i < len(segs); i++ {
		if segs[i].lo <= segs[i-1].hi {
			t.Fatalf("segments overlap: %+v %+v", segs[i-1], segs[i])
		}
	}
	// Constant values (notdef ranges) do not increment.
	nd := paint([]def{{lo: makeKey(1, 0), hi: makeKey(1, 0x1F), val: 1}, {lo: makeKey(1, 5), hi: makeKey(1, 6), val: 9}}, false)
	for k, want := range map[uint32]uint32{0: 1, 4: 1, 5: 9, 6: 9, 7: 1, 0x1F: 1} {
		s, ok := find(nd, makeKey(1, k))
		if !ok || s.val != want {
			t.Errorf("notdef code %X: %v, %v; want %d", k, s, ok, want)
		}
	}
}

func TestZeroAndNil(t *testing.T) {
	var z CMap
	if got := fmtCodes(z.Split([]byte("ab"))); got != "!<61> !<62>" {
		t.Errorf("zero CMap Split = %s", got)
	}
	if _, ok := z.Unicode(code(1, 0x61)); ok {
		t.Error("zero CMap maps a code")
	}
	c := mustParse(t, specToUnicode)
	if c.Merge(nil) != c {
		t.Error("Merge(nil) should return the receiver")
	}
	m := z.Merge(c)
	if got, _ := m.Unicode(code(2, 0x21)); got != "A" {
		t.Errorf("zero.Merge(c) lost c's mapping: %q", got)
	}
	m = c.Merge(&z)
	if got, _ := m.Unicode(code(2, 0x21)); got != "A" {
		t.Errorf("c.Merge(zero) lost c's mapping: %q", got)
	}
}
