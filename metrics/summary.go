package metrics

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/grade"
)

// Format names the summary format.
const Format = "citecheck-summary/2"

// Policy is the scoring policy the metrics follow.
const Policy = "v1.5"

// Thresholds are the qualification rules of one session (the policy:
// "Per-session qualification requires conservative lower bounds of 90%
// supported answers, 95% citations and 90% abstention, with thirty
// answerable/ten unknown questions").
type Thresholds struct {
	Supported  *big.Rat // lower bound of supported-answer success, at least
	Citations  *big.Rat // lower bound of emitted-citation precision, at least
	Abstention *big.Rat // lower bound of clean abstention, at least
	Answerable int      // planned answerable questions per session, exactly
	Unknown    int      // planned unknown questions per session, exactly
}

// DefaultThresholds are the policy's.
func DefaultThresholds() Thresholds {
	return Thresholds{Supported: big.NewRat(9, 10), Citations: big.NewRat(95, 100), Abstention: big.NewRat(9, 10),
		Answerable: 30, Unknown: 10}
}

// Attempts counts results by attempt status.
type Attempts struct {
	OK          int `json:"ok"`
	Error       int `json:"error"`
	Timeout     int `json:"timeout"`
	Interrupted int `json:"interrupted"`
	Missing     int `json:"missing"`
	Duplicate   int `json:"duplicate"`
	Extra       int `json:"extra"`
}

func (a *Attempts) add(status string) {
	switch status {
	case grade.AttemptOK:
		a.OK++
	case grade.AttemptError:
		a.Error++
	case grade.AttemptTimeout:
		a.Timeout++
	case grade.AttemptInterrupted:
		a.Interrupted++
	case grade.AttemptMissing:
		a.Missing++
	case grade.AttemptDuplicate:
		a.Duplicate++
	case grade.AttemptExtra:
		a.Extra++
	}
}

// Total counts the results of every status.
func (a *Attempts) Total() int {
	return a.OK + a.Error + a.Timeout + a.Interrupted + a.Missing + a.Duplicate + a.Extra
}

