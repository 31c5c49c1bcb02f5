package pdftext

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestShortDecimalIsParseFloat: the lexer's fast path, given digits with
// at most one dot (the sign is the caller's), gives
// strconv.ParseFloat's float64, bit for bit, wherever it answers.
func TestShortDecimalIsParseFloat(t *testing.T) {
	cases := []string{"0", "0.0", ".5", "5.", "1.1", "0.1", "0.3", "123.456", "9007199254740991",
		"9007199254740992", "900719925474099.1", "0.0000000000000000000001", "1.0000000000000000001",
		"99999999999999999999", "612.0001", "4503599627370497.5"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		n := 1 + r.IntN(19)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if r.IntN(4) > 0 {
			b[r.IntN(n)] = '.'
		}
		cases = append(cases, string(b))
	}
	answered := 0
	for _, s := range cases {
		if s == "." {
			continue // number() reads a lone dot as 0 before parsing
		}
		got, ok := shortDecimal([]byte(s))
		if !ok {
			continue
		}
		answered++
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("shortDecimal(%q) = %v (%x), ParseFloat %v (%x, %v)", s, got, math.Float64bits(got), want, math.Float64bits(want), err)
		}
	}
	if answered < len(cases)/2 {
		t.Errorf("the fast path answered %d of %d numbers", answered, len(cases))
	}
}
