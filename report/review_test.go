package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The arm names and model strings the blinding tests look for: no blinded
// page may hold one.
var secretArms = map[string]string{"A": "kingy-pipeline", "B": "lmstudio-native"}

const secretModel = "gpt-4o-mini-2024-07-18"

// renamed is the demo's results with arms named as systems are and a
// model named in every place a result may carry one but its content.
func renamed(f *fixture) []grade.Result {
	out := make([]grade.Result, len(f.results))
	for i, r := range f.results {
		if name, ok := secretArms[r.Arm]; ok {
			r.Arm = name
		}
		r.StopReason = secretModel
		if r.Source != nil {
			src := *r.Source
			src.File = "runs/" + r.Arm + "-" + secretModel + ".jsonl"
			r.Source = &src
		}
		out[i] = r
	}
	return out
}

// reviewInput is the demo report's input with the arms renamed and its
// review items.
func reviewInput(t *testing.T, blind bool) (report.HTMLInput, *review.Set) {
	t.Helper()
	f := demo(t)
	in := f.in
	in.Results = renamed(f)
	in.Summary = summarize(in.Results, false)
	set, err := review.Collect(in.Results, in.Reference, in.Pages)
	require.NoError(t, err)
	in.Review = set.Items()
	if blind {
		in.Review, in.ReviewOnly = set.Blind(3), true
	}
	require.NotEmpty(t, in.Review, "the demo leaves verdicts unresolved")
	return in, set
}

var hashAttr = regexp.MustCompile(`data-hash="(blake3:[0-9a-f]{64})"`)

// TestWriteHTMLReviewMode: the review section lists every item once, by
// its hash, with the verdicts of its kind, the passage on its page, and
// where it occurs; the page stays self-contained and escaped.
func TestWriteHTMLReviewMode(t *testing.T) {
	in, set := reviewInput(t, false)
	page := render(t, in)
	checkSafe(t, page)
	var got []string
	for _, m := range hashAttr.FindAllStringSubmatch(page, -1) {
		got = append(got, m[1])
	}
	var want []string
	for _, it := range set.Items() {
		want = append(want, it.Hash)
	}
	assert.Equal(t, want, got, "every item once, in the order of Items")
	section := page[strings.Index(page, `<section id="review">`):]
	for _, s := range []string{`<input type="text" id="rv-reviewer"`, `<input type="checkbox" id="rv-blind">`, `<button type="button" id="rv-download">`,
		`data-v="pass"`, `data-v="correct"`, `data-v="incorrect"`, `<input type="text" class="rv-note"`,
		"occurs in 1 attempt: lmstudio-native/1 #", `<use href="#page-def-`, "a pass supports"} {
		assert.True(t, strings.Contains(section, s), "the review section lacks %q", s)
	}
	assert.True(t, strings.Contains(page, `<a href="#review">Review</a>`), "the page's contents link to the review")
	assert.NotContains(t, page, "<script>window.__pwned", "hostile content stays text in the review section too")
}

// TestWriteHTMLBlind: the blinded review page holds no arm name, no
// session, no model string, no run file, no result table or title: only
// the items.
func TestWriteHTMLBlind(t *testing.T) {
	in, set := reviewInput(t, true)
	in.Summary = nil // the blinded page needs none
	page := render(t, in)
	// The page's markup and data, without its own style and script.
	shown := regexp.MustCompile(`(?s)<style>.*?</style>|<script>.*?</script>`).ReplaceAllString(page, "")
	for _, secret := range []string{"kingy", "lmstudio", secretModel, "runs/", "demo &lt;results&gt;", "document_index"} {
		assert.False(t, strings.Contains(page, secret), "the blinded page holds %q", secret)
	}
	for _, word := range []string{"session", "Session", "position", `id="results"`, `id="rv-blind"`} {
		assert.False(t, strings.Contains(shown, word), "the blinded page's markup holds %q", word)
	}
	assert.Len(t, hashAttr.FindAllString(page, -1), len(set.Items()))
	assert.Equal(t, 2, strings.Count(page, "<script"), "the data block and the report's script")
	assert.Contains(t, page, "<title>citecheck report: review</title>")
	// The same items in the seed's order.
	var order []string
	for _, it := range set.Blind(3) {
		order = append(order, it.Hash)
	}
	var got []string
	for _, m := range hashAttr.FindAllStringSubmatch(page, -1) {
		got = append(got, m[1])
	}
	assert.Equal(t, order, got)
}

