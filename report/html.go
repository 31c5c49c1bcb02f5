package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"math/big"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/spans"
)

// PageSource gives the stored page texts and glyph boxes of the corpus the
// results were graded against; nil when the report has no corpus.
//
// A PageSource whose reads can fail for a reason a reader must see also
// implements PageErrors; StorePages does.
type PageSource interface {
	// Text returns a page's stored text (1-based page); ok false when unknown.
	Text(doc string, page int) (string, bool)
	// Boxes returns the page's glyph boxes (corpus.GlyphBox: code-point
	// offsets [Start,End) into the text and a rectangle in PDF points, y up);
	// ok false when the page has none (imported text, or no boxes stored).
	Boxes(doc string, page int) ([]corpus.GlyphBox, bool)
}

// PageErrors is implemented by a PageSource whose Text or Boxes can fail
// for a reason other than "no such page" or "no boxes stored": a stored
// file that no longer matches the corpus manifest (corpus.ErrIntegrity),
// or one that cannot be read. Text and Boxes then return ok false, and
// PageError returns why; WriteHTML asks it about every page it read and
// shows each error as a warning at the top of the report and in place of
// the page, so a damaged corpus is never shown as a page that is merely
// missing.
type PageErrors interface {
	// PageError returns the error met reading the page's text or boxes, nil
	// when there was none.
	PageError(doc string, page int) error
}

// HTMLInput is what WriteHTML renders.
type HTMLInput struct {
	Summary *metrics.Summary
	Results []grade.Result // in results.jsonl order
	Pages   PageSource     // may be nil
	// Reference, optional, is the reference the results were graded
	// against (the lock's, when there is one). With it, each citation's page
	// also shows the declared evidence spans of the question's essential
	// claims (and, for an unknown question, its abstention evidence), each
	// question shows its text and reference answer, and fields are listed
	// in the reference's order. Results do not carry declared spans.
	Reference *spans.Reference
	// Title, e.g. the results folder; shown escaped.
	Title string
}

// WriteHTML writes report.html: one self-contained file.
//
// The page holds the per-session metric table with LB-UB bars and
// qualification, the arms pooled, the paired comparison with its bootstrap
// histograms, latency and stop reasons, a filterable table of every result,
// and per question every attempt side by side: the raw response, field
// verdicts, abstention, review flags and each citation drawn on its page
// (an SVG built from the stored glyph boxes, or the stored text with the
// spans marked when the page has none). Deep links: #Q07 opens a question,
// #Q07/A/2 an attempt (question/arm/session) and #Q07/A/2/c1 a citation; a
// second result with the same question, arm and session (a duplicate or
// extra record) gets "~2", a second citation with the same id in one
// answer likewise, and the missing-citation entry is "missing".
//
// Everything taken from the results, the reference and the corpus is
// escaped by html/template; the CSS and the one script are embedded
// (html.css, html.js) and allowed by a Content-Security-Policy of their
// SHA-256 hashes, nothing else may load or run; the script reads its data
// from a JSON block. The same input gives the same bytes. Summary is
// required.
func WriteHTML(w io.Writer, in HTMLInput) error {
	if in.Summary == nil {
		return errors.New("report: WriteHTML needs a summary")
	}
	p, err := buildHTML(in)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := htmlTemplate().Execute(&b, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// StorePages reads pages from a corpus store. Pages of documents the
// manifest does not have, pages out of range and pages stored without
// glyph boxes are unknown (ok false, no error); any other failure (an
// integrity error: a stored file that is missing or does not match the
// manifest; an I/O error) is recorded and reported by PageError. It is
// safe for concurrent use.
func StorePages(s *corpus.Store) PageSource {
	return &storePages{s: s, errs: map[pageKey]error{}}
}

type storePages struct {
	s    *corpus.Store
	mu   sync.Mutex
	errs map[pageKey]error
}

type pageKey struct {
	doc  string
	page int
}

func (p *storePages) document(doc string, page int) (*corpus.Document, bool) {
	d, ok := p.s.Manifest().Document(doc)
	if !ok || page < 1 || page > len(d.Pages) {
		return nil, false
	}
	return d, true
}

func (p *storePages) record(doc string, page int, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := pageKey{doc, page}
	if p.errs[k] == nil {
		p.errs[k] = err
	}
}

func (p *storePages) Text(doc string, page int) (string, bool) {
	d, ok := p.document(doc, page)
	if !ok {
		return "", false
	}
	t, err := p.s.Text(d, page)
	if err != nil {
		p.record(doc, page, err)
		return "", false
	}
	return t, true
}

func (p *storePages) Boxes(doc string, page int) ([]corpus.GlyphBox, bool) {
	d, ok := p.document(doc, page)
	if !ok {
		return nil, false
	}
	b, err := p.s.Boxes(d, page)
	if errors.Is(err, corpus.ErrNoBoxes) {
		return nil, false
	}
	if err != nil {
		p.record(doc, page, err)
		return nil, false
	}
	return b, true
}

func (p *storePages) PageError(doc string, page int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errs[pageKey{doc, page}]
}

//go:embed html.tmpl
var htmlTmpl string

//go:embed html.css
var htmlCSS string

//go:embed html.js
var htmlJS string

var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report.html").Parse(htmlTmpl))
})

// cspHash is a CSP source expression for an inline block's exact text.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// contentSecurityPolicy allows the embedded style and script only: no
// other script, no inline handler, no network.
func contentSecurityPolicy() string {
	return "default-src 'none'; script-src " + cspHash(htmlJS) + "; style-src " + cspHash(htmlCSS) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
}

