package typedqa

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Outcome classifies one scored item.
type Outcome string

const (
	OutcomeCorrect   Outcome = "correct"   // full credit (score 1)
	OutcomeIncorrect Outcome = "incorrect" // less than full credit
	OutcomeIllegible Outcome = "illegible" // a boolean illegibility claim
	OutcomeExcluded  Outcome = "excluded"  // blank against blank: not asked
)

// Reason codes, one per item, saying which rule decided it.
const (
	ReasonMatch               = "match"                    // exact match
	ReasonMismatch            = "mismatch"                 // a valid value that differs
	ReasonInvalidAnswer       = "invalid_answer"           // not a value of the type (e.g. "Yes", "12a")
	ReasonIllegibleClaim      = "illegible_claim"          // boolean "illegible" against a definite value
	ReasonIllegibleNotAllowed = "illegible_not_allowed"    // "illegible" on a non-boolean question
	ReasonBlankAnswer         = "blank_answer"             // blank where a value was expected
	ReasonBothBlank           = "both_blank"               // blank answer, blank ground truth
	ReasonAnswerWhereBlank    = "answer_where_truth_blank" // a value where the ground truth is blank
	ReasonPartialCredit       = "partial_credit"           // integer answer with the marker: character accuracy
	ReasonCharAccuracy        = "char_accuracy"            // string question
	ReasonListF1              = "list_f1"                  // list question
)

// illegibleToken is the one answer word that claims illegibility.
const illegibleToken = "illegible"

// Scored is the verdict on one answer.
type Scored struct {
	Outcome Outcome
	// Score is in [0, 1]; nil for an excluded item and for an
	// illegibility claim, whose weight depends on the metric.
	Score  *float64
	Reason string
	// Detail adds what a reviewer needs to check the score (edit counts,
	// list precision, recall and pairs); empty otherwise.
	Detail string
}

func scored(o Outcome, score float64, reason, detail string) Scored {
	return Scored{Outcome: o, Score: &score, Reason: reason, Detail: detail}
}

// graded is an item with a fractional score: correct only at full credit.
func graded(score float64, reason, detail string) Scored {
	if score == 1 {
		return scored(OutcomeCorrect, score, reason, detail)
	}
	return scored(OutcomeIncorrect, score, reason, detail)
}

var (
	excluded       = Scored{Outcome: OutcomeExcluded, Reason: ReasonBothBlank}
	illegibleClaim = Scored{Outcome: OutcomeIllegible, Reason: ReasonIllegibleClaim}
)

// ScoreAnswer scores one answer against one ground-truth value under q's
// rules, pre-processing both sides (docs/typed.md, Pre-processing); d
// expands words of list questions (nil: no equivalences). It fails only
// when truth is not a valid ground truth for q's type.
func ScoreAnswer(q Question, d *Dictionary, truth, answer string) (Scored, error) {
	if err := checkTruthValue(&q, truth); err != nil {
		return Scored{}, fmt.Errorf("score %s: %w", q.ID, err)
	}
	switch q.Type {
	case TypeBoolean:
		return scoreBoolean(truth, answer), nil
	case TypeInteger:
		return scoreInteger(q, truth, answer), nil
	case TypePairedInteger:
		return scorePair(truth, answer), nil
	case TypeString:
		return scoreString(truth, answer), nil
	case TypeList:
		return scoreList(q, d, truth, answer)
	}
	return Scored{}, fmt.Errorf("score %s: unknown type %q", q.ID, q.Type)
}

// blankRule settles the cases where the ground truth is blank, the same for
// booleans, integers and pairs (docs/typed.md, Booleans; docs/typed.md,
// Integers): blank answer excluded, anything else incorrect.
func blankRule(ans string) Scored {
	if ans == "" {
		return excluded
	}
	return scored(OutcomeIncorrect, 0, ReasonAnswerWhereBlank, "")
}

func scoreBoolean(truth, answer string) Scored {
	gt, ans := normalize(truth, true), normalize(answer, false)
	switch {
	case gt == "":
		return blankRule(ans)
	case ans == "":
		return scored(OutcomeIncorrect, 0, ReasonBlankAnswer, "")
	case ans == illegibleToken:
		return illegibleClaim
	case ans == gt:
		return scored(OutcomeCorrect, 1, ReasonMatch, "")
	case ans == "y" || ans == "n":
		return scored(OutcomeIncorrect, 0, ReasonMismatch, "")
	}
	return scored(OutcomeIncorrect, 0, ReasonInvalidAnswer, "")
}

