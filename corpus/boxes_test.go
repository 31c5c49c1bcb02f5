package corpus

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBoxesRoundTrip(t *testing.T) {
	boxes := []GlyphBox{
		{Start: 0, End: 1, X0: 72, Y0: 698, X1: 78.67, Y1: 708},
		{Start: 1, End: 4, X0: 78.67, Y0: 698, X1: 90.5, Y1: 708}, // a ligature: one box, three code points
		{Start: 5, End: 6, X0: 10.01, Y0: -5.5, X1: 12, Y1: 0.25}, // after an inserted space, on another line
		{Start: 6, End: 7, X0: 12, Y0: -5.5, X1: 12, Y1: 0.25},    // zero width
	}
	data := EncodeBoxes(boxes)
	got, err := DecodeBoxes(data, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, boxes) {
		t.Errorf("round trip:\n got %v\nwant %v", got, boxes)
	}
	if want := "citecheck-boxes/1\n0 1 7200 69800 667 1000\n"; !strings.HasPrefix(string(data), want) {
		t.Errorf("encoding starts %q, want %q", data, want)
	}
	if _, err := DecodeBoxes(data, 6); err == nil {
		t.Error("boxes past the text's end were accepted")
	}
}

func TestDecodeBoxesRefuses(t *testing.T) {
	tests := []struct {
		data, why string
	}{
		{"", "no header"},
		{"citecheck-boxes/2\n", "another version"},
		{"citecheck-boxes/1\n0 1 0 0 1\n", "five fields"},
		{"citecheck-boxes/1\n0 1 0 0 x 1\n", "not a number"},
		{"citecheck-boxes/1\n0 0 0 0 1 1\n", "an empty span"},
		{"citecheck-boxes/1\n0 2 0 0 1 1\n-1 1 0 0 1 1\n", "overlapping spans"},
		{"citecheck-boxes/1\n0 1 0 0 -1 1\n", "negative width"},
		{"citecheck-boxes/1\n0 1 0 0 1 -1\n", "negative height"},
		{"citecheck-boxes/1\n0 1 9999999999999999 0 1 1\n", "a coordinate out of range"},
		{"citecheck-boxes/1\n0 11 0 0 1 1\n", "past the end of a 10-code-point text"},
	}
	for _, tt := range tests {
		_, err := DecodeBoxes([]byte(tt.data), 10)
		var be *BoxesError
		if !errors.As(err, &be) {
			t.Errorf("%s: err = %v, want a *BoxesError", tt.why, err)
		}
	}
}

func FuzzDecodeBoxes(f *testing.F) {
	f.Add([]byte("citecheck-boxes/1\n0 1 7200 69800 667 1000\n1 3 0 0 100 1000\n"), 10)
	f.Fuzz(func(t *testing.T, data []byte, textLen int) {
		boxes, err := DecodeBoxes(data, textLen)
		if err != nil {
			return
		}
		end := 0
		for _, b := range boxes {
			if b.Start < end || b.End <= b.Start || b.End > textLen || b.X1 < b.X0 || b.Y1 < b.Y0 {
				t.Fatalf("decoded box %+v breaks the invariants", b)
			}
			end = b.End
		}
		// What decodes re-encodes to the same boxes.
		again, err := DecodeBoxes(EncodeBoxes(boxes), textLen)
		if err != nil || !slices.Equal(again, boxes) {
			t.Fatalf("re-encoding changed the boxes: %v", err)
		}
	})
}

func TestStoreBoxes(t *testing.T) {
	boxes := []GlyphBox{{Start: 0, End: 2, X0: 1, Y0: 2, X1: 3, Y1: 4}}
	dir := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: []PageText{{Text: "hi there", Boxes: EncodeBoxes(boxes)}, {Text: "no boxes"}}})
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := st.Manifest().Document("a.pdf")
	got, err := st.Boxes(doc, 1)
	if err != nil || !slices.Equal(got, boxes) {
		t.Fatalf("Boxes(page 1) = %v, %v; want %v", got, err, boxes)
	}
	if _, err := st.Boxes(doc, 2); !errors.Is(err, ErrNoBoxes) {
		t.Errorf("Boxes(page 2) error = %v, want ErrNoBoxes", err)
	}
	rel, _ := boxesFile(doc.BLAKE3, 1)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	os.WriteFile(path, compressBoxes(EncodeBoxes([]GlyphBox{{Start: 0, End: 1, X1: 9, Y1: 9}})), 0o644)
	if _, err := st.Boxes(doc, 1); !errors.Is(err, ErrIntegrity) {
		t.Errorf("a changed boxes file: error = %v, want ErrIntegrity", err)
	}
}

