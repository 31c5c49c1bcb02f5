package spans

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/internal/suggest"
	"github.com/citecheck/citecheck/textnorm"
	"golang.org/x/text/cases"
)

// PageBreak is what a span crossing a page break has between the end of one
// page's text and the start of the next: one line feed. Stored page texts
// never end with one, so it cannot be confused with page content.
const PageBreak = "\n"

// Options configures Validate.
type Options struct {
	// Fill reports a span whose missing offsets can be filled (its text
	// occurs exactly once on its page) as Info (offsets_filled) and records
	// the offsets in Report.Fills for Fix; without it such a span is an
	// Error (offsets_missing), because a frozen reference must hold the
	// offsets it means.
	Fill bool
}

// Fill is the location Fix writes into a span that had no offsets.
type Fill struct {
	Path    string `json:"path"` // the span's JSON path
	Start   int    `json:"start"`
	End     int    `json:"end"`
	EndPage int    `json:"end_page,omitempty"` // set when the text runs onto the next page
}

// Report is the outcome of Validate.
type Report struct {
	Problems []Problem `json:"problems"` // in the order of the reference
	Fills    []Fill    `json:"fills,omitempty"`

	Questions  int `json:"questions"`
	Answerable int `json:"answerable"`
	Unknown    int `json:"unknown"`
	Claims     int `json:"claims"`
	Spans      int `json:"spans"`
}

// Count returns how many problems have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, p := range r.Problems {
		if p.Severity == s {
			n++
		}
	}
	return n
}

// HasErrors reports whether any problem is an Error: the reference must not
// be frozen.
func (r *Report) HasErrors() bool { return r.Count(Error) > 0 }

