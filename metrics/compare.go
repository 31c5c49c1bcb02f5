package metrics

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/citecheck/citecheck/grade"
	"gonum.org/v1/gonum/stat/distuv"
)

// EnvelopeNote labels every comparison output (policy: "Seeded
// whole-question resampling is a fixed-corpus sensitivity envelope, not a
// p-value or population confidence claim").
const EnvelopeNote = "fixed-corpus sensitivity envelope, not a p-value"

// The comparison metrics: the score of one attempt.
const (
	// MetricSuccess scores an answerable question's supported verdict and
	// an unknown question's abstention, so every question is a cluster.
	MetricSuccess    = "success"
	MetricSupported  = "supported"
	MetricFactual    = "factual"
	MetricAbstention = "abstention"
)

// CompareOptions configure Compare.
type CompareOptions struct {
	Arms   [2]string // the arms, A then B: differences are A - B
	Metric string    // MetricSuccess when ""
	// Seed and Stream seed math/rand/v2's PCG (rand.NewPCG(Seed, Stream));
	// both are printed with the result.
	Seed, Stream uint64
	Replicates   int // 10,000 when < 1
	Bins         int // histogram bins of the bootstrap replicates; 40 when < 1
}

// Comparison is a paired whole-question comparison of two arms.
type Comparison struct {
	Arms     [2]string `json:"arms"`
	Metric   string    `json:"metric"`
	Clusters int       `json:"clusters"`
	// Repeats is the most attempts one arm has on one question; Balanced
	// whether every cluster has that many in both arms.
	Repeats    int       `json:"repeats"`
	Balanced   bool      `json:"balanced"`
	Seed       [2]uint64 `json:"seed"`
	Replicates int       `json:"replicates"`
	LB         Side      `json:"lb"`
	UB         Side      `json:"ub"`
	// Excluded lists questions with attempts in one arm only.
	Excluded []string `json:"excluded"`
	Note     string   `json:"note"`
}

// Side is the comparison of one bound: unresolved scored as a failure
// (lb) or as a pass (ub).
type Side struct {
	MeanA    Float6 `json:"mean_a"`
	MeanB    Float6 `json:"mean_b"`
	MeanDiff Float6 `json:"mean_diff"`
	// Interval is the 2.5% and 97.5% type-7 percentiles of the bootstrap
	// replicates of the mean difference.
	Interval [2]Float6 `json:"interval"`
	// SEPaired is the standard error of the mean of the per-question
	// differences; TInterval the paired t-interval with it (Q-1 degrees of
	// freedom). SEClustered is the clustered (Miller) standard error over
	// the item-level differences, null when repeats are unbalanced.
	SEPaired    Float6    `json:"se_paired"`
	TInterval   [2]Float6 `json:"t_interval"`
	SEClustered *Float6   `json:"se_clustered"`
	// Correlation is Pearson's between the arms' per-question means, null
	// when either is constant.
	Correlation *Float6 `json:"correlation"`
	// MDE80 is the smallest difference the design could detect with 80%
	// power at two-sided 5%: (t(0.975) + t(0.80)) x SEPaired.
	MDE80     Float6 `json:"mde80"`
	Histogram []Bin  `json:"histogram"`
}

// Bin counts bootstrap replicates in [From, To).
type Bin struct {
	From  Float6 `json:"from"`
	To    Float6 `json:"to"`
	Count int    `json:"count"`
}

// ErrNoClusters: the two arms share no question.
var ErrNoClusters = errors.New("the arms share no question to compare")

