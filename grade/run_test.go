package grade

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordsInput is an Input over records built in Go, numbered as lines.
func recordsInput(file string, recs []*runs.Record) Input {
	return Input{File: file, Each: func(fn func(*runs.Record) error) error {
		for i, r := range recs {
			r.Line = i + 1
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}}
}

// runResults runs g and returns the results it wrote, those it passed to
// RunOptions.Written, and the file's bytes.
func runResults(t *testing.T, g *Grader, inputs []Input, opts RunOptions) ([]Result, []Result, []byte) {
	t.Helper()
	var buf bytes.Buffer
	var written []Result
	opts.SpillDir = t.TempDir()
	opts.Written = func(r *Result) { written = append(written, *r) }
	require.NoError(t, g.Run(inputs, &buf, opts))
	var out []Result
	if buf.Len() > 0 {
		require.NoError(t, ReadResults(bytes.NewReader(buf.Bytes()), "results.jsonl", func(_ int, r *Result) error {
			out = append(out, *r)
			return nil
		}))
	}
	return out, written, buf.Bytes()
}

func TestRunAgainstPlan(t *testing.T) {
	g := decisionGrader(t)
	p, err := plan.New(g.ref, plan.Options{Arms: []string{"A", "B"}, Repetitions: 2, Seed: 7})
	require.NoError(t, err)
	order1 := p.Orders[0].Questions
	rec := func(arm string, session int, q string) *runs.Record {
		r := attempt(q, "UNKNOWN")
		r.Arm, r.Session = arm, session
		return r
	}
	// Arm A session 1: every question but the first, in plan order except
	// the last two swapped, the third answered twice; an extra session 3;
	// an arm the plan does not have.
	var a []*runs.Record
	for i := 1; i < len(order1); i++ {
		a = append(a, rec("A", 1, order1[i]))
	}
	n := len(a)
	a[n-1], a[n-2] = a[n-2], a[n-1]
	a = append(a, rec("A", 1, order1[2]), rec("A", 3, order1[0]), rec("C", 1, order1[0]))
	// Arm B has no record: Arms asks for its planned attempts all the same.
	results, written, raw := runResults(t, g, []Input{recordsInput("a.jsonl", a)}, RunOptions{Plan: p, Workers: 3, Arms: []string{"B"}})

	planned := 0
	for range p.Sessions {
		planned += len(order1)
	}
	require.Len(t, results, planned+3, "every planned attempt once, then the duplicate and two extras")
	// Plan order: sessions as declared, questions in their repetition's order.
	k := 0
	for _, s := range p.Sessions {
		for pos, q := range p.Orders[s.Repetition-1].Questions {
			r := results[k]
			assert.Equal(t, [3]any{s.Arm, s.Repetition, q}, [3]any{r.Arm, r.Session, r.Question}, "result %d", k)
			assert.Equal(t, pos+1, r.Position)
			k++
		}
	}
	byAttempt := map[string]int{}
	for _, r := range results {
		byAttempt[r.Attempt]++
	}
	assert.Equal(t, map[string]int{AttemptOK: len(order1) - 1, AttemptMissing: planned - len(order1) + 1, AttemptDuplicate: 1, AttemptExtra: 2}, byAttempt)
	assert.Equal(t, AttemptMissing, results[0].Attempt, "the first planned question was never answered")
	dup, extra1, extra2 := results[planned], results[planned+1], results[planned+2]
	assert.Equal(t, AttemptDuplicate, dup.Attempt)
	assert.Equal(t, &Source{File: "a.jsonl", Line: n + 1}, dup.Source)
	assert.Equal(t, AttemptExtra, extra1.Attempt)
	assert.Equal(t, AttemptExtra, extra2.Attempt)
	ooo := 0
	for _, r := range results {
		if r.OutOfOrder {
			ooo++
			assert.Equal(t, order1[n-1], r.Question, "the record that came after a later one")
		}
	}
	assert.Equal(t, 1, ooo)
	// Written saw every result written, the records' in input order, then
	// the missing ones.
	key := func(r Result) string {
		return fmt.Sprintf("%s/%d/%s/%s/%v", r.Arm, r.Session, r.Question, r.Attempt, r.Source)
	}
	var inFile, seen []string
	for i := range results {
		inFile, seen = append(inFile, key(results[i])), append(seen, key(written[i]))
	}
	assert.ElementsMatch(t, inFile, seen)
	assert.Equal(t, a[0].Question, written[0].Question, "the first record's result first")
	assert.Equal(t, AttemptMissing, written[len(written)-1].Attempt, "the missing ones last")

	// The same inputs give the same bytes, whatever the parallelism.
	_, _, again := runResults(t, g, []Input{recordsInput("a.jsonl", a)}, RunOptions{Plan: p, Workers: 1, Arms: []string{"B"}})
	assert.Equal(t, string(raw), string(again))
}

// TestRunGradesItsArmsOnly: with a plan, Run writes the planned attempts
// of the arms its records hold (and of RunOptions.Arms), not of every
// planned arm; arms graded apart then hold each planned attempt once, and
// their results together are the results of grading them together.
func TestRunGradesItsArmsOnly(t *testing.T) {
	g := decisionGrader(t)
	p, err := plan.New(g.ref, plan.Options{Arms: []string{"A", "B"}, Repetitions: 2, Seed: 7})
	require.NoError(t, err)
	rec := func(arm string, session int, q string) *runs.Record {
		r := attempt(q, "UNKNOWN")
		r.Arm, r.Session = arm, session
		return r
	}
	order := p.Orders[0].Questions
	a := []*runs.Record{rec("A", 1, order[0]), rec("A", 2, order[1])}
	b := []*runs.Record{rec("B", 1, order[2]), rec("B", 3, order[0])} // the second is extra

	together, _, _ := runResults(t, g, []Input{recordsInput("a.jsonl", a), recordsInput("b.jsonl", b)}, RunOptions{Plan: p})
	onlyA, _, _ := runResults(t, g, []Input{recordsInput("a.jsonl", a)}, RunOptions{Plan: p})
	onlyB, _, _ := runResults(t, g, []Input{recordsInput("b.jsonl", b)}, RunOptions{Plan: p})
	for _, r := range onlyA {
		assert.Equal(t, "A", r.Arm, "grading arm A's run writes no attempt of arm B")
	}
	for _, r := range onlyB {
		assert.Equal(t, "B", r.Arm, "grading arm B's run writes no attempt of arm A")
	}
	key := func(rs []Result) map[string]Result {
		m := map[string]Result{}
		for _, r := range rs {
			m[fmt.Sprintf("%s/%d/%s/%s", r.Arm, r.Session, r.Question, r.Attempt)] = r
		}
		return m
	}
	apart := key(onlyA)
	for k, r := range key(onlyB) {
		_, twice := apart[k]
		require.False(t, twice, "%s graded in both", k)
		apart[k] = r
	}
	assert.Equal(t, key(together), apart, "apart equals together, result by result")
	assert.Len(t, apart, len(together))

	// An arm without records: RunOptions.Arms writes its planned attempts,
	// all missing; an arm the plan lacks is refused.
	empty, written, _ := runResults(t, g, nil, RunOptions{Plan: p, Arms: []string{"B"}})
	assert.Len(t, empty, 2*len(order), "arm B's two sessions")
	assert.Equal(t, empty, written)
	for _, r := range empty {
		assert.Equal(t, AttemptMissing, r.Attempt)
	}
	var buf bytes.Buffer
	err = g.Run(nil, &buf, RunOptions{Plan: p, Arms: []string{"C"}})
	require.ErrorIs(t, err, ErrArmNotPlanned)
	assert.Contains(t, err.Error(), `arm "C"`)
	err = g.Run(nil, &buf, RunOptions{Arms: []string{"A"}})
	require.ErrorIs(t, err, ErrArmNotPlanned, "arms without a plan")
}

func TestRunWithoutPlan(t *testing.T) {
	g := decisionGrader(t)
	recs := []*runs.Record{
		attempt("samples", "Samples: 12 samples per batch"),
		attempt("gap", "Minimum gap: at least 10 cm"),
		attempt("samples", "Samples: 12 samples per batch"),
	}
	results, written, _ := runResults(t, g, []Input{recordsInput("r.jsonl", recs)}, RunOptions{})
	require.Len(t, results, 3)
	assert.Equal(t, results, written, "without a plan, written in input order")
	assert.Equal(t, []string{AttemptOK, AttemptOK, AttemptDuplicate}, []string{results[0].Attempt, results[1].Attempt, results[2].Attempt})
	assert.Equal(t, []int{1, 2, 3}, []int{results[0].Position, results[1].Position, results[2].Position})
	assert.False(t, results[0].Frozen)
	assert.Equal(t, []CitationResult{}, results[2].Citations, "the duplicate is graded as a failure, its citations unread")
}

func TestResultPasses(t *testing.T) {
	pass, fail, unresolved := Pass, Fail, Unresolved
	answered := func(f func(r *Result)) Result {
		r := Result{Attempt: AttemptOK, Kind: KindAnswerable, Factual: &pass, Supported: &pass,
			Citations: []CitationResult{{Verdict: Pass, Reason: ReasonDeclaredSpan}}}
		if f != nil {
			f(&r)
		}
		return r
	}
	tests := []struct {
		r    Result
		want bool
		why  string
	}{
		{answered(nil), true, "an ok attempt, every verdict and citation passing"},
		{answered(func(r *Result) { r.Attempt = AttemptDuplicate }), false, "an attempt that is not ok never passes"},
		{answered(func(r *Result) { r.Supported = &unresolved }), false, "an unresolved verdict is not a pass"},
		{answered(func(r *Result) { r.Factual = nil }), false, "a verdict missing for its kind is not a pass"},
		{answered(func(r *Result) { r.Citations[0].Verdict = Unresolved }), false, "every emitted citation passes"},
		{answered(func(r *Result) {
			r.Citations = append(r.Citations, CitationResult{Verdict: Unresolved, Reason: ReasonExternalSource})
		}), false,
			"a citation outside the corpus is unresolved, counted apart"},
		{answered(func(r *Result) { r.Citations = []CitationResult{{Verdict: Fail, Reason: ReasonMissingCitation}} }), true,
			"the missing-citation entry is judged by the supported verdict, not itself"},
		{answered(func(r *Result) { r.Unread = []string{"a marker"} }), false, "citations left unread"},
		{Result{Attempt: AttemptOK, Kind: KindUnknown, Abstention: &pass, Citations: []CitationResult{}}, true, "a clean abstention"},
		{Result{Attempt: AttemptOK, Kind: KindUnknown, Abstention: &fail}, false, "a failed abstention"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.Passes(), tt.why)
	}
}

func TestRunInputErrors(t *testing.T) {
	g := decisionGrader(t)
	recs := []*runs.Record{attempt("samples", "x"), attempt("Q404", "x")}
	var buf bytes.Buffer
	err := g.Run([]Input{recordsInput("runs.jsonl", recs)}, &buf, RunOptions{})
	var ie *runs.InputError
	require.ErrorAs(t, err, &ie)
	assert.True(t, errors.Is(err, ErrUnknownQuestion))
	assert.Equal(t, "runs.jsonl", ie.File)
	assert.Equal(t, 2, ie.Line)
	assert.Contains(t, err.Error(), "runs.jsonl:2")

	// A question id in another case is offered the reference's.
	err = g.Run([]Input{recordsInput("runs.jsonl", []*runs.Record{attempt("SAMPLES", "x")})}, &buf, RunOptions{})
	require.ErrorIs(t, err, ErrUnknownQuestion)
	assert.Contains(t, err.Error(), `no such question in the reference: "SAMPLES" (did you mean "samples"?)`)

	broken := Input{File: "b.jsonl", Each: func(fn func(*runs.Record) error) error {
		return runs.EachRun(strings.NewReader(`{"arm": "A"`+"\n"), "b.jsonl", "run", fn)
	}}
	err = g.Run([]Input{broken}, &buf, RunOptions{})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 1, ie.Line)
}

