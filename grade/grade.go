package grade

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/citecheck/citecheck/absence"
	"github.com/citecheck/citecheck/audit"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/textnorm"
)

// Attempt statuses of a result: the run's own (ok, error, timeout,
// interrupted) and the plan's (missing: planned, never run; duplicate: a
// second record for one planned attempt; extra: a record the plan does not
// have).
const (
	AttemptOK          = "ok"
	AttemptError       = "error"
	AttemptTimeout     = "timeout"
	AttemptInterrupted = "interrupted"
	AttemptMissing     = "missing"
	AttemptDuplicate   = "duplicate"
	AttemptExtra       = "extra"
)

// Question kinds.
const (
	KindAnswerable = "answerable"
	KindUnknown    = "unknown"
)

// Result is the graded outcome of one attempt: one JSON line of
// results.jsonl, the contract "citecheck report" and other tools read
// (docs/results.md). Fields keep this order when encoded.
type Result struct {
	Arm      string `json:"arm"`
	Session  int    `json:"session"`
	Question string `json:"question"`
	// Position is the attempt's 1-based place in its session's planned
	// order; without a plan, its place among the session's records.
	Position int    `json:"position"`
	Attempt  string `json:"attempt"`
	Kind     string `json:"kind"`
	// Fields holds one verdict per required field of an answerable
	// question; {} for an unknown one.
	Fields    map[string]FieldVerdict `json:"fields"`
	Citations []CitationResult        `json:"citations"`
	// Factual, Supported (answerable questions) and Abstention (unknown
	// ones) are pass, fail or unresolved, and null where they do not apply.
	Factual    *Outcome `json:"factual"`
	Supported  *Outcome `json:"supported"`
	Abstention *Outcome `json:"abstention"`
	// AbstentionReasons say why Abstention is what it is.
	AbstentionReasons []string `json:"abstention_reasons,omitempty"`
	// Claims is the support of each essential claim.
	Claims        []ClaimResult `json:"claims,omitempty"`
	Review        []string      `json:"review"`
	Normalization Normalization `json:"normalization"`
	Response      string        `json:"response"`
	// Frozen: graded against a verified lock.
	Frozen bool `json:"frozen"`
	// OutOfOrder: the record came before work planned ahead of it.
	OutOfOrder bool         `json:"out_of_order,omitempty"`
	StopReason string       `json:"stop_reason,omitempty"`
	Timing     *runs.Timing `json:"timing,omitempty"`
	// Retrieval are the run's native retrieval cards, kept, never citations.
	Retrieval []json.RawMessage `json:"retrieval,omitempty"`
	// Unread are the adapter's notes of what in the vendor's response looks
	// like citations but could not be read (runs.Record.Unread):
	// the result is then never a pass, whatever its verdicts.
	Unread []string `json:"unread,omitempty"`
	// Source is where the record was read (absent for missing work).
	Source *Source `json:"source,omitempty"`
}

// Source locates a run record.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Normalization names the profiles the verdicts depend on.
type Normalization struct {
	Quote string `json:"quote"`
	Value string `json:"value"`
}

// CitationResult is one citation's verdict in a Result. The missing-citation
// entry is {"id": null, "verdict": "fail", "reason": "missing_citation"}.
type CitationResult struct {
	ID      *string `json:"id"`
	Verdict Outcome `json:"verdict"`
	Reason  Reason  `json:"reason"`
	// Document is the corpus document the quote was looked up in (the cited
	// one, resolved), Cited the document as the answer named it.
	Document  string           `json:"document,omitempty"`
	Cited     string           `json:"cited,omitempty"`
	Page      *int             `json:"page,omitempty"` // the page the answer gave
	Quote     *string          `json:"quote,omitempty"`
	Pages     []int            `json:"pages,omitempty"`
	Spans     []citations.Span `json:"spans,omitempty"`
	Match     *citations.Level `json:"match,omitempty"`
	PageCheck string           `json:"page_check,omitempty"`
	// Claims are the fields whose declared spans the quote contains.
	Claims []string `json:"claims,omitempty"`
	Detail string   `json:"detail,omitempty"`
}

// ClaimResult is the support of one essential claim: pass when a passing
// citation contains one of its declared spans; else unresolved when any
// emitted citation is unresolved; else fail.
type ClaimResult struct {
	Field     string  `json:"field"`
	Supported Outcome `json:"supported"`
}

// Grader grades attempts against one reference over one corpus index. It
// is safe for concurrent use.
type Grader struct {
	ix        *citations.Index
	ref       *spans.Reference
	questions map[string]*question
	frozen    bool
	src       *corpusSources
}

type question struct {
	q       *spans.Question
	exp     Expected
	fields  []fieldRef
	abstain *absence.Question // unknown questions
	labels  []string          // the fields' labels as the parser compares them
}

