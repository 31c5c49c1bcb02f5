package review_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/review"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func collect(t *testing.T, results []grade.Result) *review.Set {
	t.Helper()
	s, err := review.Collect(results, reference(), corpusPages())
	require.NoError(t, err)
	return s
}

// itemOf finds the item of a kind and question (and field or citation id
// at its first attempt).
func itemOf(t *testing.T, items []review.Item, kind, question, where string) review.Item {
	t.Helper()
	for _, it := range items {
		if it.Kind != kind || it.Question != question {
			continue
		}
		if where == "" || len(it.Attempts) > 0 && (it.Attempts[0].Field == where || it.Attempts[0].Citation == where) {
			return it
		}
	}
	t.Fatalf("no %s item of %s %s", kind, question, where)
	return review.Item{}
}

// TestCanonicalForm pins the canonical form and its hash: a change to
// either would orphan every decision ever written.
func TestCanonicalForm(t *testing.T) {
	c := review.Content{Kind: review.KindField, Question: review.Question{ID: "Q1", Text: "How many <samples>?"},
		Field: &review.FieldContent{Field: "samples", Label: "Samples", Value: "12 samples per lot", Values: []string{}, Target: "12 samples per batch"}}
	want := `{"kind":"field","question":{"id":"Q1","text":"How many <samples>?"},"field":{"field":"samples","label":"Samples","value":"12 samples per lot","values":[],"target":"12 samples per batch"}}`
	assert.Equal(t, want, string(c.Canonical()))
	assert.Equal(t, "blake3:fb734ae6501c4633ce97a26cbf3ee7410454bb8a15d8248e24e7b21f6db64cfe", c.Hash())

	s := collect(t, evaluation())
	cit := itemOf(t, s.Items(), review.KindCitation, "Q1", "c1")
	wantCite := `{"kind":"citation","question":{"id":"Q1","text":"How many samples does the supplier draw?"},"citation":{"quote":"The supplier draws 12 samples per batch","document":"qa.pdf","page":1,` +
		`"located":[{"page":1,"start":24,"end":63,"text":"The supplier draws 12 samples per batch"}],"pages":[{"page":1,"text":` + jsonString(page1) + `}],` +
		`"supports":[{"field":"samples","value":"12 samples per batch","evidence":[{"document":"qa.pdf","page":1,"end_page":0,"start":24,"end":87,"text":"The supplier draws 12 samples per batch for dimensional checks."}]}]}}`
	assert.Equal(t, wantCite, string(cit.Content.Canonical()))
	assert.Equal(t, "blake3:200705659808af70bf514c72da0c1272733101d8f93859a30e1e09107c1ac0f8", cit.Hash)
	assert.Equal(t, cit.Content.Hash(), cit.Hash, "an item's hash is its content's")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestItemsOncePerContent: identical content in several attempts is one
// item listing each attempt; decided verdicts, failed attempts and
// citations outside the corpus are no items.
func TestItemsOncePerContent(t *testing.T) {
	s := collect(t, evaluation())
	items := s.Items()
	var got []string
	for _, it := range items {
		var where []string
		for _, a := range it.Attempts {
			where = append(where, fmt.Sprintf("%s/%d#%d%s%s", a.Arm, a.Session, a.Position, a.Citation, a.Field))
		}
		got = append(got, fmt.Sprintf("%s %s %s: %s", it.Kind, it.Question, it.Reason, strings.Join(where, " ")))
	}
	assert.Equal(t, []string{
		"citation Q1 alternate_evidence: A/1#1c1 B/1#2c1",
		"field Q1 unregistered_equivalent: A/1#1samples B/1#2samples",
		"citation Q2 joined_words: A/1#2c2 B/1#1c2",
		"abstention U1 other_decline: A/1#3",
	}, got)
	assert.Equal(t, 7, s.Verdicts(), "seven unresolved verdicts behind four items")
}

// TestHashIgnoresWhereItOccurs: arm, session, position, run file, timing,
// stop reason, native document names and the grader's wording change no
// hash.
func TestHashIgnoresWhereItOccurs(t *testing.T) {
	a := samplesResult("A", 1, 1)
	b := samplesResult("kingy-pipeline", 3, 17)
	b.Source = &grade.Source{File: "elsewhere/lmstudio.jsonl", Line: 99}
	b.StopReason, b.Frozen = "eos", false
	b.Citations[0].Cited, b.Citations[0].ID = "1741948800000 - 17.pdf", str("[1]")
	b.Citations[0].Detail = "another wording of the grader"
	fv := b.Fields["samples"]
	fv.Details, fv.Rules = []string{"other words"}, []string{"plural"}
	b.Fields["samples"] = fv
	items := collect(t, []grade.Result{a, b}).Items()
	require.Len(t, items, 2)
	for _, it := range items {
		assert.Len(t, it.Attempts, 2, "%s: one item for both attempts", it.Kind)
	}
}

// TestHashFollowsContent: every judged part changes the hash.
func TestHashFollowsContent(t *testing.T) {
	base := func() ([]grade.Result, *spans.Reference, pages) {
		return []grade.Result{samplesResult("A", 1, 1), declineResult("A", 1, 2, "I don't know.", grade.Unresolved)}, reference(), corpusPages()
	}
	hashes := func(rs []grade.Result, ref *spans.Reference, p pages) map[string]string {
		s, err := review.Collect(rs, ref, p)
		require.NoError(t, err)
		out := map[string]string{}
		for _, it := range s.Items() {
			out[it.Kind] = it.Hash
		}
		return out
	}
	rs, ref, p := base()
	want := hashes(rs, ref, p)
	for _, tc := range []struct {
		why, kind string
		edit      func(rs []grade.Result, ref *spans.Reference, p pages)
	}{
		{"the quote", review.KindCitation, func(rs []grade.Result, _ *spans.Reference, _ pages) {
			rs[0].Citations[0].Quote = str("The supplier draws 12 samples")
		}},
		{"the page given", review.KindCitation, func(rs []grade.Result, _ *spans.Reference, _ pages) { rs[0].Citations[0].Page = intp(2) }},
		{"the located passage", review.KindCitation, func(rs []grade.Result, _ *spans.Reference, _ pages) { rs[0].Citations[0].Spans[0].End-- }},
		{"the page's stored text", review.KindCitation, func(_ []grade.Result, _ *spans.Reference, p pages) {
			p["qa.pdf"][0] = strings.Replace(page1, "10 years", "12 years", 1)
		}},
		{"the declared evidence", review.KindCitation, func(_ []grade.Result, ref *spans.Reference, _ pages) {
			ref.Questions[0].EssentialClaims[0].Evidence[0].Text = "another declared text"
		}},
		{"the question's wording", review.KindCitation, func(_ []grade.Result, ref *spans.Reference, _ pages) {
			ref.Questions[0].Question = "How many samples are drawn?"
		}},
		{"the value", review.KindField, func(rs []grade.Result, _ *spans.Reference, _ pages) {
			fv := rs[0].Fields["samples"]
			fv.Value = "12 samples per lot."
			rs[0].Fields["samples"] = fv
		}},
		{"the target", review.KindField, func(rs []grade.Result, _ *spans.Reference, _ pages) {
			fv := rs[0].Fields["samples"]
			fv.Target = "twelve samples per batch"
			rs[0].Fields["samples"] = fv
		}},
		{"the response", review.KindAbstention, func(rs []grade.Result, _ *spans.Reference, _ pages) { rs[1].Response = "I do not know." }},
		{"a citation beside a decline", review.KindAbstention, func(rs []grade.Result, _ *spans.Reference, _ pages) {
			rs[1].Citations = []grade.CitationResult{cite("c1", grade.ReasonWrongFact, 1, samplesSentence)}
		}},
	} {
		rs, ref, p := base()
		p = pages{"qa.pdf": {page1, page2}}
		tc.edit(rs, ref, p)
		got := hashes(rs, ref, p)
		assert.NotEqual(t, want[tc.kind], got[tc.kind], "%s changes the %s's hash", tc.why, tc.kind)
	}
}

// TestCollectNeedsItsEvaluation: results bound to another reference or
// corpus are an input fault, never content made up.
func TestCollectNeedsItsEvaluation(t *testing.T) {
	rs := []grade.Result{samplesResult("A", 1, 1)}
	_, err := review.Collect(rs, &spans.Reference{}, corpusPages())
	assert.ErrorIs(t, err, review.ErrContent, "a question the reference lacks")
	_, err = review.Collect(rs, reference(), pages{})
	assert.ErrorIs(t, err, review.ErrContent, "a page the corpus lacks")
	assert.ErrorContains(t, err, "qa.pdf page 1, where citation c1 was located, is not in the corpus")
	short := pages{"qa.pdf": {"Supplier quality manual", page2}}
	_, err = review.Collect(rs, reference(), short)
	assert.ErrorContains(t, err, "is not on qa.pdf page 1", "a span past the page's end")
}

// decisions renders decisions as a file's lines.
func decisions(ds ...review.Decision) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, d := range ds {
		if err := enc.Encode(d); err != nil {
			panic(err)
		}
	}
	return b.String()
}