// Summary is one line counting what was checked and found.
func (r *Report) Summary() string {
	return fmt.Sprintf("%d questions (%d answerable, %d unknown), %d claims, %d spans: %s, %s, %d filled",
		r.Questions, r.Answerable, r.Unknown, r.Claims, r.Spans,
		plural(r.Count(Error), "error"), plural(r.Count(Warning), "warning"), len(r.Fills))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Validate checks every question, claim and span of ref against the page
// texts of c, as the package documentation lists. Problems are data; the
// error is only for a corpus that could not be read (a page text that no
// longer matches its hash gives an error wrapping corpus.ErrIntegrity).
// Validate does not modify ref.
func Validate(ref *Reference, c corpus.Texts, opts Options) (*Report, error) {
	v := &validator{
		ref: ref, c: c, opts: opts, rep: &Report{},
		docs:   documentNames(c),
		counts: map[string]docCount{},
		texts:  map[pageKey]string{},
		norms:  map[pageKey]*textnorm.Text{},
		fold:   cases.Fold(),
	}
	v.prof = textnorm.QuoteV2(textnorm.Options{FooterNames: v.docs})
	ids := map[string]int{}
	for i := range ref.Questions {
		q := &ref.Questions[i]
		v.rep.Questions++
		if q.ExpectedAbstention {
			v.rep.Unknown++
		} else {
			v.rep.Answerable++
		}
		v.question(q, strictjson.JoinIndex("questions", i), ids, i)
		if v.err != nil {
			return nil, fmt.Errorf("spans: %w", v.err)
		}
	}
	return v.rep, nil
}

// Outcomes of a document lookup that validation reports as problems
// rather than failing.
var (
	ErrUnknownDocument = inputerr.New("no such document in the corpus")
	ErrNoText          = inputerr.New("the document has no extracted text")
)

// documentNames returns the names of c's documents, sorted.
func documentNames(c corpus.Texts) []string {
	docs := c.Documents()
	names := make([]string, len(docs))
	for i := range docs {
		names[i] = docs[i].Name
	}
	return names
}

type pageKey struct {
	doc  string
	page int
}

type docCount struct {
	n   int
	err error
}

type validator struct {
	ref    *Reference
	c      corpus.Texts
	opts   Options
	rep    *Report
	docs   []string
	counts map[string]docCount
	texts  map[pageKey]string
	norms  map[pageKey]*textnorm.Text
	prof   *textnorm.Profile
	fold   cases.Caser
	err    error  // a corpus read failure: stops validation
	qid    string // the id of the question under check, which problems name
}

// errorf, warnf and infof report a problem of the question under check
// at the JSON path, with a hint how to fix it.
func (v *validator) errorf(code, path, hint, format string, args ...any) {
	v.add(Error, code, path, hint, fmt.Sprintf(format, args...))
}

func (v *validator) warnf(code, path, hint, format string, args ...any) {
	v.add(Warning, code, path, hint, fmt.Sprintf(format, args...))
}

func (v *validator) infof(code, path, hint, format string, args ...any) {
	v.add(Info, code, path, hint, fmt.Sprintf(format, args...))
}

func (v *validator) add(sev Severity, code, path, hint, msg string) {
	v.rep.Problems = append(v.rep.Problems, Problem{
		Severity: sev, Code: code, Question: v.qid, Path: path, Pos: v.ref.Position(path),
		Message: msg, Hint: hint,
	})
}

// pageCount returns a document's page count, or 0 when it has no text
// (ErrUnknownDocument or ErrNoText, kept in the cache for the message).
func (v *validator) pageCount(doc string) docCount {
	if dc, ok := v.counts[doc]; ok {
		return dc
	}
	var dc docCount
	switch d, ok := v.c.Document(doc); {
	case !ok:
		dc.err = fmt.Errorf("%q: %w", doc, ErrUnknownDocument)
	case d.Status != corpus.StatusOK:
		dc.err = fmt.Errorf("%q: %w: extraction ended %s", doc, ErrNoText, d.Status)
	default:
		dc.n = len(d.Pages)
	}
	v.counts[doc] = dc
	return dc
}

// text returns a page text; a read failure stops validation.
func (v *validator) text(doc string, page int) string {
	k := pageKey{doc, page}
	if s, ok := v.texts[k]; ok {
		return s
	}
	s, err := corpus.TextOf(v.c, doc, page)
	if err != nil && v.err == nil {
		v.err = err
	}
	v.texts[k] = s
	return s
}

func (v *validator) normalized(doc string, page int) *textnorm.Text {
	k := pageKey{doc, page}
	if t, ok := v.norms[k]; ok {
		return t
	}
	t := v.prof.Normalize(v.text(doc, page))
	v.norms[k] = t
	return t
}

// validName: a question id or field name is non-empty and free of white
// space and control characters, so it prints and matches unambiguously.
func validName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (v *validator) question(q *Question, path string, ids map[string]int, i int) {
	v.qid = q.ID
	switch j, dup := ids[q.ID]; {
	case !validName(q.ID):
		v.errorf(CodeBadID, path+".id", "use a non-empty id without spaces, such as Q07", "question id %q is empty or holds white space", q.ID)
	case dup:
		v.errorf(CodeDuplicateID, path+".id", fmt.Sprintf("give one of questions[%d] and questions[%d] another id", j, i), "question id %q is already used by questions[%d]", q.ID, j)
	default:
		ids[q.ID] = i
	}
	if blank(q.Question) {
		v.errorf(CodeEmptyQuestion, path+".question", "write the question as the systems are asked it", "the question text is empty")
	}

	fields := map[string]bool{}
	labels := map[string]string{}
	if len(q.RequiredFields) == 0 {
		v.errorf(CodeNoRequiredFields, path+".required_fields", `list at least one {"field", "label"}`, "the question names no required field")
	}
	for j, f := range q.RequiredFields {
		fp := strictjson.JoinIndex(path+".required_fields", j)
		switch {
		case !validName(f.Field):
			v.errorf(CodeBadField, fp+".field", "use a field name without spaces, such as delivery_deadline", "field name %q is empty or holds white space", f.Field)
		case fields[f.Field]:
			v.errorf(CodeDuplicateField, fp+".field", "remove the repeated entry", "field %q is listed twice", f.Field)
		}
		fields[f.Field] = true
		folded := v.fold.String(strings.TrimSpace(f.Label))
		if blank(f.Label) {
			v.errorf(CodeEmptyLabel, fp+".label", "give the label systems are asked to answer under", "field %q has no label", f.Field)
		} else if other, dup := labels[folded]; dup {
			v.errorf(CodeDuplicateLabel, fp+".label", "give every field its own label", "label %q is also the label of field %q", f.Label, other)
		} else {
			labels[folded] = f.Field
		}
	}

	required := func() string {
		names := make([]string, len(q.RequiredFields))
		for j, f := range q.RequiredFields {
			names[j] = f.Field
		}
		return strings.Join(names, ", ")
	}
	for _, k := range sortedKeys(q.AnswerFields) {
		ap := strictjson.JoinKey(path+".answer_fields", k)
		if !fields[k] {
			v.errorf(CodeAnswerFieldNotReq, ap, "use one of the required fields: "+required(), "answer field %q is not a required field", k)
		}
		val := q.AnswerFields[k]
		switch {
		case q.ExpectedAbstention && val != Unknown:
			v.errorf(CodeUnknownAnswerValue, ap, `write "UNKNOWN", or set expected_abstention to false`, "an unknown question's answer for %q is %s, not %q", k, quote(val, 60), Unknown)
		case blank(val):
			v.errorf(CodeEmptyValue, ap, "write the canonical complete value", "the answer for %q is empty", k)
		}
	}
	if !q.ExpectedAbstention {
		for j, f := range q.RequiredFields {
			if _, ok := q.AnswerFields[f.Field]; !ok && validName(f.Field) {
				v.errorf(CodeAnswerFieldMissing, strictjson.JoinIndex(path+".required_fields", j), fmt.Sprintf("add %q to answer_fields", f.Field), "required field %q has no canonical value in answer_fields", f.Field)
			}
		}
	}
	for _, k := range sortedKeys(q.AcceptedAlternatives) {
		ap := strictjson.JoinKey(path+".accepted_alternatives", k)
		if !fields[k] {
			v.errorf(CodeAlternativeNotReq, ap, "use one of the required fields: "+required(), "accepted alternatives for %q, which is not a required field", k)
		}
		v.valueList(ap, q.AcceptedAlternatives[k], q.AnswerFields[k], "alternative")
	}

	if q.ExpectedAbstention {
		v.unknown(q, path, fields, required)
	} else {
		v.answerable(q, path, fields, required)
	}
}

// valueList checks a list of equivalent strings: none empty or only white
// space, none repeated (nor equal to the value they are alternatives of).
// what names an entry in messages ("alternative", "statement").
func (v *validator) valueList(path string, list []string, value, what string) {
	seen := map[string]bool{value: true}
	for j, s := range list {
		p := strictjson.JoinIndex(path, j)
		switch {
		case s == "":
			v.errorf(CodeEmptyValue, p, "remove it", "an empty %s", what)
		case blank(s):
			v.errorf(CodeEmptyValue, p, "remove it", "the %s %s is empty but for white space", what, quote(s, 20))
		case seen[s]:
			v.warnf(CodeDuplicateAlternative, p, "remove the repeated entry", "%s is listed twice", quote(s, 60))
		}
		seen[s] = true
	}
}

func (v *validator) answerable(q *Question, path string, fields map[string]bool, required func() string) {
	if len(q.AbstentionEvidence) > 0 {
		v.errorf(CodeAbstentionOnAnswer, path+".abstention_evidence", "remove it, or set expected_abstention to true", "an answerable question carries abstention evidence")
	}
	if q.AbsenceAudit != nil {
		v.errorf(CodeAbstentionOnAnswer, path+".absence_audit", "remove it, or set expected_abstention to true", "an answerable question carries an absence audit")
	}
	claimed := map[string]bool{}
	withEvidence := 0
	for j := range q.EssentialClaims {
		c := &q.EssentialClaims[j]
		cp := strictjson.JoinIndex(path+".essential_claims", j)
		v.rep.Claims++
		if !fields[c.Field] {
			v.errorf(CodeClaimFieldNotReq, cp+".field", "use one of the required fields: "+required(), "claim field %q is not a required field", c.Field)
		}
		claimed[c.Field] = true
		if blank(c.Value) {
			v.errorf(CodeEmptyValue, cp+".value", "write the compact value of the fact", "the claim's value is empty")
		}
		v.valueList(cp+".accepted_values", c.AcceptedValues, c.Value, "alternative")
		if len(c.Evidence) == 0 {
			v.errorf(CodeClaimWithoutEvidence, cp+".evidence", "add the exact passage that states the fact", "the claim has no evidence span")
		} else {
			withEvidence++
		}
		v.spanList(c.Evidence, cp+".evidence", c)
	}
	if withEvidence == 0 {
		v.errorf(CodeNoEvidence, path, "add an essential claim with at least one evidence span", "the answerable question has no claim with evidence")
	}
	for j, f := range q.RequiredFields {
		if validName(f.Field) && !claimed[f.Field] && withEvidence > 0 {
			v.warnf(CodeFieldWithoutClaim, strictjson.JoinIndex(path+".required_fields", j), "add an essential claim for it", "required field %q has no essential claim, so no span supports its value", f.Field)
		}
	}
}

func (v *validator) unknown(q *Question, path string, fields map[string]bool, required func() string) {
	if len(q.EssentialClaims) > 0 {
		v.errorf(CodeClaimsOnUnknown, path+".essential_claims", "remove the claims, or set expected_abstention to false", "an unknown question has %d essential claims", len(q.EssentialClaims))
		for j := range q.EssentialClaims {
			c := &q.EssentialClaims[j]
			v.rep.Claims++
			v.spanList(c.Evidence, strictjson.JoinIndex(path+".essential_claims", j)+".evidence", c)
		}
	}
	if len(q.AbstentionEvidence) == 0 && q.AbsenceAudit == nil {
		v.warnf(CodeAbstentionMissing, path, "add an absence_audit (topic, sources, statements) and the abstention_evidence passages", "the unknown question has no abstention data: only a clean UNKNOWN can pass it")
	}
	sources := map[string]bool{}
	if a := q.AbsenceAudit; a != nil {
		ap := path + ".absence_audit"
		if blank(a.Topic) {
			v.errorf(CodeEmptyTopic, ap+".topic", "name what the question asks about", "the absence audit has no topic")
		}
		if len(a.Sources) == 0 {
			v.errorf(CodeNoSources, ap+".sources", "name the documents that would state it", "the absence audit names no source document")
		}
		for k, s := range a.Sources {
			sources[s] = true
			if dc := v.pageCount(s); errors.Is(dc.err, ErrUnknownDocument) {
				v.errorf(CodeUnknownDocument, strictjson.JoinIndex(ap+".sources", k), v.nearNames(s), "source %q is not in the corpus", s)
			}
		}
		v.valueList(ap+".source_names", a.SourceNames, "", "source name")
		v.statements(q, ap+".statements", fields, required)
	}
	v.spanList(q.AbstentionEvidence, path+".abstention_evidence", nil)
	if q.AbsenceAudit != nil {
		for k, s := range q.AbstentionEvidence {
			if !sources[s.Document] {
				v.warnf(CodeEvidenceOutsideSource, strictjson.JoinIndex(path+".abstention_evidence", k)+".document", "add the document to absence_audit.sources, or cite a source it names", "%q is not among the absence audit's sources", s.Document)
			}
		}
	}
}

// statements checks an absence audit's statements: the object form names
// required fields only; the list form (non-empty) needs a question with one
// required field, since it does not say which field a statement is about.
// A required field without statements in the object form is fine: nothing
// is registered for it.
func (v *validator) statements(q *Question, sp string, fields map[string]bool, required func() string) {
	st := q.AbsenceAudit.Statements
	if len(st.All()) == 0 {
		v.warnf(CodeNoStatements, sp, "register the absence statements a system may make", "the absence audit registers no statement: only a clean UNKNOWN can pass")
	}
	if st.ByField == nil {
		if len(st.List) > 0 && len(fields) > 1 {
			v.errorf(CodeStatementsNeedFields, sp, `use the object form {"field": ["statement", ...]} with one of the required fields `+required()+" per key",
				"a plain list of statements on a question with %d required fields does not say which field each statement is about", len(fields))
		}
		v.valueList(sp, st.List, "", "statement")
		return
	}
	for _, k := range sortedKeys(st.ByField) {
		kp := strictjson.JoinKey(sp, k)
		if !fields[k] {
			v.errorf(CodeStatementFieldNotReq, kp, "use one of the required fields: "+required(), "absence statements for %q, which is not a required field", k)
		}
		v.valueList(kp, st.ByField[k], "", "statement")
	}
}

// loc is a resolved span location.
type loc struct{ start, end, endPage int }

func (v *validator) spanList(spans []Span, path string, claim *Claim) {
	seen := map[string]int{}
	for k := range spans {
		s := &spans[k]
		sp := strictjson.JoinIndex(path, k)
		v.rep.Spans++
		l, ok := v.span(s, sp)
		if !ok || v.err != nil {
			continue
		}
		key := fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d", s.Document, s.Page, l.start, l.end, l.endPage)
		if j, dup := seen[key]; dup {
			v.errorf(CodeDuplicateSpan, sp, "remove one of them", "the same span as %s", strictjson.JoinIndex(path, j))
			continue
		}
		seen[key] = k
		if claim != nil {
			v.valueCheck(claim, s.Text, sp)
		}
	}
}

// span checks one span and returns its location when it is sound (given
// and matching, or unique and fillable).
func (v *validator) span(s *Span, sp string) (loc, bool) {
	dc := v.pageCount(s.Document)
	switch {
	case errors.Is(dc.err, ErrUnknownDocument):
		v.errorf(CodeUnknownDocument, sp+".document", v.nearNames(s.Document), "document %q is not in the corpus", s.Document)
		return loc{}, false
	case dc.err != nil:
		v.errorf(CodeNoText, sp+".document", "fix the PDF or cite another document", "%v", dc.err)
		return loc{}, false
	}
	if s.Page > dc.n {
		v.errorf(CodePageOutOfRange, sp+".page", v.elsewhere(s, -1), "page %d is not in %s (pages 1..%d)", s.Page, s.Document, dc.n)
		return loc{}, false
	}
	if s.EndPage != 0 && s.EndPage != s.Page+1 {
		v.errorf(CodeBadOffsets, sp+".end_page", fmt.Sprintf(`set "end_page": %d, or remove it`, s.Page+1), "end_page %d is not the page after page %d", s.EndPage, s.Page)
		return loc{}, false
	}
	if s.EndPage > dc.n {
		v.errorf(CodePageOutOfRange, sp+".end_page", "remove end_page", "end_page %d is not in %s (pages 1..%d)", s.EndPage, s.Document, dc.n)
		return loc{}, false
	}
	if s.Text == "" {
		v.errorf(CodeEmptyText, sp+".text", "copy the exact passage from citecheck show", "the span's text is empty")
		return loc{}, false
	}
	switch {
	case (s.Start == nil) != (s.End == nil):
		at := sp + ".start"
		if s.Start == nil {
			at = sp + ".end"
		}
		v.errorf(CodeBadOffsets, at, v.elsewhere(s, -1), "only one of start and end is given")
		return loc{}, false
	case s.Start == nil:
		return v.fill(s, sp)
	default:
		return v.check(s, sp)
	}
}

// check compares the stored text at a span's offsets with its text.
func (v *validator) check(s *Span, sp string) (loc, bool) {
	start, end := *s.Start, *s.End
	page := v.text(s.Document, s.Page)
	n := utf8.RuneCountInString(page)
	if s.EndPage == 0 && start >= end {
		v.errorf(CodeBadOffsets, sp+".start", v.elsewhere(s, start), "start %d is not before end %d", start, end)
		return loc{}, false
	}
	if s.EndPage == 0 {
		if end > n || start >= n {
			if l, ok := v.crossingAt(s, start); ok {
				v.errorf(CodeCrossesPage, sp+".end", fmt.Sprintf(`add "end_page": %d and set "end": %d`, l.endPage, l.end), "the text runs from offset %d over the break onto page %d", start, s.Page+1)
				return loc{}, false
			}
			at := sp + ".end"
			if start >= n {
				at = sp + ".start"
			}
			v.errorf(CodeOffsetsOutOfRange, at, v.elsewhere(s, start), "[%d,%d) is beyond the end of page %d, which has %d code points", start, end, s.Page, n)
			return loc{}, false
		}
		got := cpSlice(page, start, end)
		if got == s.Text {
			return loc{start, end, 0}, true
		}
		if l, ok := v.crossingAt(s, start); ok {
			v.errorf(CodeCrossesPage, sp+".end", fmt.Sprintf(`add "end_page": %d and set "end": %d`, l.endPage, l.end), "the text runs from offset %d over the break onto page %d", start, s.Page+1)
			return loc{}, false
		}
		v.errorf(CodeTextMismatch, sp+".text", v.elsewhere(s, start), "the stored text at [%d,%d) of page %d is %s, not the declared %s%s", start, end, s.Page, quote(got, 60), quote(s.Text, 60), firstDifference(got, s.Text, start))
		return loc{}, false
	}
	next := v.text(s.Document, s.EndPage)
	nn := utf8.RuneCountInString(next)
	if start >= n {
		v.errorf(CodeOffsetsOutOfRange, sp+".start", v.elsewhere(s, start), "start %d is not inside page %d, which has %d code points", start, s.Page, n)
		return loc{}, false
	}
	if end > nn || end == 0 {
		v.errorf(CodeOffsetsOutOfRange, sp+".end", v.elsewhere(s, start), "end %d is not inside page %d, which has %d code points", end, s.EndPage, nn)
		return loc{}, false
	}
	got := cpSlice(page, start, n) + PageBreak + cpSlice(next, 0, end)
	if got == s.Text {
		return loc{start, end, s.EndPage}, true
	}
	v.errorf(CodeTextMismatch, sp+".text", v.elsewhere(s, start), "the stored text from offset %d of page %d to offset %d of page %d is %s, not the declared %s%s", start, s.Page, end, s.EndPage, quote(got, 60), quote(s.Text, 60), firstDifference(got, s.Text, -1))
	return loc{}, false
}

// firstDifference describes where stored and declared first differ, so a
// one-character typo in a long passage is seen at once: ": they differ from
// offset 53 ("75 per" stored, "57 per" declared)". base is the offset of
// stored's first code point in its page, or -1 to count within the span.
func firstDifference(stored, declared string, base int) string {
	a, b := []rune(stored), []rune(declared)
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	if k == 0 {
		return ""
	}
	piece := func(r []rune) string { return string(r[k:min(len(r), k+6)]) }
	where := fmt.Sprintf("offset %d", base+k)
	if base < 0 {
		where = fmt.Sprintf("code point %d of the span", k)
	}
	return fmt.Sprintf(": they differ from %s (%q stored, %q declared)", where, piece(a), piece(b))
}

// crossingAt reports whether s.Text starts at offset start of its page and
// runs over the break onto the next page.
func (v *validator) crossingAt(s *Span, start int) (loc, bool) {
	for _, l := range v.onPage(s.Document, s.Page, s.Text) {
		if l.endPage != 0 && l.start == start {
			return l, true
		}
	}
	return loc{}, false
}

// fill locates a span without offsets on its page.
func (v *validator) fill(s *Span, sp string) (loc, bool) {
	var found []loc
	for _, l := range v.onPage(s.Document, s.Page, s.Text) {
		if s.EndPage == 0 || l.endPage == s.EndPage {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		l := found[0]
		where := fmt.Sprintf("[%d,%d) of page %d", l.start, l.end, s.Page)
		set := fmt.Sprintf(`"start": %d, "end": %d`, l.start, l.end)
		if l.endPage != 0 {
			where = fmt.Sprintf("from offset %d of page %d to offset %d of page %d", l.start, s.Page, l.end, l.endPage)
			if s.EndPage == 0 {
				set += fmt.Sprintf(`, "end_page": %d`, l.endPage)
			}
		}
		if v.opts.Fill {
			f := Fill{Path: sp, Start: l.start, End: l.end}
			if s.EndPage == 0 {
				f.EndPage = l.endPage
			}
			v.rep.Fills = append(v.rep.Fills, f)
			v.infof(CodeOffsetsFilled, sp, "", "filled %s: the text occurs once, at %s", set, where)
		} else {
			v.errorf(CodeOffsetsMissing, sp, "add "+set+", or run citecheck spans --fix --out NEW", "the span has no offsets; its text occurs once, at %s", where)
		}
		return l, true
	case 0:
		v.errorf(CodeTextNotFound, sp+".text", v.elsewhere(s, -1), "the text %s does not occur on page %d of %s", quote(s.Text, 60), s.Page, s.Document)
	default:
		var at []string
		for _, l := range found[:min(len(found), 5)] {
			at = append(at, fmt.Sprintf("[%d,%d)", l.start, l.end))
		}
		v.errorf(CodeAmbiguousText, sp+".text", "add the start and end of the passage meant, or quote a longer passage", "the text occurs %d times on page %d, at %s", len(found), s.Page, strings.Join(at, ", "))
	}
	return loc{}, false
}

// onPage returns every occurrence of text that starts on the given page:
// inside it, or running over the break onto the next page.
func (v *validator) onPage(doc string, page int, text string) []loc {
	hay := v.text(doc, page)
	var out []loc
	for _, st := range find(hay, text) {
		out = append(out, loc{st, st + utf8.RuneCountInString(text), 0})
	}
	if page < v.pageCount(doc).n {
		n := utf8.RuneCountInString(hay)
		joined := hay + PageBreak + v.text(doc, page+1)
		tl := utf8.RuneCountInString(text)
		for _, st := range find(joined, text) {
			if st < n && st+tl > n+1 {
				out = append(out, loc{st, st + tl - n - 1, page + 1})
			}
		}
	}
	return out
}

// find returns the code-point offset of every occurrence of needle in hay,
// overlapping ones included.
func find(hay, needle string) []int {
	var out []int
	cp, last := 0, 0
	for from := 0; from <= len(hay); {
		i := strings.Index(hay[from:], needle)
		if i < 0 {
			break
		}
		at := from + i
		cp += utf8.RuneCountInString(hay[last:at])
		last = at
		out = append(out, cp)
		_, size := utf8.DecodeRuneInString(hay[at:])
		from = at + max(size, 1)
	}
	return out
}

// cpSlice returns the code points [a, b) of s; the caller keeps
// 0 <= a <= b <= the length of s in code points.
func cpSlice(s string, a, b int) string {
	return string([]rune(s)[a:b])
}

// elsewhere builds the fix hint for a span whose text is not where it says:
// where the declared text does occur (nearest to near on its page, other
// pages, other documents), or what the page holds after normalization.
// near < 0 means no preferred offset.
func (v *validator) elsewhere(s *Span, near int) string {
	if v.err != nil {
		return ""
	}
	var occ []loc
	if s.Page <= v.pageCount(s.Document).n {
		occ = v.onPage(s.Document, s.Page, s.Text)
	}
	if len(occ) > 0 {
		best := occ[0]
		if near >= 0 {
			for _, l := range occ {
				if abs(l.start-near) < abs(best.start-near) {
					best = l
				}
			}
		}
		more := ""
		if len(occ) > 1 {
			more = fmt.Sprintf(" (nearest of %d occurrences on the page)", len(occ))
		}
		if best.endPage != 0 {
			return fmt.Sprintf(`the declared text runs from offset %d over the break onto page %d: set "start": %d, "end": %d, "end_page": %d%s`, best.start, best.endPage, best.start, best.end, best.endPage, more)
		}
		return fmt.Sprintf(`the declared text is at [%d,%d) of page %d: set "start": %d, "end": %d%s`, best.start, best.end, s.Page, best.start, best.end, more)
	}
	var hints []string
	if n := v.pageCount(s.Document).n; n > 0 {
		for p := 1; p <= n && len(hints) < 3; p++ {
			if p == s.Page {
				continue
			}
			for _, l := range v.onPage(s.Document, p, s.Text) {
				if l.endPage == 0 {
					hints = append(hints, fmt.Sprintf(`page %d at [%d,%d) ("page": %d, "start": %d, "end": %d)`, p, l.start, l.end, p, l.start, l.end))
				} else {
					hints = append(hints, fmt.Sprintf(`page %d from offset %d onto page %d to offset %d ("page": %d, "start": %d, "end": %d, "end_page": %d)`, p, l.start, l.endPage, l.end, p, l.start, l.end, l.endPage))
				}
				break
			}
		}
	}
	if len(hints) > 0 {
		return "the declared text is on " + strings.Join(hints, "; ")
	}
	for _, doc := range v.docs {
		if doc == s.Document {
			continue
		}
		n := v.pageCount(doc).n
		for p := 1; p <= n && len(hints) < 3; p++ {
			for _, l := range v.onPage(doc, p, s.Text) {
				hints = append(hints, fmt.Sprintf("%s page %d at [%d,%d)", doc, p, l.start, l.end))
				break
			}
		}
	}
	if len(hints) > 0 {
		return "the declared text is in another document: " + strings.Join(hints, "; ")
	}
	if h := v.normalizedHint(s); h != "" {
		return h
	}
	return fmt.Sprintf("the declared text is nowhere in the corpus, even after normalization: copy it again from citecheck show --ruler %s %d", s.Document, s.Page)
}

// normalizedHint looks for the declared text under the quote/v2 profile on
// the span's page (then the document's other pages) and shows the stored
// text to copy instead.
// maxCopied is how much stored text a hint quotes for the author to copy:
// all of it but for a span far longer than any evidence sentence, since a
// text cut short cannot be copied.
const maxCopied = 4000

func (v *validator) normalizedHint(s *Span) string {
	quote1 := v.prof.Normalize(s.Text)
	if quote1.Len() == 0 {
		return ""
	}
	n := v.pageCount(s.Document).n
	pages := []int{s.Page}
	for p := 1; p <= n; p++ {
		if p != s.Page {
			pages = append(pages, p)
		}
	}
	for _, p := range pages {
		if p < 1 || p > n {
			continue
		}
		t := v.normalized(s.Document, p)
		i := strings.Index(t.String(), quote1.String())
		if i < 0 {
			continue
		}
		a := t.CodePoint(i)
		b := t.CodePoint(i + len(quote1.String()))
		ra, rb := t.RawSpan(a, b)
		_, level, _ := textnorm.Match(t, a, quote1)
		stored := t.RawSlice(ra, rb)
		return fmt.Sprintf(`page %d has it with other characters (%s level %s) at [%d,%d): copy the stored text exactly: %s`, p, v.prof.Name(), level, ra, rb, quote(stored, maxCopied))
	}
	return ""
}

// nearNames suggests corpus documents whose names resemble name.
func (v *validator) nearNames(name string) string {
	if near := suggest.Near(v.docs, name); len(near) > 0 {
		return "did you mean " + strings.Join(near, ", ") + "?"
	}
	return fmt.Sprintf("name one of the corpus's %d documents exactly (citecheck show --json lists them)", len(v.docs))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
