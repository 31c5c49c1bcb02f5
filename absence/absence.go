package absence

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/textnorm"
)

// Outcome is an abstention verdict: pass, fail or unresolved. It is the
// type of every verdict of a graded result (grade.Outcome, which adds the
// field verdicts correct and incorrect), so that grade keeps an
// abstention verdict as this package decides it.
type Outcome string

// The outcomes. Unresolved is data for review, not an error.
const (
	Pass       Outcome = "pass"
	Fail       Outcome = "fail"
	Unresolved Outcome = "unresolved"
)

// The reasons of a verdict, in the order Grade applies its rules.
const (
	ReasonCleanUnknown        = "clean_unknown"         // UNKNOWN for every field once, or one bare UNKNOWN
	ReasonRegisteredAbsence   = "registered_absence"    // a registered documentary-absence statement
	ReasonUnknownWithCitation = "unknown_with_citation" // UNKNOWN, but citations were emitted
	ReasonIncompleteUnknown   = "incomplete_unknown"    // a field missing or repeated
	ReasonExtraProse          = "extra_prose"           // prose beside the decline
	ReasonSpeculativeValue    = "speculative_value"     // a guessed or borrowed value
	ReasonFactualZero         = "factual_zero"          // "no discount", "free of charge": a fact, not an omission
	ReasonSourceSentence      = "source_sentence"       // a copied source sentence of another scope
	ReasonUnregisteredAbsence = "unregistered_absence"  // absence prose not registered, or naming another source
	ReasonOtherDecline        = "other_decline"         // decline wording other than UNKNOWN
	ReasonEmptyResponse       = "empty_response"        // nothing was answered
)

// Sources answers what the grader needs to know about the corpus.
type Sources interface {
	// Sentence reports whether text, as written, is a complete sentence of
	// one of the documents (every document when docs is empty).
	Sentence(text string, docs []string) bool
	// Mentions reports whether one of the documents (every document when
	// docs is empty) holds a value token: a number, identifier, weekday or
	// month as value/v2 reads them.
	Mentions(tok textnorm.Token, docs []string) bool
}

// Answer is a response to an unknown question, parsed by its field labels.
type Answer struct {
	// Raw is the whole response.
	Raw string
	// Labelled: the response used field labels.
	Labelled bool
	// Values are the values under each field's labels, in order. Without
	// labels, a one-field question's whole response is its value.
	Values map[string][]string
	// Preface is the text before the first label.
	Preface string
	// Citations is how many citations the answer emitted.
	Citations int
}

// Verdict is the abstention verdict of one answer.
type Verdict struct {
	Outcome Outcome
	Reasons []string
}

// Question is an unknown question prepared for grading: its wording,
// source names and registered statements normalized once.
type Question struct {
	q      *spans.Question
	docs   []string
	asked  map[string]bool            // token texts of the question
	names  [][]textnorm.Token         // source names, longest first
	stated map[string]map[string]bool // field -> registered statements, with sources folded
	labels map[string]bool            // content words of the fields' labels
}

// Prepare normalizes what grading an unknown question needs, once.
func Prepare(q *spans.Question) *Question {
	p := &Question{q: q, docs: sourceDocs(q), asked: map[string]bool{}, names: sourceNames(q), stated: map[string]map[string]bool{}, labels: map[string]bool{}}
	for _, t := range textnorm.NormalizeValue(q.Question).Tokens {
		p.asked[t.Text] = true
	}
	for _, f := range q.RequiredFields {
		for _, t := range textnorm.NormalizeValue(f.Label).Tokens {
			if t.Kind == textnorm.TokWord && utf8.RuneCountInString(t.Text) > 3 {
				p.labels[t.Text] = true
			}
		}
	}
	if q.AbsenceAudit != nil {
		for _, f := range q.RequiredFields {
			m := map[string]bool{}
			for _, s := range q.AbsenceAudit.Statements.For(f.Field) {
				m[withSources(textnorm.NormalizeValue(s), p.names)] = true
			}
			p.stated[f.Field] = m
		}
	}
	return p
}

