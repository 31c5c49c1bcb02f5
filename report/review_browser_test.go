package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// download clicks the page's "download decisions" button and returns the
// file Chromium saved, through the page's Blob URL under its CSP.
func (b *browser) download(t *testing.T, dir string) []byte {
	t.Helper()
	progress := chromedp.Events(b.ctx, cdpbrowser.DownloadProgress)
	yes := true
	err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes})
		return err
	}), chromedp.Click(chromedp.CSS("#rv-download")))
	require.NoError(t, err)
	// The subscription ends with b.ctx, which the browser's 90 s bound
	// ends: a download that never completes fails the test there.
	start := time.Now()
	for ev, err := range progress {
		require.NoError(t, err, "waiting for the download")
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatal("the download was canceled: the page's CSP or the browser refused it")
		}
		if ev.State != cdpbrowser.DownloadProgressStateCompleted {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
		require.NoError(t, err)
		t.Logf("downloaded %d bytes in %v", len(data), time.Since(start).Round(time.Millisecond))
		return data
	}
	t.Fatal("no completed download")
	return nil
}

// TestReviewInBrowser reviews the demo's unresolved items in Chromium as a
// person would: the blinded view shows no arm, session or system; clicks
// give each item a verdict and one a note; "download decisions" saves the
// JSON Lines file, which applied gives the reviewed figures that the same
// decisions made here give.
func TestReviewInBrowser(t *testing.T) {
	b := newBrowser(t)
	in, set := reviewInput(t, false)
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, os.WriteFile(path, []byte(render(t, in)), 0o644))
	b.open(t, path, "")
	b.noErrors(t, "loading the report with its review mode")

	// Blinded: nothing that tells the systems apart is on screen.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#rv-blind"))))
	text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.innerText + '\n' + document.title`))
	require.NoError(t, err)
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
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel))), sel)
		}
	}
	note := fmt.Sprintf(`article[data-hash="%s"] input.rv-note`, items[0].Hash)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS(note), `the "passage" is about another batch <b>`)))
	// The name is needed first.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#rv-download"))))
	assert.True(t, b.eval(t, `document.getElementById('rv-count').textContent.indexOf('Give your name first.') === 0`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("#rv-reviewer"), "ana")))
	data := b.download(t, t.TempDir())
	b.noErrors(t, "reviewing and downloading")

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
	b := newBrowser(t)
	in := demo(t).in
	in.Review = hostileItems()
	for _, blind := range []bool{false, true} {
		in.ReviewOnly = blind
		path := filepath.Join(t.TempDir(), "hostile.html")
		require.NoError(t, os.WriteFile(path, []byte(render(t, in)), 0o644))
		b.open(t, path, "")
		if !blind {
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#rv-blind"))))
		}
		for _, sel := range []string{"button.rv-v", "#rv-download"} {
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel))))
		}
		assert.True(t, b.eval(t, `window.__pwned === undefined`), "blind %v: data ran as script", blind)
		assert.Equal(t, 0, b.evalInt(t, `document.images.length`))
		assert.True(t, b.eval(t, `Array.from(document.querySelectorAll('article.rv-item pre')).some(p => p.textContent.includes('<script>window.__pwned=1</script>'))`),
			"blind %v: the hostile text is not shown as text", blind)
		b.noErrors(t, fmt.Sprintf("the hostile review page, blind %v", blind))
	}
}