// FuzzDecodeManifest: a store may come from elsewhere, so its manifest is
// input like any other. The decoder must never panic, and what it accepts
// must be valid and re-encode to a manifest that decodes the same.
func FuzzDecodeManifest(f *testing.F) {
	dir := storeWithEveryFile(f)
	seed, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"format": "citecheck-corpus/1", "documents": [{"name": "b"}, {"name": "a"}]}`))
	// What decoders disagree on: invalid UTF-8, escapes, keys differing in
	// case or repeated, numbers out of range, data after the object.
	f.Add([]byte("{\"format\": \"citecheck-corpus/1\", \"documents\": [{\"name\": \"\xff\\ud800\\u00e9\"}]}"))
	f.Add([]byte(`{"FORMAT": "citecheck-corpus/1", "format": "x", "Documents": [{"Name": "a", "pages": [{"chars": 1e2}]}]} {}`))
	f.Add([]byte(`{"documents": [{"name": "a", "pages": [{"chars": 99999999999999999999}]}], "quote_index": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The fast decoder accepts only what encoding/json accepts, and
		// decodes it alike (decodeManifest falls back to encoding/json
		// when the fast one refuses).
		var fast, std Manifest
		if decodeManifestFast(data, &fast) == nil {
			require.NoError(t, decodeManifestStd(data, &std), "accepted by go-json only")
			require.Equal(t, std, fast, "decoded otherwise by go-json")
		}
		m, err := decodeManifest(data, "manifest.json")
		if err != nil {
			return
		}
		if err := m.validate(); err != nil {
			t.Fatalf("accepted an invalid manifest: %v", err)
		}
		b, err := encodeManifest(m)
		if err != nil {
			t.Fatalf("re-encoding an accepted manifest: %v", err)
		}
		if _, err := decodeManifest(b, "again"); err != nil {
			t.Fatalf("a re-encoded manifest is refused: %v", err)
		}
	})
}

// FuzzBoxLineFast: the one-pass reader of box lines accepts only lines the
// general reader accepts, with the same numbers, so validating boxes gives
// the same answers, and errors, as before it existed.
func FuzzBoxLineFast(f *testing.F) {
	for _, line := range []string{"0 1 7200 69800 667 1000", "-0 +1 -2 3 4 5", "1  2 3 4 5 6", "1 2 3 4 5", "1 2 3 4 5 6 ", "1 2 3 4 5 1125899906842625", "1 2 3 4 5 99999999999999999"} {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fast, k, ok := boxLineFast(line)
		if !ok {
			return
		}
		if k < len(line) {
			if line[k] != '\n' {
				t.Fatalf("%q: the fast reader stops at %d, not at a line's end", line, k)
			}
			line = line[:k]
		}
		slow, err := boxLine(line, 2)
		if err != nil {
			t.Fatalf("%q: the fast reader accepts what the general one refuses: %v", line, err)
		}
		if fast != slow {
			t.Fatalf("%q: fast %v, general %v", line, fast, slow)
		}
	})
}

func BenchmarkValidateBoxes(b *testing.B) {
	var boxes []GlyphBox
	for i := range 3000 {
		x := float64(i%80) * 6.1
		boxes = append(boxes, GlyphBox{Start: i, End: i + 1, X0: 72 + x, Y0: 700 - float64(i/80)*12, X1: 72 + x + 5.5, Y1: 712 - float64(i/80)*12})
	}
	data := EncodeBoxes(boxes)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := ValidateBoxes(data, 3000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeBoxes(b *testing.B) {
	var boxes []GlyphBox
	for i := range 3000 {
		x := float64(i%80) * 6.1
		boxes = append(boxes, GlyphBox{Start: i, End: i + 1, X0: 72 + x, Y0: 700 - float64(i/80)*12, X1: 72 + x + 5.5, Y1: 712 - float64(i/80)*12})
	}
	for b.Loop() {
		EncodeBoxes(boxes)
	}
}

// TestCentiClamps pins centi's rounding and clamping, which glyph boxes
// and their hashes depend on: half away from zero, and ±2^40 at most.
func TestCentiClamps(t *testing.T) {
	tests := []struct {
		v    float64
		want int64
	}{
		{0.005, 1}, {-0.005, -1}, {1.234, 123}, {math.Copysign(0, -1), 0}, {math.NaN(), 0},
		{math.Inf(1), 1 << 40}, {math.Inf(-1), -(1 << 40)}, {1e300, 1 << 40}, {-1e300, -(1 << 40)},
	}
	for _, tc := range tests {
		if got := centi(tc.v); got != tc.want {
			t.Errorf("centi(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestAppendBoxIntIsAppendInt: the box encoder's digits are
// strconv.AppendInt's.
func TestAppendBoxIntIsAppendInt(t *testing.T) {
	check := func(v int64) {
		if got, want := string(appendBoxInt([]byte("x"), v)), string(strconv.AppendInt([]byte("x"), v, 10)); got != want {
			t.Fatalf("appendBoxInt(%d) = %q, want %q", v, got, want)
		}
	}
	for v := int64(-20000); v <= 20000; v++ {
		check(v)
	}
	for _, v := range []int64{math.MinInt64, math.MaxInt64, -1 << 50, 1 << 50, 99999, -99999, 100000} {
		check(v)
	}
}