func read(t *testing.T, text, file string) []review.Decision {
	t.Helper()
	var out []review.Decision
	require.NoError(t, review.ReadDecisions(strings.NewReader(text), file, func(d review.Decision) error {
		out = append(out, d)
		return nil
	}))
	return out
}

// resolveAll decides every item of s positively, as reviewer.
func resolveAll(s *review.Set, reviewer string) []review.Decision {
	var out []review.Decision
	for _, it := range s.Items() {
		v := review.VerdictPass
		if it.Kind == review.KindField {
			v = review.VerdictCorrect
		}
		out = append(out, review.Decision{Hash: it.Hash, Verdict: v, Reviewer: reviewer, Note: "checked against the page"})
	}
	return out
}

// TestApplyResolvesAndRederives: decisions set the verdicts at every
// occurrence; the claims' support and factual and supported follow by the
// grader's rules; the results given are not changed.
func TestApplyResolvesAndRederives(t *testing.T) {
	rs := evaluation()
	before, _ := json.Marshal(rs)
	s := collect(t, rs)
	a, err := s.Apply(read(t, decisions(resolveAll(s, "ana")...), "d.jsonl"))
	require.NoError(t, err)
	after, _ := json.Marshal(rs)
	assert.JSONEq(t, string(before), string(after), "Apply leaves its results as they are")
	assert.Equal(t, 4, a.Items)
	assert.Equal(t, 4, a.Decided)
	assert.Zero(t, a.Undecided)
	for _, r := range []grade.Result{a.Results[0], a.Results[3]} {
		assert.Equal(t, grade.Correct, r.Fields["samples"].Verdict)
		assert.Equal(t, grade.Pass, r.Citations[0].Verdict)
		assert.Equal(t, grade.Pass, r.Claims[0].Supported, "a reviewed passing citation supports the claim it lists")
		assert.Equal(t, grade.Pass, *r.Factual)
		assert.Equal(t, grade.Pass, *r.Supported)
	}
	fee := a.Results[1]
	assert.Equal(t, grade.Pass, fee.Claims[1].Supported, "the waiver's reviewed citation supports the waiver")
	assert.Equal(t, grade.Unresolved, fee.Citations[2].Verdict, "a citation outside the corpus stays unresolved")
	assert.Equal(t, grade.Pass, *fee.Supported)
	assert.Equal(t, grade.Pass, *a.Results[2].Abstention)
	assert.Equal(t, grade.Pass, *a.Results[5].Abstention, "the grader's pass is the grader's")
	assert.Equal(t, grade.Fail, *a.Results[6].Supported, "a missing attempt fails after review too")
	assert.Equal(t, []string{"ana"}, a.Reviewers)
	assert.Empty(t, a.Agreement, "one reviewer: no agreement to measure")
}

