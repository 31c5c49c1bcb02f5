package review

import (
	"fmt"
	"slices"
	"sort"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/metrics"
)

// maxRefusals bounds the faults Apply lists, so that a file of another
// evaluation's decisions is named, not printed whole.
const maxRefusals = 20

// Applied is what decisions make of a Set's results.
type Applied struct {
	// Results are copies of the results with every decided item's verdict
	// set at each of its occurrences, the claims' support and the derived
	// verdicts recomputed; in the Set's order. The Set's results are not
	// changed.
	Results []grade.Result
	// Items counts the unresolved items; Decided those every decision on
	// agrees, Undecided those no decision names, Disagreements those on
	// which reviewers differ (left unresolved).
	Items, Decided, Undecided int
	Disagreements             []metrics.Disagreement
	// Reviewers are every reviewer named, sorted; Agreement compares each
	// pair on the items both decided.
	Reviewers []string
	Agreement []metrics.Agreement
}

// Apply checks every decision against the set and applies those that
// stand. A decision whose hash matches no unresolved item (one of other
// results, or of content that changed after review), one on a verdict the
// grader decided, on a citation of a source outside the corpus, with a
// verdict of the other kind (correct for a citation), or a reviewer's
// second decision on one item is refused: the error lists every such
// decision as an *inputerr.Error naming its file and line, wrapping
// ErrRefused, and nothing is applied. A review resolves what the rules
// left open and never overrides them.
func (s *Set) Apply(ds []Decision) (*Applied, error) {
	byItem, err := s.check(ds)
	if err != nil {
		return nil, err
	}
	out := &Applied{Items: len(s.items), Disagreements: []metrics.Disagreement{}}
	decided := map[string]string{}
	for _, e := range s.items {
		got := byItem[e.Hash]
		verdicts := map[string]string{}
		for _, d := range got {
			verdicts[d.Reviewer] = d.Verdict
		}
		switch distinct(verdicts) {
		case 0:
			out.Undecided++
		case 1:
			out.Decided++
			decided[e.Hash] = got[0].Verdict
		default:
			out.Disagreements = append(out.Disagreements, metrics.Disagreement{Hash: e.Hash, Kind: e.Kind, Question: e.Question, Verdicts: verdicts})
		}
	}
	out.Results = s.reviewed(decided)
	out.Reviewers, out.Agreement = agreement(byItem)
	return out, nil
}

func distinct(verdicts map[string]string) int {
	seen := map[string]bool{}
	for _, v := range verdicts {
		seen[v] = true
	}
	return len(seen)
}

// check refuses what Apply refuses and groups the rest by item hash.
func (s *Set) check(ds []Decision) (map[string][]Decision, error) {
	var faults inputerr.List[*inputerr.Error]
	refuse := func(d *Decision, key, format string, args ...any) {
		if len(faults.Errs) == maxRefusals {
			faults.Omitted++
			return
		}
		faults.Errs = append(faults.Errs, &inputerr.Error{File: d.File, Line: d.Line, Field: key,
			Err: fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))})
	}
	byItem := map[string][]Decision{}
	for i := range ds {
		d := &ds[i]
		e := s.byHash[d.Hash]
		if e == nil {
			refuse(d, "hash", "%s", s.notAnItem(d.Hash))
			continue
		}
		if want := verdictsOf(e.Kind); !slices.Contains(want[:], d.Verdict) {
			refuse(d, "verdict", "%q is not a verdict of a %s: %s or %s", d.Verdict, e.Kind, want[0], want[1])
			continue
		}
		if j := slices.IndexFunc(byItem[d.Hash], func(o Decision) bool { return o.Reviewer == d.Reviewer }); j >= 0 {
			o := byItem[d.Hash][j]
			refuse(d, "reviewer", "%q decided this item already, at %s:%d: one decision per reviewer and item", d.Reviewer, o.File, o.Line)
			continue
		}
		byItem[d.Hash] = append(byItem[d.Hash], *d)
	}
	if len(faults.Errs) > 0 {
		return nil, &faults
	}
	return byItem, nil
}

func (s *Set) notAnItem(h string) string {
	if v, ok := s.auto[h]; ok {
		return fmt.Sprintf("%s is a verdict the grader decided (%s): a review resolves only what the rules left unresolved, it never overrides them", h, v)
	}
	if s.outside[h] {
		return fmt.Sprintf("%s is a citation of a source outside the corpus: its content is not pinned, so no review can be bound to it", h)
	}
	return fmt.Sprintf("%s matches no unresolved item of these results (a decision on other results, or on content that changed after it was reviewed: list the items again with citecheck review)", h)
}