// New prepares a Grader: every question's ground truth (an evidence span
// without offsets is an error, *MissingOffsetsError) and field targets.
// frozen is recorded in every result.
func New(ix *citations.Index, ref *spans.Reference, frozen bool) (*Grader, error) {
	g := &Grader{ix: ix, ref: ref, questions: map[string]*question{}, frozen: frozen,
		src: &corpusSources{ix: ix, cache: map[string]map[string]bool{}}}
	for i := range ref.Questions {
		q := &ref.Questions[i]
		exp, err := ExpectedFor(q)
		if err != nil {
			return nil, err
		}
		qq := &question{q: q, exp: exp, fields: newFieldRefs(q), labels: labelKeys(q)}
		if q.ExpectedAbstention {
			qq.abstain = absence.Prepare(q)
		}
		g.questions[q.ID] = qq
	}
	return g, nil
}

// Known reports whether the reference has a question with this id.
func (g *Grader) Known(id string) bool { _, ok := g.questions[id]; return ok }

// questionIDs are the reference's question ids, in its order.
func (g *Grader) questionIDs() []string {
	ids := make([]string, len(g.ref.Questions))
	for i := range g.ref.Questions {
		ids[i] = g.ref.Questions[i].ID
	}
	return ids
}

// Grade grades one run record, read from file, as the attempt status says
// (AttemptOK for a record the plan expects, or AttemptDuplicate /
// AttemptExtra). The record's question must be known (Known); position is
// set by the caller.
func (g *Grader) Grade(rec *runs.Record, file string, attempt string, position int) Result {
	qq := g.questions[rec.Question]
	r := g.base(qq, rec.Arm, rec.Session, attempt, position)
	r.Response = rec.Response
	r.StopReason = rec.StopReason
	r.Timing = rec.Timing
	r.Retrieval = rec.Retrieval
	r.Unread = rec.Unread
	r.Source = &Source{File: file, Line: rec.Line}
	if attempt == AttemptOK && rec.Status != AttemptOK {
		attempt = rec.Status
		r.Attempt = attempt
	}
	if attempt != AttemptOK {
		g.failAttempt(qq, &r, attempt)
		return r
	}
	q := qq.q
	resp := parseResponse(q, qq.labels, rec.Response, rec.Fields)
	r.Review = resp.Flags
	// Citations first: support and linked source passages need them.
	var verdicts []Verdict
	for _, rc := range rec.Citations {
		v := MalformedCitation(rc.ID, rc.Fault)
		if rc.Fault == "" {
			v = Classify(g.ix, audit.FromRun(rc), rec.Documents, qq.exp)
		}
		verdicts = append(verdicts, v)
		r.Citations = append(r.Citations, citationResult(rc, v, q))
	}
	if q.ExpectedAbstention {
		r.Kind = KindUnknown
		ab := qq.abstain.Grade(absence.Answer{Raw: rec.Response, Labelled: resp.Labelled, Values: resp.Values,
			Preface: resp.Preface, Citations: len(rec.Citations)}, g.src)
		r.Abstention, r.AbstentionReasons = &ab.Outcome, ab.Reasons
		return r
	}
	if len(rec.Citations) == 0 {
		m := MissingCitation()
		r.Citations = append(r.Citations, CitationResult{Verdict: m.Outcome, Reason: m.Reason})
	}
	factual := Pass
	for _, fr := range qq.fields {
		fv := g.gradeField(qq, &fr, resp, verdicts)
		r.Fields[fr.field] = fv
		factual = and(factual, fieldOutcome(fv.Verdict))
	}
	supported := factual
	for ci, c := range q.EssentialClaims {
		s := claimSupport(ci, verdicts)
		r.Claims = append(r.Claims, ClaimResult{Field: c.Field, Supported: s})
		supported = and(supported, s)
	}
	r.Factual, r.Supported = &factual, &supported
	return r
}

// Missing is the result of a planned attempt no record answered.
func (g *Grader) Missing(arm string, session int, id string, position int) Result {
	qq := g.questions[id]
	r := g.base(qq, arm, session, AttemptMissing, position)
	g.failAttempt(qq, &r, AttemptMissing)
	return r
}

func (g *Grader) base(qq *question, arm string, session int, attempt string, position int) Result {
	r := Result{Arm: arm, Session: session, Question: qq.q.ID, Position: position, Attempt: attempt,
		Kind: KindAnswerable, Fields: map[string]FieldVerdict{}, Citations: []CitationResult{}, Review: []string{},
		Normalization: Normalization{Quote: g.ix.Profile().Name(), Value: textnorm.ProfileValueV2}, Frozen: g.frozen}
	if qq.q.ExpectedAbstention {
		r.Kind = KindUnknown
	}
	return r
}

