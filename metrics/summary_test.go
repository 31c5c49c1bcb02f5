package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func o(s string) *grade.Outcome {
	v := grade.Outcome(s)
	return &v
}

func ms(v float64) *float64 { return &v }

// result builds an answerable (sup != "") or unknown result.
func result(arm string, session int, q, attempt, sup, abst string, cites ...string) grade.Result {
	r := grade.Result{Arm: arm, Session: session, Question: q, Attempt: attempt, Frozen: true}
	if abst == "" {
		r.Kind, r.Supported, r.Factual = grade.KindAnswerable, o(sup), o(sup)
		if len(cites) == 0 {
			r.Citations = []grade.CitationResult{{Verdict: grade.Fail, Reason: grade.ReasonMissingCitation}}
		}
	} else {
		r.Kind, r.Abstention = grade.KindUnknown, o(abst)
	}
	for i, c := range cites {
		id := fmt.Sprintf("c%d", i+1)
		r.Citations = append(r.Citations, grade.CitationResult{ID: &id, Verdict: grade.Outcome(c), Reason: "x"})
	}
	return r
}

func TestSummaryCountsAndQualification(t *testing.T) {
	var rs []grade.Result
	// A1: 30 answerable (27 pass, 2 unresolved, 1 fail) and 10 unknown
	// (10 pass): qualifies on bounds... but one attempt timed out.
	for i := range 30 {
		v := "pass"
		switch {
		case i == 0:
			v = "fail"
		case i < 3:
			v = "unresolved"
		}
		rs = append(rs, result("A", 1, fmt.Sprintf("Q%02d", i+1), grade.AttemptOK, v, "", "pass"))
	}
	for i := range 10 {
		rs = append(rs, result("A", 1, fmt.Sprintf("U%02d", i+1), grade.AttemptOK, "", "pass"))
	}
	rs[5].Attempt, rs[5].Supported, rs[5].Factual, rs[5].Citations = grade.AttemptTimeout, o("fail"), o("fail"), nil
	rs[5].Timing = &runs.Timing{TotalMS: ms(95_000)}
	rs[6].Timing = &runs.Timing{TotalMS: ms(800), RetrievalMS: ms(20)}
	rs[7].Timing = &runs.Timing{TotalMS: ms(1200)}
	// B1: a smoke run of two questions, not frozen, with a duplicate.
	b1 := result("B", 1, "Q01", grade.AttemptOK, "pass", "", "pass", "fail")
	b1.Frozen = false
	b2 := result("B", 1, "U01", grade.AttemptOK, "", "unresolved")
	b3 := result("B", 1, "Q01", grade.AttemptDuplicate, "fail", "")
	b2.Unread = []string{"marker [1] names no citation"}
	b1.OutOfOrder = true
	rs = append(rs, b1, b2, b3)
	// B4: a session the plan does not have; one extra in A1.
	extraB, extraA := result("B", 4, "Q01", grade.AttemptExtra, "fail", ""), result("A", 1, "Q99", grade.AttemptExtra, "fail", "")
	extraB.Citations, extraA.Citations = nil, nil // as grade writes work that must not count
	rs = append(rs, extraB, extraA)

	b := NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	s := b.Summary(DefaultThresholds())
	require.Len(t, s.Sessions, 2)
	a := s.Sessions[0]
	assert.Equal(t, 40, a.Planned)
	assert.Equal(t, Attempts{OK: 39, Timeout: 1, Extra: 1}, a.Attempts, "an extra in a planned session stays in it")
	assert.Equal(t, Metric{Pass: 26, Fail: 3, Unresolved: 2, N: 31}, a.Supported.Metric, "the timeout and the extra count as fails")
	assert.Equal(t, "0.83871", Round6(a.Supported.Metric.LB()))
	assert.Equal(t, Metric{Pass: 29, N: 29}, a.Citations.Metric, "emitted citations only")
	assert.Equal(t, 0, a.MissingCitations)
	assert.Equal(t, []string{"A/1/Q06 timeout", "A/1/Q99 extra"}, a.Failures)
	require.NotNil(t, a.Qualified)
	assert.False(t, *a.Qualified)
	assert.Contains(t, a.Qualification, "supported lower bound 83.9% < 90.0%")
	assert.Contains(t, a.Qualification, "attempts counted as failures: 1 timeout, 1 extra")

	bs := s.Sessions[1]
	assert.Equal(t, 2, bs.Planned, "the duplicate is not planned")
	assert.Equal(t, Metric{Pass: 1, Fail: 1, N: 2}, bs.Supported.Metric, "the duplicate counts as a fail")
	assert.Equal(t, Metric{Unresolved: 1, N: 1}, bs.Abstention.Metric)
	assert.Contains(t, bs.Qualification, "not graded against a frozen lock")
	assert.Contains(t, bs.Qualification, "1 answerable and 1 unknown planned questions, not 30 and 10")
	assert.Equal(t, 1, bs.Unread)
	assert.Contains(t, bs.Qualification, "results with citations not read: 1 (their verdicts are incomplete)")
	assert.Equal(t, []string{"B/1/Q01"}, bs.OutOfOrder)

	// A session made of extras only is outside the plan: listed apart,
	// never qualified, counted in its arm's pooled figures.
	require.Len(t, s.OutsidePlan, 1)
	op := s.OutsidePlan[0]
	assert.Equal(t, [2]any{"B", 4}, [2]any{op.Arm, op.Session})
	assert.Nil(t, op.Qualified)
	assert.Equal(t, []string{"B/4/Q01 extra"}, op.Failures)
	require.Len(t, s.Arms, 2)
	assert.Equal(t, 3, s.Arms[1].Supported.N, "arm B pooled: B1's two answerable results and B4's extra")
	assert.Equal(t, []string{"B/1/Q01"}, s.Arms[1].OutOfOrder)

	// Zero denominators are null, never 0% or 100%.
	empty := Group{Arm: "C", Session: 1, frozen: true}
	empty.finish()
	empty.qualify(DefaultThresholds())
	assert.Contains(t, empty.Qualification, "no supported: a zero denominator cannot qualify")
	j, err := json.Marshal(empty.Supported)
	require.NoError(t, err)
	assert.Contains(t, string(j), `"lb":null,"ub":null,"wilson95":null`)

	// Latency: unavailable counted, the timeout and the slow one listed.
	var total Latency
	for _, l := range s.Latency {
		if l.Arm == "A" && l.Phase == "total" {
			total = l
		}
	}
	assert.Equal(t, 3, total.N)
	assert.Equal(t, 37, total.Unavailable)
	assert.Equal(t, []string{"A/1/Q06"}, total.OverDeadline)
	assert.Equal(t, Float6(1200), *total.MedianMS)

	// The JSON is deterministic.
	var x, y bytes.Buffer
	require.NoError(t, json.NewEncoder(&x).Encode(s))
	require.NoError(t, json.NewEncoder(&y).Encode(b.Summary(DefaultThresholds())))
	assert.True(t, strings.HasPrefix(x.String(), `{"format":"citecheck-summary/2","policy":"v1.5"`))
}

