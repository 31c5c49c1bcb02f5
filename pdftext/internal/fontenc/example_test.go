package fontenc_test

import (
	"fmt"

	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
)

// A simple font with /Encoding << /BaseEncoding /WinAnsiEncoding
// /Differences [ 150 /f_f_i /uni2212 ] >>, unembedded Helvetica: the text
// and width of each code.
func Example() {
	enc, _ := fontenc.BaseEncoding("WinAnsiEncoding")
	enc[150] = "f_f_i"   // /Differences [150 /f_f_i /uni2212]
	enc[151] = "uni2212" //
	metrics, _ := fontenc.StandardFont("ABCDEF+Arial,Bold")
	for _, code := range []byte{'A', 0x80, 150, 151} {
		name := enc[code]
		text, _ := fontenc.GlyphUnicode(name, false)
		width, ok := metrics.Width(name)
		fmt.Printf("%3d %-8s %q width %v %v\n", code, name, text, width, ok)
	}
	fmt.Println(metrics.FontName)
	// Output:
	//  65 A        "A" width 722 true
	// 128 Euro     "€" width 556 true
	// 150 f_f_i    "ffi" width 0 false
	// 151 uni2212  "−" width 0 false
	// Helvetica-Bold
}

func ExampleDecodeTextString() {
	fmt.Println(fontenc.DecodeTextString([]byte("\xfe\xff\x00C\x00a\x00f\x00\xe9")))
	fmt.Println(fontenc.DecodeTextString([]byte("\x93rst \x8dquoted\x8e")))
	// Output:
	// Café
	// ﬁrst “quoted”
}
