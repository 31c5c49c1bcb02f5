package cmap

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// Seeds: the spec's examples, excerpts in the style of real producers'
// ToUnicode and encoding CMaps, and hostile shapes.
var fuzzSeeds = []string{
	specToUnicode,
	specJapan1,
	// Producer with CR line ends and a restricted 1-byte codespace.
	"/CIDInit /ProcSet findresource begin\r12 dict begin\rbegincmap\r/CIDSystemInfo <<\r/Registry (TimesNewRomanPSMT+0) def\r" +
		"/Ordering (T1UV) def\r/Supplement 0 def\r>> def\r/CMapName /TimesNewRomanPSMT+0 def\r  1 begincodespacerange\r<20> <79>\r" +
		"endcodespacerange\r  1 beginbfrange\r<20> <79> <0020>\rendbfrange\rendcmap\rCMapName currentdict /CMap defineresource pop\rend end\r",
	// Type 1 subset ToUnicode with ligatures in one-code array ranges.
	"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo <<\n/Registry (F3+0) /Ordering (T1UV) /Supplement 0 >> def\n" +
		"/CMapName /F3+0 def\n/CMapType 2 def\n1 begincodespacerange <02> <93> endcodespacerange\n3 beginbfchar\n<02> <FB00>\n<05> <FB03>\n<20> <0020>\n" +
		"endbfchar\n2 beginbfrange\n<28> <29> <0028>\n<61> <69> <0061>\nendbfrange\n2 beginbfrange\n<03> <03> [<00540068>]\n<04> <04> [<00660074>]\n" +
		"endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end",
	// Identity-UCS ToUnicode with Thai, ranges and a two-element array.
	"begincmap\n/CMapName /Adobe-Identity-UCS def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfchar\n<0003> <0020>\nendbfchar\n" +
		"3 beginbfrange\n<0089> <008E> <0E06>\n<00CD> <00CE> [<0E4C> <0020>]\n<0158> <0161> <0030>\nendbfrange\nendcmap\n",
	// UTF-8 style codespace with notdef and cidchar, as in Adobe's UniJIS-UTF8-H.
	"begincmap\n/CMapName/UniJIS-UTF8-H def\n/WMode 0 def\n4 begincodespacerange\n<00><7f>\n<c080><dfbf>\n<e08080><efbfbf>\n<f0808080><f7bfbfbf>\n" +
		"endcodespacerange\n1 beginnotdefrange\n<00><1f>1\nendnotdefrange\n1 begincidchar\n<e0>151\nendcidchar\n2 begincidchar\n<c2a0>1\n<c2a4>107\nendcidchar\nendcmap\n",
	// usecmap with an Identity parent.
	"/CMapName /Sub-H def /Identity-H usecmap begincmap 1 begincidrange <0100> <01ff> 5000 endcidrange endcmap",
	// Names as destinations, odd hex, surrogates.
	"begincmap 3 beginbfchar <20> /space <21> <D83D> <22> <004> endbfchar 1 beginbfrange <30> <35> <D83DDE00> endbfrange endcmap",
	// Hostile: huge ranges, nested arrays, unterminated things.
	"begincmap 1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 beginbfrange <00000000> <FFFFFFFF> <0000> endbfrange " +
		"1 beginbfrange <00> <10> [[[<41>]]] endbfrange 1 begincidrange <00> <FF> 4294967295 endcidrange (unterminated",
	"begincmap 1 beginbfchar <41> <",
	"<<<<[[[[{{{{ begincodespacerange <> <> <0> <FFFFFFFFFF> endcodespacerange",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), []byte("\x00A\x81\x40\xd8\x3d\xde\x00\xff"))
	}
	identity, _ := Predefined("Identity-H")
	f.Fuzz(func(t *testing.T, data, shown []byte) {
		c, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrNotCMap) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(c.Warnings()) > maxWarnings {
			t.Fatalf("%d warnings", len(c.Warnings()))
		}
		if c.WMode() != 0 && c.WMode() != 1 {
			t.Fatalf("WMode %d", c.WMode())
		}
		for _, cm := range []*CMap{c, c.Merge(identity), identity.Merge(c), c.Merge(c)} {
			codes := cm.Split(shown)
			checkCover(t, codes, shown)
			for _, cd := range codes {
				if s, ok := cm.Unicode(cd); ok && !utf8.ValidString(s) {
					t.Fatalf("Unicode(%+v) = %q: invalid UTF-8", cd, s)
				}
				cm.CID(cd)
			}
			// Any code, valid or not, of any length must be safe to look up.
			for n := 0; n <= 5; n++ {
				for _, v := range []uint32{0, 0x41, 0xFFFF, 0xFFFFFFFF} {
					cm.Unicode(Code{Value: v, Len: n})
					cm.CID(Code{Value: v, Len: n})
				}
			}
		}
	})
}
