// Package absence grades answers to unknown questions (expected_abstention):
// the policy's abstention and documentary-absence rules ("Evidence and
// abstention") with the readings of ../shared/grading (S12-S14, A20-A24).
//
// Grade returns pass, fail or unresolved with machine-readable reasons.
// It compares prose after the value profile value/v1 (package textnorm),
// so case, punctuation, white space, articles and plurals never decide a
// verdict (S13), and reads a registered statement with its source named in
// any way absence_audit.source_names registers. What the corpus holds is
// asked through Sources, which the grader implements over the frozen page
// texts; this package reads no files.
//
// # Ambiguities decided, each pinned by a test named after it
//
//   - TestDecisionBareUnknownAnyFields (A23): one bare UNKNOWN passes any
//     number of fields; field-labelled UNKNOWN lines need every field
//     exactly once, else unresolved.
//   - TestDecisionUnknownWithCitation (A20): UNKNOWN with a citation is
//     unresolved; registered absence prose with a citation still passes.
//   - TestDecisionGuessedValue (S12, A22): a number, identifier, weekday or
//     month the question does not contain is a guess, unless it stands in
//     absence language, unhedged, and the source documents hold it ("only
//     lists discounts up to 199 boxes" is context, "probably 8%" a guess).
//   - TestDecisionSourceSentence (A22): a complete source sentence of
//     another scope is an additional assertion, unresolved, even when it
//     reads like a factual zero; a bare borrowed value fails.
//   - TestDecisionOtherDecline (A24): only the UNKNOWN token declines
//     cleanly; "I don't know." is unresolved.
//   - TestDecisionWrongSource (A21): absence prose naming another source
//     is unresolved.
//
// # What this package does not do
//
// It does not parse field labels (package grade does), grade answerable
// questions, or classify citations. It never prints or exits.
package absence
