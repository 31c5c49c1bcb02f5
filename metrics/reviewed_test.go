package metrics_test

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reviewedFixture is a session of four answerable questions, two of them
// unresolved, and one unknown question left open; "after" is the same
// results as a review leaves them: every open verdict resolved, the
// answerable ones passed, the unknown one failed.
func reviewedFixture() (before, after []grade.Result) {
	o := func(s grade.Outcome) *grade.Outcome { return &s }
	for _, q := range []struct {
		id         string
		was, now   grade.Outcome
		answerable bool
	}{
		{"Q1", grade.Pass, grade.Pass, true}, {"Q2", grade.Pass, grade.Pass, true},
		{"Q3", grade.Unresolved, grade.Pass, true}, {"Q4", grade.Unresolved, grade.Pass, true},
		{"U1", grade.Unresolved, grade.Fail, false},
	} {
		for i, v := range []grade.Outcome{q.was, q.now} {
			r := grade.Result{Arm: "A", Session: 1, Question: q.id, Attempt: grade.AttemptOK, Frozen: true, Kind: grade.KindUnknown, Abstention: o(v)}
			if q.answerable {
				id := "c1"
				r.Kind, r.Abstention, r.Supported, r.Factual = grade.KindAnswerable, nil, o(v), o(v)
				r.Citations = []grade.CitationResult{{ID: &id, Verdict: v, Reason: grade.ReasonDeclaredSpan}}
			}
			if i == 0 {
				before = append(before, r)
			} else {
				after = append(after, r)
			}
		}
	}
	return before, after
}

func summaryOf(rs []grade.Result, th metrics.Thresholds) *metrics.Summary {
	b := metrics.NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	return b.Summary(th)
}

// TestAddReviewed: the reviewed figures are counted as the automatic ones
// are, each beside its group; every automatic figure stays as it was,
// byte for byte.
func TestAddReviewed(t *testing.T) {
	before, after := reviewedFixture()
	th := metrics.Thresholds{Supported: big.NewRat(9, 10), Citations: big.NewRat(9, 10), Abstention: big.NewRat(0, 1), Answerable: 4, Unknown: 1}
	plain := summaryOf(before, th)
	var want bytes.Buffer
	require.NoError(t, report.WriteJSON(&want, plain))

	s := summaryOf(before, th)
	s.AddReviewed(after, th, &metrics.Reviews{Files: []metrics.ReviewFile{}, Disagreements: []metrics.Disagreement{}, Reviewers: []string{"ana"}, Agreement: []metrics.Agreement{}})
	assert.Equal(t, metrics.FormatReviewed, s.Format)
	g := s.Sessions[0]
	require.NotNil(t, g.Reviewed)
	assert.Equal(t, metrics.Metric{Pass: 2, Unresolved: 2, N: 4}, g.Supported.Metric, "the automatic figure is kept")
	assert.Equal(t, metrics.Metric{Pass: 4, N: 4}, g.Reviewed.Supported.Metric)
	assert.Equal(t, metrics.Metric{Fail: 1, N: 1}, g.Reviewed.Abstention.Metric)
	assert.False(t, *g.Qualified, "automatically: supported lower bound 50%")
	assert.True(t, *g.Reviewed.Qualified, "after review: every bound clears its threshold")
	assert.NotNil(t, s.Arms[0].Reviewed)
	assert.Nil(t, s.Arms[0].Reviewed.Qualified, "an arm pooled is never qualified")

	// Without the reviewed parts, the bytes are the plain summary's.
	var got bytes.Buffer
	require.NoError(t, report.WriteJSON(&got, s))
	var m map[string]any
	require.NoError(t, json.Unmarshal(got.Bytes(), &m))
	delete(m, "reviews")
	m["format"] = metrics.Format
	for _, k := range []string{"sessions", "outside_plan", "arms"} {
		for _, g := range m[k].([]any) {
			delete(g.(map[string]any), "reviewed")
		}
	}
	stripped, err := json.MarshalIndent(m, "", "  ")
	require.NoError(t, err)
	var wantM map[string]any
	require.NoError(t, json.Unmarshal(want.Bytes(), &wantM))
	wantIndented, _ := json.MarshalIndent(wantM, "", "  ")
	assert.Equal(t, string(wantIndented), string(stripped))
	assert.True(t, strings.Contains(got.String(), `"reviewed": {`))
}

// TestSummarySchemaReviewed: a summary with reviews is valid format /3;
// the reviewed parts in /2, or /3 without them, are refused.
func TestSummarySchemaReviewed(t *testing.T) {
	sch, _ := summarySchema(t)
	before, after := reviewedFixture()
	th := metrics.DefaultThresholds()
	s := summaryOf(before, th)
	half := big.NewRat(1, 2)
	s.AddReviewed(after, th, &metrics.Reviews{Files: []metrics.ReviewFile{{File: "d.jsonl", BLAKE3: "blake3:" + strings.Repeat("0", 64), Decisions: 3}},
		Items: 3, Decided: 2, Undecided: 0, Reviewers: []string{"ana", "bo"},
		Disagreements: []metrics.Disagreement{{Hash: "blake3:" + strings.Repeat("1", 64), Kind: "field", Question: "Q3", Verdicts: map[string]string{"ana": "correct", "bo": "incorrect"}}},
		Agreement:     []metrics.Agreement{{Reviewers: [2]string{"ana", "bo"}, Items: 2, Agreed: 1, Share: metrics.Dec{R: half}, Kappa: metrics.Dec{}}}})
	var b bytes.Buffer
	require.NoError(t, report.WriteJSON(&b, s))
	good := b.String()
	require.NoError(t, validateSummary(t, sch, good), good)
	for _, c := range []struct {
		why  string
		edit func(m map[string]any)
	}{
		{"reviewed figures in format /2", func(m map[string]any) { m["format"] = metrics.Format }},
		{"format /3 without its reviews", func(m map[string]any) { delete(m, "reviews") }},
		{"a session without its reviewed figures", func(m map[string]any) { delete(m["sessions"].([]any)[0].(map[string]any), "reviewed") }},
		{"a reviewed arm qualified", func(m map[string]any) {
			m["arms"].([]any)[0].(map[string]any)["reviewed"].(map[string]any)["qualified"] = true
		}},
		{"a reviewed session not qualified either way", func(m map[string]any) {
			delete(m["sessions"].([]any)[0].(map[string]any)["reviewed"].(map[string]any), "qualified")
		}},
		{"a verdict no decision gives", func(m map[string]any) {
			m["reviews"].(map[string]any)["disagreements"].([]any)[0].(map[string]any)["verdicts"].(map[string]any)["ana"] = "unresolved"
		}},
	} {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(good), &m))
		c.edit(m)
		bad, err := json.Marshal(m)
		require.NoError(t, err)
		assert.Error(t, validateSummary(t, sch, string(bad)), c.why)
	}
}
