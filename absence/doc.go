// Package absence grades answers to unknown questions (expected_abstention):
// the policy's abstention and documentary-absence rules ("Evidence and
// abstention") as docs/grading.md states them ("Unknown questions"), with
// its readings (the "Readings" table) where the policy leaves a case open.
//
// Grade returns pass, fail or unresolved with machine-readable reasons.
// It compares prose after the value profile value/v2 (package textnorm),
// so case, punctuation, white space, articles and plurals never decide a
// verdict, and reads a registered statement with its source named in
// any way absence_audit.source_names registers. What the corpus holds is
// asked through Sources, which the grader implements over the frozen page
// texts; this package reads no files.
//
// # Ambiguities decided, each pinned by a test named after it
//
// A test named TestReading<label>... pins the reading of that label in
// docs/grading.md's "Readings" table.
//
//   - TestReadingA23BareUnknownAnyFields: one bare UNKNOWN passes any
//     number of fields; field-labelled UNKNOWN lines need every field
//     exactly once, else unresolved.
//   - TestReadingA20UnknownWithCitation: UNKNOWN with a citation is
//     unresolved; registered absence prose with a citation still passes.
//   - TestReadingS12GuessedValue: a number, identifier, weekday or month
//     the question does not contain is a guess, unless it stands in
//     absence language, unhedged, and the source documents hold it ("only
//     lists discounts up to 199 boxes" is context, "probably 8%" a guess).
//   - TestReadingA22SourceSentence: a complete source sentence of another
//     scope is an additional assertion, unresolved, even when it reads
//     like a factual zero; a bare borrowed value fails.
//   - TestReadingA24OtherDecline: only the UNKNOWN token declines cleanly;
//     "I don't know." is unresolved.
//   - TestReadingA21WrongSource: absence prose naming another source is
//     unresolved.
//
// # What this package does not do
//
// It does not parse field labels (package grade does), grade answerable
// questions, or classify citations. It never prints or exits.
package absence