// TestReviewedFiguresShown: with reviews applied, the console table, the
// findings, summary.md and report.html show the figures after review
// beside the automatic ones, labelled; without, nothing changes.
func TestReviewedFiguresShown(t *testing.T) {
	f := demo(t)
	set, err := review.Collect(f.results, f.in.Reference, f.in.Pages)
	require.NoError(t, err)
	positive := map[string]string{review.KindCitation: review.VerdictPass, review.KindField: review.VerdictCorrect, review.KindAbstention: review.VerdictPass}
	var ds []review.Decision
	for _, it := range set.Items() {
		ds = append(ds, review.Decision{Hash: it.Hash, Verdict: positive[it.Kind], Reviewer: "ana"})
	}
	applied, err := set.Apply(ds)
	require.NoError(t, err)
	plain := summarize(f.results, false)
	var plainTable, plainMD bytes.Buffer
	require.NoError(t, report.WriteTable(&plainTable, plain))
	require.NoError(t, report.WriteMarkdown(&plainMD, plain))
	assert.NotContains(t, plainTable.String()+plainMD.String(), "review", "without reviews, the outputs are as before")

	s := summarize(f.results, false)
	s.AddReviewed(applied.Results, metrics.DefaultThresholds(), applied.Summary([]review.File{{Path: "d.jsonl", BLAKE3: "blake3:" + strings.Repeat("0", 64), Decisions: len(ds)}}))
	var table, md bytes.Buffer
	require.NoError(t, report.WriteTable(&table, s))
	require.NoError(t, report.WriteMarkdown(&md, s))
	assert.True(t, strings.HasPrefix(table.String(), "automatic (the rules alone):\n"+strings.SplitN(plainTable.String(), "\n", 2)[0]), table.String())
	assert.Contains(t, table.String(), "\nafter review (d.jsonl; ")
	assert.Contains(t, md.String(), "## After review")
	assert.Contains(t, md.String(), "### Sessions after review")
	assert.Contains(t, md.String(), "\nAfter review (d.jsonl; ")
	in := f.in
	in.Summary = s
	page := render(t, in)
	checkSafe(t, page)
	assert.Contains(t, page, `<span class="mr">after review: `)
	assert.Contains(t, page, `<div class="mr">after review: <span class="badge`)
}

// hostileItems are review items whose every piece of content is markup a
// model or a reference author may write: none may run, all show as text.
func hostileItems() []review.Item {
	quote := hostileScript
	page := 1
	mk := func(kind string, c review.Content) review.Item {
		c.Kind, c.Question = kind, review.Question{ID: "Q01", Text: hostileScript + " asked?"}
		return review.Item{Hash: c.Hash(), Kind: kind, Question: "Q01", Reason: hostileImg, Content: c,
			Attempts: []review.Attempt{{Arm: hostileArm, Session: 1, Position: 1, Citation: hostileSVG}}}
	}
	return []review.Item{
		mk(review.KindCitation, review.Content{Citation: &review.CitationContent{Quote: &quote, Document: hostileSVG, Page: &page,
			Located: []review.Located{}, Pages: []review.PageText{},
			Supports: []review.Claim{{Field: hostileImg, Value: hostileScript, Evidence: []review.Span{{Document: hostileSVG, Page: 1, Text: hostileScript}}}}}}),
		mk(review.KindField, review.Content{Field: &review.FieldContent{Field: hostileImg, Label: hostileSVG, Value: hostileScript,
			Values: []string{hostileImg, hostileSVG}, Target: hostileImg}}),
		mk(review.KindAbstention, review.Content{Abstention: &review.AbstentionContent{Response: hostileImg,
			Citations: []review.Cited{{Document: hostileSVG, Page: &page, Quote: &quote}}}}),
	}
}

// TestWriteHTMLReviewHostile: hostile content in review items is escaped,
// in the report's review mode and in the blinded page.
func TestWriteHTMLReviewHostile(t *testing.T) {
	in := demo(t).in
	in.Review = hostileItems()
	for _, blind := range []bool{false, true} {
		in.ReviewOnly = blind
		page := render(t, in)
		if !blind {
			checkSafe(t, page)
		}
		section := page[strings.Index(page, `<section id="review">`):]
		assert.Equal(t, 3, strings.Count(section, `<article class="rv-item"`))
		assert.False(t, scriptOpen.MatchString(section[:strings.Index(section, "</section>")]), "no script in the review section")
		for _, s := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "&lt;img src=x onerror=&#34;window.__pwned=1&#34;&gt;",
			"&lt;/svg&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;"} {
			assert.True(t, strings.Contains(section, s), "blind %v: the escaped form %q is not shown", blind, s)
		}
	}
}
