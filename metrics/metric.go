package metrics

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Z975 is the standard normal 97.5% quantile, for 95% intervals.
const Z975 = 1.959963984540054

// Metric counts one metric's verdicts and bounds it: the lower bound
// counts unresolved verdicts as failures, the upper bound as passes
// (docs/cli.md, report). N is every verdict counted; with N = 0 there is
// no bound.
type Metric struct {
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Unresolved int `json:"unresolved"`
	N          int `json:"n"`
}

// Add counts one verdict: "pass", "fail", or anything else as unresolved.
func (m *Metric) Add(verdict string) {
	switch verdict {
	case "pass":
		m.Pass++
	case "fail":
		m.Fail++
	default:
		m.Unresolved++
	}
	m.N++
}

// Plus adds another metric's counts.
func (m *Metric) Plus(o Metric) {
	m.Pass += o.Pass
	m.Fail += o.Fail
	m.Unresolved += o.Unresolved
	m.N += o.N
}

// LB is the lower bound Pass/N as an exact fraction; nil when N is 0.
func (m Metric) LB() *big.Rat {
	if m.N == 0 {
		return nil
	}
	return big.NewRat(int64(m.Pass), int64(m.N))
}

// UB is the upper bound (Pass+Unresolved)/N; nil when N is 0.
func (m Metric) UB() *big.Rat {
	if m.N == 0 {
		return nil
	}
	return big.NewRat(int64(m.Pass+m.Unresolved), int64(m.N))
}

// Wilson is the 95% Wilson interval's lower end for the lower bound and
// upper end for the upper bound: the widest honest range (the vectors'
// "wilson95_lower_of_lower" and "wilson95_upper_of_upper"). ok is false
// when N is 0.
func (m Metric) Wilson() (lo, hi float64, ok bool) {
	if m.N == 0 {
		return 0, 0, false
	}
	lo, _ = WilsonInterval(m.Pass, m.N)
	_, hi = WilsonInterval(m.Pass+m.Unresolved, m.N)
	return lo, hi, true
}

// WilsonInterval is the 95% Wilson score interval for k successes of n
// (no continuity correction); n must be positive.
func WilsonInterval(k, n int) (lo, hi float64) {
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := Z975 * Z975
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := Z975 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / denom
	return math.Max(0, center-half), math.Min(1, center+half)
}

// Dec is a fraction printed with at most six decimals, rounded half to
// even from the exact value, trailing zeros dropped ("0.833333", "0.9",
// "1"); JSON null when nil.
type Dec struct{ R *big.Rat }

// MarshalJSON writes the rounded decimal, or null.
func (d Dec) MarshalJSON() ([]byte, error) {
	if d.R == nil {
		return []byte("null"), nil
	}
	return []byte(Round6(d.R)), nil
}

// Float6 is a figure computed in floating point (a Wilson end, a mean, a
// bootstrap percentile, a latency) as the JSON outputs print it: at most
// six decimals, trailing zeros dropped. Rounding at print keeps the bytes
// of summary.json the same on every machine: a compiler may fuse a
// multiply-add on one architecture and not another, which moves only the
// last bits, far below the sixth decimal.
type Float6 float64

// MarshalJSON writes f rounded to six decimals; NaN and infinities are
// errors (JSON has no such numbers).
func (f Float6) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, fmt.Errorf("metrics: %v has no JSON number", x)
	}
	s := strconv.FormatFloat(x, 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return []byte(s), nil
}

// Round6 renders r with at most six decimals, rounded half to even.
func Round6(r *big.Rat) string {
	scaled := new(big.Rat).Mul(r, big.NewRat(1_000_000, 1))
	num, den := scaled.Num(), scaled.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	// Round half to even on |rem|/den compared with 1/2.
	twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
	switch c := twice.Cmp(den); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	neg := q.Sign() < 0
	s := new(big.Int).Abs(q).String()
	for len(s) < 7 {
		s = "0" + s
	}
	out := s[:len(s)-6] + "." + s[len(s)-6:]
	out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}

// Percent renders a fraction as a percentage with one decimal, from the
// exact value ("83.3%"); "n/a" for nil.
func Percent(r *big.Rat) string {
	if r == nil {
		return "n/a"
	}
	return percentDecimals(r, 1)
}

// percentDecimals prints r as a percentage with d decimals, rounded half
// to even.
func percentDecimals(r *big.Rat, d int) string {
	scale := math.Pow10(d)
	v := new(big.Rat).Mul(r, new(big.Rat).SetFloat64(100*scale))
	f, _ := v.Float64()
	return fmt.Sprintf("%.*f%%", d, math.RoundToEven(f)/scale)
}