// Compare pairs two arms' results question by question. Every planned
// attempt counts, a failed or missing one as 0; duplicates and extras do
// not enter the comparison (they are failures of the session, not
// repeats). The repeats of a question are never treated as independent
// questions: the question is the cluster resampled.
func Compare(results []grade.Result, opts CompareOptions) (*Comparison, error) {
	metric := opts.Metric
	if metric == "" {
		metric = MetricSuccess
	}
	// Each question's attempts per arm, by session: the r-th session of
	// one arm pairs with the r-th of the other (A2 with B2), whatever
	// order the results came in.
	type attempt struct {
		session int
		l, u    float64
	}
	byQ := map[string]*[2][]attempt{}
	for i := range results {
		r := &results[i]
		if r.Attempt == grade.AttemptDuplicate || r.Attempt == grade.AttemptExtra {
			continue
		}
		side := -1
		switch r.Arm {
		case opts.Arms[0]:
			side = 0
		case opts.Arms[1]:
			side = 1
		}
		if side < 0 {
			continue
		}
		var o *grade.Outcome
		switch metric {
		case MetricSuccess:
			o = r.Supported
			if r.Kind == grade.KindUnknown {
				o = r.Abstention
			}
		case MetricSupported, MetricFactual:
			if r.Kind != grade.KindAnswerable {
				continue
			}
			o = r.Supported
			if metric == MetricFactual {
				o = r.Factual
			}
		case MetricAbstention:
			if r.Kind != grade.KindUnknown {
				continue
			}
			o = r.Abstention
		default:
			return nil, fmt.Errorf("metrics: unknown comparison metric %q", metric)
		}
		l, u := 0.0, 0.0
		if o != nil && *o == grade.Pass {
			l, u = 1, 1
		} else if o != nil && *o == grade.Unresolved {
			u = 1
		}
		p := byQ[r.Question]
		if p == nil {
			p = &[2][]attempt{}
			byQ[r.Question] = p
		}
		p[side] = append(p[side], attempt{r.Session, l, u})
	}
	lb := map[string][2][]float64{}
	ub := map[string][2][]float64{}
	for q, p := range byQ {
		var pl, pu [2][]float64
		for side := range p {
			slices.SortStableFunc(p[side], func(x, y attempt) int { return cmp.Compare(x.session, y.session) })
			for _, a := range p[side] {
				pl[side] = append(pl[side], a.l)
				pu[side] = append(pu[side], a.u)
			}
		}
		lb[q], ub[q] = pl, pu
	}
	var qs, excluded []string
	for q, p := range lb {
		if len(p[0]) > 0 && len(p[1]) > 0 {
			qs = append(qs, q)
		} else {
			excluded = append(excluded, q)
		}
	}
	sort.Strings(qs)
	sort.Strings(excluded)
	if len(qs) == 0 {
		return nil, ErrNoClusters
	}
	c := &Comparison{Arms: opts.Arms, Metric: metric, Clusters: len(qs), Seed: [2]uint64{opts.Seed, opts.Stream},
		Excluded: excluded, Note: EnvelopeNote, Balanced: true}
	if c.Excluded == nil {
		c.Excluded = []string{}
	}
	la, lbm := make([][]float64, len(qs)), make([][]float64, len(qs))
	ua, ubm := make([][]float64, len(qs)), make([][]float64, len(qs))
	for i, q := range qs {
		la[i], lbm[i] = lb[q][0], lb[q][1]
		ua[i], ubm[i] = ub[q][0], ub[q][1]
		c.Repeats = max(c.Repeats, len(la[i]), len(lbm[i]))
	}
	for i := range qs {
		if len(la[i]) != c.Repeats || len(lbm[i]) != c.Repeats {
			c.Balanced = false
		}
	}
	po := PairedOptions{Seed: opts.Seed, Stream: opts.Stream, Replicates: opts.Replicates, Bins: opts.Bins}
	c.Replicates = po.replicates()
	c.LB = Paired(la, lbm, po)
	c.UB = Paired(ua, ubm, po)
	return c, nil
}

// PairedOptions configure Paired.
type PairedOptions struct {
	Seed, Stream uint64
	Replicates   int // 10,000 when < 1
	Bins         int // 40 when < 1
}

func (o PairedOptions) replicates() int {
	if o.Replicates < 1 {
		return 10_000
	}
	return o.Replicates
}

