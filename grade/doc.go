// Package grade grades answers to document questions by the scoring
// policy's grade_response (spec document-scoring-policy-v1.5.md, sections
// "Reference contract and concise values", "Deterministic normalization
// and output structure", "Evidence and abstention") with the readings the
// project takes where it is silent (docs/grading.md, Readings).
//
//	g, err := grade.New(ix, ref, true)                   // once per evaluation
//	err = g.Run(inputs, w, grade.RunOptions{Plan: p})    // results.jsonl on w
//	r := g.Grade(&rec, "runs.jsonl", grade.AttemptOK, 1) // one attempt
//
// # What one attempt gets
//
//   - Citations: Classify checks each emitted citation against the corpus
//     (citations.Index.Ground) and the question's declared evidence
//     (ExpectedFor): pass, fail or unresolved with a Reason, in the
//     precedence docs/grading.md states. An answer to an answerable
//     question that emitted none gets the missing_citation entry, a
//     decline too.
//   - Fields (answerable questions): ParseResponse splits the response by
//     the required fields' display labels; each value is normalized by
//     textnorm's value/v2 and compared with the canonical value, the
//     accepted alternatives and the claims' values (the best verdict wins).
//     The comparison aligns tokens (compare): allowed omissions (a bound
//     the question asks for, scope shortening, dispatch-batch scope, a
//     stage the label states) and the question's own wording cost nothing;
//     every other difference is a finding, and the worst finding decides:
//     a closed-class element dropped or replaced by a contrary one of the
//     same class (a number, unit, identifier, weekday, month, comparison,
//     condition, day basis, stage) is incorrect, as is a
//     content word dropped with nothing in its place, an added number or
//     identifier, UNKNOWN or a decline; so is wording in place of a named
//     weekday or month or a date's day that does not still name it (an
//     abbreviation, the day's ordinal, the month's end for its last day);
//     other wording in place of an element, a dropped subject or function
//     word, an added word and an element in another place are unresolved.
//     A value that is a source passage holding the fact is correct with a
//     passing citation that contains it, unresolved without.
//   - Abstention (unknown questions): package absence.
//   - Derived: factual is the three-valued AND of the fields; supported the
//     AND of factual and each essential claim's support (a passing citation
//     containing one of its declared spans; else unresolved if any emitted
//     citation is unresolved; else fail).
//
// Every verdict carries machine-readable reasons (Reasons for citations,
// FieldReasons for fields, each listed with its verdict); the raw response
// is kept in the result. Unresolved is data, never an error.
//
// # Runs
//
// Run grades run files against an optional plan (see its doc for the order
// of results, missing, duplicate, extra and out-of-order work), in
// parallel, with memory flat in the number of records. It counts nothing:
// RunOptions.Written hands each result it writes to the caller, which
// counts them with package metrics, the one tally of verdicts; a
// result's Passes says whether it passes.
//
// # results.jsonl
//
// The package owns the results format, citecheck-results/1
// (docs/results.md): WriteResult writes one result as a line, the only
// writer; ReadResults reads a file back strictly, with the module's
// strict-JSON layer (keys matched exactly, every fault an input error
// naming file, line and key path), and ReadResultFiles reads the folders
// of one evaluation, refusing a planned attempt counted twice. What
// WriteResult writes, ReadResults reads back equal (FuzzResultRoundTrip),
// and a file's results are each line's read alone (FuzzResultsApart).
//
// # Ambiguities decided, each pinned by a test named after it
//
//   - TestWorkedExamples: every example of ../shared/grading, contested
//     ones included, gets the verdicts its expectation lists.
//   - TestDecisionAlternateEvidenceAnyDocument, TestDecisionUnknown-
//     QuestionEvidence and TestDecisionUnknownQuestionRelaxedLevel (at
//     any match level), TestDecisionJoinedWordsNeverPasses,
//     TestDecisionReorderedNeverPasses, TestDecisionPageConventionUnresolved,
//     TestDecisionWrongPageBeforeAmbiguity, TestDecisionPartialSpanIsNotPass, TestDecisionUnknownDocumentFirst, TestDecisionTextlessIsNotFabricated,
//     TestDecisionGenuineLevelsPass (punctuation, non_ascii_dropped and
//     retrieval_edges pass as the normalized levels do),
//     TestDecisionChangedSymbolFails (a passage matched but for a sign is
//     changed_symbol): the citation classifier's readings, docs/grading.md.
//   - TestDecisionFields: one table of field readings with the reading each
//     case pins, the weekdays,
//     months and days no wording can replace among them.
//   - TestDecisionMarkersAreNotValues: "[1]" and "(p. 2)" in an answer are
//     citation markers, not numbers the answer asserts.
//   - TestDecisionStructuredFields: a run's structured fields are graded
//     like labelled prose.
//
// # What this package does not do
//
// It does not read PDFs, build the index, verify locks (package freeze) or
// compute metrics and bounds across attempts. It never prints or exits.
package grade
