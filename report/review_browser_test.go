package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/citecheck/citecheck/internal/testbrowser"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReviewInBrowser reviews the demo's unresolved items in Chromium as a
// person would: the blinded view shows no arm, session or system; clicks
// give each item a verdict and one a note; "download decisions" saves the
// JSON Lines file, which applied gives the reviewed figures that the same
// decisions made here give.
func TestReviewInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	in, set := reviewInput(t, false)
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, os.WriteFile(path, []byte(render(t, in)), 0o644))
	b.Open(t, path, "")
	b.NoErrors(t, "loading the report with its review mode")

	// Blinded: nothing that tells the systems apart is on screen.
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#rv-blind"))))
	text := b.EvalString(t, `document.body.innerText + '\n' + document.title`)
	for _, secret := range []string{secretArms["A"], secretArms["B"], secretModel, "session", "Session", "runs/", "demo <results>"} {
		assert.NotContains(t, text, secret, "on screen in the blinded view")
	}
	assert.Contains(t, text, "download decisions")

	// A verdict for each item: the first negative with a note, the others
	// positive; one is clicked twice (chosen, then withdrawn) and again.
	items := set.Items()
	want := map[string]string{}
	for i, it := range items {
		v := 0
		if i == 0 {
			v = 1
		}
		verdict := []string{"pass", "fail"}[v]
		if it.Kind == review.KindField {
			verdict = []string{"correct", "incorrect"}[v]
		}
		want[it.Hash] = verdict
		sel := fmt.Sprintf(`article[data-hash="%s"] button[data-v="%s"]`, it.Hash, verdict)
		clicks := 1
		if i == 1 {
			clicks = 3
		}
		for range clicks {
			require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(sel))), sel)
		}
	}
	note := fmt.Sprintf(`article[data-hash="%s"] input.rv-note`, items[0].Hash)
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS(note), `the "passage" is about another batch <b>`)))
	// The name is needed first.
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#rv-download"))))
	assert.True(t, b.Eval(t, `document.getElementById('rv-count').textContent.indexOf('Give your name first.') === 0`))
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS("#rv-reviewer"), "ana")))
	data := b.Download(t, t.TempDir(), chromedp.Click(chromedp.CSS("#rv-download")))
	b.NoErrors(t, "reviewing and downloading")

	file := filepath.Join(t.TempDir(), "decisions.jsonl")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	got, files, err := review.ReadDecisionFiles([]string{file})
	require.NoError(t, err, "%s", data)
	require.Len(t, got, len(items))
	for _, d := range got {
		assert.Equal(t, want[d.Hash], d.Verdict, d.Hash)
		assert.Equal(t, "ana", d.Reviewer)
		assert.NotEmpty(t, d.At)
	}
	assert.Equal(t, `the "passage" is about another batch <b>`, got[0].Note)

	// Applied, the file gives the figures the same decisions give.
	summary := func(ds []review.Decision, files []review.File) string {
		applied, err := set.Apply(ds)
		require.NoError(t, err)
		s := summarize(in.Results, false)
		s.AddReviewed(applied.Results, metrics.DefaultThresholds(), applied.Summary(files))
		var out bytes.Buffer
		require.NoError(t, report.WriteTable(&out, s))
		return out.String()
	}
	var mine []review.Decision
	for _, it := range items {
		mine = append(mine, review.Decision{Hash: it.Hash, Verdict: want[it.Hash], Reviewer: "ana"})
	}
	fromPage := summary(got, files)
	assert.Equal(t, summary(mine, files), fromPage)
	assert.True(t, strings.Contains(fromPage, "after review ("), fromPage)
}

// TestReviewHostileInBrowser: the review mode with hostile items loads
// with no error, runs nothing of them, and blinds.
func TestReviewHostileInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	in := demo(t).in
	in.Review = hostileItems()
	for _, blind := range []bool{false, true} {
		in.ReviewOnly = blind
		path := filepath.Join(t.TempDir(), "hostile.html")
		require.NoError(t, os.WriteFile(path, []byte(render(t, in)), 0o644))
		b.Open(t, path, "")
		if !blind {
			require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#rv-blind"))))
		}
		for _, sel := range []string{"button.rv-v", "#rv-download"} {
			require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(sel))))
		}
		assert.True(t, b.Eval(t, `window.__pwned === undefined`), "blind %v: data ran as script", blind)
		assert.Equal(t, 0, b.EvalInt(t, `document.images.length`))
		assert.True(t, b.Eval(t, `Array.from(document.querySelectorAll('article.rv-item pre')).some(p => p.textContent.includes('<script>window.__pwned=1</script>'))`),
			"blind %v: the hostile text is not shown as text", blind)
		b.NoErrors(t, fmt.Sprintf("the hostile review page, blind %v", blind))
	}
}

// TestReviewAsksBeforeLeaving: decisions live only in the page until
// downloaded, so leaving it with some unsaved asks first (a beforeunload
// dialog); once downloaded, or with nothing decided, it does not.
func TestReviewAsksBeforeLeaving(t *testing.T) {
	b := testbrowser.New(t)
	in, set := reviewInput(t, false)
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, os.WriteFile(path, []byte(render(t, in)), 0o644))
	it := set.Items()[0]
	verdict := "pass"
	if it.Kind == review.KindField {
		verdict = "correct"
	}
	decide := chromedp.Click(chromedp.CSS(fmt.Sprintf(`article[data-hash="%s"] button[data-v="%s"]`, it.Hash, verdict)))

	b.Open(t, path, "")
	b.Open(t, path, "")
	assert.Empty(t, b.Dialogs(), "nothing decided: leaving asks nothing")

	require.NoError(t, chromedp.Do(b.Ctx, decide))
	b.Open(t, path, "")
	assert.Equal(t, []string{"beforeunload"}, b.Dialogs(), "a decision not downloaded: leaving asks")

	require.NoError(t, chromedp.Do(b.Ctx, decide))
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS("#rv-reviewer"), "ana")))
	b.Download(t, t.TempDir(), chromedp.Click(chromedp.CSS("#rv-download")))
	b.Open(t, path, "")
	assert.Empty(t, b.Dialogs(), "downloaded: leaving asks nothing")
	b.NoErrors(t, "deciding, leaving and downloading")
}