// BenchmarkRun grades n attempts made from the decision bank, without a
// plan, on every core (make bench reports attempts/s).
func BenchmarkRun(b *testing.B) {
	t := &testing.T{}
	g := decisionGrader(t)
	responses := []*runs.Record{
		attempt("samples", "Samples: 12 samples per batch", cite("qa.pdf", "The supplier shall draw 12 samples per batch for dimensional checks.", 1)),
		attempt("flatness", "Maximum flatness deviation: at most 0,5 mm", cite("qa.pdf", "The flatness of plate P-220 must not exceed 0.5 mm.", 1)),
		attempt("storage", "Free storage period: the first 14 calendar days\nStorage fee: 2.50 EUR per pallet per calendar day"),
		attempt("batches", "Dispatch batches: Friday and Tuesday", cite("sop.pdf", "Export orders are consolidated into the Tuesday and Friday dispatch batches.", 0)),
	}
	const n = 10000
	in := Input{File: "bench", Each: func(fn func(*runs.Record) error) error {
		for i := range n {
			r := *responses[i%len(responses)]
			r.Session = i/len(responses) + 1
			if err := fn(&r); err != nil {
				return err
			}
		}
		return nil
	}}
	b.ResetTimer()
	for range b.N {
		if err := g.Run([]Input{in}, discard{}, RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "attempts/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
