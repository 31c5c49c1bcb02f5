package pdftext

import "math"

// matrix is a PDF transformation [a b c d e f], mapping (x, y) to
// (a*x + c*y + e, b*x + d*y + f).
//
// Every product that is added to something is written float64(x*y): the
// explicit conversion rounds the product, so the compiler cannot fuse it
// with the addition into one multiply-add (FMA), which rounds once and
// gives a different result. Go fuses on GOAMD64=v3, arm64, ppc64, s390x
// and riscv64 and not on GOAMD64=v1, so an unrounded product would make
// positions, and the boxes and text decisions built on them, depend on the
// build (see the package documentation's "Floating point").
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n: first m, then n, as PDF concatenates.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		float64(m[0]*n[0]) + float64(m[1]*n[2]),
		float64(m[0]*n[1]) + float64(m[1]*n[3]),
		float64(m[2]*n[0]) + float64(m[3]*n[2]),
		float64(m[2]*n[1]) + float64(m[3]*n[3]),
		float64(m[4]*n[0]) + float64(m[5]*n[2]) + n[4],
		float64(m[4]*n[1]) + float64(m[5]*n[3]) + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return float64(m[0]*x) + float64(m[2]*y) + m[4], float64(m[1]*x) + float64(m[3]*y) + m[5]
}

// finite reports whether every entry is a finite number; a matrix built from
// hostile operands may hold NaN or Inf, which would poison every position.
func (m matrix) finite() bool {
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// dot returns ax*bx + ay*by with both products rounded, so that no build
// fuses them (see matrix).
func dot(ax, ay, bx, by float64) float64 {
	return float64(ax*bx) + float64(ay*by)
}

// hypot returns sqrt(p*p + q*q) as math.Hypot computes it on amd64
// (max * sqrt(1 + (min/max)²)), with the square rounded: math.Hypot's pure
// Go version, which other architectures run, may fuse 1 + q*q.
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return p * math.Sqrt(1+float64(q*q))
}

// fmin is math.Min, with the comparison of two ordered numbers inlined:
// math.Min is an assembly routine on amd64, a call for every glyph corner.
// Equal numbers (zeros of either sign) and NaNs go to math.Min.
func fmin(x, y float64) float64 {
	if x < y {
		return x
	}
	if y < x {
		return y
	}
	return math.Min(x, y)
}

// fmax is math.Max as fmin is math.Min.
func fmax(x, y float64) float64 {
	if x > y {
		return x
	}
	if y > x {
		return y
	}
	return math.Max(x, y)
}