// Grade is Prepare(q).Grade(a, src).
func Grade(q *spans.Question, a Answer, src Sources) Verdict {
	return Prepare(q).Grade(a, src)
}

// Grade judges an answer to an unknown question (expected_abstention) by
// the policy's abstention rules as docs/grading.md states them ("Unknown
// questions"), first match wins:
//
//  1. nothing answered: fail empty_response;
//  2. one bare UNKNOWN, in any case, for any number of fields: pass
//     clean_unknown, or unresolved unknown_with_citation when citations
//     were emitted;
//  3. any field value (or the unlabelled response) with a guessed value:
//     fail speculative_value (see guessed), unless it is a complete source
//     sentence;
//  4. every field once, each UNKNOWN or a registered statement, and no
//     asserting preface: pass (clean_unknown or registered_absence); with
//     an UNKNOWN and citations: unresolved unknown_with_citation;
//     registered prose with citations still passes;
//  5. every given value UNKNOWN or registered but a field missing or
//     repeated: unresolved incomplete_unknown;
//  6. otherwise, for the first other value: a complete source sentence is
//     an additional assertion, unresolved source_sentence; a factual zero
//     fails; decline wording other than UNKNOWN, UNKNOWN with extra prose
//     and unregistered absence prose (or prose naming another source) are
//     unresolved.
func (p *Question) Grade(a Answer, src Sources) Verdict {
	q := p.q
	memo := map[string]textnorm.Value{}
	norm := func(s string) textnorm.Value {
		v, ok := memo[s]
		if !ok {
			v = textnorm.NormalizeValue(s)
			memo[s] = v
		}
		return v
	}
	empty := strings.TrimSpace(a.Raw) == ""
	for _, vs := range a.Values {
		for _, v := range vs {
			empty = empty && strings.TrimSpace(v) == ""
		}
	}
	if empty {
		return Verdict{Fail, []string{ReasonEmptyResponse}}
	}
	if whole := norm(a.Raw); whole.Unknown() {
		if sourceLineValue(a.Raw) {
			return Verdict{Unresolved, []string{ReasonExtraProse}} // S14: what the source line says is prose beside UNKNOWN
		}
		if a.Citations > 0 {
			return Verdict{Unresolved, []string{ReasonUnknownWithCitation}}
		}
		return Verdict{Pass, []string{ReasonCleanUnknown}}
	}
	type item struct {
		field string
		text  string
	}
	var items []item
	if !a.Labelled && len(q.RequiredFields) != 1 {
		items = append(items, item{"", a.Raw})
	} else {
		for _, f := range q.RequiredFields {
			for _, v := range a.Values[f.Field] {
				items = append(items, item{f.Field, v})
			}
		}
	}
	if a.Preface != "" {
		items = append(items, item{"", a.Preface})
	}
	// Rule 3: a guessed value anywhere fails; a complete source sentence
	// is not a guess but an additional assertion (rule 6).
	for _, it := range items {
		if isSentence(it.text) && src.Sentence(strings.TrimSpace(it.text), nil) {
			continue
		}
		whole := norm(it.text)
		hedge := hedged(whole)
		parts := clauses(it.text)
		if startsUnknown(whole) {
			parts = []string{it.text} // what follows UNKNOWN explains it (S14)
		}
		for _, c := range parts {
			if p.guessed(norm(c), hedge, src) {
				return Verdict{Fail, []string{ReasonSpeculativeValue}}
			}
		}
	}
	unknowns, registered, others := 0, 0, []item{}
	for _, it := range items {
		v := norm(it.text)
		switch {
		case it.field != "" && v.Unknown():
			unknowns++
		case it.field != "" && p.stated[it.field][withSources(v, p.names)]:
			registered++
		case it.field == "" && it.text == a.Preface && !p.asserts(v):
			// A preface that asserts nothing is kept for review only.
		default:
			others = append(others, it)
		}
	}
	if len(others) == 0 {
		complete := a.Labelled || len(q.RequiredFields) == 1
		for _, f := range q.RequiredFields {
			if len(a.Values[f.Field]) != 1 {
				complete = false
			}
		}
		switch {
		case !complete:
			return Verdict{Unresolved, []string{ReasonIncompleteUnknown}}
		case unknowns > 0 && a.Citations > 0:
			return Verdict{Unresolved, []string{ReasonUnknownWithCitation}}
		case registered > 0:
			return Verdict{Pass, []string{ReasonRegisteredAbsence}}
		default:
			return Verdict{Pass, []string{ReasonCleanUnknown}}
		}
	}
	it := others[0]
	v := norm(it.text)
	switch {
	case isSentence(it.text) && src.Sentence(strings.TrimSpace(it.text), nil):
		return Verdict{Unresolved, []string{ReasonSourceSentence}}
	case zeroClause(it.text, norm):
		return Verdict{Fail, []string{ReasonFactualZero}}
	case startsUnknown(v):
		return Verdict{Unresolved, []string{ReasonExtraProse}}
	case declinePhrase(v) && !absenceLanguage(v):
		return Verdict{Unresolved, []string{ReasonOtherDecline}}
	}
	return Verdict{Unresolved, []string{ReasonUnregisteredAbsence}}
}