// Paired compares per-question scores a[q] and b[q] (each a list of
// repeats) of Q clusters:
//
//   - d_q = mean(a[q]) - mean(b[q]), the mean summed in order and divided;
//   - the whole-question bootstrap: replicate k draws Q indices with
//     rand.New(rand.NewPCG(Seed, Stream)).IntN(Q), one after another for
//     all replicates, and its statistic is the sum of d over the drawn
//     indices, in draw order, divided by Q (../shared/vectors/bootstrap.json
//     is reproduced bit for bit); the interval is the type-7 2.5% and 97.5%
//     percentiles;
//   - the paired standard error sd(d)/sqrt(Q) (ddof 1), the t-interval and
//     MDE80 with Student's t at Q-1 degrees of freedom (gonum);
//   - Miller's clustered standard error over item-level differences
//     a[q][r] - b[q][r] when every cluster has the same repeats in both;
//   - Pearson's correlation of the per-question means.
func Paired(a, b [][]float64, opts PairedOptions) Side {
	q := len(a)
	ma, mb, d := make([]float64, q), make([]float64, q), make([]float64, q)
	for i := range q {
		ma[i], mb[i] = mean(a[i]), mean(b[i])
		d[i] = ma[i] - mb[i]
	}
	s := Side{MeanA: Float6(mean(ma)), MeanB: Float6(mean(mb)), MeanDiff: Float6(mean(d))}
	stats := Bootstrap(d, opts.Seed, opts.Stream, opts.replicates())
	sorted := append([]float64(nil), stats...)
	sort.Float64s(sorted)
	s.Interval = [2]Float6{Float6(Quantile7(sorted, 0.025)), Float6(Quantile7(sorted, 0.975))}
	bins := opts.Bins
	if bins < 1 {
		bins = 40
	}
	s.Histogram = histogram(sorted, bins)
	if q > 1 {
		md := mean(d)
		se := sd(d) / math.Sqrt(float64(q))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(q - 1)}
		t975, t80 := t.Quantile(0.975), t.Quantile(0.80)
		s.SEPaired = Float6(se)
		s.TInterval = [2]Float6{Float6(md - t975*se), Float6(md + t975*se)}
		s.MDE80 = Float6((t975 + t80) * se)
	}
	if se, ok := millerSE(a, b); ok {
		f := Float6(se)
		s.SEClustered = &f
	}
	if r, ok := pearson(ma, mb); ok {
		f := Float6(r)
		s.Correlation = &f
	}
	return s
}

// Bootstrap returns n replicates of the mean of d resampled by whole
// question (see Paired).
func Bootstrap(d []float64, seed, stream uint64, n int) []float64 {
	q := len(d)
	rng := rand.New(rand.NewPCG(seed, stream))
	out := make([]float64, n)
	for k := range out {
		s := 0.0
		for range q {
			s += d[rng.IntN(q)]
		}
		out[k] = s / float64(q)
	}
	return out
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sd(x []float64) float64 {
	m := mean(x)
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// millerSE is the clustered standard error of the mean item difference
// with questions as clusters: over the n item differences e (each less
// their mean), sqrt(var(e)/n + sum over questions of ((sum e)^2 - sum
// e^2)/n^2), var with ddof 1 (TestBootstrapVectors checks it against the
// shared reference vectors); ok is false when a cluster's repeats differ
// between the arms.
func millerSE(a, b [][]float64) (float64, bool) {
	var items []float64
	for q := range a {
		if len(a[q]) != len(b[q]) {
			return 0, false
		}
		for r := range a[q] {
			items = append(items, a[q][r]-b[q][r])
		}
	}
	n := float64(len(items))
	if n < 2 {
		return 0, false
	}
	dbar := mean(items)
	v := sd(items)
	clt2 := v * v / n
	cross := 0.0
	k := 0
	for q := range a {
		sum, sq := 0.0, 0.0
		for range a[q] {
			e := items[k] - dbar
			sum += e
			sq += e * e
			k++
		}
		cross += sum*sum - sq
	}
	return math.Sqrt(clt2 + cross/(n*n)), true
}

func pearson(x, y []float64) (float64, bool) {
	if len(x) < 2 {
		return 0, false
	}
	mx, my := mean(x), mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// histogram counts sorted values in n equal bins over their range.
func histogram(sorted []float64, n int) []Bin {
	if len(sorted) == 0 {
		return []Bin{}
	}
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if hi == lo {
		return []Bin{{From: Float6(lo), To: Float6(hi), Count: len(sorted)}}
	}
	w := (hi - lo) / float64(n)
	bins := make([]Bin, n)
	for i := range bins {
		bins[i] = Bin{From: Float6(lo + float64(i)*w), To: Float6(lo + float64(i+1)*w)}
	}
	for _, v := range sorted {
		i := int((v - lo) / w)
		if i >= n {
			i = n - 1
		}
		bins[i].Count++
	}
	return bins
}
