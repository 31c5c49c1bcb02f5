package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/testbrowser"
	"github.com/citecheck/citecheck/report"
)

// textOnly hides a PageSource's glyph boxes, as a corpus of imported text
// has none.
type textOnly struct{ report.PageSource }

func (textOnly) Boxes(string, int) ([]corpus.GlyphBox, bool) { return nil, false }

// jsString quotes s for a script.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "<", `\x3c`).Replace(s) + "'"
}

// setFilter chooses a filter's option and fires its change event.
func setFilter(t *testing.T, b *testbrowser.Browser, id, value string) {
	t.Helper()
	js := fmt.Sprintf(`(function(){const s=document.getElementById(%s); s.value=%s; if (s.value!==%s) return false; s.dispatchEvent(new Event('change')); return true})()`,
		jsString(id), jsString(value), jsString(value))
	if !b.Eval(t, js) {
		t.Fatalf("filter %s has no option %q", id, value)
	}
}

// setHash follows a deep link in the loaded page and waits until the
// report's hashchange listener has run (10 s at most: a loaded machine
// starved chromium past 2 s once in make test).
func setHash(t *testing.T, b *testbrowser.Browser, id string) {
	t.Helper()
	js := fmt.Sprintf(`new Promise(done => {
		const timer = setTimeout(() => done(false), 10000);
		addEventListener('hashchange', () => setTimeout(() => { clearTimeout(timer); done(true) }, 0), {once: true});
		location.hash = encodeURIComponent(%s);
	})`, jsString(id))
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
	if err != nil || !v {
		t.Fatalf("#%s: no hashchange (%v)", id, err)
	}
}

const visibleRows = `Array.from(document.querySelectorAll('tr.res')).filter(r => r.getClientRects().length > 0).length`

// repoRoot is the module root, where bin/ is.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

func headline(r *grade.Result) string {
	o := r.Supported
	if r.Kind == grade.KindUnknown {
		o = r.Abstention
	}
	if o == nil {
		return "fail"
	}
	return string(*o)
}