// verdictsOf are the verdicts a decision on an item of kind may give, the
// positive first.
func verdictsOf(kind string) [2]string {
	if kind == KindField {
		return [2]string{VerdictCorrect, VerdictIncorrect}
	}
	return [2]string{VerdictPass, VerdictFail}
}

// reviewed copies the results and sets each decided item's verdict at its
// occurrences, then recomputes the changed results' claims and derived
// verdicts.
func (s *Set) reviewed(decided map[string]string) []grade.Result {
	out := make([]grade.Result, len(s.results))
	for i := range s.results {
		out[i] = clone(&s.results[i])
	}
	changed := map[int]bool{}
	for _, e := range s.items {
		v, ok := decided[e.Hash]
		if !ok {
			continue
		}
		o := grade.Outcome(v)
		for _, at := range e.occ {
			r := &out[at.result]
			changed[at.result] = true
			switch {
			case at.citation >= 0:
				r.Citations[at.citation].Verdict = o
			case at.field != "":
				fv := r.Fields[at.field]
				fv.Verdict = o
				r.Fields[at.field] = fv
			default:
				r.Abstention = &o
			}
		}
	}
	for i := range changed {
		s.resupport(&out[i], i)
		out[i].Derive()
	}
	return out
}

// resupport recomputes the support of each claim the grader left
// unresolved (grade's rule: pass when a passing citation supports it; else
// unresolved when an emitted citation is unresolved; else fail). A claim
// the grader passed stays passed (a review never takes support away: a
// failing citation does not undo another's, as the grader reads it); one
// it failed
// had no unresolved citation, so no review reaches it. A citation a
// review passes supports the claims its content lists (Supports).
func (s *Set) resupport(r *grade.Result, i int) {
	orig := &s.results[i]
	for ci, cl := range orig.Claims {
		if cl.Supported != grade.Unresolved {
			continue
		}
		passed, open := false, false
		for k, c := range r.Citations {
			if c.ID == nil {
				continue
			}
			if c.Verdict == grade.Pass && orig.Citations[k].Verdict == grade.Unresolved && slices.Contains(s.supports[[2]int{i, k}], ci) {
				passed = true
			}
			open = open || c.Verdict == grade.Unresolved
		}
		switch {
		case passed:
			r.Claims[ci].Supported = grade.Pass
		case open:
			r.Claims[ci].Supported = grade.Unresolved
		default:
			r.Claims[ci].Supported = grade.Fail
		}
	}
}

// clone copies a result deeply enough that setting verdicts in the copy
// leaves the original as it is.
func clone(r *grade.Result) grade.Result {
	c := *r
	if r.Fields != nil {
		c.Fields = make(map[string]grade.FieldVerdict, len(r.Fields))
		for k, v := range r.Fields {
			c.Fields[k] = v
		}
	}
	c.Citations = slices.Clone(r.Citations)
	c.Claims = slices.Clone(r.Claims)
	return c
}

// agreement lists the reviewers and compares each pair on the items both
// decided.
func agreement(byItem map[string][]Decision) ([]string, []metrics.Agreement) {
	var reviewers []string
	for _, ds := range byItem {
		for _, d := range ds {
			if !slices.Contains(reviewers, d.Reviewer) {
				reviewers = append(reviewers, d.Reviewer)
			}
		}
	}
	sort.Strings(reviewers)
	hashes := make([]string, 0, len(byItem))
	for h := range byItem {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	out := []metrics.Agreement{}
	for i, a := range reviewers {
		for _, b := range reviewers[i+1:] {
			var va, vb []bool
			for _, h := range hashes {
				x, okA := verdictOf(byItem[h], a)
				y, okB := verdictOf(byItem[h], b)
				if okA && okB {
					va, vb = append(va, positive(x)), append(vb, positive(y))
				}
			}
			if len(va) == 0 {
				continue
			}
			agreed, share, kappa := Kappa(va, vb)
			out = append(out, metrics.Agreement{Reviewers: [2]string{a, b}, Items: len(va), Agreed: agreed,
				Share: metrics.Dec{R: share}, Kappa: metrics.Dec{R: kappa}})
		}
	}
	return reviewers, out
}

func verdictOf(ds []Decision, reviewer string) (string, bool) {
	for _, d := range ds {
		if d.Reviewer == reviewer {
			return d.Verdict, true
		}
	}
	return "", false
}

func positive(v string) bool { return v == VerdictPass || v == VerdictCorrect }
