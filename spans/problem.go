package spans

import (
	"fmt"
	"strconv"
	"strings"
)

// Severity ranks a Problem. Only errors make a reference unfit to freeze.
type Severity uint8

// The severities, mildest first.
const (
	Info    Severity = iota // something was done (an offset filled); nothing to fix
	Warning                 // suspicious, frozen anyway: a person should look
	Error                   // the reference is wrong; freeze refuses it
)

var severityNames = [...]string{"info", "warning", "error"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// MarshalText makes a Severity a JSON string.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Problem codes, for callers and tests that branch on the kind of problem.
// Codes lists each with its severity and meaning.
const (
	CodeBadID                 = "bad_id"
	CodeDuplicateID           = "duplicate_id"
	CodeEmptyQuestion         = "empty_question"
	CodeNoRequiredFields      = "no_required_fields"
	CodeBadField              = "bad_field"
	CodeDuplicateField        = "duplicate_field"
	CodeEmptyLabel            = "empty_label"
	CodeDuplicateLabel        = "duplicate_label"
	CodeAnswerFieldNotReq     = "answer_field_not_required"
	CodeAnswerFieldMissing    = "answer_field_missing"
	CodeUnknownAnswerValue    = "unknown_answer_value"
	CodeAlternativeNotReq     = "alternative_field_not_required"
	CodeDuplicateAlternative  = "duplicate_alternative"
	CodeEmptyValue            = "empty_value"
	CodeClaimFieldNotReq      = "claim_field_not_required"
	CodeClaimWithoutEvidence  = "claim_without_evidence"
	CodeNoEvidence            = "no_evidence"
	CodeFieldWithoutClaim     = "field_without_claim"
	CodeAbstentionOnAnswer    = "abstention_on_answerable"
	CodeClaimsOnUnknown       = "claims_on_unknown"
	CodeAbstentionMissing     = "abstention_data_missing"
	CodeEmptyTopic            = "empty_topic"
	CodeNoSources             = "no_sources"
	CodeNoStatements          = "no_statements"
	CodeStatementsNeedFields  = "statements_need_fields"
	CodeStatementFieldNotReq  = "statement_field_not_required"
	CodeEvidenceOutsideSource = "evidence_outside_sources"
	CodeUnknownDocument       = "unknown_document"
	CodeNoText                = "no_text"
	CodePageOutOfRange        = "page_out_of_range"
	CodeBadOffsets            = "bad_offsets"
	CodeOffsetsOutOfRange     = "offsets_out_of_range"
	CodeEmptyText             = "empty_text"
	CodeTextMismatch          = "text_mismatch"
	CodeCrossesPage           = "crosses_page_undeclared"
	CodeOffsetsMissing        = "offsets_missing"
	CodeOffsetsFilled         = "offsets_filled"
	CodeTextNotFound          = "text_not_found"
	CodeAmbiguousText         = "ambiguous_text"
	CodeDuplicateSpan         = "duplicate_span"
	CodeValueNotInSpan        = "value_not_in_span"
)

// CodeInfo describes a problem code.
type CodeInfo struct {
	Code     string
	Severity Severity
	Meaning  string
}

// Codes lists every problem code Validate reports, in the order checks run.
var Codes = []CodeInfo{
	{CodeBadID, Error, "a question id is empty or holds white space or control characters"},
	{CodeDuplicateID, Error, "two questions share an id"},
	{CodeEmptyQuestion, Error, "the question text is empty"},
	{CodeNoRequiredFields, Error, "a question names no required field"},
	{CodeBadField, Error, "a field name is empty or holds white space or control characters"},
	{CodeDuplicateField, Error, "a required field is listed twice"},
	{CodeEmptyLabel, Error, "a required field has no display label"},
	{CodeDuplicateLabel, Error, "two required fields share a label (case-insensitively): labelled answers could not be parsed"},
	{CodeAnswerFieldNotReq, Error, "answer_fields names a field that is not in required_fields"},
	{CodeAnswerFieldMissing, Error, "an answerable question has no canonical value for a required field"},
	{CodeUnknownAnswerValue, Error, "an unknown question's answer_fields holds something other than UNKNOWN"},
	{CodeAlternativeNotReq, Error, "accepted_alternatives names a field that is not in required_fields"},
	{CodeDuplicateAlternative, Warning, "an accepted alternative or value, an absence statement or a source name is listed twice"},
	{CodeEmptyValue, Error, "a value, accepted value or alternative, absence statement or source name is empty or only white space"},
	{CodeClaimFieldNotReq, Error, "a claim's field is not in required_fields"},
	{CodeClaimWithoutEvidence, Error, "a claim has no evidence span"},
	{CodeNoEvidence, Error, "an answerable question has no claim with evidence"},
	{CodeFieldWithoutClaim, Warning, "a required field has no essential claim, so no span supports it"},
	{CodeAbstentionOnAnswer, Error, "an answerable question carries abstention_evidence or absence_audit"},
	{CodeClaimsOnUnknown, Error, "an unknown question has essential claims"},
	{CodeAbstentionMissing, Warning, "an unknown question has neither abstention_evidence nor absence_audit (optional in the policy; without it only a clean UNKNOWN can pass)"},
	{CodeEmptyTopic, Error, "an absence audit has no topic"},
	{CodeNoSources, Error, "an absence audit names no source document"},
	{CodeNoStatements, Warning, "an absence audit registers no absence statement: only a clean UNKNOWN can pass"},
	{CodeStatementsNeedFields, Error, "an absence audit's statements are a plain list on a question with several required fields: the object form {field: [statements]} must say which field each is about"},
	{CodeStatementFieldNotReq, Error, "an absence audit's statements object names a field that is not in required_fields"},
	{CodeEvidenceOutsideSource, Warning, "an abstention evidence span is in a document the absence audit does not name"},
	{CodeUnknownDocument, Error, "a span or source names a document that is not in the corpus"},
	{CodeNoText, Error, "a span's document did not extract, so it has no text"},
	{CodePageOutOfRange, Error, "a span's page is not in the document"},
	{CodeBadOffsets, Error, "only one of start and end, start not before end, or end_page not page+1"},
	{CodeOffsetsOutOfRange, Error, "an offset lies beyond the end of its page text"},
	{CodeEmptyText, Error, "a span's text is empty"},
	{CodeTextMismatch, Error, "the stored text at [start, end) is not the declared text"},
	{CodeCrossesPage, Error, "the text runs over a page break that the span does not declare (end_page)"},
	{CodeOffsetsMissing, Error, "a span has no offsets; its text occurs once, so --fix can fill them"},
	{CodeOffsetsFilled, Info, "a span's missing offsets were filled (with --fix)"},
	{CodeTextNotFound, Error, "a span without offsets: its text does not occur on its page"},
	{CodeAmbiguousText, Error, "a span without offsets: its text occurs more than once on its page"},
	{CodeDuplicateSpan, Error, "the same span is listed twice in one evidence list"},
	{CodeValueNotInSpan, Warning, "a claim's value (its numbers, or its words when it has none) is not inside a span"},
}

// Problem is one finding of Validate.
type Problem struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Question string   `json:"question,omitempty"` // the question's id
	Path     string   `json:"path"`               // JSON path of the value at fault
	Pos      Position `json:"position"`           // where Path starts in the file; zero when built in Go
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"` // how to fix it
}

// String renders the problem on one line:
//
//	refs.json:41:17: error: questions[3].essential_claims[0].evidence[1]: text_mismatch: ...; fix: ...
func (p Problem) String() string {
	var b strings.Builder
	if s := p.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s: ", p.Severity)
	if p.Path != "" {
		fmt.Fprintf(&b, "%s: ", p.Path)
	}
	fmt.Fprintf(&b, "%s: %s", p.Code, p.Message)
	if p.Hint != "" {
		fmt.Fprintf(&b, "; fix: %s", p.Hint)
	}
	return b.String()
}

// quote shows a text in a message: Go-quoted (so line breaks and invisible
// characters are visible) and cut to max code points.
func quote(s string, max int) string {
	r := []rune(s)
	if len(r) > max {
		return strconv.Quote(string(r[:max-1])) + "…"
	}
	return strconv.Quote(s)
}