// failAttempt grades an attempt that did not answer (an error, a timeout,
// an interruption, missing work) or that must not count (a duplicate, an
// extra): every verdict fails, with the attempt status as the reason
// (policy: "Errors, timeouts, missing/duplicate work and zero denominators
// cannot disappear").
func (g *Grader) failAttempt(qq *question, r *Result, attempt string) {
	fail := Fail
	reason := "attempt_" + attempt
	if qq.q.ExpectedAbstention {
		r.Abstention, r.AbstentionReasons = &fail, []string{reason}
		return
	}
	for _, f := range qq.q.RequiredFields {
		r.Fields[f.Field] = FieldVerdict{Verdict: Incorrect, Reasons: []FieldReason{FieldReason(reason)}}
	}
	f2 := Fail
	r.Factual, r.Supported = &fail, &f2
}

func citationResult(rc runs.Citation, v Verdict, q *spans.Question) CitationResult {
	id := rc.ID
	cr := CitationResult{ID: &id, Verdict: v.Outcome, Reason: v.Reason, Cited: rc.Document, Page: rc.Page, Quote: rc.Quote, Detail: v.Detail}
	res := v.Grounded.Result
	cr.Document = res.Document
	if res.Found() {
		cr.Pages = res.Pages()
		cr.Spans = res.Spans()
		l := res.Level
		if loc, ok := res.Location(); ok {
			l = loc.Level
		}
		cr.Match = &l
		cr.PageCheck = string(res.PageCheck)
	}
	for _, e := range v.Covered {
		f := q.EssentialClaims[e.Claim].Field
		if !slices.Contains(cr.Claims, f) {
			cr.Claims = append(cr.Claims, f)
		}
	}
	return cr
}

// claimSupport is one essential claim's support (docs/grading.md, Field
// values: how supported is derived): pass when a passing citation's located span contains one of
// the claim's declared spans; else unresolved when any emitted citation is
// unresolved; else fail.
func claimSupport(claim int, vs []Verdict) Outcome {
	anyUnresolved := false
	for _, v := range vs {
		if v.Outcome == Pass {
			for _, e := range v.Covered {
				if e.Claim == claim {
					return Pass
				}
			}
		}
		anyUnresolved = anyUnresolved || v.Outcome == Unresolved
	}
	if anyUnresolved {
		return Unresolved
	}
	return Fail
}

// and is the three-valued AND: any fail fails, else any unresolved is
// unresolved, else pass.
func and(a, b Outcome) Outcome {
	switch {
	case a == Fail || b == Fail:
		return Fail
	case a == Unresolved || b == Unresolved:
		return Unresolved
	}
	return Pass
}

func fieldOutcome(o Outcome) Outcome {
	switch o {
	case Correct:
		return Pass
	case Incorrect:
		return Fail
	}
	return Unresolved
}

// gradeField grades one field of an answerable question from the parsed
// response, the rules for labels first (docs/grading.md, "Field values"):
// several fields without labels are unresolved, a field given twice with
// different values too.
func (g *Grader) gradeField(qq *question, fr *fieldRef, resp Response, vs []Verdict) FieldVerdict {
	values := resp.Values[fr.field]
	switch {
	case !resp.Labelled && len(qq.q.RequiredFields) > 1:
		// Several fields asked, no labels: a bare UNKNOWN or a
		// decline is still one; otherwise the values cannot be assigned.
		v := textnorm.NormalizeValue(resp.Raw)
		switch {
		case len(v.Tokens) == 0:
			return FieldVerdict{Verdict: Incorrect, Reasons: []FieldReason{FieldMissing}}
		case v.Unknown():
			return FieldVerdict{Verdict: Incorrect, Reasons: []FieldReason{FieldUnknownOnAnswerable}, Value: resp.Raw}
		case absence.Declines(v):
			return FieldVerdict{Verdict: Incorrect, Reasons: []FieldReason{FieldDecline}, Value: resp.Raw}
		}
		return FieldVerdict{Verdict: Unresolved, Reasons: []FieldReason{FieldMissingLabel}, Value: resp.Raw}
	case len(values) == 0:
		return FieldVerdict{Verdict: Incorrect, Reasons: []FieldReason{FieldMissing}}
	case len(values) > 1:
		first := textnorm.NormalizeValue(values[0])
		for _, v := range values[1:] {
			if !textnorm.NormalizeValue(v).Equal(first) {
				return FieldVerdict{Verdict: Unresolved, Reasons: []FieldReason{FieldConflictingLabels}, Value: values[0],
					Details: values}
			}
		}
		fv := g.gradeOne(qq, fr, values[0], vs)
		if fv.Verdict == Correct {
			fv.Reasons = append(fv.Reasons, FieldDuplicateSame)
		}
		return fv
	}
	return g.gradeOne(qq, fr, values[0], vs)
}

