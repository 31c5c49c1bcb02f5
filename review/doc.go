// Package review resolves, by recorded human review, the verdicts the
// grader leaves unresolved (the policy: alternate evidence "stays
// unresolved until separate source review"; unregistered equivalents and
// absence paraphrases "remain unresolved"), and only those.
//
//	set, err := review.Collect(results, ref, pages)   // verdicts by content
//	items := set.Items()                              // or set.Blind(seed)
//	ds, files, err := review.ReadDecisionFiles(paths) // what reviewers decided
//	applied, err := set.Apply(ds)                     // reviewed copies
//	sum.AddReviewed(applied.Results, t, applied.Summary(files))
//
// # Items and their hash
//
// Collect binds every verdict of the attempts that ran to its Content:
// exactly what a reviewer judges, and nothing that tells the systems
// apart. For a citation: the question (id and wording), the quote and page
// as the answer gave them, the corpus document it was looked up in, the
// located spans with their text and the stored text of their pages, and
// the claims a pass supports with their declared evidence. For a field:
// the question, the field and its label, the value as parsed, every value
// given when the answer gave the field twice differently, and the target
// (the grader's, else the reference's canonical value). For an
// abstention: the question, the response verbatim and the citations it
// emitted. Its hash is "blake3:" and the BLAKE3-256 of Content.Canonical,
// the content's JSON encoding by encoding/json (keys in the order of the
// Go types, no white space, HTML characters unescaped, no final line
// feed), pinned by TestCanonicalForm. No text is normalized: a changed
// character of the quote, passage, page, evidence, value, target or
// response is another item (TestHashFollowsContent), and the arm,
// session, position, run file, timings, native document ids, citation ids
// and the grader's wording are not in it (TestHashIgnoresWhereItOccurs),
// so identical content in several attempts is one item, judged once.
//
// An unresolved verdict is an Item; the grader's pass and fail verdicts
// are kept by hash so that a decision on one is refused. A citation of a
// source outside the corpus (external_source) is no item: its content is
// not pinned, so no review can be bound to it, and it stays unresolved
// (counted apart from citation precision, as before). Attempts that did
// not answer, and the missing-citation entry, are failures by rule with
// no content to judge.
//
// # Decisions
//
// A decisions file (DecisionsFormat) is JSON Lines of {"hash", "verdict",
// "reviewer", "note", "at"}, read strictly (ReadDecisions: the module's
// strict-JSON layer, every fault an *inputerr.Error naming file, line and
// key; FuzzReadDecisions). Apply refuses, naming file and line (ErrRefused,
// an input fault), a decision whose hash matches no unresolved item, one
// on a verdict the grader decided, one of the other kind's verdicts (pass
// and fail for citations and abstentions, correct and incorrect for
// fields) and a reviewer's second decision on one item; then nothing is
// applied. An item whose reviewers agree takes their verdict at every
// occurrence; one they disagree on stays unresolved and is listed
// (Applied.Disagreements); one no decision names stays unresolved.
//
// # Derived verdicts
//
// In the reviewed copies, a claim whose support the grader left
// unresolved is recomputed by the grader's rule: pass when a citation a
// review passed supports it; else unresolved when an emitted citation is
// still unresolved; else fail. What a citation supports is in its Content,
// so the reviewer sees what a pass asserts: the claims whose declared
// spans its passage contains (the grader's finding); else those whose
// value or an accepted value its quote holds (case and white space
// aside); else every claim of the question. A reviewer passes a citation
// only when its passage supports every claim it lists. A claim the grader
// passed stays passed (a failed citation does not undo another's support,
// as the grader reads it). factual and supported are then recomputed by
// grade.Result.Derive.
//
// # Agreement
//
// With two or more reviewers, each pair is compared on the items both
// decided: the share agreed and Cohen's kappa over positive (pass,
// correct) and negative (fail, incorrect) verdicts, exact fractions (Kappa;
// TestKappaVector checks a hand-computed vector).
//
// # What this package does not do
//
// It does not grade, count or render: metrics counts the reviewed results
// by the code that counts the automatic ones, and report shows both. It
// never prints or exits.
package review
