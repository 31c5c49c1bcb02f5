package metrics

import (
	"strconv"

	"github.com/citecheck/citecheck/grade"
)

// FormatReviewed names summary.json when reviews were applied: format
// /2 and, beside every automatic figure, each group's Reviewed figures and
// the summary's Reviews. A summary without reviews stays /2, byte for
// byte.
const FormatReviewed = "citecheck-summary/3"

// Reviewed are a group's figures after source review (package review): the
// same four metrics, counted by the same code from the reviewed results,
// and, for a session, its qualification by the same thresholds.
type Reviewed struct {
	Supported     MetricJSON `json:"supported"`
	Factual       MetricJSON `json:"factual"`
	Abstention    MetricJSON `json:"abstention"`
	Citations     MetricJSON `json:"citations"`
	Qualified     *bool      `json:"qualified,omitempty"`
	Qualification []string   `json:"qualification,omitempty"`
}

// Reviews says which reviews a summary applied and what they decided.
type Reviews struct {
	Files []ReviewFile `json:"files"`
	// Items counts the unresolved items of the results (distinct content);
	// Decided those the decisions resolved, Undecided those no decision
	// names, Disagreements those on which reviewers differ (left
	// unresolved).
	Items         int            `json:"items"`
	Decided       int            `json:"decided"`
	Undecided     int            `json:"undecided"`
	Disagreements []Disagreement `json:"disagreements"`
	Reviewers     []string       `json:"reviewers"`
	// Agreement compares each pair of reviewers on the items both decided.
	Agreement []Agreement `json:"agreement"`
	// Comparison is the paired comparison after review, when the summary
	// has one.
	Comparison *Comparison `json:"comparison,omitempty"`
}

// ReviewFile is one decisions file applied.
type ReviewFile struct {
	File      string `json:"file"`
	BLAKE3    string `json:"blake3"`
	Decisions int    `json:"decisions"`
}

// Disagreement is an item reviewers decided differently: reviewer to
// verdict.
type Disagreement struct {
	Hash     string            `json:"hash"`
	Kind     string            `json:"kind"`
	Question string            `json:"question"`
	Verdicts map[string]string `json:"verdicts"`
}

// Agreement is two reviewers' agreement on the items both decided:
// the share agreed and Cohen's kappa over positive (pass, correct) and
// negative (fail, incorrect) verdicts, null when undefined.
type Agreement struct {
	Reviewers [2]string `json:"reviewers"`
	Items     int       `json:"items"`
	Agreed    int       `json:"agreed"`
	Share     Dec       `json:"share"`
	Kappa     Dec       `json:"kappa"`
}

// AddReviewed counts reviewed, the results after review, by the Builder
// that counted s's, and adds the figures to each group of s (sessions,
// groups outside the plan, arms) as its Reviewed, qualifying sessions by
// t; s's own figures are left as they are. It records rv and names the
// summary FormatReviewed.
func (s *Summary) AddReviewed(reviewed []grade.Result, t Thresholds, rv *Reviews) {
	b := NewBuilder()
	for i := range reviewed {
		b.Add(&reviewed[i])
	}
	after := b.Summary(t)
	byKey := map[string]*Group{}
	key := func(g *Group) string { return g.Arm + "\x00" + strconv.Itoa(g.Session) }
	for _, gs := range [][]*Group{after.Sessions, after.OutsidePlan, after.Arms} {
		for _, g := range gs {
			byKey[key(g)] = g
		}
	}
	for _, gs := range [][]*Group{s.Sessions, s.OutsidePlan, s.Arms} {
		for _, g := range gs {
			if a := byKey[key(g)]; a != nil {
				g.Reviewed = &Reviewed{Supported: a.Supported, Factual: a.Factual, Abstention: a.Abstention, Citations: a.Citations,
					Qualified: a.Qualified, Qualification: a.Qualification}
			}
		}
	}
	s.Format, s.Reviews = FormatReviewed, rv
}
