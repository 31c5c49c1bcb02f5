package metrics

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"testing/quick"

	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readVectors(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, "vectors/"+name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v))
}

// TestWilsonVectors reproduces scipy's Wilson intervals and the bounds of
// unresolved verdicts in ../shared/vectors/stats_intervals.json.
func TestWilsonVectors(t *testing.T) {
	var v struct {
		Z    float64 `json:"z_975"`
		Grid []struct {
			K, N   int
			Wilson [2]float64 `json:"wilson_95"`
		} `json:"binomial_grid"`
		Bounds []struct {
			Correct, Incorrect, Unresolved, N int
			Lower                             float64 `json:"accuracy_lower_point"`
			Upper                             float64 `json:"accuracy_upper_point"`
			WilsonLo                          float64 `json:"wilson95_lower_of_lower"`
			WilsonHi                          float64 `json:"wilson95_upper_of_upper"`
		} `json:"unresolved_bounds"`
		PCG struct {
			Seed  [2]uint64 `json:"seed"`
			First []string  `json:"first_uint64"`
			IntN  []int     `json:"first_40_IntN_40"`
		} `json:"go_pcg_check"`
	}
	readVectors(t, "stats_intervals.json", &v)
	require.Equal(t, v.Z, Z975)
	require.NotEmpty(t, v.Grid)
	for _, g := range v.Grid {
		lo, hi := WilsonInterval(g.K, g.N)
		assert.InDelta(t, g.Wilson[0], lo, 1e-12, "k=%d n=%d", g.K, g.N)
		assert.InDelta(t, g.Wilson[1], hi, 1e-12, "k=%d n=%d", g.K, g.N)
	}
	require.NotEmpty(t, v.Bounds)
	for _, b := range v.Bounds {
		m := Metric{Pass: b.Correct, Fail: b.Incorrect, Unresolved: b.Unresolved, N: b.N}
		lb, _ := m.LB().Float64()
		ub, _ := m.UB().Float64()
		assert.Equal(t, b.Lower, lb)
		assert.Equal(t, b.Upper, ub)
		lo, hi, ok := m.Wilson()
		require.True(t, ok)
		assert.InDelta(t, b.WilsonLo, lo, 1e-12)
		assert.InDelta(t, b.WilsonHi, hi, 1e-12)
	}
	// The PCG stream the bootstrap draws from.
	r := rand.New(rand.NewPCG(v.PCG.Seed[0], v.PCG.Seed[1]))
	src := rand.NewPCG(v.PCG.Seed[0], v.PCG.Seed[1])
	for _, s := range v.PCG.First {
		want, _ := strconv.ParseUint(s, 10, 64)
		assert.Equal(t, want, src.Uint64())
	}
	for _, want := range v.PCG.IntN {
		assert.Equal(t, want, r.IntN(40))
	}
}

