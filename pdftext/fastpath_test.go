package pdftext

import (
	"math"
	"testing"
	"unicode"
)

// TestFminFmaxAreMathMinMax: the inlined comparisons give math.Min's and
// math.Max's results, bit for bit, zeros of both signs, infinities and
// NaN included.
func TestFminFmaxAreMathMinMax(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.25, 1e308, -1e308,
		math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, x := range vals {
		for _, y := range vals {
			if got, want := fmin(x, y), math.Min(x, y); !same(got, want) {
				t.Errorf("fmin(%v, %v) = %v, math.Min %v", x, y, got, want)
			}
			if got, want := fmax(x, y), math.Max(x, y); !same(got, want) {
				t.Errorf("fmax(%v, %v) = %v, math.Max %v", x, y, got, want)
			}
		}
	}
}

// TestIsBlankFastPath: isBlank's shortcut for a first ASCII byte answers
// as decoding every rune does.
func TestIsBlankFastPath(t *testing.T) {
	slow := func(s string) bool {
		n := 0
		for _, r := range s {
			if !unicode.IsSpace(r) {
				return false
			}
			n++
		}
		return n > 0
	}
	for c := range 0x80 {
		for _, rest := range []string{"", " ", "a", "\u00a0", "\u2003"} {
			s := string(rune(c)) + rest
			if isBlank(s) != slow(s) {
				t.Errorf("isBlank(%q) = %v", s, isBlank(s))
			}
		}
	}
	for _, s := range []string{"", "\u00a0", "\u2003 ", "\u0085", "é", "\xff"} {
		if isBlank(s) != slow(s) {
			t.Errorf("isBlank(%q) = %v", s, isBlank(s))
		}
	}
}
