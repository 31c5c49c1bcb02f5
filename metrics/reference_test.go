package metrics

// Checks of the metrics against what a reader computes by hand: figures
// counted by hand, Wilson intervals against the reference formula, the
// order of the bounds, independence from the records' order, rounding.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reference values: python3 math, the Wilson score formula of
// scipy.stats.binomtest(...).proportion_ci(method="wilson").
func TestWilsonReference(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 1, 0, 0.793450685623}, {1, 1, 0.206549314377, 1}, {0, 10, 0, 0.277532799863},
		{10, 10, 0.722467200137, 1}, {27, 30, 0.743789174208, 0.965400111253}, {1, 2, 0.094531205734, 0.905468794266},
		{113, 119, 0.894351752607, 0.976689677764}, {0, 40, 0, 0.087621601197}, {40, 40, 0.912378398803, 1},
	} {
		lo, hi := WilsonInterval(c.k, c.n)
		assert.InDelta(t, c.lo, lo, 1e-11, "%d/%d lo", c.k, c.n)
		assert.InDelta(t, c.hi, hi, 1e-11, "%d/%d hi", c.k, c.n)
	}
	_, _, ok := Metric{}.Wilson()
	assert.False(t, ok, "n=0: no interval")
	b, _ := json.Marshal(metricJSON(Metric{}))
	assert.Contains(t, string(b), `"lb":null,"ub":null,"wilson95":null`)
}

// 0 <= WilsonLo <= LB <= UB <= WilsonHi <= 1 for every count up to 60;
// an unresolved verdict moves UB up and leaves LB; turning a fail into
// unresolved never lowers either bound.
func TestBoundOrderAndUnresolvedDirection(t *testing.T) {
	checked := 0
	for n := 1; n <= 60; n++ {
		for p := 0; p <= n; p++ {
			for u := 0; p+u <= n; u++ {
				m := Metric{Pass: p, Unresolved: u, Fail: n - p - u, N: n}
				lb, _ := m.LB().Float64()
				ub, _ := m.UB().Float64()
				lo, hi, ok := m.Wilson()
				require.True(t, ok)
				if !(0 <= lo && lo <= lb+1e-12 && lb <= ub && ub <= hi+1e-12 && hi <= 1) {
					t.Fatalf("%+v: wilson lo %v lb %v ub %v wilson hi %v", m, lo, lb, ub, hi)
				}
				if m.Fail > 0 {
					m2 := Metric{Pass: p, Unresolved: u + 1, Fail: n - p - u - 1, N: n}
					require.Zero(t, m2.LB().Cmp(m.LB()))
					require.Equal(t, 1, m2.UB().Cmp(m.UB()))
				}
				checked++
			}
		}
	}
	t.Logf("%d metrics checked", checked)
}

// Hand count: A1 has 3 answerable (pass, unresolved, fail with 2
// citations pass+unresolved, 1 pass, none), 2 unknown (pass, timeout).
func TestHandCount(t *testing.T) {
	rs := []grade.Result{
		result("A", 1, "Q1", grade.AttemptOK, "pass", "", "pass", "unresolved"),
		result("A", 1, "Q2", grade.AttemptOK, "unresolved", "", "pass"),
		result("A", 1, "Q3", grade.AttemptOK, "fail", ""),
		result("A", 1, "U1", grade.AttemptOK, "", "pass"),
		result("A", 1, "U2", grade.AttemptTimeout, "", "fail"),
	}
	b := NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	s := b.Summary(DefaultThresholds())
	g := s.Sessions[0]
	assert.Equal(t, Metric{Pass: 1, Unresolved: 1, Fail: 1, N: 3}, g.Supported.Metric)
	assert.Equal(t, Metric{Pass: 2, Unresolved: 1, N: 3}, g.Citations.Metric)
	assert.Equal(t, 1, g.MissingCitations)
	assert.Equal(t, Metric{Pass: 1, Fail: 1, N: 2}, g.Abstention.Metric)
	js, err := json.Marshal(g.Supported)
	require.NoError(t, err)
	assert.Contains(t, string(js), `"lb":0.333333,"ub":0.666667`)
	js, _ = json.Marshal(g.Citations)
	assert.Contains(t, string(js), `"lb":0.666667,"ub":1`)
}

