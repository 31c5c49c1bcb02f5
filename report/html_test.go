package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
)

// TestMain lets the test binary serve as the extraction child, so the demo
// report shows the pages citecheck's real, isolated extractor stores for
// the fixture PDFs, glyph boxes included.
func TestMain(m *testing.M) { testcorpus.Main(m) }

// The hostile strings a model may answer with: none may run, all must show
// as text.
const (
	hostileScript = `<script>window.__pwned=1</script>`
	hostileImg    = `<img src=x onerror="window.__pwned=1">`
	hostileSVG    = `</svg><script>window.__pwned=1</script>`
	hostileArm    = `<img src=x onerror=window.__pwned=1>`
)

// hostileRuns are run records graded with the demo: a planned attempt
// whose response and citation carry the hostile strings, and an extra
// record from an arm whose name is markup.
func hostileRuns() string {
	resp := "Sample size: 32 parts " + hostileScript + "\nRejection rule: " + hostileImg + "\n" + hostileSVG + "\n  indented & <b>bold</b>"
	recs := []map[string]any{
		{"arm": "B", "session": 2, "question": "Q02", "status": "ok", "stop_reason": "eos", "response": resp,
			"citations": []map[string]any{
				{"id": `c1"><script>window.__pwned=1</script>`, "document": "supplier-policy.pdf", "page": 2, "quote": hostileSVG + " The sample size is 32 parts"},
				{"id": "c2", "document": "supplier-policy.pdf", "page": 2, "quote": "A batch is rejected when more than 2 sampled parts are nonconforming."},
				{"id": "c3", "document": hostileSVG, "page": 1, "quote": hostileScript},
			},
			"timing": map[string]any{"total_ms": 1200}},
		{"arm": hostileArm, "session": 1, "question": "Q01", "status": "ok", "stop_reason": hostileScript, "response": hostileImg,
			"citations": []map[string]any{{"id": "c1", "document": hostileSVG, "page": 1, "quote": hostileScript}}},
	}
	var b strings.Builder
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

type fixture struct {
	in      report.HTMLInput
	store   *corpus.Store
	dir     string // the corpus folder
	results []grade.Result
}

var (
	demoOnce sync.Once
	demoFix  *fixture
	demoErr  error
)

// demo grades the fixture run (fixtures.GradedRun) and the hostile records
// against the demo PDFs' corpus, the embedded reference and plan, as
// "citecheck demo" does, and reads the results back as "citecheck report"
// does: 36 planned attempts, missing ones included, over arms A and B, with
// glyph boxes for every page.
func demo(t testing.TB) *fixture {
	t.Helper()
	demoOnce.Do(func() {
		dir, err := testcorpus.TempDir("report-test-")
		if err != nil {
			demoErr = err
			return
		}
		demoFix, demoErr = buildDemo(dir)
	})
	if demoErr != nil {
		t.Fatalf("building the demo report: %v", demoErr)
	}
	return demoFix
}

func buildDemo(dir string) (*fixture, error) {
	cdir, _, err := testcorpus.Build(dir, fixtures.Demo(), testcorpus.Options{})
	if err != nil {
		return nil, err
	}
	store, err := corpus.Open(cdir)
	if err != nil {
		return nil, err
	}
	ref, err := spans.Decode(fixtures.Reference(), fixtures.ReferenceName)
	if err != nil {
		return nil, err
	}
	pl, err := plan.Decode(fixtures.Plan(), fixtures.PlanName)
	if err != nil {
		return nil, err
	}
	recs := string(fixtures.GradedRun()) + hostileRuns()
	results, err := gradeRuns(store, ref, pl, recs, dir)
	if err != nil {
		return nil, err
	}
	sum := summarize(results, true)
	return &fixture{store: store, dir: cdir, results: results,
		in: report.HTMLInput{Summary: sum, Results: results, Pages: report.StorePages(store), Reference: ref, Title: "demo <results>"}}, nil
}

// gradeRuns grades run records as "citecheck grade" does and reads
// results.jsonl back with grade.ReadResults.
func gradeRuns(store *corpus.Store, ref *spans.Reference, pl *plan.Plan, recs, spill string) ([]grade.Result, error) {
	ix, err := citations.NewIndex(store, citations.Options{})
	if err != nil {
		return nil, err
	}
	g, err := grade.New(ix, ref, false)
	if err != nil {
		return nil, err
	}
	in := grade.Input{File: "runs.jsonl", Each: func(fn func(*runs.Record) error) error {
		return runs.EachRun(strings.NewReader(recs), "runs.jsonl", "run", fn)
	}}
	var out bytes.Buffer
	if err := g.Run([]grade.Input{in}, &out, grade.RunOptions{Plan: pl, SpillDir: spill}); err != nil {
		return nil, err
	}
	var results []grade.Result
	err = grade.ReadResults(&out, "results.jsonl", func(_ int, r *grade.Result) error {
		results = append(results, *r)
		return nil
	})
	return results, err
}

// summarize builds the summary as "citecheck report" does, with the
// comparison of arms A and B when asked.
func summarize(results []grade.Result, compare bool) *metrics.Summary {
	b := metrics.NewBuilder()
	for i := range results {
		b.Add(&results[i])
	}
	s := b.Summary(metrics.DefaultThresholds())
	if compare {
		c, err := metrics.Compare(results, metrics.CompareOptions{Arms: [2]string{"A", "B"}, Seed: 20240601, Stream: 1, Replicates: 2000})
		if err == nil {
			s.Comparison = c
		}
	}
	return s
}

// examples grades the worked examples of ../shared/grading (imported page
// texts: no glyph boxes) without a plan: one arm per case.
func examples(t testing.TB) *fixture {
	t.Helper()
	shared := shareddata.Path(t, "grading")
	dir := t.TempDir()
	cdir := filepath.Join(dir, "corpus")
	if _, err := ingest.ImportText(cdir, []string{filepath.Join(shared, "pages")}, ingest.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	store, err := corpus.Open(cdir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := spans.ReadFile(filepath.Join(shared, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := os.ReadFile(filepath.Join(shared, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := gradeRuns(store, ref, nil, string(recs), dir)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{store: store, dir: cdir, results: results,
		in: report.HTMLInput{Summary: summarize(results, false), Results: results, Pages: report.StorePages(store), Reference: ref, Title: "worked examples"}}
}

func render(t testing.TB, in report.HTMLInput) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteHTML(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWriteHTMLDeterministic: the same input gives the same bytes, and
// rendering does not change the input.
func TestWriteHTMLDeterministic(t *testing.T) {
	f := demo(t)
	before, _ := json.Marshal(f.results)
	a := render(t, f.in)
	for range 3 {
		if b := render(t, f.in); a != b {
			t.Fatalf("two renders of the demo differ")
		}
	}
	after, _ := json.Marshal(f.results)
	if !bytes.Equal(before, after) {
		t.Errorf("WriteHTML changed its results")
	}
	// A fresh PageSource reads the same pages.
	in := f.in
	in.Pages = report.StorePages(f.store)
	if b := render(t, in); a != b {
		t.Errorf("a new PageSource renders other bytes")
	}
}

var (
	scriptOpen = regexp.MustCompile(`(?i)<script`)
	styleRe    = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
	scriptRe   = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	dataRe     = regexp.MustCompile(`(?s)<script id="report-data" type="application/json">(.*?)</script>`)
	cspRe      = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
)

// allowedTags are the elements the report writes; data never adds one.
var allowedTags = map[string]bool{"html": true, "head": true, "meta": true, "link": true, "title": true, "style": true,
	"body": true, "header": true, "h1": true, "h2": true, "h3": true, "h4": true, "p": true, "nav": true, "a": true, "main": true,
	"div": true, "strong": true, "ul": true, "li": true, "section": true, "table": true, "thead": true, "tbody": true, "tr": true,
	"th": true, "td": true, "code": true, "svg": true, "rect": true, "line": true, "text": true, "figure": true,
	"figcaption": true, "select": true, "option": true, "label": true, "button": true, "span": true, "details": true,
	"summary": true, "article": true, "pre": true, "dl": true, "dt": true, "dd": true, "mark": true, "use": true, "defs": true,
	"g": true, "script": true, "input": true}

var (
	tagRe  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*/?>`)
	attrRe = regexp.MustCompile(`\s+([^\s=>]+)(?:="([^"]*)")?`)
)

// checkSafe checks a rendered report's escaping and self-containment:
// every "<" starts an element the report writes (escaped text has none),
// exactly the report's two script blocks, no event handler or source
// attribute, links only to fragments, and a CSP allowing the inline style
// and script by their hashes only.
func checkSafe(t *testing.T, page string) {
	t.Helper()
	if n := len(scriptOpen.FindAllString(page, -1)); n != 2 {
		t.Errorf("%d <script openings, want 2 (the data block and the report's script)", n)
	}
	body := regexp.MustCompile(`(?s)<style>.*?</style>|<script>.*?</script>|<script id="report-data" type="application/json">.*?</script>`).ReplaceAllString(page, "")
	tags := 0
	for i := 0; i < len(body); i++ {
		if body[i] != '<' {
			continue
		}
		rest := body[i:]
		if strings.HasPrefix(rest, "</") || strings.HasPrefix(rest, "<!DOCTYPE html>") {
			continue
		}
		m := tagRe.FindStringSubmatch(rest)
		if m == nil || !strings.HasPrefix(rest, m[0]) || !allowedTags[strings.ToLower(m[1])] {
			t.Errorf("markup the report does not write: %.120q", rest)
			continue
		}
		tags++
		for _, a := range attrRe.FindAllStringSubmatch(m[2], -1) {
			name, val := strings.ToLower(a[1]), html.UnescapeString(a[2])
			switch {
			case strings.HasPrefix(name, "on"), name == "src", name == "srcdoc", name == "style", name == "formaction", name == "action":
				t.Errorf("attribute %s in %.120q", name, m[0])
			case name == "href" && !strings.HasPrefix(val, "#") && val != "data:,":
				t.Errorf("a link out of the page: %.120q", m[0])
			}
		}
	}
	if tags < 50 {
		t.Errorf("only %d elements found: the check does not read the page", tags)
	}
	csp := cspRe.FindStringSubmatch(page)
	style, script := styleRe.FindStringSubmatch(page), scriptRe.FindStringSubmatch(page)
	if csp == nil || style == nil || script == nil {
		t.Fatalf("no CSP meta, style or script block")
	}
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	want := "default-src 'none'; script-src " + hash(script[1]) + "; style-src " + hash(style[1]) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
	if got := html.UnescapeString(csp[1]); got != want {
		t.Errorf("CSP\n%s\nwant\n%s", got, want)
	}
	data := dataRe.FindStringSubmatch(page)
	if data == nil {
		t.Fatal("no data block")
	}
	var v struct{ Results, Citations int }
	if err := json.Unmarshal([]byte(data[1]), &v); err != nil || v.Results == 0 {
		t.Errorf("data block %q: %v", data[1], err)
	}
}

// TestWriteHTMLEscapes renders the demo with its hostile attempt: the
// strings show escaped, nothing of them is markup.
func TestWriteHTMLEscapes(t *testing.T) {
	html := render(t, demo(t).in)
	checkSafe(t, html)
	for _, s := range []string{
		"&lt;script&gt;window.__pwned=1&lt;/script&gt;",
		"&lt;img src=x onerror=&#34;window.__pwned=1&#34;&gt;",
		"&lt;/svg&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;",
		"indented &amp; &lt;b&gt;bold&lt;/b&gt;",
		"citecheck report: demo &lt;results&gt;",
	} {
		if !strings.Contains(html, s) {
			t.Errorf("the escaped form %q is not in the report", s)
		}
	}
}

// TestWriteHTMLContent checks what the demo and the worked examples show:
// the tables, the comparison with its note, the pages drawn from glyph
// boxes with both highlights, the text view of imported pages, the deep
// link ids.
func TestWriteHTMLContent(t *testing.T) {
	f := demo(t)
	html := render(t, f.in)
	for _, s := range []string{
		`<section id="sessions">`, `<section id="arms">`, "fixed-corpus sensitivity envelope, not a p-value",
		`<svg class="histogram"`, `<svg class="bar"`, `class="badge v-fail">FAIL</span>`, "not graded against a frozen lock",
		`<section id="latency">`, "<td><code>eos</code></td>",
		`id="Q02"`, `id="Q02/A/1"`, `id="Q02/A/1/c1"`, `href="#Q02/A/1/c1"`,
		`<use href="#page-def-`, `<rect class="loc"`, `<rect class="decl"`, `<g id="page-def-1"`,
		"declared evidence: ", "located span", "Reference answer:",
		`id="Q01/&lt;img src=x onerror=window.__pwned=1&gt;/1"`,
		`href="#Q01/%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E/1"`,
		"The cited document is not in the corpus",
		`<option value="citation:`,
	} {
		if !strings.Contains(html, s) {
			t.Errorf("the demo report lacks %q", s)
		}
	}
	if strings.Contains(html, `class="textview"`) {
		t.Errorf("the demo's pages all have glyph boxes, yet a text view is shown")
	}

	t.Run("worked examples", func(t *testing.T) {
		ex := examples(t)
		html := render(t, ex.in)
		checkSafe(t, html)
		for _, s := range []string{`<pre class="textview">`, `<mark class="loc"`, `<mark class="decl"`, `<mark class="decl loc"`,
			"No paired comparison", "stored text; this page has no glyph boxes"} {
			if !strings.Contains(html, s) {
				t.Errorf("the worked examples' report lacks %q", s)
			}
		}
		if strings.Contains(html, "page-def-") {
			t.Errorf("imported pages have no glyph boxes, yet a page is drawn")
		}
	})
}

// TestWriteHTMLNoCorpus: without a PageSource the report says so, once at
// the top and at each citation, and draws nothing.
func TestWriteHTMLNoCorpus(t *testing.T) {
	in := demo(t).in
	in.Pages = nil
	html := render(t, in)
	checkSafe(t, html)
	for _, s := range []string{`id="nocorpus"`, "No corpus was given: the page is not shown."} {
		if !strings.Contains(html, s) {
			t.Errorf("no %q", s)
		}
	}
	if strings.Contains(html, "page-def-") || strings.Contains(html, `class="textview"`) {
		t.Errorf("a page is shown without a corpus")
	}
	if err := report.WriteHTML(&bytes.Buffer{}, report.HTMLInput{}); err == nil {
		t.Errorf("WriteHTML without a summary: no error")
	}
}

// copyDir copies a corpus folder so a test can damage it.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// TestStorePagesIntegrity: a damaged page text and a missing glyph-box
// file are not shown as missing pages: StorePages reports them and the
// report warns at the top and at the page.
func TestStorePagesIntegrity(t *testing.T) {
	f := demo(t)
	dir := copyDir(t, f.dir)
	store, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := store.Manifest().Document("supplier-policy.pdf")
	h := strings.TrimPrefix(doc.BLAKE3, "blake3:")
	if err := os.WriteFile(filepath.Join(dir, "text", h, "0002.txt"), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "text", h, "0001.boxes.gz")); err != nil {
		t.Fatal(err)
	}
	pages := report.StorePages(store)
	pe := pages.(report.PageErrors)
	if _, ok := pages.Text("supplier-policy.pdf", 2); ok {
		t.Errorf("a tampered page's text: ok")
	}
	if err := pe.PageError("supplier-policy.pdf", 2); !errors.Is(err, corpus.ErrIntegrity) {
		t.Errorf("tampered page: PageError %v, want ErrIntegrity", err)
	}
	if _, ok := pages.Text("supplier-policy.pdf", 1); !ok {
		t.Errorf("page 1's text is intact, yet not ok")
	}
	if _, ok := pages.Boxes("supplier-policy.pdf", 1); ok {
		t.Errorf("page 1's boxes file is gone, yet ok")
	}
	if err := pe.PageError("supplier-policy.pdf", 1); !errors.Is(err, corpus.ErrIntegrity) {
		t.Errorf("missing boxes file: PageError %v, want ErrIntegrity", err)
	}
	for _, k := range []struct {
		doc  string
		page int
	}{{"no-such.pdf", 1}, {"supplier-policy.pdf", 0}, {"supplier-policy.pdf", 99}} {
		if _, ok := pages.Text(k.doc, k.page); ok {
			t.Errorf("%s page %d: ok", k.doc, k.page)
		}
		if err := pe.PageError(k.doc, k.page); err != nil {
			t.Errorf("%s page %d: unknown pages are no error, got %v", k.doc, k.page, err)
		}
	}
	in := f.in
	in.Pages = report.StorePages(store)
	html := render(t, in)
	checkSafe(t, html)
	for _, s := range []string{`<div class="warn" id="warnings" role="alert">`, "supplier-policy.pdf page 2: supplier-policy.pdf page 2",
		"supplier-policy.pdf page 1: supplier-policy.pdf page 1", `<p class="msg err">This page could not be read: `,
		`<p class="msg err">The glyph boxes of this page could not be read, its stored text is shown instead: `} {
		if !strings.Contains(html, s) {
			t.Errorf("no %q", s)
		}
	}
}

// TestStorePagesImported: imported text has no glyph boxes, which is no
// error.
func TestStorePagesImported(t *testing.T) {
	ex := examples(t)
	pages := report.StorePages(ex.store)
	d := ex.store.Manifest().Documents[0]
	if _, ok := pages.Text(d.Name, 1); !ok {
		t.Fatalf("%s page 1: no text", d.Name)
	}
	if _, ok := pages.Boxes(d.Name, 1); ok {
		t.Errorf("imported text with boxes")
	}
	if err := pages.(report.PageErrors).PageError(d.Name, 1); err != nil {
		t.Errorf("imported page: %v", err)
	}
}

// citationIDs lists the deep-link ids of a fixture's citations in results
// order, for the browser test to pick from.
func citationIDs(f *fixture) []string {
	var out []string
	for _, r := range f.results {
		for _, c := range r.Citations {
			if c.ID != nil {
				out = append(out, fmt.Sprintf("%s/%s/%d/%s", r.Question, r.Arm, r.Session, *c.ID))
			}
		}
	}
	return out
}

// TestWriteHTMLOutsidePlan: a group of extra attempts only is listed in
// its own section, not among the sessions; a planned session holding an
// extra is marked; the plan's accounting lists every flag with its count.
func TestWriteHTMLOutsidePlan(t *testing.T) {
	f := demo(t)
	results := append([]grade.Result(nil), f.results...)
	var extra, ooo grade.Result
	for _, r := range results {
		if r.Arm == "A" && r.Session == 1 && r.Attempt == grade.AttemptOK {
			extra, ooo = r, r
			break
		}
	}
	extra.Attempt, extra.Question = grade.AttemptExtra, "Q99"
	ooo.OutOfOrder = true
	results = append(results, extra, ooo)
	ooo.Session, ooo.Attempt = 9, grade.AttemptExtra // a session the plan does not have
	results = append(results, ooo)
	in := f.in
	in.Results, in.Summary = results, summarize(results, false)
	html := render(t, in)
	sessions := html[strings.Index(html, `<section id="sessions">`):strings.Index(html, `<section id="outside-plan">`)]
	outside := html[strings.Index(html, `<section id="outside-plan">`):strings.Index(html, `<section id="accounting">`)]
	accounting := html[strings.Index(html, `<section id="accounting">`):strings.Index(html, `<section id="arms">`)]
	assert.Contains(t, sessions, `<div class="muted">with 1 extra attempt</div>`, "A/1 holds an extra attempt")
	assert.NotContains(t, sessions, `<td class="num">9`, "session 9 is not a session of the plan")
	assert.Contains(t, outside, `<tr><td>A</td><td class="num">9</td>`)
	assert.Contains(t, html, `<a href="#outside-plan">Outside the plan</a>`)
	for _, flag := range []string{"missing", "duplicate", "extra", "out_of_order"} {
		assert.Contains(t, accounting, "<tr><td><code>"+flag+"</code></td>", "every flag has its line, even at 0")
	}
	assert.Contains(t, accounting, "A/1/Q99")
	assert.Contains(t, accounting, "A/9/")
}