// TestHTMLInBrowser opens the demo report in headless Chromium from
// file://: it renders with no console error or exception, the hostile
// response runs nothing and shows as text, the filters hide and show the
// right rows and citations, deep links open the right citation and
// question; a screenshot goes to bin/report.png. It skips only when no
// Chromium binary is found.
func TestHTMLInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	f := demo(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(render(t, f.in)), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Open(t, path, "")
	b.NoErrors(t, "loading the demo report")

	t.Run("hostile", func(t *testing.T) {
		if !b.Eval(t, `window.__pwned === undefined`) {
			t.Errorf("window.__pwned is set: data ran as script")
		}
		if n := b.EvalInt(t, `document.scripts.length`); n != 2 {
			t.Errorf("%d script elements, want 2", n)
		}
		if n := b.EvalInt(t, `document.images.length`); n != 0 {
			t.Errorf("%d images, want none", n)
		}
		for _, s := range []string{hostileScript, hostileImg, hostileSVG} {
			js := fmt.Sprintf(`Array.from(document.querySelectorAll('pre.response')).some(p => p.textContent.includes(%s))`, jsString(s))
			if !b.Eval(t, js) {
				t.Errorf("the response text %q is not shown as text", s)
			}
		}
		if !b.Eval(t, fmt.Sprintf(`Array.from(document.querySelectorAll('tr.res td')).some(td => td.textContent === %s)`, jsString(hostileArm))) {
			t.Errorf("the hostile arm name is not shown as text")
		}
		// Open the hostile citation: its id is data too.
		id := `Q02/B/2/c1"><script>window.__pwned=1</script>`
		setHash(t, b, id)
		if !b.Eval(t, fmt.Sprintf(`(function(){const el = document.getElementById(%s); return !!el && el.open})()`, jsString(id))) {
			t.Errorf("the hostile citation's deep link does not open it")
		}
		if !b.Eval(t, `window.__pwned === undefined`) {
			t.Errorf("window.__pwned is set after opening the hostile attempt")
		}
		b.NoErrors(t, "opening the hostile attempt")
	})

	t.Run("filters", func(t *testing.T) {
		want := map[string]int{}
		for i := range f.results {
			want[headline(&f.results[i])]++
		}
		if n := b.EvalInt(t, visibleRows); n != len(f.results) {
			t.Fatalf("%d rows shown before filtering, want %d", n, len(f.results))
		}
		for _, v := range []string{"fail", "pass", "unresolved"} {
			setFilter(t, b, "f-verdict", v)
			if n := b.EvalInt(t, visibleRows); n != want[v] {
				t.Errorf("verdict %s: %d rows shown, want %d", v, n, want[v])
			}
			cards := `Array.from(document.querySelectorAll('article.attempt')).filter(a => !a.closest('[hidden]')).map(a => a.dataset.v)`
			if !b.Eval(t, fmt.Sprintf(`%s.every(x => x === %s)`, cards, jsString(v))) {
				t.Errorf("verdict %s: an attempt of another verdict is shown", v)
			}
			if n := b.EvalInt(t, cards+".length"); n != want[v] {
				t.Errorf("verdict %s: %d attempts shown, want %d", v, n, want[v])
			}
		}
		setFilter(t, b, "f-verdict", "")
		// A citation reason: the results carrying it, and in them only
		// the citations with it.
		reason, n := "", 0
		for _, r := range f.results {
			for _, c := range r.Citations {
				if c.Verdict != grade.Pass && c.Reason != grade.ReasonMissingCitation {
					reason = string(c.Reason)
				}
			}
			if reason != "" {
				break
			}
		}
		if reason == "" {
			t.Fatal("the demo has no failing citation")
		}
		for _, r := range f.results {
			for _, c := range r.Citations {
				if string(c.Reason) == reason {
					n++
					break
				}
			}
		}
		setFilter(t, b, "f-reason", "citation:"+reason)
		if got := b.EvalInt(t, visibleRows); got != n {
			t.Errorf("reason %s: %d rows shown, want %d", reason, got, n)
		}
		shownCites := `Array.from(document.querySelectorAll('details.cite')).filter(c => !c.closest('[hidden]'))`
		if !b.Eval(t, fmt.Sprintf(`%s.every(c => c.querySelector('summary code').textContent === %s)`, shownCites, jsString(reason))) {
			t.Errorf("reason %s: a citation with another reason is shown", reason)
		}
		if b.EvalInt(t, shownCites+".length") < n {
			t.Errorf("reason %s: fewer citations shown than results", reason)
		}
		// Arm B's failing citations, then everything again.
		setFilter(t, b, "f-reason", "")
		setFilter(t, b, "f-arm", "B")
		setFilter(t, b, "f-cverdict", "fail")
		wantB := 0
		for _, r := range f.results {
			for _, c := range r.Citations {
				if r.Arm == "B" && c.Verdict == grade.Fail {
					wantB++
					break
				}
			}
		}
		if got := b.EvalInt(t, visibleRows); got != wantB {
			t.Errorf("arm B, failing citations: %d rows shown, want %d", got, wantB)
		}
		if !b.Eval(t, shownCites+`.every(c => c.dataset.v === 'fail')`) {
			t.Errorf("arm B, failing citations: a citation that does not fail is shown")
		}
		if !b.Eval(t, `(function(){document.getElementById('f-reset').click(); return true})()`) {
			t.Fatal("reset")
		}
		if got := b.EvalInt(t, visibleRows); got != len(f.results) {
			t.Errorf("after clearing the filters %d rows shown, want %d", got, len(f.results))
		}
		b.NoErrors(t, "filtering")
	})

	ids := citationIDs(f)
	target := ids[0]
	t.Run("deep links", func(t *testing.T) {
		b.Open(t, path, target)
		js := fmt.Sprintf(`(function(){const el = document.getElementById(%s); if (!el || !el.open) return false;
			const q = el.closest('details.question'); const r = el.getBoundingClientRect();
			return q.open && r.top >= 0 && r.top < innerHeight && el.classList.contains('target')})()`, jsString(target))
		if !b.Eval(t, js) {
			t.Errorf("#%s does not open and show that citation", target)
		}
		if n := b.EvalInt(t, `document.querySelectorAll('details.cite[open]').length`); n != 1 {
			t.Errorf("%d citations open, want 1", n)
		}
		// A question, by hashchange.
		q := strings.SplitN(target, "/", 2)[0]
		other := ""
		for _, r := range f.results {
			if r.Question != q {
				other = r.Question
				break
			}
		}
		setHash(t, b, other)
		if !b.Eval(t, fmt.Sprintf(`(function(){const el = document.getElementById(%s); const r = el.getBoundingClientRect(); return el.open && r.top >= 0 && r.top < innerHeight})()`, jsString(other))) {
			t.Errorf("#%s does not open that question", other)
		}
		// A citation hidden by a filter: the filters are cleared.
		var failing string
		for _, r := range f.results {
			for _, c := range r.Citations {
				if c.ID != nil && c.Verdict == grade.Fail && failing == "" && r.Question != q {
					failing = fmt.Sprintf("%s/%s/%d/%s", r.Question, r.Arm, r.Session, *c.ID)
				}
			}
		}
		setFilter(t, b, "f-cverdict", "pass")
		setHash(t, b, failing)
		if !b.Eval(t, fmt.Sprintf(`(function(){const el = document.getElementById(%s);
			return el.open && el.getClientRects().length > 0 && document.getElementById('f-cverdict').value === ''})()`, jsString(failing))) {
			t.Errorf("#%s, hidden by a filter, is not opened", failing)
		}
		b.NoErrors(t, "deep links")
	})

	t.Run("screenshot", func(t *testing.T) {
		// The first citation open.
		b.Open(t, path, target)
		// Chromium skips drawing content-visibility:auto parts outside the
		// viewport, even in a full-page capture: draw them all.
		if !b.Eval(t, `(function(){document.querySelectorAll('div.scroll, details.question').forEach(e => { e.style.contentVisibility = 'visible' }); window.scrollTo(0, 0); return true})()`) {
			t.Fatal("content-visibility")
		}
		png, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(repoRoot(t), "bin")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "report.png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes): the demo report, #%s open", out, len(png), target)
		b.NoErrors(t, "screenshot")
	})

	// The text view, for pages without glyph boxes (imported text).
	t.Run("text view", func(t *testing.T) {
		in := f.in
		in.Pages = textOnly{f.in.Pages}
		p := filepath.Join(t.TempDir(), "text.html")
		if err := os.WriteFile(p, []byte(render(t, in)), 0o644); err != nil {
			t.Fatal(err)
		}
		id := ids[0]
		b.Open(t, p, id)
		js := fmt.Sprintf(`(function(){const el = document.getElementById(%s); const pre = el && el.querySelector('pre.textview');
			if (!el.open || !pre) return false; const m = pre.querySelector('mark.loc'); const pr = pre.getBoundingClientRect(), mr = m.getBoundingClientRect();
			return mr.top >= pr.top && mr.bottom <= pr.bottom + 1})()`, jsString(id))
		if !b.Eval(t, js) {
			t.Errorf("#%s: the text view does not show its marked span", id)
		}
		b.NoErrors(t, "the text view")
	})
}