// TestApplyNegative: a failed citation leaves a claim without other
// support failed; an open citation outside the corpus leaves it open.
func TestApplyNegative(t *testing.T) {
	s := collect(t, evaluation())
	items := s.Items()
	var ds []review.Decision
	for _, it := range items {
		v := review.VerdictFail
		if it.Kind == review.KindField {
			v = review.VerdictIncorrect
		}
		ds = append(ds, review.Decision{Hash: it.Hash, Verdict: v, Reviewer: "ana"})
	}
	a, err := s.Apply(ds)
	require.NoError(t, err)
	assert.Equal(t, grade.Fail, a.Results[0].Claims[0].Supported, "no citation left open: the claim fails")
	assert.Equal(t, grade.Fail, *a.Results[0].Supported)
	assert.Equal(t, grade.Unresolved, a.Results[1].Claims[1].Supported, "the citation outside the corpus is still open")
	assert.Equal(t, grade.Pass, a.Results[1].Claims[0].Supported, "a review never takes the grader's support away")
}

// TestApplyRefuses: each decision a review may not make is refused with
// its file and line, and nothing is applied.
func TestApplyRefuses(t *testing.T) {
	rs := evaluation()
	s := collect(t, rs)
	items := s.Items()
	field := itemOf(t, items, review.KindField, "Q1", "samples")
	cit := itemOf(t, items, review.KindCitation, "Q1", "c1")
	// The grader's own verdicts, by content: the passing fee citation, the
	// clean decline, the external citation.
	other, err := review.Collect([]grade.Result{feeResult("A", 1, 1), declineResult("A", 1, 2, "UNKNOWN", grade.Unresolved)}, reference(), corpusPages())
	require.NoError(t, err)
	_ = other
	feeHash := hashOfCitation(t, feeResult("A", 1, 1), 0)
	externalHash := hashOfCitation(t, feeResult("A", 1, 1), 2)
	declineHash := itemOf(t, other.Items(), review.KindAbstention, "U1", "").Hash
	stray := "blake3:" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		why  string
		d    review.Decision
		want string
	}{
		{"a hash of no item", review.Decision{Hash: stray, Verdict: "pass", Reviewer: "ana"}, "d.jsonl:2: hash: decision refused: " + stray + " matches no unresolved item"},
		{"a citation the grader passed", review.Decision{Hash: feeHash, Verdict: "fail", Reviewer: "ana"}, "is a verdict the grader decided (pass): a review resolves only what the rules left unresolved, it never overrides them"},
		{"a decline the grader passed", review.Decision{Hash: declineHash, Verdict: "fail", Reviewer: "ana"}, "is a verdict the grader decided (pass)"},
		{"a citation outside the corpus", review.Decision{Hash: externalHash, Verdict: "pass", Reviewer: "ana"}, "a citation of a source outside the corpus"},
		{"a field judged pass", review.Decision{Hash: field.Hash, Verdict: "pass", Reviewer: "ana"}, `d.jsonl:2: verdict: decision refused: "pass" is not a verdict of a field: correct or incorrect`},
		{"a citation judged correct", review.Decision{Hash: cit.Hash, Verdict: "correct", Reviewer: "ana"}, `"correct" is not a verdict of a citation: pass or fail`},
		{"a reviewer's second decision", review.Decision{Hash: field.Hash, Verdict: "correct", Reviewer: "bo"}, `d.jsonl:2: reviewer: decision refused: "bo" decided this item already, at d.jsonl:1`},
	} {
		first := review.Decision{Hash: field.Hash, Verdict: "incorrect", Reviewer: "bo"}
		_, err := s.Apply(read(t, decisions(first, tc.d), "d.jsonl"))
		require.Error(t, err, tc.why)
		assert.ErrorContains(t, err, tc.want, tc.why)
		assert.ErrorIs(t, err, review.ErrRefused, tc.why)
		assert.ErrorIs(t, err, inputerr.ErrInput, tc.why)
	}
	// Every refusal is listed, each by its line.
	var many []review.Decision
	for range 3 {
		many = append(many, review.Decision{Hash: stray, Verdict: "pass", Reviewer: "ana"})
	}
	_, err = s.Apply(read(t, decisions(many...), "d.jsonl"))
	for _, line := range []string{"d.jsonl:1:", "d.jsonl:2:", "d.jsonl:3:"} {
		assert.ErrorContains(t, err, line)
	}
}

