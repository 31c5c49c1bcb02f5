package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/citecheck/citecheck/internal/testbrowser"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReviewPageInBrowser: the demo's blinded review page as a reviewer
// uses it in Chromium: a click decides each item (one with a note), a
// name, "download decisions"; report --reviews on the file the page saves
// gives the figures the same decisions written by hand give, with no
// verdict left unresolved.
func TestReviewPageInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	t.Chdir("demo")
	page, err := filepath.Abs("review/review.html")
	require.NoError(t, err)
	b.Open(t, page, "")
	b.NoErrors(t, "loading the review page")

	positive := map[string]string{review.KindCitation: "pass", review.KindField: "correct", review.KindAbstention: "pass"}
	var byHand bytes.Buffer
	for i, it := range readItems(t, "review/items.jsonl") {
		sel := fmt.Sprintf(`article[data-hash="%s"] button[data-v="%s"]`, it.Hash, positive[it.Kind])
		require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(sel))), sel)
		d := review.Decision{Hash: it.Hash, Verdict: positive[it.Kind], Reviewer: "r.okafor"}
		if i == 0 {
			d.Note = "states it word for word"
			note := fmt.Sprintf(`article[data-hash="%s"] input.rv-note`, it.Hash)
			require.NoError(t, chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS(note), d.Note)))
		}
		line, err := json.Marshal(d)
		require.NoError(t, err)
		byHand.Write(append(line, '\n'))
	}
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS("#rv-reviewer"), "r.okafor")))
	saved := b.Download(t, t.TempDir(), chromedp.Click(chromedp.CSS("#rv-download")))
	b.NoErrors(t, "deciding and downloading")
	writeFile(t, "page.jsonl", string(saved))
	writeFile(t, "hand.jsonl", byHand.String())

	reviewed := func(decisions string) (groups []json.RawMessage, decided int) {
		_, errOut, code := runCLI(t, "report", "results", "--lock", "eval.lock", "--reviews", decisions, "--out", decisions+".report")
		require.Equal(t, 1, code, errOut)
		data, err := os.ReadFile(filepath.Join(decisions+".report", "summary.json"))
		require.NoError(t, err)
		var s struct {
			Sessions, Arms []struct{ Reviewed json.RawMessage }
			Reviews        struct{ Decided int }
		}
		require.NoError(t, json.Unmarshal(data, &s))
		for _, g := range append(s.Sessions, s.Arms...) {
			groups = append(groups, g.Reviewed)
		}
		return groups, s.Reviews.Decided
	}
	fromPage, decided := reviewed("page.jsonl")
	assert.Equal(t, 37, decided, "every item decided on the page")
	want, _ := reviewed("hand.jsonl")
	assert.Equal(t, want, fromPage, "the page's decisions give the figures the same decisions give")
	for _, g := range fromPage {
		type metric struct{ N, Unresolved int }
		var m struct{ Supported, Factual, Citations, Abstention metric }
		require.NoError(t, json.Unmarshal(g, &m))
		for _, x := range []metric{m.Supported, m.Factual, m.Citations, m.Abstention} {
			assert.Zero(t, x.Unresolved, "after review: %s", g)
		}
		assert.Positive(t, m.Supported.N)
	}
	assert.Contains(t, string(saved), `"note":"states it word for word"`)
}
