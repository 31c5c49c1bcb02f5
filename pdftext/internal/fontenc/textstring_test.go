package fontenc

import "testing"

func TestDecodeTextString(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		reason string
	}{
		{"", "", "empty string"},
		{"Hello", "Hello", "ASCII is PDFDocEncoding's lower half"},
		{"caf\xe9", "café", "PDFDocEncoding is Latin-1 in 0xA1-0xFF"},
		{"\x93 \x94 \x8d\x8e", "\uFB01 \uFB02 \u201C\u201D", "PDFDoc ligatures and quotes at 0x80-0x9F"},
		{"\xa0", "\u20AC", "PDFDoc 0xA0 is the Euro"},
		{"\x18\x1f", "\u02D8\u02DC", "PDFDoc accents at 0x18-0x1F"},
		{"a\tb\nc\rd", "a\tb\nc\rd", "tab, line feed and carriage return are defined"},
		{"\x00\x7f\x9f\xad", "\uFFFD\uFFFD\uFFFD\uFFFD", "undefined PDFDoc codes become U+FFFD"},
		{"\xfe\xff\x00H\x00i", "Hi", "UTF-16BE with BOM"},
		{"\xfe\xff\xd8\x3d\xde\x00", "\U0001F600", "surrogate pair is one code point"},
		{"\xfe\xff\xd8\x3d\x00A", "\uFFFDA", "lone high surrogate becomes U+FFFD, next unit kept"},
		{"\xfe\xff\xde\x00\x00A", "\uFFFDA", "lone low surrogate becomes U+FFFD"},
		{"\xfe\xff\xd8\x3d", "\uFFFD", "high surrogate at the end"},
		{"\xfe\xff\x00A\x00", "A\uFFFD", "odd trailing byte becomes U+FFFD"},
		{"\xfe\xff", "", "BOM only"},
		{"\xfe\xff\x00\x1b\x00e\x00n\x00\x1b\x00H\x00i", "Hi", "language escape sequence removed"},
		{"\xfe\xff\x00\x1b\x00H\x00i", "Hi", "lone escape dropped"},
		{"\xef\xbb\xbfcaf\xc3\xa9", "café", "UTF-8 with BOM (PDF 2.0)"},
		{"\xef\xbb\xbfa\xffb", "a\uFFFDb", "invalid UTF-8 byte becomes U+FFFD"},
		{"\xef\xbb\xbf\xe2\x82", "\uFFFD\uFFFD", "truncated UTF-8 sequence: one U+FFFD per byte"},
		{"\xff\xfeH\x00i\x00", "Hi", "UTF-16LE with BOM: not in the spec, accepted"},
		{"\xfe", "\u00FE", "a lone FE is PDFDocEncoding thorn"},
	}
	for _, tc := range tests {
		if got := DecodeTextString([]byte(tc.in)); got != tc.want {
			t.Errorf("DecodeTextString(%q) = %q, want %q (%s)", tc.in, got, tc.want, tc.reason)
		}
	}
}

func FuzzDecodeTextString(f *testing.F) {
	for _, s := range []string{"", "abc", "\xfe\xff\xd8\x3d\xde\x00", "\xef\xbb\xbf\xff", "\xff\xfe\x00", "\xfe\xff\x00\x1b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := DecodeTextString(b)
		for _, r := range s {
			_ = r
		}
		if len(s) > 3*len(b)+3 {
			t.Fatalf("output %d bytes for %d input bytes", len(s), len(b))
		}
	})
}
