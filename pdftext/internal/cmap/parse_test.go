package cmap

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// specToUnicode is the ToUnicode example of PDF 32000-1:2008 §9.10.3
// (Example 2).
const specToUnicode = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo
<< /Registry (Adobe)
/Ordering (UCS)
/Supplement 0
>> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
2 beginbfrange
<0000> <005E> <0020>
<005F> <0061> [<00660066> <00660069> <00660066006C>]
endbfrange
1 beginbfchar
<3A51> <D840DC3E>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`

// specJapan1 has the codespace of PDF 32000-1:2008 §9.7.6.2 (Example),
// mixed 1- and 2-byte codes as in a shift-JIS encoding, with a few CID
// mappings in the style of Adobe's 90ms-RKSJ-H.
const specJapan1 = `%!PS-Adobe-3.0 Resource-CMap
/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Test-RKSJ-H def
/WMode 0 def
4 begincodespacerange
<00> <80>
<8140> <9FFC>
<A0> <DF>
<E040> <FCFC>
endcodespacerange
1 beginnotdefrange
<00> <1f> 231
endnotdefrange
3 begincidrange
<20> <7e> 231
<8140> <817e> 633
<a0> <df> 326
endcidrange
1 begincidchar
<e040> 7479
endcidchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`

func mustParse(t *testing.T, src string) *CMap {
	t.Helper()
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func code(n int, v uint32) Code { return Code{Value: v, Len: n, Valid: true} }

func TestSpecToUnicode(t *testing.T) {
	c := mustParse(t, specToUnicode)
	if c.Name() != "Adobe-Identity-UCS" {
		t.Errorf("Name() = %q", c.Name())
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings for the spec example: %q", w)
	}
	tests := []struct {
		code   Code
		want   string
		ok     bool
		reason string
	}{
		{code(2, 0x0000), " ", true, "first code of the range"},
		{code(2, 0x0021), "A", true, "<0021> is 0x20+0x21"},
		{code(2, 0x005E), "~", true, "last code of the range"},
		{code(2, 0x005F), "ff", true, "first array element"},
		{code(2, 0x0060), "fi", true, "second array element"},
		{code(2, 0x0061), "ffl", true, "third array element, three characters"},
		{code(2, 0x3A51), "\U0002003E", true, "surrogate pair is one code point"},
		{code(2, 0x0062), "", false, "unmapped code"},
		{code(1, 0x21), "", false, "a 1-byte code is a different code"},
		{Code{Value: 0x21, Len: 2}, "A", true, "lookups ignore Valid"},
		{Code{Value: 0x21, Len: 0}, "", false, "length out of range"},
		{Code{Value: 0x21, Len: 5}, "", false, "length out of range"},
	}
	for _, tc := range tests {
		got, ok := c.Unicode(tc.code)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Unicode(%+v) = %q, %v; want %q, %v (%s)", tc.code, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
	if got := c.NumUnicodeMappings(); got != 0x5F+3+1 {
		t.Errorf("NumUnicodeMappings = %d, want %d", got, 0x5F+3+1)
	}
}

func TestSpecJapan1CIDs(t *testing.T) {
	c := mustParse(t, specJapan1)
	if c.Name() != "Test-RKSJ-H" || c.WMode() != 0 {
		t.Errorf("Name, WMode = %q, %d", c.Name(), c.WMode())
	}
	tests := []struct {
		code   Code
		want   uint32
		ok     bool
		reason string
	}{
		{code(1, 0x20), 231, true, "cidrange start"},
		{code(1, 0x41), 231 + 0x21, true, "cidrange increments"},
		{code(2, 0x8141), 634, true, "2-byte cidrange"},
		{code(1, 0xA5), 326 + 5, true, "half-width katakana range"},
		{code(2, 0xE040), 7479, true, "cidchar"},
		{code(1, 0x05), 231, true, "notdef range gives its one CID"},
		{code(1, 0x1F), 231, true, "notdef range end"},
		{code(2, 0x8180), 0, false, "valid code with no mapping: CID 0 by the caller"},
		{code(2, 0x0041), 0, false, "2-byte code is not the 1-byte one"},
	}
	for _, tc := range tests {
		got, ok := c.CID(tc.code)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CID(%+v) = %d, %v; want %d, %v (%s)", tc.code, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
	if _, ok := c.Unicode(code(1, 0x41)); ok {
		t.Error("an encoding CMap has no Unicode mappings")
	}
}

func TestParseTolerance(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		check    map[Code]string // code -> expected text ("" = unmapped)
		warnings int             // expected number of warnings (-1: any > 0)
		reason   string
	}{
		{
			name: "minimal",
			src:  "1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <0042> endbfchar",
			check: map[Code]string{
				code(1, 0x41): "B",
			},
			reason: "no begincmap needed, sections alone suffice",
		},
		{
			name: "comments and junk between sections",
			src: "%!PS junk\n begincmap foo bar 3.14 (a (nested) string\\)) {proc} <</A 1>> [1 2]\n" +
				"1 begincodespacerange <00> <FF> endcodespacerange % trailing comment <41> <0058>\n" +
				"garbage ) > 1 beginbfchar <41> <0042> endbfchar endcmap",
			check:  map[Code]string{code(1, 0x41): "B"},
			reason: "everything but the known operators is skipped",
		},
		{
			name: "CR line ends and no spaces",
			src:  "begincmap\r1 begincodespacerange\r<20><79>\rendcodespacerange\r1 beginbfrange\r<20><79><0020>\rendbfrange\rendcmap\r",
			check: map[Code]string{
				code(1, 0x20): " ", code(1, 0x79): "y", code(1, 0x7A): "",
			},
			reason: "a real producer's layout (Mac line ends, tokens glued)",
		},
		{
			name: "malformed entry skipped, rest kept",
			src:  "begincmap 3 beginbfchar <41> <0061> <4> (x) <43> <0063> endbfchar endcmap",
			check: map[Code]string{
				code(1, 0x41): "a", code(1, 0x43): "c",
			},
			warnings: -1,
			reason:   "a string destination is skipped; <4> is read as <40> per PDF, mapping to nothing",
		},
		{
			name: "missing end keyword",
			src:  "begincmap 1 beginbfchar <41> <0061> 1 beginbfrange <50> <52> <0070> endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x41): "a", code(1, 0x51): "q",
			},
			warnings: -1,
			reason:   "the next section keyword ends an unterminated section",
		},
		{
			name: "name destinations",
			src:  "begincmap 2 beginbfchar <20> /space <21> /f_i endbfchar 1 beginbfrange <22> <22> /quotedblleft endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x20): " ", code(1, 0x21): "fi", code(1, 0x22): "\u201C",
			},
			warnings: 1, // no codespace
			reason:   "old files map to glyph names",
		},
		{
			name:     "odd-length destination",
			src:      "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <41> <41> <42> <004100> endbfchar endcmap",
			check:    map[Code]string{code(1, 0x41): "A", code(1, 0x42): "\u0000\u4100"},
			warnings: 0,
			reason:   "odd byte counts are read with a zero byte in front",
		},
		{
			name:   "lone surrogate",
			src:    "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <41> <D800> <42> <DC000041> endbfchar endcmap",
			check:  map[Code]string{code(1, 0x41): "\uFFFD", code(1, 0x42): "\uFFFDA"},
			reason: "lone surrogates become U+FFFD",
		},
		{
			name:     "empty destination",
			src:      "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <41> <> endbfchar endcmap",
			check:    map[Code]string{code(1, 0x41): ""},
			warnings: 2, // the entry, and "no mappings"
			reason:   "an empty destination maps nothing",
		},
		{
			name: "bfrange carries into the previous byte",
			src:  "begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <01FF> <0000> endbfrange endcmap",
			check: map[Code]string{
				code(2, 0x00FF): "\u00FF", code(2, 0x0100): "\u0100", code(2, 0x01FF): "\u01FF",
			},
			reason: "16-bit increment (decision: not the spec's last-byte wrap)",
		},
		{
			name: "bfrange with a ligature prefix",
			src:  "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <10> <12> <00660061> endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x10): "fa", code(1, 0x11): "fb", code(1, 0x12): "fc",
			},
			reason: "only the last character increments",
		},
		{
			name: "bfrange over a surrogate pair",
			src:  "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <10> <11> <D835DFFF> endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x10): "\U0001D7FF", code(1, 0x11): "\U0001D800",
			},
			reason: "a surrogate-pair destination increments by code point",
		},
		{
			name:     "bfrange stops at U+FFFF",
			src:      "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <03> <FFFE> endbfrange endcmap",
			check:    map[Code]string{code(1, 0x00): "\uFFFE", code(1, 0x01): "\uFFFF", code(1, 0x02): ""},
			warnings: 1,
			reason:   "no wrap to U+0000",
		},
		{
			name: "later definition wins",
			src: "begincmap 1 begincodespacerange <00> <FF> endcodespacerange " +
				"1 beginbfrange <40> <4F> <0061> endbfrange 1 beginbfchar <45> <0058> endbfchar endcmap",
			check: map[Code]string{
				code(1, 0x44): "e", code(1, 0x45): "X", code(1, 0x46): "g", code(1, 0x4F): "p",
			},
			reason: "each mapping operator assigns in turn",
		},
		{
			name: "range bounds of different lengths skipped",
			src:  "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfrange <41> <0042> <0061> <43> <44> <0063> endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x41): "", code(1, 0x43): "c", code(1, 0x44): "d",
			},
			warnings: 1,
			reason:   "spec requires equal lengths; the entry is skipped, the next kept",
		},
		{
			name: "array shorter and longer than the range",
			src: "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfrange " +
				"<41> <43> [<0061> <0062>] <50> <50> [<0070> <0071>] endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x41): "a", code(1, 0x42): "b", code(1, 0x43): "", code(1, 0x50): "p",
			},
			warnings: 2,
			reason:   "map what the array gives, ignore extras",
		},
		{
			name: "code too long",
			src:  "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <0102030405> <0061> <41> <0062> endbfchar endcmap",
			check: map[Code]string{
				code(1, 0x41): "b",
			},
			warnings: 1,
			reason:   "codes are 1-4 bytes",
		},
		{
			name: "low above high",
			src:  "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <50> <40> <0061> endbfrange endcmap",
			check: map[Code]string{
				code(1, 0x45): "",
			},
			warnings: 2, // the entry, and "no mappings"
			reason:   "an inverted range maps nothing",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.src)
			for cd, want := range tc.check {
				got, ok := c.Unicode(cd)
				if got != want || ok != (want != "") {
					t.Errorf("Unicode(%+v) = %q, %v; want %q (%s)", cd, got, ok, want, tc.reason)
				}
			}
			w := c.Warnings()
			if (tc.warnings == -1 && len(w) == 0) || (tc.warnings >= 0 && len(w) != tc.warnings) {
				t.Errorf("warnings = %q, want %d (%s)", w, tc.warnings, tc.reason)
			}
		})
	}
}

func TestParseMetadata(t *testing.T) {
	tests := []struct {
		src           string
		name, usecmap string
		wmode         int
		reason        string
	}{
		{"/CMapName /Foo-H def /WMode 1 def begincmap endcmap", "Foo-H", "", 1, "name and vertical mode"},
		{"/CMapName /Adobe#2DJapan1 def begincmap endcmap", "Adobe-Japan1", "", 0, "#xx escapes in names"},
		{"/WMode 7 def begincmap endcmap", "", "", 0, "invalid WMode ignored"},
		{"/90ms-RKSJ-H usecmap begincmap endcmap", "", "90ms-RKSJ-H", 0, "usecmap records the name"},
		{"/Identity-H usecmap 1 begincidchar <0041> 5 endcidchar", "", "Identity-H", 0, "usecmap with mappings"},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src)
		if c.Name() != tc.name || c.UseCMap() != tc.usecmap || c.WMode() != tc.wmode {
			t.Errorf("%q: Name, UseCMap, WMode = %q, %q, %d; want %q, %q, %d (%s)",
				tc.src, c.Name(), c.UseCMap(), c.WMode(), tc.name, tc.usecmap, tc.wmode, tc.reason)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src    []byte
		err    error
		reason string
	}{
		{nil, ErrNotCMap, "empty input"},
		{[]byte("%PDF-1.4 hello world (string) 1 2 3"), ErrNotCMap, "no CMap construct"},
		{make([]byte, MaxInput+1), ErrTooLarge, "input over the limit"},
	}
	for _, tc := range tests {
		if _, err := Parse(tc.src); !errors.Is(err, tc.err) {
			t.Errorf("Parse(%.20q) error %v, want %v (%s)", tc.src, err, tc.err, tc.reason)
		}
	}
}

func TestParseLimits(t *testing.T) {
	t.Run("range clipped", func(t *testing.T) {
		c := mustParse(t, "begincmap 1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 begincidrange <00000000> <FFFFFFFF> 0 endcidrange endcmap")
		if got := c.NumCIDMappings(); got != MaxRange {
			t.Errorf("NumCIDMappings = %d, want %d", got, MaxRange)
		}
		if _, ok := c.CID(code(4, MaxRange)); ok {
			t.Error("code beyond the clipped range is mapped")
		}
	})
	t.Run("total mappings bounded", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("begincmap 1 begincodespacerange <000000> <FFFFFF> endcodespacerange 100 begincidrange\n")
		for i := 0; i < 100; i++ {
			fmt.Fprintf(&b, "<%06X> <%06X> 0\n", i<<16, i<<16|0xFFFF)
		}
		b.WriteString("endcidrange endcmap")
		c := mustParse(t, b.String())
		if got := c.NumCIDMappings(); got != MaxMappings {
			t.Errorf("NumCIDMappings = %d, want %d", got, MaxMappings)
		}
	})
	t.Run("warnings bounded", func(t *testing.T) {
		c := mustParse(t, "begincmap 1 beginbfchar "+strings.Repeat("<0102030405> <41> ", 500)+"endbfchar")
		if got := len(c.Warnings()); got != maxWarnings {
			t.Errorf("%d warnings, want %d", got, maxWarnings)
		}
	})
	t.Run("long tokens", func(t *testing.T) {
		long := "<" + strings.Repeat("00", 1000) + ">"
		c := mustParse(t, "begincmap 1 beginbfchar <41> "+long+" <42> <0062> endbfchar /"+strings.Repeat("x", 1000)+" usecmap")
		if got, _ := c.Unicode(code(1, 0x42)); got != "b" {
			t.Errorf("entry after an overlong token lost: %q", got)
		}
		if c.UseCMap() != "" {
			t.Error("an overlong name was accepted")
		}
	})
	t.Run("unterminated hex", func(t *testing.T) {
		c := mustParse(t, "begincmap 1 beginbfchar <41> <0061> endbfchar <4142")
		if got, _ := c.Unicode(code(1, 0x41)); got != "a" {
			t.Errorf("got %q", got)
		}
	})
}

func TestInferredCodespace(t *testing.T) {
	tests := []struct {
		src    string
		in     string
		lens   []int
		reason string
	}{
		{"begincmap 2 beginbfchar <0041> <0061> <0042> <0062> endbfchar", "\x00A\x00B", []int{2, 2}, "2-byte source codes"},
		{"begincmap 1 beginbfchar <41> <0061> endbfchar", "AB", []int{1, 1}, "1-byte source codes"},
		{"begincmap endcmap", "AB", []int{1, 1}, "no mappings: 1 byte"},
		{"begincmap 2 beginbfchar <41> <0061> <0042> <0062> endbfchar", "AB", []int{1, 1}, "tie: the shorter"},
	}
	for _, tc := range tests {
		c := mustParse(t, tc.src)
		codes := c.Split([]byte(tc.in))
		var lens []int
		for _, cd := range codes {
			lens = append(lens, cd.Len)
		}
		if fmt.Sprint(lens) != fmt.Sprint(tc.lens) {
			t.Errorf("%q: split lengths %v, want %v (%s)", tc.src, lens, tc.lens, tc.reason)
		}
	}
}
