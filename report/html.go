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
	"strconv"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/review"
	"github.com/citecheck/citecheck/spans"
)

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
	// Review are the unresolved items of the results (package review:
	// Set.Items, or Set.Blind), listed in the page's review mode, each
	// with its content, verdict buttons and a note, and a button that
	// downloads the decisions as the JSON Lines "citecheck report
	// --reviews" reads. ReviewNote says why there are none when Review is
	// empty (no lock, corpus or reference given).
	Review     []review.Item
	ReviewNote string
	// ReviewOnly writes the review mode alone: no metrics, results,
	// questions or title ("citecheck review --html"); with blinded items
	// (review.Set.Blind) nothing on the page tells the systems apart.
	// Summary may then be nil.
	ReviewOnly bool
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
	if in.Summary == nil && !in.ReviewOnly {
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
	// The review mode.
	ReviewOnly, Blinded bool
	ReviewItems         []reviewView
	ReviewIntro         string
	ReviewNote          string
	ReviewsText         string // what the applied reviews decided, when any
}

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
	"envelope-note", "f-verdict", "f-cverdict", "f-reason", "f-arm", "f-reset", "shown", "open-all", "close-all", "report-data",
	"review", "rv-reviewer", "rv-blind", "rv-download", "rv-count"}

func buildHTML(in HTMLInput) (*htmlPage, error) {
	title := in.Title
	if title == "" {
		title = "results"
	}
	p := &htmlPage{Title: title, CSP: contentSecurityPolicy(), CSS: template.CSS(htmlCSS), JS: template.JS(htmlJS),
		NoCorpus: in.Pages == nil, DeadlineS: metrics.DeadlineMS / 1000, ReviewOnly: in.ReviewOnly, Blinded: blinded(in.Review), ReviewIntro: reviewIntro, ReviewNote: in.ReviewNote}
	if in.ReviewOnly {
		// The results folders' names may name the systems.
		p.Title = "review"
	} else {
		summaryViews(p, in.Summary)
	}

	used := ids{}
	for _, id := range fixedIDs {
		used.take(id)
	}
	r := &renderer{in: in, used: used, questions: map[string]*spans.Question{}, pages: map[pageKey]*loadedPage{}, reasons: map[string]int{}}
	if in.Reference != nil {
		for i := range in.Reference.Questions {
			q := &in.Reference.Questions[i]
			r.questions[q.ID] = q
		}
	}
	r.loadPages()
	p.Defs = r.defs
	p.Warnings = r.warnings
	if !in.ReviewOnly {
		p.Questions, p.Results = r.questionViews()
		p.Reasons = r.reasonOptions()
		p.Counts = countsText(in.Results)
	}
	p.ReviewItems = r.reviewViews()

	data, err := json.Marshal(struct {
		Results   int `json:"results"`
		Citations int `json:"citations"`
	}{len(p.Results), r.citations})
	if err != nil {
		return nil, err
	}
	p.Data = template.JS(data) // encoding/json escapes <, > and & as \u003c, \u003e, \u0026
	return p, nil
}

// summaryViews fills the page's metric tables, comparison and latency
// from the summary.
func summaryViews(p *htmlPage, s *metrics.Summary) {
	p.Format, p.Policy = s.Format, s.Policy
	if s.Reviews != nil {
		p.ReviewsText = reviewFiles(s.Reviews) + ": " + reviewsText(s.Reviews)
	}
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
}

// countsText counts the results, questions, arms and sessions, and how
// many were graded against a frozen lock.
func countsText(results []grade.Result) string {
	frozen := 0
	arms, sessions, questions := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range results {
		res := &results[i]
		arms[res.Arm] = true
		sessions[res.Arm+"\x00"+strconv.Itoa(res.Session)] = true
		questions[res.Question] = true
		if res.Frozen {
			frozen++
		}
	}
	lock := "none graded against a frozen lock"
	switch {
	case len(results) > 0 && frozen == len(results):
		lock = "all graded against a frozen lock"
	case frozen > 0:
		lock = fmt.Sprintf("%d graded against a frozen lock", frozen)
	}
	return fmt.Sprintf("%s over %s, %s and %s; %s.", plural(len(results), "result"), plural(len(questions), "question"),
		plural(len(arms), "arm"), plural(len(sessions), "session"), lock)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