// hashOfCitation is the hash a citation's content has, decided or not.
func hashOfCitation(t *testing.T, r grade.Result, k int) string {
	t.Helper()
	r.Citations[k].Verdict, r.Citations[k].Reason = grade.Unresolved, grade.ReasonAlternateEvidence
	s := collect(t, []grade.Result{r})
	for _, it := range s.Items() {
		if it.Kind == review.KindCitation && it.Attempts[0].Citation == *r.Citations[k].ID {
			return it.Hash
		}
	}
	t.Fatal("no such citation")
	return ""
}

// TestDisagreement: reviewers who differ leave the item unresolved and
// listed; those who agree resolve it; agreement is measured per pair.
func TestDisagreement(t *testing.T) {
	s := collect(t, evaluation())
	items := s.Items()
	ana := resolveAll(s, "ana")
	bo := resolveAll(s, "bo")
	bo[1].Verdict = review.VerdictIncorrect // the field
	a, err := s.Apply(append(ana, bo...))
	require.NoError(t, err)
	assert.Equal(t, 3, a.Decided)
	require.Len(t, a.Disagreements, 1)
	d := a.Disagreements[0]
	assert.Equal(t, items[1].Hash, d.Hash)
	assert.Equal(t, map[string]string{"ana": "correct", "bo": "incorrect"}, d.Verdicts)
	assert.Equal(t, grade.Unresolved, a.Results[0].Fields["samples"].Verdict, "a disagreement leaves the verdict open")
	assert.Equal(t, grade.Unresolved, *a.Results[0].Factual)
	require.Len(t, a.Agreement, 1)
	ag := a.Agreement[0]
	assert.Equal(t, [2]string{"ana", "bo"}, ag.Reviewers)
	assert.Equal(t, 4, ag.Items)
	assert.Equal(t, 3, ag.Agreed)
	assert.Equal(t, "3/4", ag.Share.R.RatString())
	// ana: 4 positive; bo: 3 of 4: p_e = 1*3/4 + 0*1/4 = 3/4, p_o = 3/4: kappa 0.
	assert.Equal(t, "0", ag.Kappa.R.RatString())
}