func scoreInteger(q Question, truth, answer string) Scored {
	gt, ans := normalize(truth, true), normalize(answer, false)
	switch {
	case gt == "":
		return blankRule(ans)
	case ans == "":
		return scored(OutcomeIncorrect, 0, ReasonBlankAnswer, "")
	case ans == illegibleToken:
		return scored(OutcomeIncorrect, 0, ReasonIllegibleNotAllowed, "")
	case q.PartialCreditMarker != "" && strings.Contains(ans, q.PartialCreditMarker):
		acc, d, n := charAccuracy(gt, ans)
		return graded(acc, ReasonPartialCredit, editDetail(d, n))
	}
	want, _ := parseInteger(gt) // checked by checkTruthValue
	got, ok := parseInteger(ans)
	switch {
	case !ok:
		return scored(OutcomeIncorrect, 0, ReasonInvalidAnswer, "")
	case got == want:
		return scored(OutcomeCorrect, 1, ReasonMatch, "")
	}
	return scored(OutcomeIncorrect, 0, ReasonMismatch, "")
}

// parsePair reads "N | N": exactly one '|', an integer on each side after
// pre-processing. It returns the two numbers without leading zeros.
func parsePair(v string, truth bool) ([2]string, bool) {
	left, right, ok := strings.Cut(v, "|")
	if !ok || strings.Contains(right, "|") {
		return [2]string{}, false
	}
	a, okA := parseInteger(normalize(left, truth))
	b, okB := parseInteger(normalize(right, truth))
	return [2]string{a, b}, okA && okB
}

func scorePair(truth, answer string) Scored {
	gtNorm, ans := normalize(truth, true), normalize(answer, false)
	switch {
	case gtNorm == "":
		return blankRule(ans)
	case ans == "":
		return scored(OutcomeIncorrect, 0, ReasonBlankAnswer, "")
	case ans == illegibleToken:
		return scored(OutcomeIncorrect, 0, ReasonIllegibleNotAllowed, "")
	}
	want, _ := parsePair(truth, true) // checked by checkTruthValue
	got, ok := parsePair(answer, false)
	switch {
	case !ok:
		return scored(OutcomeIncorrect, 0, ReasonInvalidAnswer, "")
	case got == want:
		return scored(OutcomeCorrect, 1, ReasonMatch, "")
	case got[0] != want[0] && got[1] != want[1]:
		return scored(OutcomeIncorrect, 0, ReasonMismatch, "both values differ")
	case got[0] != want[0]:
		return scored(OutcomeIncorrect, 0, ReasonMismatch, "left value differs")
	}
	return scored(OutcomeIncorrect, 0, ReasonMismatch, "right value differs")
}

func scoreString(truth, answer string) Scored {
	gt, ans := normalize(truth, true), normalize(answer, false)
	switch {
	case gt == "" && ans == "":
		return scored(OutcomeCorrect, 1, ReasonBothBlank, "")
	case gt == "":
		return scored(OutcomeIncorrect, 0, ReasonAnswerWhereBlank, "")
	case ans == "":
		return scored(OutcomeIncorrect, 0, ReasonBlankAnswer, "")
	case ans == illegibleToken:
		return scored(OutcomeIncorrect, 0, ReasonIllegibleNotAllowed, "")
	}
	acc, d, n := charAccuracy(gt, ans)
	return graded(acc, ReasonCharAccuracy, editDetail(d, n))
}

func editDetail(d, n int) string { return fmt.Sprintf("edits=%d chars=%d", d, n) }

// listEntries splits v on '|' and pre-processes each entry: its words
// (docs/typed.md, Pre-processing, steps 1-4), the first n of them when
// the question says so, each expanded through the dictionary, joined by
// single spaces. Entries left with no word are dropped, so "a||b" and
// "a|b|" are two-entry lists and a value of only pipes or spaces is an
// empty list.
func listEntries(v string, truth bool, firstWords *int, d *Dictionary) []string {
	var out []string
	for _, part := range strings.Split(v, "|") {
		w := words(part, truth)
		if firstWords != nil && len(w) > *firstWords {
			w = w[:*firstWords]
		}
		if len(w) == 0 {
			continue
		}
		for i := range w {
			w[i] = d.expand(w[i])
		}
		out = append(out, strings.Join(w, " "))
	}
	return out
}

func scoreList(q Question, d *Dictionary, truth, answer string) (Scored, error) {
	gt := listEntries(truth, true, q.FirstWords, d)
	ans := listEntries(answer, false, q.FirstWords, d)
	switch {
	case len(gt) == 0 && len(ans) == 0:
		return scored(OutcomeCorrect, 1, ReasonBothBlank, ""), nil
	case len(gt) == 0:
		return scored(OutcomeIncorrect, 0, ReasonAnswerWhereBlank, fmt.Sprintf("answer_entries=%d", len(ans))), nil
	case len(ans) == 0:
		return scored(OutcomeIncorrect, 0, ReasonBlankAnswer, fmt.Sprintf("truth_entries=%d", len(gt))), nil
	case normalize(answer, false) == illegibleToken:
		return scored(OutcomeIncorrect, 0, ReasonIllegibleNotAllowed, ""), nil
	}
	m, err := MatchEntries(gt, ans, q.Order)
	if err != nil {
		return Scored{}, fmt.Errorf("score %s: %w", q.ID, err)
	}
	pairs := make([]string, len(m.Pairs))
	for i, p := range m.Pairs {
		pairs[i] = fmt.Sprintf("%d:%d", p[0]+1, p[1]+1)
	}
	detail := fmt.Sprintf("p=%s r=%s truth_entries=%d answer_entries=%d pairs=%s",
		formatFixed(m.Precision), formatFixed(m.Recall), len(gt), len(ans), strings.Join(pairs, ","))
	return graded(m.F1, ReasonListF1, detail), nil
}