func TestCompareResults(t *testing.T) {
	var rs []grade.Result
	// 4 questions x 2 repeats; A passes everything, B passes half.
	for q := range 4 {
		for s := 1; s <= 2; s++ {
			id := fmt.Sprintf("Q%d", q)
			rs = append(rs, result("A", s, id, grade.AttemptOK, "pass", "", "pass"))
			v := "fail"
			if q%2 == 0 {
				v = "pass"
			}
			if q == 3 {
				v = "unresolved"
			}
			rs = append(rs, result("B", s, id, grade.AttemptOK, v, "", "pass"))
		}
	}
	rs = append(rs, result("A", 1, "Q9", grade.AttemptOK, "pass", ""))
	c, err := Compare(rs, CompareOptions{Arms: [2]string{"A", "B"}, Seed: 1, Stream: 2, Replicates: 500})
	require.NoError(t, err)
	assert.Equal(t, 4, c.Clusters)
	assert.Equal(t, 2, c.Repeats)
	assert.True(t, c.Balanced)
	assert.Equal(t, []string{"Q9"}, c.Excluded)
	assert.Equal(t, Float6(0.5), c.LB.MeanDiff, "B passes Q0 and Q2 only (Q3 unresolved counts 0)")
	assert.Equal(t, Float6(0.25), c.UB.MeanDiff, "Q3 unresolved counts 1")
	assert.Equal(t, EnvelopeNote, c.Note)
	total := 0
	for _, b := range c.LB.Histogram {
		total += b.Count
	}
	assert.Equal(t, 500, total)
	_, err = Compare(rs, CompareOptions{Arms: [2]string{"A", "C"}})
	assert.ErrorIs(t, err, ErrNoClusters)
}

// TestFloat6PrintsSixDecimals: figures computed in floating point print
// rounded to six decimals in JSON, so a last-bit difference between
// machines (a fused multiply-add) never reaches summary.json's bytes.
func TestFloat6PrintsSixDecimals(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
		why  string
	}{
		{0.9999999999999999, "1", "a Wilson end one ulp below 1"},
		{0.30000000000000004, "0.3", "a bin edge from repeated addition"},
		{0.8864866068260312, "0.886487", "rounded, not truncated"},
		{-0.0000001, "0", "a negative zero prints as 0"},
		{-0.25, "-0.25", "signs kept"},
		{1200, "1200", "whole numbers without a point"},
	} {
		b, err := json.Marshal(Float6(c.in))
		require.NoError(t, err, c.why)
		assert.Equal(t, c.want, string(b), c.why)
	}
	_, err := json.Marshal(Float6(math.NaN()))
	assert.Error(t, err, "NaN has no JSON number")
}

// TestExternalCitationsCountedApart: a citation of a source outside the
// corpus (external_source: a web page a run cited) is counted apart, never
// in the emitted-citation precision the frozen corpus measures.
func TestExternalCitationsCountedApart(t *testing.T) {
	r := result("A", 1, "Q01", grade.AttemptOK, "pass", "", "pass", "unresolved")
	r.Citations[1].Reason = grade.ReasonExternalSource
	b := NewBuilder()
	b.Add(&r)
	s := b.Summary(DefaultThresholds())
	g := s.Sessions[0]
	assert.Equal(t, Metric{Pass: 1, N: 1}, g.Citations.Metric, "the corpus citation only")
	assert.Equal(t, 1, g.ExternalCitations)
	assert.Equal(t, 1, s.Arms[0].ExternalCitations, "pooled over sessions")
}