// The view the template renders: every string is still raw (the template
// escapes it), numbers are preformatted.
type htmlPage struct {
	Title, CSP         string
	CSS                template.CSS
	JS                 template.JS
	Data               template.JS
	Format, Policy     string
	Counts, Thresholds string
	Warnings           []string
	NoCorpus           bool
	Sessions, Arms     []groupView
	OutsidePlan        []groupView // groups of an arm or session the plan does not have
	Accounting         []flagView  // the plan's accounting flags
	Comparison         *compView
	Latency            []latView
	DeadlineS          int
	Stops              []stopView
	Reasons            []option
	ArmNames           []string
	Results            []rowView
	Questions          []questionView
	Defs               []defView
}

type groupView struct {
	Arm, Session    string
	Mark            string // a planned session's extra attempts
	Planned         int
	Kinds, Attempts string
	Metrics         []metricView
	Qualified       string // PASS, FAIL or ""
	Reasons         []string
}

// flagView is one accounting flag with the attempts it flags.
type flagView struct {
	Name     string
	N        int
	Attempts string
}

type metricView struct {
	Missing              string // set for the count cell "no citation"
	NA                   bool
	Text, Counts, Wilson string
	Extra                string // a note under the metric (external citations)
	Aria                 string
	X, W, WLo, WHi, Thr  string
}

type compView struct {
	Arms              [2]string
	Metric            string
	Clusters, Repeats int
	Balanced          bool
	Seed, Stream      uint64
	Replicates        int
	Note              string
	Excluded          []string
	Sides             []sideView
}

type sideView struct {
	Name, MeanA, MeanB, MeanDiff, Interval, SEPaired, TInterval, SEClustered, Correlation, MDE string
	Hist                                                                                       histView
}

type histView struct {
	W, H, X0, X1, Base, Top, Zero, Mean, CIHi string
	CI                                        rectView
	Bars                                      []rectView
	Ticks                                     []tickView
	Label, Caption                            string
}

type rectView struct{ X, Y, W, H, Class, Title string }

type tickView struct{ X, Y, Anchor, Label string }

type latView struct {
	Arm, Phase       string
	N, Unavailable   int
	Median, P90, Max string
	Over             string
}

type stopView struct {
	Arm, Reason string
	N           int
}

type option struct{ Value, Label string }

type rowView struct {
	N                      int
	V, CV, R               string
	Arm                    string
	Session, Position      int
	Question, Href         string
	Attempt, Kind, Factual string
	Cites, Notes           string
}

type kv struct{ Key, Value string }

type questionView struct {
	ID, Kind, Tally, Text string
	Answer                []kv
	Attempts              []attemptView
}

type badge struct{ Label, Class string }

type attemptView struct {
	ID, Href, V, CV, R string
	Arm                string
	Session, Position  int
	Attempt            string
	Badges             []badge
	Meta               string
	Response           string
	Fields             []fieldView
	Claims             []grade.ClaimResult
	Abstention         string
	AbstentionReasons  []string
	Review             []string
	Citations          []citeView
}

type fieldView struct {
	Field, Verdict string
	Reasons        []grade.FieldReason
	Rules, Details []string
	Value, Target  string
}

type citeView struct {
	ID, Href, Label, R string
	Verdict, Reason    string
	Where              string
	HasQuote           bool
	Quote              string
	Facts              []kv
	Stored             []kv
	Message            string
	Views              []pageView
}

type pageView struct {
	Doc               string
	Page              int
	Located           bool
	Declared          string
	SVG               *svgView
	Text              []segView
	Message, MsgClass string
}

type svgView struct {
	W, H, Label, Def string
	Rects            []rectView
}

type segView struct{ Text, Class, Title string }

type defView struct {
	ID    string
	Lines []lineView
}

type lineView struct{ X, Y, Size, Len, Text string }

// num formats a coordinate or measure with at most two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func ratFloat(r *big.Rat) float64 {
	if r == nil {
		return math.NaN()
	}
	f, _ := r.Float64()
	return f
}

func outcomeOr(o *grade.Outcome, none string) string {
	if o == nil {
		return none
	}
	return string(*o)
}

// code percent-encodes a reason or verdict for the space-separated lists
// of data attributes and the filter's option values.
func code(s string) string { return url.QueryEscape(s) }

