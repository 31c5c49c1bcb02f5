// Package spans reads reference (gold) files in the v1.5 contract, checks
// every question and evidence span against a corpus's stored page texts,
// and fills the offsets of spans that have none (policy v1.5, "Reference
// contract and concise values").
//
//	ref, err := spans.ReadFile("refs.json")              // strict decoding
//	rep, err := spans.Validate(ref, store, spans.Options{Fill: true}) // store: a corpus.Texts
//	for _, p := range rep.Problems { log(p.String()) }    // one line per problem
//	fixed, err := spans.Fix(ref, rep)                     // the file, with offsets filled in
//
// Validate reads the page texts through corpus.Texts: an opened
// *corpus.Store, whose every read is checked against its manifest, or a
// *corpus.Memory of texts held in memory.
//
// # Units
//
// Pages are 1-based physical page indices. Offsets are Unicode code points
// into the stored page text (corpus.Store.Text), 0-based, end exclusive: the
// unit "citecheck show --ruler" prints. A span that crosses a page break
// declares it with end_page (= page+1): start is an offset into page, end
// into end_page, and text is the end of page, PageBreak ("\n"), then the
// beginning of end_page. File positions in messages are 1-based lines and
// 1-based code-point columns.
//
// # Format "citecheck-reference/1.5"
//
//	{"format": "citecheck-reference/1.5",
//	 "questions": [{
//	   "id": "Q01", "question": "...",
//	   "required_fields": [{"field": "delivery_deadline", "label": "Delivery deadline"}],
//	   "expected_abstention": false,
//	   "answer_fields": {"delivery_deadline": "within 10 working days of the purchase order date"},
//	   "essential_claims": [{"field": "delivery_deadline", "value": "10 working days ...",
//	       "accepted_values": ["..."],
//	       "evidence": [{"document": "supplier-policy.pdf", "page": 1, "start": 243, "end": 318, "text": "..."}]}],
//	   "accepted_alternatives": {"delivery_deadline": ["..."]},
//	   "abstention_evidence": [span, ...],
//	   "absence_audit": {"topic": "...", "sources": ["doc.pdf"], "source_names": ["the policy", "doc.pdf"],
//	       "statements": {"warranty_period": ["..."]}, "note": "..."}}]}
//
// An absence audit's statements are either an object from a required field
// to the documentary-absence statements registered for it (a field may
// have none) or, for a question with exactly one required field, a plain
// list of them; AbsenceStatements keeps the form (List or ByField) and its
// For(field) returns a field's statements in either. The canonical
// encoding writes the form the file used, so a list stays a list.
// source_names (optional) lists how answer prose may name the source ("the
// price list", "price-list.pdf").
//
// docs/schema/reference.schema.json is the JSON Schema of the format. Required keys:
// format, questions; per question id, question, required_fields and
// expected_abstention (a missing one would silently make an unknown
// question answerable); per field, field and label; per claim field, value
// and evidence; per span document, page and text. start and end are
// optional only so that Fix can fill them.
//
// # Decoding
//
// Decode is strict (package internal/strictjson): invalid UTF-8, syntax
// errors, duplicate keys and keys that differ only in case (which
// encoding/json would silently merge), unknown fields, missing required
// keys, wrong types, integers out of range, another format version and
// inputs over MaxReferenceBytes are *DecodeError values naming file, line,
// column and JSON path, for example
//
//	refs.json:41:17: questions[3].essential_claims[0].evidence[1].start: wrong type: expected an integer, found string
//
// and errors.Is finds the strict-JSON layer's sentinel of the fault
// (internal/strictjson) and inputerr.ErrInput, the kind of every input
// fault. A file with several faults gives a *DecodeErrors with up to 20
// of them.
//
// # Validation
//
// Validate reports every problem it finds (Codes lists them with their
// severity) in reference order, each with its JSON path, file position and
// a fix hint; it never stops at the first. For every span: the document is
// in the corpus and has text; the page (and end_page) is in range; start and
// end are both given or both absent, start < end, within the page; the
// stored text at [start, end) equals text exactly, code point for code
// point (no normalization: "Exact declared spans and original character
// offsets remain authoritative"). On a mismatch the hint shows where the
// declared text does occur: the occurrence nearest the declared start on
// the same page, other pages, other documents, or, failing those, the
// stored text that matches it under the quote/v2 normalization, to copy
// instead. A span without offsets is located on its page: exactly one
// occurrence can be filled (Options.Fill, then Fix), none or several are
// errors. Text running over the page break without end_page is an error
// that gives the end_page and end to declare. The same span twice in one
// evidence list is an error. A claim's value not inside one of its spans is
// a warning (see valueCheck: the whole value after quote/v2 normalization
// and case folding, else its numbers, else its words).
//
// Per question: ids are unique and free of white space; the question text,
// field names and labels are non-empty; fields and labels (case-folded) are
// unique; answer_fields, claim fields and accepted_alternatives name
// required fields only; every required field of an answerable question has
// an answer_fields value; an answerable question has at least one claim
// with evidence, and every claim has evidence; a required field with no
// claim is a warning. An unknown question has no claims, its answer_fields
// (if any) are "UNKNOWN", and its absence audit, when present, has a topic,
// sources in the corpus and (a warning otherwise) statements. The object
// form of statements names required fields only
// (statement_field_not_required); a non-empty plain list on a question with
// several required fields is an error (statements_need_fields: use the
// object form). Statements, alternatives, accepted values and source names
// are neither empty nor only white space (empty_value), nor repeated (a
// warning).
//
// # Ambiguities decided, each pinned by a test named after it
//
//   - TestDecisionAbstentionDataOptional: the issue asks that "every
//     unknown question has its abstention data", but the policy says
//     unknown references "may include abstention_evidence/absence_audit".
//     The policy wins: a missing one is a warning (abstention_data_missing),
//     because without it only a clean UNKNOWN can pass the question.
//   - TestDecisionPageBreakIsNewline: a span crossing a page break has one
//     "\n" between the two pages' text and must declare end_page.
//   - TestDecisionMissingOffsetsAreErrors: a span without offsets is an
//     error unless filled: the frozen reference must hold the offsets it
//     means, not have them recomputed at grading time.
//   - TestDecisionFixFillsOnlyMissing: Fix writes offsets only into spans
//     that have none; a span with wrong offsets gets a hint but is never
//     rewritten, because the mistake may as well be in its text.
//   - TestDecisionDuplicateSpanPerList: "duplicate spans" are the same
//     (document, page, start, end) twice in one evidence list; one passage
//     supporting two claims is legitimate.
//   - TestDecisionUnknownAnswerIsUNKNOWN: answer_fields of an unknown
//     question may only hold "UNKNOWN".
//   - TestDecisionRequiredFieldsList: required_fields is a list of
//     {field, label} objects: the order is the order labels are shown in,
//     which a JSON object would not keep.
//   - TestDecisionEmptyEqualsAbsent: an empty answer_fields,
//     accepted_alternatives or accepted_values encodes canonically like an
//     absent one (and an empty source_names likewise).
//   - TestDecisionStatementsByField: in the object form a required field
//     without statements is fine (nothing is registered for it); a plain
//     list is that of the question's only field, and an error on a question
//     with several, except an empty list, which names no field wrongly.
//     Unlike the maps above, an empty statements object stays an object:
//     statements is required, and the form is kept.
//
// # Canonical encoding
//
// Canonical (CanonicalFormat) is compact JSON in the field order of the Go
// types, map keys sorted, empty optional fields left out, no HTML escaping:
// white space, key order and escapes in the file do not change it; content
// does. The lock (package freeze) pins both the raw file and this encoding,
// and QuestionParts' per-field encodings, to name what changed.
//
// # Failure classes
//
// Decoding faults are *DecodeError / *DecodeErrors (callers: exit 2).
// Problems are data in the Report. Validate's error is only for a corpus it
// cannot read; a stored page that no longer matches its hash gives an error
// wrapping corpus.ErrIntegrity (callers: exit 3). Fix returns
// ErrNotFromFile for a Reference built in Go.
//
// The package does not grade answers, locate quotes in runs, or normalize
// values for grading; it never writes files, prints or exits.
//
// BUG(spans): the value check is a heuristic, not the grader's value
// normalizer (textnorm.NormalizeValue): it knows numbers, the cardinal
// words zero to twenty, articles and a trailing plural "s", not the unit
// table or the verb variants, so it may warn about a value that grading
// would accept.
//
// BUG(spans): hints search other documents only for exact occurrences and
// list at most three; in a corpus of thousands of pages a span with a typo
// costs a full scan of its document under normalization.
package spans
