package review

import (
	"fmt"
	"maps"
	"slices"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

// ErrContent: a result cannot be bound to content, since the reference or
// the corpus given is not the one it was graded against. It is an input
// fault of the caller's choice of inputs.
var ErrContent = inputerr.New("results and evaluation do not match")

// Item is one distinct unresolved verdict to review: its content, hashed,
// and where it occurs. Identical content in several attempts is one item.
type Item struct {
	Hash     string  `json:"hash"`
	Kind     string  `json:"kind"`
	Question string  `json:"question"`
	Reason   string  `json:"reason"` // the grader's reasons at its first occurrence, joined by ", "
	Content  Content `json:"content"`
	// Attempts are where it occurs, in results order; left out when
	// blinded.
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Attempt is one occurrence of an item: the attempt and, for a citation,
// its id in the answer, for a field its name.
type Attempt struct {
	Arm      string `json:"arm"`
	Session  int    `json:"session"`
	Position int    `json:"position"`
	Citation string `json:"citation,omitempty"`
	Field    string `json:"field,omitempty"`
}

// The kinds of item.
const (
	KindCitation   = "citation"
	KindField      = "field"
	KindAbstention = "abstention"
)

// occurrence is where a verdict sits: results[result], and its citation
// index or field name (neither for an abstention).
type occurrence struct {
	result   int
	citation int
	field    string
}

// Set is the verdicts of one evaluation's results by content: the
// unresolved ones as items, and the hashes of those the grader decided
// (which no review may touch) and of those no review can bind (citations
// of sources outside the corpus).
type Set struct {
	results []grade.Result
	items   []*entry
	byHash  map[string]*entry
	auto    map[string]grade.Outcome // hash -> the grader's verdict, first seen
	outside map[string]bool
	// supports holds, per result and citation, the indices of the claims
	// a pass of it supports.
	supports map[[2]int][]int
}

type entry struct {
	Item
	occ []occurrence
}

// Collect binds every verdict of the results that ran (attempt ok) to its
// content, with the reference and page texts they were graded against,
// and returns them by hash. The results are not changed. A question the
// reference lacks, or a located span the pages do not hold, wraps
// ErrContent.
func Collect(results []grade.Result, ref *spans.Reference, pages Pages) (*Set, error) {
	b := &builder{questions: map[string]*spans.Question{}, pages: pages}
	for i := range ref.Questions {
		b.questions[ref.Questions[i].ID] = &ref.Questions[i]
	}
	s := &Set{results: results, byHash: map[string]*entry{}, auto: map[string]grade.Outcome{}, outside: map[string]bool{},
		supports: map[[2]int][]int{}}
	for i := range results {
		r := &results[i]
		if r.Attempt != grade.AttemptOK {
			continue // its verdicts are failures by its status, not by content
		}
		q, err := b.question(r.Question)
		if err != nil {
			return nil, fmt.Errorf("review: %s: %w", r, err)
		}
		if err := s.collectResult(b, q, i); err != nil {
			return nil, fmt.Errorf("review: %s: %w", r, err)
		}
	}
	return s, nil
}

func (s *Set) collectResult(b *builder, q *spans.Question, i int) error {
	r := &s.results[i]
	for k := range r.Citations {
		c := &r.Citations[k]
		if c.ID == nil {
			continue // the missing-citation entry: a fail by rule, with no content
		}
		content, claims, err := b.citation(q, c)
		if err != nil {
			return err
		}
		s.supports[[2]int{i, k}] = claims
		if c.Reason == grade.ReasonExternalSource {
			s.outside[content.Hash()] = true
			continue
		}
		s.add(content, c.Verdict, string(c.Reason), occurrence{result: i, citation: k})
	}
	for _, name := range slices.Sorted(maps.Keys(r.Fields)) {
		fv := r.Fields[name]
		s.add(b.field(q, name, &fv), fv.Verdict, reasonOf(fv.Reasons), occurrence{result: i, citation: -1, field: name})
	}
	if r.Kind == grade.KindUnknown && r.Abstention != nil {
		s.add(b.abstention(q, r), *r.Abstention, reasonOf(r.AbstentionReasons), occurrence{result: i, citation: -1})
	}
	return nil
}

// add files one verdict's content: an unresolved one under its item, a
// decided one as the grader's.
func (s *Set) add(c Content, verdict grade.Outcome, reason string, at occurrence) {
	h := c.Hash()
	if verdict != grade.Unresolved {
		if _, ok := s.auto[h]; !ok {
			s.auto[h] = verdict
		}
		return
	}
	e := s.byHash[h]
	if e == nil {
		e = &entry{Item: Item{Hash: h, Kind: c.Kind, Question: c.Question.ID, Reason: reason, Content: c}}
		s.byHash[h] = e
		s.items = append(s.items, e)
	}
	r := &s.results[at.result]
	a := Attempt{Arm: r.Arm, Session: r.Session, Position: r.Position, Field: at.field}
	if at.citation >= 0 {
		a.Citation = idOf(&r.Citations[at.citation])
	}
	e.Attempts = append(e.Attempts, a)
	e.occ = append(e.occ, at)
}

// Items lists the unresolved items in the order of their first
// occurrence in the results, each with the attempts it occurs in.
func (s *Set) Items() []Item {
	out := make([]Item, len(s.items))
	for i, e := range s.items {
		out[i] = e.Item
	}
	return out
}

// Blind lists the unresolved items without their attempts (nothing of an
// item then tells the systems apart: see Content) in a seeded shuffle:
// the hashes sorted bytewise, then permuted as package plan permutes
// question ids (plan.Permutation, PCG-DXSM seeded with seed and stream 0,
// Fisher-Yates). The order depends on the items and the seed only.
func (s *Set) Blind(seed uint64) []Item {
	hashes := make([]string, len(s.items))
	for i, e := range s.items {
		hashes[i] = e.Hash
	}
	slices.Sort(hashes)
	out := make([]Item, 0, len(hashes))
	for _, h := range plan.Permutation(hashes, seed, 0) {
		it := s.byHash[h].Item
		it.Attempts = nil
		out = append(out, it)
	}
	return out
}

// Verdicts counts the unresolved verdicts the items stand for (an item
// that occurs in three attempts is three).
func (s *Set) Verdicts() int {
	n := 0
	for _, e := range s.items {
		n += len(e.occ)
	}
	return n
}
