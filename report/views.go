package report

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/spans"
)

// groupView is one row of a metric table: a session, or an arm pooled.
// As in every view the template renders, its strings are raw (the template
// escapes them) and its numbers preformatted.
type groupView struct {
	Arm, Session    string
	Mark            string // a planned session's extra attempts
	Planned         int
	Kinds, Attempts string
	Metrics         []metricView
	Qualified       string // PASS, FAIL or ""
	Reasons         []string
	// After review, when the summary applied reviews.
	RevQualified string
	RevReasons   []string
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
	Reviewed             string // the figure after review, when reviews were applied
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

// code percent-encodes a reason or verdict for the space-separated lists
// of data attributes and the filter's option values.
func code(s string) string { return url.QueryEscape(s) }

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
		addReviewed(&v, g)
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