// Item is one scored answer, with the raw values as read.
type Item struct {
	Model, Condition, Run, Document, Question string
	Type                                      Type
	Truth, Response                           string
	Scored
}

// Score scores every response against the ground truth and pools the
// runs per (model, condition, question). Each response row must have a
// ground-truth row, and each (model, condition, run) present must answer
// every ground-truth row: a missing answer is an error (write an empty
// value for a blank answer), never a silent gap. d may be nil (no
// equivalences). The report is the same for the same rows in any order.
func Score(qs *Questions, d *Dictionary, truth *Truth, resp *Responses) (*Report, error) {
	var errs errorList
	docs := map[string]bool{}
	for _, t := range truth.rows {
		docs[t.Document] = true
	}
	type run struct{ model, condition, run string }
	answered := map[run]map[truthKey]bool{}
	var items []Item
	for _, r := range resp.rows {
		q := qs.lookup(r.Question)
		if q == nil { // the responses were read against other questions
			errs.add(resp.File, r.Line, "question", fmt.Errorf("%w %q", ErrUnknownID, r.Question))
			continue
		}
		t, ok := truth.lookup(r.Document, r.Question)
		if !ok {
			if !docs[r.Document] {
				errs.addf(resp.File, r.Line, "document", "document %q has no ground truth in %s", r.Document, truth.File)
			} else {
				errs.addf(resp.File, r.Line, "question", "question %s of document %q has no ground truth in %s", r.Question, r.Document, truth.File)
			}
			continue
		}
		k := run{r.Model, r.Condition, r.Run}
		if answered[k] == nil {
			answered[k] = map[truthKey]bool{}
		}
		answered[k][truthKey{r.Document, r.Question}] = true
		s, err := ScoreAnswer(*q, d, t.Value, r.Value)
		if err != nil {
			errs.add(resp.File, r.Line, "value", err)
			continue
		}
		items = append(items, Item{
			Model: r.Model, Condition: r.Condition, Run: r.Run, Document: r.Document, Question: r.Question,
			Type: q.Type, Truth: t.Value, Response: r.Value, Scored: s,
		})
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	// Completeness, reported in sorted order so the message is stable.
	runs := make([]run, 0, len(answered))
	for k := range answered {
		runs = append(runs, k)
	}
	slices.SortFunc(runs, func(a, b run) int {
		return cmp.Or(cmp.Compare(a.model, b.model), cmp.Compare(a.condition, b.condition), compareRuns(a.run, b.run))
	})
	want := truth.Rows()
	slices.SortFunc(want, func(a, b TruthRow) int {
		return cmp.Or(cmp.Compare(a.Document, b.Document), cmp.Compare(qs.byID[a.Question], qs.byID[b.Question]))
	})
	for _, k := range runs {
		for _, t := range want {
			if !answered[k][truthKey{t.Document, t.Question}] {
				errs.add(resp.File, 0, "", fmt.Errorf("%w: model %q condition %q run %q has no answer for document %q question %s (write an empty value for a blank answer)",
					ErrMissingRow, k.model, k.condition, k.run, t.Document, t.Question))
			}
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	sortItems(qs, items)
	return &Report{Items: items, Results: aggregate(items)}, nil
}

// sortItems orders items by model, condition, question (questions-file
// order), document and run: a total order on the row key, so the output
// does not depend on input order.
func sortItems(qs *Questions, items []Item) {
	slices.SortFunc(items, func(a, b Item) int {
		return cmp.Or(
			cmp.Compare(a.Model, b.Model),
			cmp.Compare(a.Condition, b.Condition),
			cmp.Compare(qs.byID[a.Question], qs.byID[b.Question]),
			cmp.Compare(a.Document, b.Document),
			compareRuns(a.Run, b.Run),
		)
	})
}

// compareRuns orders run labels numerically when both are decimal numbers
// ("2" before "10"), as strings otherwise, numbers first; equal numbers
// written differently ("1", "01") fall back to the string order.
func compareRuns(a, b string) int {
	na, okA := parseInteger(a)
	nb, okB := parseInteger(b)
	switch {
	case okA && okB:
		return cmp.Or(cmp.Compare(len(na), len(nb)), cmp.Compare(na, nb), cmp.Compare(a, b))
	case okA:
		return -1
	case okB:
		return 1
	}
	return cmp.Compare(a, b)
}