// failed names the statuses other than ok with their counts: "1 error, 2
// missing".
func (a *Attempts) failed() string {
	var parts []string
	for _, c := range []struct {
		name string
		n    int
	}{{grade.AttemptError, a.Error}, {grade.AttemptTimeout, a.Timeout}, {grade.AttemptInterrupted, a.Interrupted},
		{grade.AttemptMissing, a.Missing}, {grade.AttemptDuplicate, a.Duplicate}, {grade.AttemptExtra, a.Extra}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	return strings.Join(parts, ", ")
}

func (a *Attempts) plus(o Attempts) {
	a.OK += o.OK
	a.Error += o.Error
	a.Timeout += o.Timeout
	a.Interrupted += o.Interrupted
	a.Missing += o.Missing
	a.Duplicate += o.Duplicate
	a.Extra += o.Extra
}

// MetricJSON is a Metric as summary.json writes it.
type MetricJSON struct {
	Metric
	LB Dec `json:"lb"`
	UB Dec `json:"ub"`
	// Wilson is [lower end of the lower bound's 95% Wilson interval,
	// upper end of the upper bound's], null when N is 0.
	Wilson *[2]Float6 `json:"wilson95"`
}

func metricJSON(m Metric) MetricJSON {
	out := MetricJSON{Metric: m, LB: Dec{m.LB()}, UB: Dec{m.UB()}}
	if lo, hi, ok := m.Wilson(); ok {
		out.Wilson = &[2]Float6{Float6(lo), Float6(hi)}
	}
	return out
}

// Group is the metrics of one arm's session, or of an arm over its
// sessions (Session 0).
type Group struct {
	Arm     string `json:"arm"`
	Session int    `json:"session,omitempty"`
	// Planned counts the planned attempts (every result but duplicates and
	// extras), Answerable and Unknown their kinds.
	Planned    int      `json:"planned"`
	Answerable int      `json:"answerable"`
	Unknown    int      `json:"unknown"`
	Attempts   Attempts `json:"attempts"`
	// Supported and Factual count answerable results, Abstention unknown
	// ones; every result counts, and one that did not answer (error,
	// timeout, interrupted, missing) or must not count (duplicate, extra)
	// is a fail. Citations count emitted citations; MissingCitations the
	// answers to answerable questions that emitted none, outside
	// precision's denominator (docs/grading.md, Readings);
	// ExternalCitations the emitted citations of sources outside the
	// corpus (external_source: a web page), counted apart since the frozen
	// corpus cannot check them.
	Supported         MetricJSON `json:"supported"`
	Factual           MetricJSON `json:"factual"`
	Abstention        MetricJSON `json:"abstention"`
	Citations         MetricJSON `json:"citations"`
	MissingCitations  int        `json:"missing_citations"`
	ExternalCitations int        `json:"external_citations"`
	// Unread counts the results whose record held citations the adapter
	// could not read (grade.Result.Unread): their verdicts are incomplete,
	// so a session with any does not qualify.
	Unread int `json:"unread"`
	// Failures lists the results that did not answer or must not count:
	// "A/2/Q07 timeout".
	Failures []string `json:"failures"`
	// OutOfOrder lists the attempts that came before work planned ahead of
	// them ("A/1/Q03"): graded as they are, flagged for the plan's audit.
	OutOfOrder []string `json:"out_of_order"`
	// Qualified and Qualification: sessions only.
	Qualified     *bool    `json:"qualified,omitempty"`
	Qualification []string `json:"qualification,omitempty"`
	// Reviewed: the figures after source review, when reviews were
	// applied (Summary.AddReviewed).
	Reviewed *Reviewed `json:"reviewed,omitempty"`

	sup, fac, abs, cit Metric
	frozen             bool
}

func (g *Group) add(r *grade.Result) {
	g.Attempts.add(r.Attempt)
	if r.Attempt != grade.AttemptDuplicate && r.Attempt != grade.AttemptExtra {
		g.Planned++
		if r.Kind == grade.KindAnswerable {
			g.Answerable++
		} else {
			g.Unknown++
		}
	}
	if r.Attempt != grade.AttemptOK {
		g.Failures = append(g.Failures, fmt.Sprintf("%s/%d/%s %s", r.Arm, r.Session, r.Question, r.Attempt))
	}
	if r.OutOfOrder {
		g.OutOfOrder = append(g.OutOfOrder, fmt.Sprintf("%s/%d/%s", r.Arm, r.Session, r.Question))
	}
	if r.Kind == grade.KindAnswerable {
		g.sup.Add(outcome(r.Supported))
		g.fac.Add(outcome(r.Factual))
	} else {
		g.abs.Add(outcome(r.Abstention))
	}
	for _, c := range r.Citations {
		switch c.Reason {
		case grade.ReasonMissingCitation:
			g.MissingCitations++
			continue
		case grade.ReasonExternalSource:
			g.ExternalCitations++
			continue
		}
		g.cit.Add(string(c.Verdict))
	}
	if len(r.Unread) > 0 {
		g.Unread++
	}
	g.frozen = g.frozen && r.Frozen
}

func outcome(o *grade.Outcome) string {
	if o == nil {
		return "fail" // a result without its verdict counts as a failure
	}
	return string(*o)
}

func (g *Group) plus(o *Group) {
	g.Planned += o.Planned
	g.Answerable += o.Answerable
	g.Unknown += o.Unknown
	g.Attempts.plus(o.Attempts)
	g.sup.Plus(o.sup)
	g.fac.Plus(o.fac)
	g.abs.Plus(o.abs)
	g.cit.Plus(o.cit)
	g.MissingCitations += o.MissingCitations
	g.ExternalCitations += o.ExternalCitations
	g.Unread += o.Unread
	g.Failures = append(g.Failures, o.Failures...)
	g.OutOfOrder = append(g.OutOfOrder, o.OutOfOrder...)
	g.frozen = g.frozen && o.frozen
}

func (g *Group) finish() {
	g.Supported, g.Factual, g.Abstention, g.Citations = metricJSON(g.sup), metricJSON(g.fac), metricJSON(g.abs), metricJSON(g.cit)
	if g.Failures == nil {
		g.Failures = []string{}
	}
	if g.OutOfOrder == nil {
		g.OutOfOrder = []string{}
	}
	// By arm, session (as a number) and question: the same summary
	// whatever order the results came in.
	slices.SortStableFunc(g.Failures, compareAttemptIDs)
	slices.SortStableFunc(g.OutOfOrder, compareAttemptIDs)
}

// compareAttemptIDs orders "ARM/SESSION/QUESTION[ STATUS]" by arm, then
// session as a number, then the rest.
func compareAttemptIDs(a, b string) int {
	aa, as, ar := splitAttemptID(a)
	ba, bs, br := splitAttemptID(b)
	return cmp.Or(strings.Compare(aa, ba), cmp.Compare(as, bs), strings.Compare(ar, br))
}

func splitAttemptID(id string) (arm string, session int, rest string) {
	arm, after, _ := strings.Cut(id, "/")
	num, rest, _ := strings.Cut(after, "/")
	session, _ = strconv.Atoi(num)
	return arm, session, rest
}

// OutsidePlan reports whether every result of the group is extra: an arm
// or session the plan does not have, which is listed apart from the
// planned sessions rather than as one of them.
func (g *Group) OutsidePlan() bool {
	return g.Attempts.Extra > 0 && g.Attempts.Extra == g.Attempts.Total()
}

// qualify applies the thresholds to a session.
func (g *Group) qualify(t Thresholds) {
	var why []string
	check := func(name string, m Metric, min *big.Rat) {
		lb := m.LB()
		switch {
		case lb == nil:
			why = append(why, fmt.Sprintf("no %s: a zero denominator cannot qualify", name))
		case lb.Cmp(min) < 0:
			// More decimals until the bound no longer prints as the
			// threshold: "95.0% < 95.0%" would say nothing (113/119 is 94.96%).
			l, t := Percent(lb), Percent(min)
			for d := 2; l == t && d <= 6; d++ {
				l, t = percentDecimals(lb, d), percentDecimals(min, d)
			}
			why = append(why, fmt.Sprintf("%s lower bound %s < %s", name, l, t))
		}
	}
	check("supported", g.sup, t.Supported)
	check("citations", g.cit, t.Citations)
	check("abstention", g.abs, t.Abstention)
	if g.Answerable != t.Answerable || g.Unknown != t.Unknown {
		why = append(why, fmt.Sprintf("%d answerable and %d unknown planned questions, not %d and %d", g.Answerable, g.Unknown, t.Answerable, t.Unknown))
	}
	if !g.frozen {
		why = append(why, "not graded against a frozen lock")
	}
	if g.Unread > 0 {
		why = append(why, fmt.Sprintf("results with citations not read: %d (their verdicts are incomplete)", g.Unread))
	}
	if n := len(g.Failures); n > 0 {
		why = append(why, fmt.Sprintf("attempts counted as failures: %s", g.Attempts.failed()))
	}
	ok := len(why) == 0
	g.Qualified, g.Qualification = &ok, why
	if g.Qualification == nil {
		g.Qualification = []string{}
	}
}

// Summary is summary.json.
type Summary struct {
	Format     string         `json:"format"`
	Policy     string         `json:"policy"`
	Thresholds ThresholdsJSON `json:"thresholds"`
	Sessions   []*Group       `json:"sessions"`
	// OutsidePlan are the groups of an arm and session the plan does not
	// have, every result extra (Group.OutsidePlan): never a session, never
	// qualified, counted as failures in their arm's pooled group.
	OutsidePlan []*Group         `json:"outside_plan"`
	Arms        []*Group         `json:"arms"`
	Comparison  *Comparison      `json:"comparison,omitempty"`
	Latency     []Latency        `json:"latency"`
	StopReason  map[string]Tally `json:"stop_reasons"`
	// Reviews: the reviews applied (AddReviewed); absent without.
	Reviews *Reviews `json:"reviews,omitempty"`
}

// ThresholdsJSON are the thresholds a summary applied.
type ThresholdsJSON struct {
	Supported  Dec `json:"supported"`
	Citations  Dec `json:"citations"`
	Abstention Dec `json:"abstention"`
	Answerable int `json:"answerable"`
	Unknown    int `json:"unknown"`
}

// Tally counts by name; encoding/json writes its keys sorted.
type Tally map[string]int

// Builder accumulates results into a Summary; results may come in any
// order, the summary's order is by arm and session.
type Builder struct {
	sessions map[string]map[int]*Group
	lat      *latencies
	stops    map[string]Tally
}

// NewBuilder starts a summary.
func NewBuilder() *Builder {
	return &Builder{sessions: map[string]map[int]*Group{}, lat: newLatencies(), stops: map[string]Tally{}}
}

// Add counts one result.
func (b *Builder) Add(r *grade.Result) {
	byS := b.sessions[r.Arm]
	if byS == nil {
		byS = map[int]*Group{}
		b.sessions[r.Arm] = byS
	}
	g := byS[r.Session]
	if g == nil {
		g = &Group{Arm: r.Arm, Session: r.Session, frozen: true}
		byS[r.Session] = g
	}
	g.add(r)
	b.lat.add(r)
	if r.Attempt == grade.AttemptOK || r.Attempt == grade.AttemptError || r.Attempt == grade.AttemptTimeout || r.Attempt == grade.AttemptInterrupted {
		t := b.stops[r.Arm]
		if t == nil {
			t = Tally{}
			b.stops[r.Arm] = t
		}
		reason := r.StopReason
		if reason == "" {
			reason = "unavailable"
		}
		t[reason]++
	}
}

// Summary finishes the summary: sessions sorted by arm and session and
// qualified by t, the groups outside the plan apart from them, arms
// pooled over both, latency per arm and phase.
func (b *Builder) Summary(t Thresholds) *Summary {
	s := &Summary{Format: Format, Policy: Policy, Sessions: []*Group{}, OutsidePlan: []*Group{}, Arms: []*Group{}, StopReason: b.stops,
		Thresholds: ThresholdsJSON{Dec{t.Supported}, Dec{t.Citations}, Dec{t.Abstention}, t.Answerable, t.Unknown}}
	arms := make([]string, 0, len(b.sessions))
	for a := range b.sessions {
		arms = append(arms, a)
	}
	sort.Strings(arms)
	for _, a := range arms {
		var ss []int
		for n := range b.sessions[a] {
			ss = append(ss, n)
		}
		sort.Ints(ss)
		var groups []*Group
		for _, n := range ss {
			g := b.sessions[a][n]
			g.finish()
			if g.OutsidePlan() {
				s.OutsidePlan = append(s.OutsidePlan, g)
			} else {
				g.qualify(t)
				s.Sessions = append(s.Sessions, g)
			}
			groups = append(groups, g)
		}
		s.Arms = append(s.Arms, Pool(a, groups))
	}
	s.Latency = b.lat.summary()
	return s
}

// Pool counts the results of groups (of a Summary) as one group named
// arm, with no session: an arm over its sessions, or every arm ("") for
// grade's overall row. It is never qualified.
func Pool(arm string, groups []*Group) *Group {
	pooled := &Group{Arm: arm, frozen: true}
	for _, g := range groups {
		pooled.plus(g)
	}
	pooled.finish()
	return pooled
}

// Reasons joins a session's qualification failures for a table cell.
func (g *Group) Reasons() string { return strings.Join(g.Qualification, "; ") }

// The plan's accounting flags: what grading against a plan found beside
// the run's own statuses.
const (
	FlagMissing    = grade.AttemptMissing   // planned, never run
	FlagDuplicate  = grade.AttemptDuplicate // a second record of a planned attempt
	FlagExtra      = grade.AttemptExtra     // a record the plan does not have
	FlagOutOfOrder = "out_of_order"         // a record before work planned ahead of it
)

// Flag is one of the plan's accounting flags and the attempts it flags
// ("A/2/Q07").
type Flag struct {
	Name     string
	Attempts []string
}

// Accounting lists every accounting flag (missing, duplicate, extra,
// out_of_order, in that order, each even when it flags nothing) with the
// attempts it flags, in the order of the sessions, then of the groups
// outside the plan.
func (s *Summary) Accounting() []Flag {
	flags := []Flag{{Name: FlagMissing}, {Name: FlagDuplicate}, {Name: FlagExtra}, {Name: FlagOutOfOrder}}
	for _, g := range slices.Concat(s.Sessions, s.OutsidePlan) {
		for _, f := range g.Failures {
			at := strings.LastIndexByte(f, ' ')
			for i := range flags[:3] {
				if f[at+1:] == flags[i].Name {
					flags[i].Attempts = append(flags[i].Attempts, f[:at])
				}
			}
		}
		flags[3].Attempts = append(flags[3].Attempts, g.OutOfOrder...)
	}
	return flags
}