// fragment is the href of a deep link to id: every byte but unreserved
// characters and "/" percent-encoded, so that html/template keeps it as it
// is and the script's decodeURIComponent gives id back.
func fragment(id string) string {
	var b strings.Builder
	b.WriteByte('#')
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// ids hands out element ids, each once.
type ids map[string]bool

func (u ids) take(id string) string {
	out := id
	for n := 2; u[out]; n++ {
		out = id + "~" + strconv.Itoa(n)
	}
	u[out] = true
	return out
}

// fixedIDs are the ids the template itself uses.
var fixedIDs = []string{"sessions", "outside-plan", "accounting", "arms", "comparison", "latency", "results", "questions", "warnings", "nocorpus",
	"envelope-note", "f-verdict", "f-cverdict", "f-reason", "f-arm", "f-reset", "shown", "open-all", "close-all", "report-data"}

func buildHTML(in HTMLInput) (*htmlPage, error) {
	s := in.Summary
	title := in.Title
	if title == "" {
		title = "results"
	}
	p := &htmlPage{Title: title, CSP: contentSecurityPolicy(), CSS: template.CSS(htmlCSS), JS: template.JS(htmlJS),
		Format: s.Format, Policy: s.Policy, NoCorpus: in.Pages == nil, DeadlineS: metrics.DeadlineMS / 1000}
	p.Thresholds = thresholdsText(s.Thresholds)
	p.Sessions = groupViews(s.Sessions, &s.Thresholds, true)
	p.OutsidePlan = groupViews(s.OutsidePlan, nil, true)
	p.Arms = groupViews(s.Arms, nil, false)
	for _, f := range s.Accounting() {
		p.Accounting = append(p.Accounting, flagView{Name: f.Name, N: len(f.Attempts), Attempts: strings.Join(f.Attempts, ", ")})
	}
	if s.Comparison != nil {
		p.Comparison = comparisonView(s.Comparison)
	}
	p.Latency, p.Stops = latencyViews(s)
	for _, g := range s.Arms {
		p.ArmNames = append(p.ArmNames, g.Arm)
	}

	used := ids{}
	for _, id := range fixedIDs {
		used.take(id)
	}
	r := &renderer{in: in, used: used, questions: map[string]*spans.Question{}, pages: map[pageKey]*loadedPage{}}
	if in.Reference != nil {
		for i := range in.Reference.Questions {
			q := &in.Reference.Questions[i]
			r.questions[q.ID] = q
		}
	}
	r.loadPages()
	p.Defs = r.defs
	p.Warnings = r.warnings
	p.Questions, p.Results = r.questionViews()
	p.Reasons = r.reasonOptions()

	frozen := 0
	arms, sessions, questions := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range in.Results {
		res := &in.Results[i]
		arms[res.Arm] = true
		sessions[res.Arm+"\x00"+strconv.Itoa(res.Session)] = true
		questions[res.Question] = true
		if res.Frozen {
			frozen++
		}
	}
	lock := "none graded against a frozen lock"
	switch {
	case len(in.Results) > 0 && frozen == len(in.Results):
		lock = "all graded against a frozen lock"
	case frozen > 0:
		lock = fmt.Sprintf("%d graded against a frozen lock", frozen)
	}
	p.Counts = fmt.Sprintf("%s over %s, %s and %s; %s.", plural(len(in.Results), "result"), plural(len(questions), "question"),
		plural(len(arms), "arm"), plural(len(sessions), "session"), lock)

	data, err := json.Marshal(struct {
		Results   int `json:"results"`
		Citations int `json:"citations"`
	}{len(in.Results), r.citations})
	if err != nil {
		return nil, err
	}
	p.Data = template.JS(data) // encoding/json escapes <, > and & as \u003c, \u003e, \u0026
	return p, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func thresholdsText(t metrics.ThresholdsJSON) string {
	return fmt.Sprintf("lower bounds of supported %s, citations %s, abstention %s; %d answerable and %d unknown planned questions per session; graded against a frozen lock; no failed, missing, duplicate or extra attempt",
		metrics.Percent(t.Supported.R), metrics.Percent(t.Citations.R), metrics.Percent(t.Abstention.R), t.Answerable, t.Unknown)
}

func withExtra(v metricView, extra string) metricView {
	v.Extra = extra
	return v
}

func groupViews(gs []*metrics.Group, t *metrics.ThresholdsJSON, sessions bool) []groupView {
	var out []groupView
	for _, g := range gs {
		v := groupView{Arm: g.Arm, Planned: g.Planned, Kinds: fmt.Sprintf("%d answerable, %d unknown", g.Answerable, g.Unknown),
			Attempts: attemptsText(g.Attempts)}
		if sessions {
			v.Session = strconv.Itoa(g.Session)
			if g.Attempts.Extra > 0 && !g.OutsidePlan() {
				v.Mark = "with " + plural(g.Attempts.Extra, "extra attempt")
			}
		} else {
			v.Session = "all"
		}
		var thr [3]*big.Rat
		if t != nil {
			thr = [3]*big.Rat{t.Supported.R, t.Citations.R, t.Abstention.R}
		}
		v.Metrics = []metricView{
			metricCell("supported", g.Supported, thr[0]),
			metricCell("factual", g.Factual, nil),
			withExtra(metricCell("citations", g.Citations, thr[1]), externalNote(g.ExternalCitations, "")),
			{Missing: strconv.Itoa(g.MissingCitations)},
			metricCell("abstention", g.Abstention, thr[2]),
		}
		if g.Qualified != nil {
			v.Qualified = "FAIL"
			if *g.Qualified {
				v.Qualified = "PASS"
			}
			v.Reasons = g.Qualification
		}
		out = append(out, v)
	}
	return out
}

func attemptsText(a metrics.Attempts) string {
	var parts []string
	for _, x := range []struct {
		name string
		n    int
	}{{"ok", a.OK}, {"error", a.Error}, {"timeout", a.Timeout}, {"interrupted", a.Interrupted}, {"missing", a.Missing},
		{"duplicate", a.Duplicate}, {"extra", a.Extra}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.name, x.n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func metricCell(name string, m metrics.MetricJSON, thr *big.Rat) metricView {
	v := metricView{Counts: fmt.Sprintf("%d/%d/%d of %d", m.Pass, m.Unresolved, m.Fail, m.N)}
	if m.N == 0 {
		v.NA = true
		return v
	}
	lbR, ubR := m.Metric.LB(), m.Metric.UB()
	lb, ub := metrics.Percent(lbR), metrics.Percent(ubR)
	v.Text = lb
	if ub != lb {
		v.Text = lb + "–" + ub
	}
	lo, hi := ratFloat(lbR), ratFloat(ubR)
	wlo, whi := lo, hi
	if m.Wilson != nil {
		wlo, whi = float64(m.Wilson[0]), float64(m.Wilson[1])
		v.Wilson = fmt.Sprintf("Wilson %.1f–%.1f%%", 100*wlo, 100*whi)
	}
	w := (hi - lo) * 100
	x := lo * 100
	if w < 1.2 { // a point: keep it visible
		x, w = math.Max(0, math.Min(98.8, x-0.6)), 1.2
	}
	v.X, v.W, v.WLo, v.WHi = num(x), num(w), num(wlo*100), num(whi*100)
	v.Aria = fmt.Sprintf("%s %s: %d pass, %d unresolved, %d fail of %d; Wilson %.1f%% to %.1f%%", name, v.Text, m.Pass, m.Unresolved, m.Fail, m.N, 100*wlo, 100*whi)
	if thr != nil {
		v.Thr = num(ratFloat(thr) * 100)
		v.Aria += ", threshold " + metrics.Percent(thr)
	}
	return v
}

func comparisonView(c *metrics.Comparison) *compView {
	v := &compView{Arms: c.Arms, Metric: c.Metric, Clusters: c.Clusters, Repeats: c.Repeats, Balanced: c.Balanced,
		Seed: c.Seed[0], Stream: c.Seed[1], Replicates: c.Replicates, Note: c.Note, Excluded: c.Excluded}
	if v.Note == "" {
		v.Note = metrics.EnvelopeNote
	}
	for _, side := range []struct {
		name string
		s    metrics.Side
	}{{"LB", c.LB}, {"UB", c.UB}} {
		x := side.s
		v.Sides = append(v.Sides, sideView{Name: side.name,
			MeanA: fmt.Sprintf("%.4f", x.MeanA), MeanB: fmt.Sprintf("%.4f", x.MeanB), MeanDiff: fmt.Sprintf("%+.4f", x.MeanDiff),
			Interval: fmt.Sprintf("[%+.4f, %+.4f]", x.Interval[0], x.Interval[1]), SEPaired: fmt.Sprintf("%.4f", x.SEPaired),
			TInterval: fmt.Sprintf("[%+.4f, %+.4f]", x.TInterval[0], x.TInterval[1]), SEClustered: optFloat(x.SEClustered, "%.4f"),
			Correlation: optFloat(x.Correlation, "%.3f"), MDE: fmt.Sprintf("%.4f", x.MDE80),
			Hist: histogram(side.name, c, x)})
	}
	return v
}

// histogram draws the bootstrap replicates of one side: the bins, the 95%
// interval shaded and bounded, zero dashed and the mean difference in red.
func histogram(name string, c *metrics.Comparison, s metrics.Side) histView {
	const w, h, left, right, top, bottom = 440.0, 170.0, 12.0, 12.0, 10.0, 26.0
	ci0, ci1, md := float64(s.Interval[0]), float64(s.Interval[1]), float64(s.MeanDiff)
	lo, hi := math.Min(0, math.Min(ci0, md)), math.Max(0, math.Max(ci1, md))
	maxCount := 0
	for _, b := range s.Histogram {
		lo, hi = math.Min(lo, float64(b.From)), math.Max(hi, float64(b.To))
		maxCount = max(maxCount, b.Count)
	}
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		lo, hi = -0.5, 0.5
	}
	pad := (hi - lo) * 0.04 // bins at the ends stay visible
	lo, hi = lo-pad, hi+pad
	x := func(v float64) float64 {
		if math.IsNaN(v) {
			v = 0
		}
		return left + (math.Max(lo, math.Min(hi, v))-lo)/(hi-lo)*(w-left-right)
	}
	base := h - bottom
	v := histView{W: num(w), H: num(h), X0: num(left), X1: num(w - right), Base: num(base), Top: num(top),
		Zero: num(x(0)), Mean: num(x(md)), CIHi: num(x(ci1))}
	v.CI = rectView{X: num(x(ci0)), Y: num(top), W: num(x(ci1) - x(ci0)), H: num(base - top)}
	for _, b := range s.Histogram {
		bh := 0.0
		if maxCount > 0 {
			bh = float64(b.Count) / float64(maxCount) * (base - top)
		}
		x0, x1 := x(float64(b.From)), x(float64(b.To))
		if x1-x0 < 2.5 { // a bin of one value
			x0, x1 = (x0+x1)/2-1.25, (x0+x1)/2+1.25
		}
		v.Bars = append(v.Bars, rectView{X: num(x0), Y: num(base - bh), W: num(x1 - x0 - 0.5), H: num(bh),
			Title: fmt.Sprintf("[%+.4f, %+.4f): %d replicates", b.From, b.To, b.Count)})
	}
	ty := num(h - 10)
	v.Ticks = []tickView{{X: num(left), Y: ty, Anchor: "start", Label: fmt.Sprintf("%+.3f", lo)},
		{X: num(w - right), Y: ty, Anchor: "end", Label: fmt.Sprintf("%+.3f", hi)}}
	if z := x(0); z-left > 40 && w-right-z > 40 {
		v.Ticks = append(v.Ticks, tickView{X: num(z), Y: ty, Anchor: "middle", Label: "0"})
	}
	v.Label = fmt.Sprintf("%s: histogram of %d bootstrap replicates of the mean difference %s - %s", name, c.Replicates, c.Arms[0], c.Arms[1])
	v.Caption = fmt.Sprintf("%s (unresolved as %s): bootstrap replicates of the mean difference; 95%% interval [%+.4f, %+.4f] shaded, mean difference %+.4f in red, zero dashed.",
		name, map[string]string{"LB": "fail", "UB": "pass"}[name], s.Interval[0], s.Interval[1], s.MeanDiff)
	return v
}

func latencyViews(s *metrics.Summary) ([]latView, []stopView) {
	var lat []latView
	for _, l := range s.Latency {
		if l.N == 0 && l.Phase != "total" {
			continue
		}
		v := latView{Arm: l.Arm, Phase: l.Phase, N: l.N, Unavailable: l.Unavailable,
			Median: optFloat(l.MedianMS, "%.0f"), P90: optFloat(l.P90MS, "%.0f"), Max: optFloat(l.MaxMS, "%.0f")}
		if l.Phase == "total" {
			v.Over = strconv.Itoa(len(l.OverDeadline))
			if len(l.OverDeadline) > 0 {
				v.Over += ": " + strings.Join(l.OverDeadline, ", ")
			}
		}
		lat = append(lat, v)
	}
	var arms []string
	for _, g := range s.Arms {
		arms = append(arms, g.Arm)
	}
	for a := range s.StopReason {
		if !slices.Contains(arms, a) {
			arms = append(arms, a)
		}
	}
	sort.Strings(arms)
	var stops []stopView
	for _, a := range arms {
		t := s.StopReason[a]
		for _, k := range sortedKeys(t) {
			stops = append(stops, stopView{Arm: a, Reason: k, N: t[k]})
		}
	}
	return lat, stops
}

// renderer builds the result rows, the questions and the pages.
type renderer struct {
	in        HTMLInput
	used      ids
	questions map[string]*spans.Question
	pages     map[pageKey]*loadedPage
	defs      []defView
	warnings  []string
	reasons   map[string]int // filter value -> results carrying it
	citations int
}

// loadedPage is a page read once from the PageSource.
type loadedPage struct {
	text    []rune
	hasText bool
	boxes   []corpus.GlyphBox
	err     error
	def     string // "#page-def-N" when drawn from boxes
	minX    float64
	maxY    float64
	w, h    float64
	dropped int // glyph boxes that did not fit the text, ignored
}

const pagePad = 14.0

// pagesOf returns the pages a citation is drawn on: the pages of its
// located spans, else the page the answer gave.
func pagesOf(c *grade.CitationResult) []int {
	var ps []int
	for _, s := range c.Spans {
		if !slices.Contains(ps, s.Page) {
			ps = append(ps, s.Page)
		}
	}
	if len(ps) == 0 && c.Page != nil {
		ps = append(ps, *c.Page)
	}
	sort.Ints(ps)
	return ps
}

func (r *renderer) loadPages() {
	src := r.in.Pages
	if src == nil {
		return
	}
	var keys []pageKey
	for i := range r.in.Results {
		for j := range r.in.Results[i].Citations {
			c := &r.in.Results[i].Citations[j]
			if c.Document == "" {
				continue
			}
			for _, p := range pagesOf(c) {
				k := pageKey{c.Document, p}
				if p >= 1 && r.pages[k] == nil {
					r.pages[k] = &loadedPage{}
					keys = append(keys, k)
				}
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].doc != keys[j].doc {
			return keys[i].doc < keys[j].doc
		}
		return keys[i].page < keys[j].page
	})
	pe, _ := src.(PageErrors)
	for _, k := range keys {
		lp := r.pages[k]
		text, ok := src.Text(k.doc, k.page)
		if ok {
			lp.text, lp.hasText = []rune(text), true
			if boxes, ok := src.Boxes(k.doc, k.page); ok {
				lp.setBoxes(boxes)
			}
		}
		if pe != nil {
			if err := pe.PageError(k.doc, k.page); err != nil {
				// With its text read, the page's glyph boxes failed: the
				// text view stands in, with the error beside it.
				lp.err, lp.boxes = err, nil
				r.warnings = append(r.warnings, fmt.Sprintf("%s page %d: %v", k.doc, k.page, err))
				continue
			}
		}
		if lp.dropped > 0 {
			r.warnings = append(r.warnings, fmt.Sprintf("%s page %d: %d glyph boxes do not fit the page text and are not drawn", k.doc, k.page, lp.dropped))
		}
		if len(lp.boxes) > 0 {
			id := r.used.take(fmt.Sprintf("page-def-%d", len(r.defs)+1))
			lp.def = fragment(id)
			r.defs = append(r.defs, defView{ID: id, Lines: lp.lines()})
		}
	}
}

// setBoxes keeps the boxes that fit the text, in order, and computes the
// page's extent.
func (lp *loadedPage) setBoxes(boxes []corpus.GlyphBox) {
	n := len(lp.text)
	end := 0
	for _, b := range boxes {
		finite := !math.IsNaN(b.X0+b.Y0+b.X1+b.Y1) && !math.IsInf(b.X0+b.Y0+b.X1+b.Y1, 0)
		if b.Start < end || b.End <= b.Start || b.End > n || !finite || b.X1 < b.X0 || b.Y1 < b.Y0 {
			lp.dropped++
			continue
		}
		lp.boxes = append(lp.boxes, b)
		end = b.End
	}
	if len(lp.boxes) == 0 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, b := range lp.boxes {
		minX, minY = math.Min(minX, b.X0), math.Min(minY, b.Y0)
		maxX, maxY = math.Max(maxX, b.X1), math.Max(maxY, b.Y1)
	}
	lp.minX, lp.maxY = minX-pagePad, maxY+pagePad
	lp.w, lp.h = maxX-minX+2*pagePad, maxY-minY+2*pagePad
}

// x and y map PDF points (y up) to the page's SVG coordinates (y down).
func (lp *loadedPage) x(v float64) float64 { return v - lp.minX }
func (lp *loadedPage) y(v float64) float64 { return lp.maxY - v }

// sameLine reports whether glyph b continues a's run: the same baseline,
// to the right, without a column-sized gap.
func sameLine(a, b corpus.GlyphBox) bool {
	h := math.Max(math.Max(a.Y1-a.Y0, b.Y1-b.Y0), 0.5)
	return math.Abs(a.Y0-b.Y0) <= 0.25*h && b.X0 >= a.X0 && b.X0-a.X1 <= 3*h
}

// lines renders the page's glyphs as text runs, one per stretch of a line,
// each fitted to its boxes' width.
func (lp *loadedPage) lines() []lineView {
	var out []lineView
	bs := lp.boxes
	for i := 0; i < len(bs); {
		j := i + 1
		for j < len(bs) && sameLine(bs[j-1], bs[j]) {
			j++
		}
		first, last := bs[i], bs[j-1]
		size := 0.0
		for _, b := range bs[i:j] {
			size = math.Max(size, b.Y1-b.Y0)
		}
		text := strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, string(lp.text[first.Start:last.End]))
		lv := lineView{X: num(lp.x(first.X0)), Y: num(lp.y(first.Y0 + 0.2*size)), Size: num(math.Max(size, 0.5)), Text: text}
		if width := last.X1 - first.X0; width > 0 && len([]rune(text)) > 1 {
			lv.Len = num(width)
		}
		out = append(out, lv)
		i = j
	}
	return out
}

// rects returns the rectangles covering the glyphs of [start, end), one per
// stretch of a line.
func (lp *loadedPage) rects(start, end int, class, title string) []rectView {
	bs := lp.boxes
	i := sort.Search(len(bs), func(i int) bool { return bs[i].End > start })
	var out []rectView
	var cur *corpus.GlyphBox
	var prev corpus.GlyphBox
	flush := func() {
		if cur != nil {
			out = append(out, rectView{Class: class, Title: title, X: num(lp.x(cur.X0) - 0.5), Y: num(lp.y(cur.Y1) - 0.5),
				W: num(cur.X1 - cur.X0 + 1), H: num(cur.Y1 - cur.Y0 + 1)})
			cur = nil
		}
	}
	for ; i < len(bs) && bs[i].Start < end; i++ {
		b := bs[i]
		if cur != nil && sameLine(prev, b) {
			cur.X0, cur.Y0 = math.Min(cur.X0, b.X0), math.Min(cur.Y0, b.Y0)
			cur.X1, cur.Y1 = math.Max(cur.X1, b.X1), math.Max(cur.Y1, b.Y1)
		} else {
			flush()
			c := b
			cur = &c
		}
		prev = b
	}
	flush()
	return out
}

// mark is a span of a page to highlight.
type mark struct {
	start, end int
	class      string // "loc" or "decl"
	title      string
}

// segments cuts text at the marks' ends, each piece with the classes of
// the marks covering it.
func segments(text []rune, marks []mark) []segView {
	n := len(text)
	cuts := []int{0, n}
	var ms []mark
	for _, m := range marks {
		m.start, m.end = max(0, min(n, m.start)), max(0, min(n, m.end))
		if m.start < m.end {
			ms = append(ms, m)
			cuts = append(cuts, m.start, m.end)
		}
	}
	sort.Ints(cuts)
	cuts = slices.Compact(cuts)
	var out []segView
	for i := 0; i+1 < len(cuts); i++ {
		a, b := cuts[i], cuts[i+1]
		var classes, titles []string
		for _, m := range ms {
			if m.start <= a && b <= m.end {
				if !slices.Contains(classes, m.class) {
					classes = append(classes, m.class)
				}
				if !slices.Contains(titles, m.title) {
					titles = append(titles, m.title)
				}
			}
		}
		sort.Strings(classes)
		out = append(out, segView{Text: string(text[a:b]), Class: strings.Join(classes, " "), Title: strings.Join(titles, "; ")})
	}
	return out
}

// resultTag is what the filters read of one result.
type resultTag struct {
	v, cv, r string
	notes    string
	cites    string
}

func (r *renderer) tag(res *grade.Result) resultTag {
	var t resultTag
	if res.Kind == grade.KindUnknown {
		t.v = outcomeOr(res.Abstention, "fail")
	} else {
		t.v = outcomeOr(res.Supported, "fail")
	}
	var codes, notes []string
	add := func(kind, c string, failing bool) {
		v := kind + ":" + code(c)
		if !slices.Contains(codes, v) {
			codes = append(codes, v)
		}
		if failing {
			n := kind + " " + c
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	failed := res.Attempt != grade.AttemptOK
	if failed {
		// The fields' and abstention's reasons then only repeat it.
		add("attempt", res.Attempt, true)
	}
	for _, f := range sortedFields(res.Fields) {
		fv := res.Fields[f]
		for _, c := range fv.Reasons {
			add("field", string(c), fv.Verdict != grade.Correct && !failed)
		}
	}
	var cvs []string
	counts := map[string]int{}
	for _, c := range res.Citations {
		add("citation", string(c.Reason), c.Verdict != grade.Pass)
		v := code(string(c.Verdict))
		if !slices.Contains(cvs, v) {
			cvs = append(cvs, v)
		}
		if c.Reason != grade.ReasonMissingCitation {
			counts[string(c.Verdict)]++
		}
	}
	for _, c := range res.AbstentionReasons {
		add("abstention", c, (res.Abstention == nil || *res.Abstention != grade.Pass) && !failed)
	}
	for _, c := range res.Review {
		add("review", c, true)
	}
	sort.Strings(codes)
	sort.Strings(cvs)
	t.r, t.cv, t.notes = strings.Join(codes, " "), strings.Join(cvs, " "), strings.Join(notes, ", ")
	for _, c := range codes {
		r.reasons[c]++
	}
	var parts []string
	for _, k := range sortedKeys(counts) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	switch {
	case len(parts) > 0:
		t.cites = strings.Join(parts, ", ")
	case len(res.Citations) > 0:
		t.cites = "missing"
	default:
		t.cites = "none"
	}
	return t
}

func sortedFields(m map[string]grade.FieldVerdict) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// fieldOrder lists a result's fields in the reference's order, then any
// others sorted.
func fieldOrder(m map[string]grade.FieldVerdict, q *spans.Question) []string {
	var out []string
	if q != nil {
		for _, f := range q.RequiredFields {
			if _, ok := m[f.Field]; ok && !slices.Contains(out, f.Field) {
				out = append(out, f.Field)
			}
		}
	}
	for _, f := range sortedFields(m) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func (r *renderer) reasonOptions() []option {
	var out []option
	for _, k := range sortedKeys(metrics.Tally(r.reasons)) {
		kind, c, _ := strings.Cut(k, ":")
		raw, err := url.QueryUnescape(c)
		if err != nil {
			raw = c
		}
		out = append(out, option{Value: k, Label: fmt.Sprintf("%s: %s (%d)", kind, raw, r.reasons[k])})
	}
	return out
}

func (r *renderer) questionViews() ([]questionView, []rowView) {
	res := r.in.Results
	r.reasons = map[string]int{}
	tags := make([]resultTag, len(res))
	byQ := map[string][]int{}
	var qids []string
	for i := range res {
		tags[i] = r.tag(&res[i])
		q := res[i].Question
		if byQ[q] == nil {
			qids = append(qids, q)
		}
		byQ[q] = append(byQ[q], i)
	}
	sort.Strings(qids)
	hrefs := make([]string, len(res))
	var qs []questionView
	for _, qid := range qids {
		idx := byQ[qid]
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := &res[idx[a]], &res[idx[b]]
			if x.Arm != y.Arm {
				return x.Arm < y.Arm
			}
			if x.Session != y.Session {
				return x.Session < y.Session
			}
			return x.Position < y.Position
		})
		ref := r.questions[qid]
		qv := questionView{ID: r.used.take(qid)}
		tally := map[string]int{}
		kinds := map[string]bool{}
		for _, i := range idx {
			tally[tags[i].v]++
			kinds[res[i].Kind] = true
		}
		var kk []string
		for k := range kinds {
			kk = append(kk, k)
		}
		sort.Strings(kk)
		qv.Kind = strings.Join(kk, ", ")
		var parts []string
		for _, k := range sortedKeys(metrics.Tally(tally)) {
			parts = append(parts, fmt.Sprintf("%d %s", tally[k], k))
		}
		qv.Tally = fmt.Sprintf("%s: %s", plural(len(idx), "attempt"), strings.Join(parts, ", "))
		if ref != nil {
			qv.Text = ref.Question
			for _, f := range ref.RequiredFields {
				if v, ok := ref.AnswerFields[f.Field]; ok {
					qv.Answer = append(qv.Answer, kv{f.Field, v})
				}
			}
		}
		for _, i := range idx {
			a := r.attemptView(&res[i], tags[i], ref)
			hrefs[i] = a.Href
			qv.Attempts = append(qv.Attempts, a)
		}
		qs = append(qs, qv)
	}
	rows := make([]rowView, len(res))
	for i := range res {
		x := &res[i]
		rows[i] = rowView{N: i + 1, V: tags[i].v, CV: tags[i].cv, R: tags[i].r, Arm: x.Arm, Session: x.Session, Position: x.Position,
			Question: x.Question, Href: hrefs[i], Attempt: x.Attempt, Kind: x.Kind, Factual: outcomeOr(x.Factual, "—"),
			Cites: tags[i].cites, Notes: tags[i].notes}
	}
	return qs, rows
}

func (r *renderer) attemptView(res *grade.Result, t resultTag, ref *spans.Question) attemptView {
	id := r.used.take(res.Question + "/" + res.Arm + "/" + strconv.Itoa(res.Session))
	a := attemptView{ID: id, Href: fragment(id), V: t.v, CV: t.cv, R: t.r, Arm: res.Arm, Session: res.Session,
		Position: res.Position, Attempt: res.Attempt, Response: res.Response, Claims: res.Claims,
		AbstentionReasons: res.AbstentionReasons, Review: res.Review}
	if res.Kind == grade.KindUnknown {
		a.Abstention = outcomeOr(res.Abstention, "null")
		a.Badges = append(a.Badges, badge{"abstention " + a.Abstention, a.Abstention})
	} else {
		f, s := outcomeOr(res.Factual, "null"), outcomeOr(res.Supported, "null")
		a.Badges = append(a.Badges, badge{"factual " + f, f}, badge{"supported " + s, s})
	}
	meta := []string{res.Kind}
	if res.Frozen {
		meta = append(meta, "frozen")
	} else {
		meta = append(meta, "not frozen")
	}
	if res.OutOfOrder {
		meta = append(meta, "out of order")
	}
	if res.StopReason != "" {
		meta = append(meta, "stop "+res.StopReason)
	}
	if tm := res.Timing; tm != nil {
		for _, ph := range []struct {
			name string
			v    *float64
		}{{"retrieval", tm.RetrievalMS}, {"embedding", tm.EmbeddingMS}, {"prompt", tm.PromptMS}, {"generation", tm.GenerationMS},
			{"total", tm.TotalMS}, {"cold start", tm.ColdStartMS}, {"indexing", tm.IndexingMS}} {
			if ph.v != nil {
				meta = append(meta, fmt.Sprintf("%s %s ms", ph.name, num(*ph.v)))
			}
		}
	}
	if len(res.Retrieval) > 0 {
		meta = append(meta, plural(len(res.Retrieval), "retrieval card"))
	}
	if res.Source != nil {
		meta = append(meta, fmt.Sprintf("%s:%d", res.Source.File, res.Source.Line))
	}
	a.Meta = strings.Join(meta, " · ")
	for _, f := range fieldOrder(res.Fields, ref) {
		fv := res.Fields[f]
		a.Fields = append(a.Fields, fieldView{Field: f, Verdict: string(fv.Verdict), Reasons: fv.Reasons, Rules: fv.Rules,
			Details: fv.Details, Value: fv.Value, Target: fv.Target})
	}
	cids := ids{}
	for i := range res.Citations {
		a.Citations = append(a.Citations, r.citeView(&res.Citations[i], id, cids, ref))
	}
	return a
}

func (r *renderer) citeView(c *grade.CitationResult, attemptID string, cids ids, ref *spans.Question) citeView {
	r.citations++
	label := "missing"
	if c.ID != nil {
		label = *c.ID
	}
	id := r.used.take(attemptID + "/" + cids.take(label))
	v := citeView{ID: id, Href: fragment(id), Label: label, R: "citation:" + code(string(c.Reason)),
		Verdict: string(c.Verdict), Reason: string(c.Reason)}
	if c.ID == nil {
		v.Label = "no citation"
	}
	if c.Quote != nil {
		v.HasQuote, v.Quote = true, *c.Quote
	}
	doc := c.Document
	if doc == "" {
		doc = c.Cited
	}
	if doc != "" {
		v.Where = doc
		if c.Page != nil {
			v.Where += fmt.Sprintf(", page %d", *c.Page)
		}
	}
	if c.Cited != "" && c.Cited != c.Document {
		v.Facts = append(v.Facts, kv{"cited as", c.Cited})
	}
	if c.Document != "" {
		v.Facts = append(v.Facts, kv{"looked up in", c.Document})
	}
	if c.Page != nil {
		v.Facts = append(v.Facts, kv{"page given", strconv.Itoa(*c.Page)})
	}
	if len(c.Spans) > 0 {
		var ss []string
		for _, s := range c.Spans {
			ss = append(ss, fmt.Sprintf("page %d [%d, %d)", s.Page, s.Start, s.End))
		}
		v.Facts = append(v.Facts, kv{"found at", strings.Join(ss, "; ")})
	}
	if c.Match != nil {
		v.Facts = append(v.Facts, kv{"match", c.Match.String()})
	}
	if c.PageCheck != "" {
		v.Facts = append(v.Facts, kv{"page check", c.PageCheck})
	}
	if len(c.Claims) > 0 {
		v.Facts = append(v.Facts, kv{"covers the claims", strings.Join(c.Claims, ", ")})
	}
	if c.Detail != "" {
		v.Facts = append(v.Facts, kv{"detail", c.Detail})
	}
	if c.Reason == grade.ReasonMissingCitation {
		return v
	}
	switch {
	case r.in.Pages == nil:
		v.Message = "No corpus was given: the page is not shown."
		return v
	case c.Document == "":
		v.Message = "The cited document is not in the corpus: no page to show."
		return v
	}
	ps := pagesOf(c)
	if len(ps) == 0 {
		v.Message = "The quote was not found and the answer gave no page: no page to show."
		return v
	}
	for _, s := range c.Spans {
		if lp := r.pages[pageKey{c.Document, s.Page}]; lp != nil && lp.hasText {
			n := len(lp.text)
			a, b := max(0, min(n, s.Start)), max(0, min(n, s.End))
			v.Stored = append(v.Stored, kv{strconv.Itoa(s.Page), string(lp.text[a:b])})
		}
	}
	for _, p := range ps {
		v.Views = append(v.Views, r.pageView(c, p, ref))
	}
	return v
}

// declared returns the declared evidence of the question on a page: the
// essential claims' evidence spans, or an unknown question's abstention
// evidence, and the legend naming them.
func declared(q *spans.Question, c *grade.CitationResult, page, textLen int) ([]mark, string) {
	if q == nil {
		return nil, ""
	}
	var marks []mark
	var names []string
	addSpan := func(s spans.Span, title string) bool {
		start, end, ok := s.Offsets()
		if !ok || s.Document != c.Document {
			return false
		}
		switch {
		case s.Page == page && s.LastPage() == page:
		case s.Page == page:
			end = textLen
		case s.LastPage() == page:
			start = 0
		default:
			return false
		}
		marks = append(marks, mark{start, end, "decl", title})
		return true
	}
	for _, cl := range q.EssentialClaims {
		name := cl.Field
		if slices.Contains(c.Claims, cl.Field) {
			name += " (covered by this citation)"
		}
		found := false
		for _, s := range cl.Evidence {
			if addSpan(s, "declared evidence: "+cl.Field) {
				found = true
			}
		}
		if found && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, s := range q.AbstentionEvidence {
		if addSpan(s, "abstention evidence") && !slices.Contains(names, "abstention evidence") {
			names = append(names, "abstention evidence")
		}
	}
	return marks, strings.Join(names, ", ")
}

func (r *renderer) pageView(c *grade.CitationResult, page int, q *spans.Question) pageView {
	v := pageView{Doc: c.Document, Page: page, MsgClass: "msg"}
	lp := r.pages[pageKey{c.Document, page}]
	switch {
	case lp == nil:
		v.Message = fmt.Sprintf("Page %d is not a page number.", page)
		return v
	case lp.err != nil && !lp.hasText:
		v.Message, v.MsgClass = fmt.Sprintf("This page could not be read: %v", lp.err), "msg err"
		return v
	case lp.err != nil:
		v.Message, v.MsgClass = fmt.Sprintf("The glyph boxes of this page could not be read, its stored text is shown instead: %v", lp.err), "msg err"
	case !lp.hasText:
		v.Message = fmt.Sprintf("The corpus has no page %d of %s.", page, c.Document)
		return v
	}
	var marks []mark
	for _, s := range c.Spans {
		if s.Page == page {
			marks = append(marks, mark{s.Start, s.End, "loc", fmt.Sprintf("located span [%d, %d)", s.Start, s.End)})
			v.Located = true
		}
	}
	decl, names := declared(q, c, page, len(lp.text))
	v.Declared = names
	if len(lp.boxes) == 0 {
		v.Text = segments(lp.text, append(decl, marks...))
		return v
	}
	sv := &svgView{W: num(lp.w), H: num(lp.h), Def: lp.def, Label: fmt.Sprintf("%s page %d", c.Document, page)}
	for _, m := range decl { // declared first, the located span drawn over it
		sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, m.class, m.title)...)
	}
	for _, m := range marks {
		sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, m.class, m.title)...)
	}
	if len(marks) > 0 { // the declared spans' edges stay visible over the located span
		for _, m := range decl {
			sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, "decl-edge", m.title)...)
		}
	}
	v.SVG = sv
	return v
}