// TestBootstrapVectors reproduces ../shared/vectors/bootstrap.json: every
// replicate bit for bit, numpy's default percentiles exactly, the paired
// and clustered standard errors.
func TestBootstrapVectors(t *testing.T) {
	var v struct {
		Q, R     int
		A, B     [][]float64
		D        []float64 `json:"per_question_mean_diff"`
		MeanDiff float64   `json:"mean_diff"`
		SEPaired float64   `json:"se_paired_question_level"`
		SEMiller float64   `json:"se_clustered_miller_item_level"`
		Boot     struct {
			Seed  [2]uint64 `json:"seed"`
			B     int
			All   []float64 `json:"all_stats"`
			P25   map[string]float64
			P975  map[string]float64
			Extra map[string]map[string]float64 `json:"quantiles_extra"`
		} `json:"bootstrap"`
	}
	readVectors(t, "bootstrap.json", &v)
	// The vectors name their percentile fields p2_5 and p97_5.
	var raw map[string]json.RawMessage
	readVectors(t, "bootstrap.json", &raw)
	var boot map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["bootstrap"], &boot))
	require.NoError(t, json.Unmarshal(boot["p2_5"], &v.Boot.P25))
	require.NoError(t, json.Unmarshal(boot["p97_5"], &v.Boot.P975))

	d := make([]float64, v.Q)
	for q := range v.Q {
		d[q] = mean(v.A[q]) - mean(v.B[q])
		assert.Equal(t, v.D[q], d[q], "question %d", q)
	}
	stats := Bootstrap(d, v.Boot.Seed[0], v.Boot.Seed[1], v.Boot.B)
	require.Equal(t, v.Boot.All, stats, "every replicate bit for bit")
	sorted := append([]float64(nil), stats...)
	sort.Float64s(sorted)
	assert.Equal(t, v.Boot.P25["linear"], Quantile7(sorted, 0.025))
	assert.Equal(t, v.Boot.P975["linear"], Quantile7(sorted, 0.975))
	for q, methods := range v.Boot.Extra {
		p, _ := strconv.ParseFloat(q, 64)
		assert.Equal(t, methods["linear"], Quantile7(sorted, p/100), "percentile %s", q)
	}
	s := Paired(v.A, v.B, PairedOptions{Seed: v.Boot.Seed[0], Stream: v.Boot.Seed[1], Replicates: v.Boot.B})
	assert.InDelta(t, v.MeanDiff, float64(s.MeanDiff), 1e-15)
	assert.InDelta(t, v.SEPaired, float64(s.SEPaired), 1e-15)
	require.NotNil(t, s.SEClustered)
	assert.InDelta(t, v.SEMiller, float64(*s.SEClustered), 1e-15)
	assert.Equal(t, [2]Float6{Float6(v.Boot.P25["linear"]), Float6(v.Boot.P975["linear"])}, s.Interval, "the interval is kept at full precision; only JSON rounds it")
}

// TestBoundsProperty: for any counts, 0 <= LB <= UB <= 1, and the Wilson
// ends contain the bounds.
func TestBoundsProperty(t *testing.T) {
	f := func(p, fl, u uint16) bool {
		m := Metric{Pass: int(p), Fail: int(fl), Unresolved: int(u), N: int(p) + int(fl) + int(u)}
		if m.N == 0 {
			return m.LB() == nil && m.UB() == nil
		}
		lb, ub := m.LB(), m.UB()
		zero, one := new(big.Rat), big.NewRat(1, 1)
		lo, hi, _ := m.Wilson()
		lbf, _ := lb.Float64()
		ubf, _ := ub.Float64()
		return lb.Cmp(zero) >= 0 && lb.Cmp(ub) <= 0 && ub.Cmp(one) <= 0 && lo <= lbf+1e-12 && hi >= ubf-1e-12 && lo >= 0 && hi <= 1
	}
	require.NoError(t, quick.Check(f, &quick.Config{MaxCount: 5000}))
}

func TestRound6(t *testing.T) {
	tests := []struct {
		r    *big.Rat
		want string
		why  string
	}{
		{big.NewRat(5, 6), "0.833333", "rounded down"},
		{big.NewRat(9, 10), "0.9", "trailing zeros dropped"},
		{big.NewRat(1, 1), "1", "a whole number"},
		{big.NewRat(0, 1), "0", "zero"},
		{big.NewRat(1, 8_000_000), "0", "half of the last place rounds to even (0)"},
		{big.NewRat(3, 2_000_000), "0.000002", "one and a half of the last place rounds to even (2)"},
		{big.NewRat(2, 3), "0.666667", "rounded up"},
		{big.NewRat(-2, 3), "-0.666667", "negative"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Round6(tt.r), tt.why)
	}
	assert.Equal(t, "83.3%", Percent(big.NewRat(5, 6)))
	assert.Equal(t, "n/a", Percent(nil))
	assert.False(t, math.IsNaN(Quantile7([]float64{1}, 0.5)))
}