// TestKappaVector: Cohen's kappa against a vector computed by hand. Ten
// items: both positive 4, both negative 3, A positive and B negative 2, A
// negative and B positive 1. p_o = 7/10; p_a = 6/10, p_b = 5/10; p_e =
// 6/10*5/10 + 4/10*5/10 = 1/2; kappa = (7/10 - 1/2) / (1/2) = 2/5.
func TestKappaVector(t *testing.T) {
	var a, b []bool
	for _, c := range []struct {
		x, y bool
		n    int
	}{{true, true, 4}, {false, false, 3}, {true, false, 2}, {false, true, 1}} {
		for range c.n {
			a, b = append(a, c.x), append(b, c.y)
		}
	}
	agreed, share, kappa := review.Kappa(a, b)
	assert.Equal(t, 7, agreed)
	assert.Equal(t, "7/10", share.RatString())
	assert.Equal(t, "2/5", kappa.RatString())
	for _, tc := range []struct {
		why   string
		a, b  []bool
		kappa string // "" for undefined
	}{
		{"perfect agreement on both verdicts is 1", []bool{true, false, true}, []bool{true, false, true}, "1"},
		{"complete disagreement on a balanced table is -1", []bool{true, false}, []bool{false, true}, "-1"},
		{"one verdict throughout from both is undefined", []bool{true, true}, []bool{true, true}, ""},
	} {
		_, _, k := review.Kappa(tc.a, tc.b)
		if tc.kappa == "" {
			assert.Nil(t, k, tc.why)
		} else {
			require.NotNil(t, k, tc.why)
			assert.Equal(t, tc.kappa, k.RatString(), tc.why)
		}
	}
	_, share, kappa = review.Kappa(nil, nil)
	assert.Nil(t, share)
	assert.Nil(t, kappa)
}