// The paired comparison's sign is A - B, questions in one arm only are
// listed in Excluded, and the same seed gives the same bytes.
func TestCompareSignAndSeed(t *testing.T) {
	var rs []grade.Result
	for q := range 5 {
		for s := 1; s <= 3; s++ {
			id := fmt.Sprintf("Q%d", q)
			rs = append(rs, result("A", s, id, grade.AttemptOK, "fail", "", "pass"))
			rs = append(rs, result("B", s, id, grade.AttemptOK, "pass", "", "pass"))
		}
	}
	rs = append(rs, result("B", 1, "Q7", grade.AttemptOK, "pass", ""))
	opts := CompareOptions{Arms: [2]string{"A", "B"}, Seed: 7, Stream: 1, Replicates: 300}
	c, err := Compare(rs, opts)
	require.NoError(t, err)
	assert.Equal(t, Float6(-1), c.LB.MeanDiff, "A - B: A fails, B passes")
	assert.Equal(t, []string{"Q7"}, c.Excluded)
	j1, _ := json.Marshal(c)
	c2, _ := Compare(rs, opts)
	j2, _ := json.Marshal(c2)
	assert.Equal(t, string(j1), string(j2))
}

// the clustered (Miller) standard error pairs arm A's repeat r
// with arm B's repeat r by the order the records come in, not by session
// (the policy pairs repetitions: "one frozen permutation per paired
// repetition"). The same results in another record order give another
// se_clustered; package doc: "results may come in any order".
func TestCompareIndependentOfRecordOrder(t *testing.T) {
	var rs []grade.Result
	// Q0: A passes session 1 only, B passes session 1 only: the item
	// differences by session are 0, 0, 0. Q1..Q3 the same pattern shifted.
	for q := range 4 {
		for s := 1; s <= 3; s++ {
			v := "fail"
			if s == 1+q%3 {
				v = "pass"
			}
			id := fmt.Sprintf("Q%d", q)
			rs = append(rs, result("A", s, id, grade.AttemptOK, v, "", "pass"))
			rs = append(rs, result("B", s, id, grade.AttemptOK, v, "", "pass"))
		}
	}
	opts := CompareOptions{Arms: [2]string{"A", "B"}, Seed: 1, Stream: 1, Replicates: 200}
	c1, err := Compare(rs, opts)
	require.NoError(t, err)
	// The same records, B's sessions listed 3, 2, 1.
	rev := slices.Clone(rs)
	slices.SortStableFunc(rev, func(x, y grade.Result) int {
		if x.Arm == "B" && y.Arm == "B" {
			return y.Session - x.Session
		}
		return 0
	})
	var a, b []grade.Result
	for _, r := range rev {
		if r.Arm == "A" {
			a = append(a, r)
		}
	}
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Arm == "B" {
			b = append(b, rs[i])
		}
	}
	c2, err := Compare(slices.Concat(a, b), opts)
	require.NoError(t, err)
	require.NotNil(t, c1.LB.SEClustered)
	require.NotNil(t, c2.LB.SEClustered)
	assert.Equal(t, *c1.LB.SEClustered, *c2.LB.SEClustered, "se_clustered depends on the records' order")
	assert.Equal(t, Float6(0), *c1.LB.SEClustered, "paired by session every item difference is 0")
}

// summary.json's failures list follows the order the records
// came in, so the same results in another order give other bytes.
func TestSummaryIndependentOfRecordOrder(t *testing.T) {
	rs := []grade.Result{
		result("A", 1, "Q1", grade.AttemptTimeout, "fail", ""),
		result("A", 1, "Q2", grade.AttemptError, "fail", ""),
		result("A", 1, "Q3", grade.AttemptOK, "pass", "", "pass"),
	}
	sum := func(rs []grade.Result) (string, []string) {
		b := NewBuilder()
		for i := range rs {
			b.Add(&rs[i])
		}
		s := b.Summary(DefaultThresholds())
		j, err := json.Marshal(s)
		require.NoError(t, err)
		return string(j), s.Sessions[0].Failures
	}
	rev := slices.Clone(rs)
	slices.Reverse(rev)
	j1, f1 := sum(rs)
	j2, f2 := sum(rev)
	assert.Equal(t, f1, f2, "session failures list")
	assert.True(t, j1 == j2, "summary.json bytes differ with the records' order")
}