// scaleResults makes an evaluation of 1,200 attempts from the demo's
// planned results: arms A and B, 15 sessions each, 40 questions per
// session (the demo's six, renamed Q01.0 ... Q04.6), each attempt a copy
// of the demo's attempt at that arm, repetition and question.
func scaleResults(f *fixture) []grade.Result {
	type key struct {
		arm      string
		session  int
		question string
	}
	planned := map[key]grade.Result{}
	for _, r := range f.results {
		if r.Attempt != grade.AttemptDuplicate && r.Attempt != grade.AttemptExtra {
			planned[key{r.Arm, r.Session, r.Question}] = r
		}
	}
	var out []grade.Result
	for _, arm := range []string{"A", "B"} {
		for s := 1; s <= 15; s++ {
			for j := range 40 {
				r := planned[key{arm, (s-1)%3 + 1, fmt.Sprintf("Q%02d", j%6+1)}]
				r.Question = fmt.Sprintf("%s.%d", r.Question, j/6)
				r.Session, r.Position = s, j+1
				out = append(out, r)
			}
		}
	}
	return out
}

// TestHTMLScale measures (and reports, not asserts) the size of the
// report of 1,200 attempts and the time Chromium takes to load it.
func TestHTMLScale(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	f := demo(t)
	results := scaleResults(f)
	in := f.in
	in.Results, in.Summary = results, summarize(results, true)
	start := time.Now()
	page := render(t, in)
	renderTook := time.Since(start)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	citations := 0
	for _, r := range results {
		citations += len(r.Citations)
	}
	t.Logf("%d attempts, %d citations: report.html %d bytes (%.1f MB), rendered in %v", len(results), citations, len(page), float64(len(page))/1e6, renderTook.Round(time.Millisecond))
	if _, ok := testbrowser.ChromiumPath(); !ok {
		t.Skip("no chromium binary found: load time not measured")
	}
	b := testbrowser.New(t)
	for i := range 2 {
		took := b.Open(t, path, "")
		load := b.EvalFloat(t, `performance.getEntriesByType('navigation')[0].loadEventEnd`)
		dcl := b.EvalFloat(t, `performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`)
		filter := b.EvalFloat(t, `(function(){const s = document.getElementById('f-verdict'); const t0 = performance.now(); s.value = 'fail'; s.dispatchEvent(new Event('change')); document.body.offsetHeight; return performance.now() - t0})()`)
		t.Logf("load %d: navigate returned after %v; DOMContentLoaded %.0f ms, load event end %.0f ms after navigation start; one filter change %.0f ms",
			i+1, took.Round(time.Millisecond), dcl, load, filter)
	}
	b.NoErrors(t, "loading 1,200 attempts")
}