// TestBlind: blinded items carry nothing that tells the systems apart,
// and their order is a function of the items and the seed.
func TestBlind(t *testing.T) {
	rs := evaluation()
	for i := range rs {
		rs[i].Arm = map[string]string{"A": "kingy-pipeline", "B": "lmstudio-native"}[rs[i].Arm]
		rs[i].StopReason = "gpt-4o-mini-2024-07-18"
		if rs[i].Source != nil {
			rs[i].Source.File = "runs/" + rs[i].Arm + ".jsonl"
		}
	}
	s := collect(t, rs)
	blind, err := json.Marshal(s.Blind(7))
	require.NoError(t, err)
	for _, secret := range []string{"kingy", "lmstudio", "gpt-4o", `"arm"`, `"session"`, `"position"`, "document_index", `"attempts"`} {
		assert.NotContains(t, string(blind), secret)
	}
	again, _ := json.Marshal(s.Blind(7))
	assert.Equal(t, string(blind), string(again), "the same seed, the same order")
	var orders []string
	for seed := range uint64(8) {
		var hs []string
		for _, it := range s.Blind(seed) {
			hs = append(hs, it.Hash[7:11])
		}
		orders = append(orders, strings.Join(hs, " "))
	}
	distinct := map[string]bool{}
	for _, o := range orders {
		distinct[o] = true
	}
	assert.Greater(t, len(distinct), 1, "seeds shuffle: %v", orders)
	reordered := append([]grade.Result{rs[3], rs[4]}, rs...)
	b2, _ := json.Marshal(collect(t, reordered).Blind(7))
	assert.Equal(t, string(blind), string(b2), "the order does not depend on the results' order")
}

