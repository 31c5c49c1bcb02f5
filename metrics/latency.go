package metrics

import (
	"fmt"
	"math"
	"sort"

	"github.com/citecheck/citecheck/grade"
)

// DeadlineMS is the policy's complete-query deadline: "a ninety-second
// complete-query deadline".
const DeadlineMS = 90_000

// Phases are the timed phases, in report order; cold start and indexing
// are kept apart from the query ("parsing/import/index and cold start are
// separate").
var Phases = []string{"retrieval", "embedding", "prompt", "generation", "total", "cold_start", "indexing"}

// Latency is one arm's figures for one phase, in milliseconds.
type Latency struct {
	Arm   string `json:"arm"`
	Phase string `json:"phase"`
	N     int    `json:"n"`
	// Unavailable counts attempts with no figure for the phase (never
	// counted as zero).
	Unavailable int     `json:"unavailable"`
	MedianMS    *Float6 `json:"median_ms"`
	P90MS       *Float6 `json:"p90_ms"`
	MaxMS       *Float6 `json:"max_ms"`
	// OverDeadline lists, for the total, the attempts over DeadlineMS or
	// timed out: "A/2/Q07".
	OverDeadline []string `json:"over_deadline,omitempty"`
}

type latencies struct {
	vals map[[2]string][]float64
	unav map[[2]string]int
	over map[string][]string
	arms map[string]bool
}

func newLatencies() *latencies {
	return &latencies{vals: map[[2]string][]float64{}, unav: map[[2]string]int{}, over: map[string][]string{}, arms: map[string]bool{}}
}

func (l *latencies) add(r *grade.Result) {
	if r.Attempt == grade.AttemptDuplicate || r.Attempt == grade.AttemptExtra {
		return
	}
	l.arms[r.Arm] = true
	t := r.Timing
	get := func(p string) *float64 {
		if t == nil {
			return nil
		}
		switch p {
		case "retrieval":
			return t.RetrievalMS
		case "embedding":
			return t.EmbeddingMS
		case "prompt":
			return t.PromptMS
		case "generation":
			return t.GenerationMS
		case "total":
			return t.TotalMS
		case "cold_start":
			return t.ColdStartMS
		case "indexing":
			return t.IndexingMS
		}
		return nil
	}
	for _, p := range Phases {
		k := [2]string{r.Arm, p}
		if v := get(p); v != nil && !math.IsNaN(*v) && !math.IsInf(*v, 0) {
			l.vals[k] = append(l.vals[k], *v)
		} else {
			l.unav[k]++
		}
	}
	total := get("total")
	if r.Attempt == grade.AttemptTimeout || total != nil && *total > DeadlineMS {
		l.over[r.Arm] = append(l.over[r.Arm], fmt.Sprintf("%s/%d/%s", r.Arm, r.Session, r.Question))
	}
}

func (l *latencies) summary() []Latency {
	arms := make([]string, 0, len(l.arms))
	for a := range l.arms {
		arms = append(arms, a)
	}
	sort.Strings(arms)
	out := []Latency{}
	for _, a := range arms {
		for _, p := range Phases {
			k := [2]string{a, p}
			v := append([]float64(nil), l.vals[k]...)
			sort.Float64s(v)
			lat := Latency{Arm: a, Phase: p, N: len(v), Unavailable: l.unav[k]}
			if len(v) > 0 {
				med, p90, mx := Float6(Quantile7(v, 0.5)), Float6(Quantile7(v, 0.9)), Float6(v[len(v)-1])
				lat.MedianMS, lat.P90MS, lat.MaxMS = &med, &p90, &mx
			}
			if p == "total" {
				lat.OverDeadline = append([]string{}, l.over[a]...)
				sort.Strings(lat.OverDeadline)
			}
			out = append(out, lat)
		}
	}
	return out
}

// Quantile7 is the p-quantile (0 <= p <= 1) of sorted values by
// Hyndman-Fan type 7, numpy's and R's default, interpolated exactly as
// numpy does so that results are bit-identical: with h = p(n-1) and t its
// fractional part, a + (b-a)t when t < 0.5, else b - (b-a)(1-t).
func Quantile7(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 1 {
		return sorted[0]
	}
	h := p * float64(n-1)
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	t := h - lo
	a, b := sorted[i], sorted[i+1]
	if t < 0.5 {
		return a + (b-a)*t
	}
	return b - (b-a)*(1-t)
}