// sourceDocs are the documents an unknown question's absence is about:
// absence_audit.sources, else the abstention evidence's documents.
func sourceDocs(q *spans.Question) []string {
	var docs []string
	if q.AbsenceAudit != nil {
		docs = append(docs, q.AbsenceAudit.Sources...)
	}
	if len(docs) == 0 {
		for _, s := range q.AbstentionEvidence {
			docs = append(docs, s.Document)
		}
	}
	slices.Sort(docs)
	return slices.Compact(docs)
}

// sourceLineValue reports whether a source line of raw holds something
// beside its documents and pages, a digit, per-cent or currency sign:
// "UNKNOWN\nSource: the price list gives 6%" is UNKNOWN with a value in
// prose beside it.
func sourceLineValue(raw string) bool {
	for _, l := range textnorm.SourceLines(raw) {
		if strings.ContainsAny(textnorm.WithoutReferences(l), "0123456789%$€£") {
			return true
		}
	}
	return false
}

// clauses cuts a value's text where a clause ends (".", ";", ":" or ","
// not between digits) or a conclusion starts ("so", "therefore", "thus",
// "hence", "but", "however"): absence language speaks for its own clause
// only. "The price list does not say otherwise, so the 6% discount
// applies" borrows 6%; "..., so no discount applies" states a zero.
func clauses(text string) []string {
	rs := []rune(text)
	var out []string
	start := 0
	cut := func(i int) {
		if c := strings.TrimSpace(string(rs[start:i])); c != "" {
			out = append(out, c)
		}
		start = i
	}
	for i, r := range rs {
		switch r {
		case '.', ';', ':', ',':
			if i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
				continue // "0.5", "1,000", "14:00"
			}
			cut(i + 1)
		case ' ', '\n', '\t':
			for _, w := range conclusionWords {
				if strings.HasPrefix(strings.ToLower(string(rs[i+1:min(len(rs), i+1+len(w)+1)])), w+" ") {
					cut(i + 1)
					break
				}
			}
		}
	}
	cut(len(rs))
	return out
}

var conclusionWords = []string{"so", "therefore", "thus", "hence", "but", "however"}

// zeroClause reports whether a clause of text states a zero or a negation
// as a fact, outside absence language (a factual zero, S12).
func zeroClause(text string, norm func(string) textnorm.Value) bool {
	for _, c := range clauses(text) {
		if v := norm(c); !Declines(v) && factualZero(v) {
			return true
		}
	}
	return false
}