// TestReadDecisions: the strict reader, one case per fault.
func TestReadDecisions(t *testing.T) {
	h := "blake3:" + strings.Repeat("0f", 32)
	good := `{"hash":"` + h + `","verdict":"pass","reviewer":"ana","note":"the passage states it","at":"2026-12-02T10:04:05Z"}`
	ds := read(t, good+"\n\n"+strings.Replace(good, `"ana"`, `"bo"`, 1)+"\n", "d.jsonl")
	require.Len(t, ds, 2)
	assert.Equal(t, review.Decision{Hash: h, Verdict: "pass", Reviewer: "ana", Note: "the passage states it", At: "2026-12-02T10:04:05Z", File: "d.jsonl", Line: 1}, ds[0])
	assert.Equal(t, 3, ds[1].Line, "blank lines are skipped, lines still counted")
	for _, tc := range []struct{ in, want, why string }{
		{"", "d.jsonl: no decisions in d.jsonl", "a file with no decision decides nothing: say so"},
		{"[]", "d.jsonl:1", "a line is one object"},
		{`{"hash":`, "d.jsonl:1", "truncated JSON"},
		{strings.Replace(good, `"note"`, `"Note"`, 1), "d.jsonl:1: Note: unknown key", "keys are matched exactly"},
		{strings.Replace(good, `"at"`, `"when"`, 1), "d.jsonl:1: when: unknown key", "an unknown key"},
		{strings.Replace(good, `"verdict":"pass",`, `"verdict":"pass","verdict":"fail",`, 1), "duplicate key", "two verdicts on one line"},
		{strings.Replace(good, `"reviewer":"ana",`, ``, 1), "d.jsonl:1: reviewer: invalid decision: missing required field", "who decided is required"},
		{strings.Replace(good, `"verdict":"pass"`, `"verdict":true`, 1), "d.jsonl:1: verdict: invalid decision: expected string, found JSON boolean", "a type fault"},
		{strings.Replace(good, h, strings.ToUpper(h), 1), "d.jsonl:1: hash: invalid decision", "hashes are lower-case hex"},
		{strings.Replace(good, h, h[:20], 1), "want \"blake3:\" and 64 lower-case hex digits", "a short hash"},
		{strings.Replace(good, `"pass"`, `"unresolved"`, 1), "d.jsonl:1: verdict: invalid decision: \"unresolved\"", "a review decides: unresolved is no decision"},
		{strings.Replace(good, `"ana"`, `""`, 1), "reviewer: invalid decision: empty", "a decision names its reviewer"},
		{strings.Replace(good, `"ana"`, `" ana"`, 1), "white space around the name", "a padded name would be another reviewer"},
		{strings.Replace(good, `"ana"`, `"an\ta"`, 1), "a control character", "control characters in a name"},
		{strings.Replace(good, `"ana"`, `"`+strings.Repeat("a", 257)+`"`, 1), "longer than 256 bytes", "a name too long"},
		{strings.Replace(good, "2026-12-02T10:04:05Z", "yesterday", 1), "d.jsonl:1: at: invalid decision: \"yesterday\": not an RFC 3339 time", "a timestamp that is none"},
		{"\xff" + good, "d.jsonl:1: invalid UTF-8", "invalid UTF-8"},
		{good + "\n" + strings.Repeat(" ", review.MaxDecisionBytes+1), "d.jsonl:2: input exceeds the size limit", "a line too long"},
	} {
		err := review.ReadDecisions(strings.NewReader(tc.in), "d.jsonl", func(review.Decision) error { return nil })
		require.Error(t, err, tc.why)
		assert.ErrorContains(t, err, tc.want, tc.why)
		var ie *inputerr.Error
		assert.True(t, errors.As(err, &ie), "%s: an *inputerr.Error", tc.why)
	}
}

// TestSupportsNarrowed: a citation that contains no declared span supports
// the claims whose value its quote holds, else every claim; a review's
// pass reaches those claims only.
func TestSupportsNarrowed(t *testing.T) {
	r := feeResult("A", 1, 1)
	r.Claims = []grade.ClaimResult{{Field: "fee", Supported: grade.Unresolved}, {Field: "waiver", Supported: grade.Unresolved}}
	r.Citations = []grade.CitationResult{
		{ID: str("c1"), Verdict: grade.Unresolved, Reason: grade.ReasonAmbiguousDocumentMapping, Quote: str("A handling fee of  EUR 150 per complaint"), Page: intp(2)},
		{ID: str("c2"), Verdict: grade.Unresolved, Reason: grade.ReasonNoQuote, Page: intp(2)},
	}
	s := collect(t, []grade.Result{r})
	items := s.Items()
	require.Len(t, items, 2)
	fields := func(it review.Item) []string {
		var out []string
		for _, c := range it.Content.Citation.Supports {
			out = append(out, c.Field)
		}
		return out
	}
	assert.Equal(t, []string{"fee"}, fields(items[0]), "the quote holds the fee's value, in other spacing and case")
	assert.Equal(t, []string{"fee", "waiver"}, fields(items[1]), "no quote: every claim")
	a, err := s.Apply([]review.Decision{{Hash: items[0].Hash, Verdict: "pass", Reviewer: "ana"}})
	require.NoError(t, err)
	assert.Equal(t, grade.Pass, a.Results[0].Claims[0].Supported)
	assert.Equal(t, grade.Unresolved, a.Results[0].Claims[1].Supported, "the waiver is not what the passed citation supports, and c2 is still open")
}