func (g *Grader) gradeOne(qq *question, fr *fieldRef, value string, vs []Verdict) FieldVerdict {
	v := textnorm.NormalizeValue(value)
	fv := gradeNormalized(fr, value, v)
	if fv.Verdict == Correct || len(fv.Reasons) == 1 && (fv.Reasons[0] == FieldMissing || fv.Reasons[0] == FieldUnknownOnAnswerable || fv.Reasons[0] == FieldDecline) {
		return fv
	}
	// A complete source sentence or exact source passage holding the fact
	// is accepted with linked support (policy), unresolved without.
	if o, reason, ok := g.sourcePassage(qq, fr, value, v, vs); ok {
		fv.Verdict, fv.Reasons, fv.Details = o, []FieldReason{reason}, nil
	}
	return fv
}

// sourcePassage checks whether value is a passage of a document holding the
// field's declared evidence that contains the essential fact; if so it
// returns correct when a passing citation for the field's claim contains
// the passage, else unresolved.
func (g *Grader) sourcePassage(qq *question, fr *fieldRef, value string, v textnorm.Value, vs []Verdict) (Outcome, FieldReason, bool) {
	if len(v.Tokens) < 2 {
		return "", "", false
	}
	holds := false
	for k := range fr.targets {
		if o, _ := compare(v, &fr.targets[k], fr.ctx, true); o == Correct {
			holds = true
			break
		}
	}
	if !holds {
		return "", "", false
	}
	var docs []string
	for _, ci := range fr.claims {
		for _, s := range qq.q.EssentialClaims[ci].Evidence {
			if !slices.Contains(docs, s.Document) {
				docs = append(docs, s.Document)
			}
		}
	}
	for _, doc := range docs {
		r := g.ix.Locate(citations.Query{Document: doc, Quote: value})
		if r.Status != citations.StatusUnique && r.Status != citations.StatusAmbiguous {
			continue
		}
		for _, pl := range r.Locations {
			if pl.Level.Relaxed() {
				continue
			}
			for _, cv := range vs {
				if cv.Outcome != Pass || !coversClaim(cv, fr.claims) {
					continue
				}
				cl, ok := cv.Grounded.Result.Location()
				if !ok {
					continue
				}
				inside := true
				for _, s := range pl.Spans {
					if !g.ix.Covers(cl, citations.Passage{Document: pl.Document, Page: s.Page, Start: s.Start, End: s.End}) {
						inside = false
						break
					}
				}
				if inside {
					return Correct, FieldSourceWithSupport, true
				}
			}
		}
		if !r.Locations[0].Level.Relaxed() {
			return Unresolved, FieldSourceNoSupport, true
		}
	}
	return "", "", false
}

func coversClaim(v Verdict, claims []int) bool {
	for _, e := range v.Covered {
		if slices.Contains(claims, e.Claim) {
			return true
		}
	}
	return false
}

// corpusSources answers package absence's questions from the index.
type corpusSources struct {
	ix    *citations.Index
	mu    sync.Mutex
	cache map[string]map[string]bool // document -> value token texts
}

func (s *corpusSources) Sentence(text string, docs []string) bool {
	if len(docs) == 0 {
		docs = s.ix.Documents()
	}
	if len(docs) == 0 {
		return false
	}
	r := s.ix.Locate(citations.Query{Document: docs[0], Quote: text})
	for _, l := range r.Locations {
		if !l.Level.Relaxed() {
			return true
		}
	}
	for _, e := range r.Elsewhere {
		if !e.Level.Relaxed() && (len(docs) == len(s.ix.Documents()) || slices.Contains(docs, e.Document)) {
			return true
		}
	}
	return false
}

func (s *corpusSources) Mentions(tok textnorm.Token, docs []string) bool {
	if len(docs) == 0 {
		docs = s.ix.Documents()
	}
	for _, d := range docs {
		if s.values(d)[tok.Text] {
			return true
		}
	}
	return false
}

// values returns the value tokens a document holds, computed once.
func (s *corpusSources) values(doc string) map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.cache[doc]; ok {
		return m
	}
	m := map[string]bool{}
	for p := 1; p <= s.ix.PageCount(doc); p++ {
		text, _ := s.ix.PageText(doc, p)
		for _, t := range textnorm.NormalizeValue(text).Tokens {
			switch t.Kind {
			case textnorm.TokNumber, textnorm.TokIdentifier, textnorm.TokWeekday, textnorm.TokMonth, textnorm.TokDate, textnorm.TokTime:
				m[t.Text] = true
			}
		}
	}
	s.cache[doc] = m
	return m
}

// String describes a result in one line, for logs and errors.
func (r *Result) String() string {
	return fmt.Sprintf("%s/%d %s #%d %s", r.Arm, r.Session, r.Question, r.Position, r.Attempt)
}