// guessed reports whether text offers a value for what the question asks:
// a number, identifier, weekday or month that the question does not
// itself contain and that the source documents do not hold, or, outside
// absence language ("does not state", "nothing is said") or with a hedge
// ("probably"), a number, weekday or month the sources do hold (a borrowed
// value). An identifier the sources hold names a thing, not a value.
func (p *Question) guessed(v textnorm.Value, hedge bool, src Sources) bool {
	if v.Unknown() {
		return false
	}
	asked, docs := p.asked, p.docs
	var values []textnorm.Token
	for _, t := range v.Tokens {
		switch t.Kind {
		case textnorm.TokNumber, textnorm.TokIdentifier, textnorm.TokWeekday, textnorm.TokMonth, textnorm.TokDate, textnorm.TokTime:
			if !asked[t.Text] {
				values = append(values, t)
			}
		}
	}
	context := Declines(v) && !hedge
	for _, t := range values {
		if !src.Mentions(t, docs) {
			return true
		}
		if t.Kind != textnorm.TokIdentifier && !context {
			return true
		}
	}
	return false
}

// sourceNames are the ways prose may name the source, normalized, longest
// first: absence_audit.source_names and the source documents' names.
func sourceNames(q *spans.Question) [][]textnorm.Token {
	var raw []string
	if q.AbsenceAudit != nil {
		raw = append(raw, q.AbsenceAudit.SourceNames...)
		raw = append(raw, q.AbsenceAudit.Sources...)
	}
	var out [][]textnorm.Token
	seen := map[string]bool{}
	for _, n := range raw {
		v := textnorm.NormalizeValue(n)
		if len(v.Tokens) == 0 || seen[v.Key()] {
			continue
		}
		seen[v.Key()] = true
		out = append(out, v.Tokens)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// sourceToken stands for any registered name of the source.
const sourceToken = "\x00source"

// withSources replaces every occurrence of a source name by one token, so
// that "the price list" and "price-list.pdf" compare equal.
func withSources(v textnorm.Value, names [][]textnorm.Token) string {
	var out []string
	toks := v.Tokens
	for i := 0; i < len(toks); {
		matched := 0
		for _, n := range names {
			if i+len(n) <= len(toks) && slices.EqualFunc(toks[i:i+len(n)], n, func(a, b textnorm.Token) bool { return a.Text == b.Text }) {
				matched = len(n)
				break
			}
		}
		if matched > 0 {
			out = append(out, sourceToken)
			i += matched
			continue
		}
		out = append(out, toks[i].Text)
		i++
	}
	return strings.Join(out, " ")
}

// isSentence: the text reads as one complete sentence: it starts with a
// capital letter or digit and ends with . ! or ?.
func isSentence(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return false
	}
	r := []rune(t)
	first, last := r[0], r[len(r)-1]
	startOK := first >= 'A' && first <= 'Z' || first >= '0' && first <= '9' || (first > 0x7F && strings.ToUpper(string(first)) == string(first) && strings.ToLower(string(first)) != string(first))
	return startOK && (last == '.' || last == '!' || last == '?')
}

func startsUnknown(v textnorm.Value) bool {
	return len(v.Tokens) > 1 && v.Tokens[0].Kind == textnorm.TokWord && v.Tokens[0].Text == "unknown"
}

// asserts reports whether a preface says anything a reviewer must weigh:
// a value token, absence language, or a word of a field's label ("A
// generous discount applies." before "Discount: UNKNOWN" says something of
// the discount). "Here is the answer:" does not.
func (p *Question) asserts(v textnorm.Value) bool {
	for _, t := range v.Tokens {
		switch t.Kind {
		case textnorm.TokNumber, textnorm.TokIdentifier, textnorm.TokWeekday, textnorm.TokMonth, textnorm.TokDate, textnorm.TokTime, textnorm.TokNegation:
			return true
		case textnorm.TokWord:
			if p.labels[t.Text] {
				return true
			}
		}
	}
	return Declines(v) || len(v.Tokens) > 12
}
