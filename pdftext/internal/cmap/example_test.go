package cmap_test

import (
	"fmt"

	"github.com/citecheck/citecheck/pdftext/internal/cmap"
)

// A ToUnicode CMap (the example of PDF 32000-1:2008 §9.10.3) applied to a
// string shown with a 2-byte font.
func Example() {
	toUnicode, err := cmap.Parse([]byte(`/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Adobe-Identity-UCS def
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
end
end`))
	if err != nil {
		panic(err)
	}
	encoding, _ := cmap.Predefined("Identity-H") // the font's /Encoding
	shown := []byte("\x00\x28\x00\x60\x00\x4c\x00\x48\x3a\x51")
	for _, code := range encoding.Split(shown) {
		cid, _ := encoding.CID(code)
		text, ok := toUnicode.Unicode(code)
		fmt.Printf("code <%04X> CID %d text %q %v\n", code.Value, cid, text, ok)
	}
	// Output:
	// code <0028> CID 40 text "H" true
	// code <0060> CID 96 text "fi" true
	// code <004C> CID 76 text "l" true
	// code <0048> CID 72 text "h" true
	// code <3A51> CID 14929 text "𠀾" true
}

// The codespace of PDF 32000-1:2008 §9.7.6.2: 1- and 2-byte codes mixed,
// and what happens to bytes outside every range.
func ExampleCMap_Split() {
	c, err := cmap.Parse([]byte(`begincmap
4 begincodespacerange
<00> <80>
<8140> <9FFC>
<A0> <DF>
<E040> <FCFC>
endcodespacerange
endcmap`))
	if err != nil {
		panic(err)
	}
	for _, code := range c.Split([]byte("A\x81\x40\xa5\x81\x20\xfd")) {
		fmt.Printf("<%0*X> valid=%v\n", 2*code.Len, code.Value, code.Valid)
	}
	// Output:
	// <41> valid=true
	// <8140> valid=true
	// <A5> valid=true
	// <8120> valid=false
	// <FD> valid=false
}