// Percent rounds the lower bound before it is printed beside the
// threshold, so a session whose citation lower bound is 113/119 = 94.958%
// fails with the reason "citations lower bound 95.0% < 95.0%".
func TestQualificationReasonNotSelfContradictory(t *testing.T) {
	var rs []grade.Result
	for i := range 30 {
		cites := []string{"pass", "pass", "pass", "pass"}
		if i < 6 {
			cites[3] = "fail"
		}
		if i >= 29 {
			cites = cites[:3] // 29*4 + 3 = 119 citations, 6 fail
		}
		rs = append(rs, result("A", 1, fmt.Sprintf("Q%02d", i), grade.AttemptOK, "pass", "", cites...))
	}
	for i := range 10 {
		rs = append(rs, result("A", 1, fmt.Sprintf("U%02d", i), grade.AttemptOK, "", "pass"))
	}
	b := NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	g := b.Summary(DefaultThresholds()).Sessions[0]
	require.Equal(t, Metric{Pass: 113, Fail: 6, N: 119}, g.Citations.Metric)
	require.False(t, *g.Qualified, "113/119 < 95%%: correctly not qualified")
	re := regexp.MustCompile(`lower bound ([0-9.]+%) < ([0-9.]+%)`)
	for _, why := range g.Qualification {
		if m := re.FindStringSubmatch(why); m != nil {
			assert.NotEqual(t, m[1], m[2], "reason reads %q", why)
		}
	}
}

// summary.json never shows float drift: every number has at most six
// decimals; lb/ub are the exact fractions rounded half to even.
func TestNoFloatDriftInJSON(t *testing.T) {
	var rs []grade.Result
	for i := range 7 {
		v := []string{"pass", "unresolved", "fail"}[i%3]
		rs = append(rs, result("A", 1, fmt.Sprintf("Q%d", i), grade.AttemptOK, v, "", v))
		rs = append(rs, result("B", 1, fmt.Sprintf("Q%d", i), grade.AttemptOK, "pass", "", "pass", v))
	}
	b := NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	s := b.Summary(DefaultThresholds())
	c, err := Compare(rs, CompareOptions{Arms: [2]string{"A", "B"}, Seed: 3, Stream: 1, Replicates: 1000})
	require.NoError(t, err)
	s.Comparison = c
	var buf bytes.Buffer
	require.NoError(t, json.NewEncoder(&buf).Encode(s))
	long := regexp.MustCompile(`\d\.\d{7,}`).FindAllString(buf.String(), -1)
	assert.Empty(t, long)
	assert.Equal(t, "0.5", Round6(big.NewRat(1, 2)))
	assert.Equal(t, "0.000002", Round6(big.NewRat(25, 10_000_000)), "half to even")
	assert.Equal(t, "0.000004", Round6(big.NewRat(35, 10_000_000)), "half to even")
	assert.True(t, !strings.Contains(buf.String(), "NaN"))
	_ = math.Pi
}

// Arms graded apart and together: the same groups whatever the arms'
// interleaving; an attempt is counted once.
func TestArmsApartTogether(t *testing.T) {
	var a, bb []grade.Result
	for s := 1; s <= 2; s++ {
		for q := range 3 {
			a = append(a, result("A", s, fmt.Sprintf("Q%d", q), grade.AttemptOK, "pass", "", "pass"))
			bb = append(bb, result("B", s, fmt.Sprintf("Q%d", q), grade.AttemptOK, "unresolved", "", "fail"))
		}
	}
	build := func(rs []grade.Result) *Summary {
		b := NewBuilder()
		for i := range rs {
			b.Add(&rs[i])
		}
		return b.Summary(DefaultThresholds())
	}
	var inter []grade.Result
	for i := range a {
		inter = append(inter, a[i], bb[i])
	}
	j1, _ := json.Marshal(build(slices.Concat(a, bb)))
	j2, _ := json.Marshal(build(slices.Concat(bb, a)))
	j3, _ := json.Marshal(build(inter))
	assert.Equal(t, string(j1), string(j2))
	assert.Equal(t, string(j1), string(j3))
	s := build(inter)
	assert.Equal(t, 6, s.Arms[0].Supported.N)
	assert.Equal(t, 6, s.Arms[1].Supported.N)
}
