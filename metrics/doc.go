// Package metrics turns graded results (results.jsonl, package grade) into
// what the scoring policy's "Metrics, repetitions and claim limits" lets an
// evaluation team conclude: per arm and session, supported-answer success,
// canonical factual correctness, emitted-citation precision and clean
// abstention, each with a lower bound (unresolved as fail) and an upper
// bound (unresolved as pass) and the 95% Wilson interval beside them;
// per-session qualification; a latency audit; and a paired whole-question
// comparison of two arms.
//
// # Units and rules
//
// Counts are integers and bounds exact fractions (math/big); floats only
// display them (Round6: six decimals, half to even; Percent). A zero
// denominator has no bound (nil, JSON null), never 0% or 100%. Every
// result counts in the metric it belongs to: an attempt that errored,
// timed out, was interrupted or is missing fails, and so do duplicate and
// extra records (they are listed in Group.Failures by id). Citation
// precision counts emitted citations; answers that cited nothing are
// counted apart (MissingCitations; docs/grading.md, Readings), and so are
// citations of sources outside the corpus (ExternalCitations: reason
// external_source), which the frozen corpus cannot check.
//
// Qualification (Thresholds, policy defaults): lower bounds of at least
// 90% supported, 95% citations, 90% abstention, exactly 30 answerable and
// 10 unknown planned questions, graded against a frozen lock, and no
// failed, missing, duplicate or extra attempt; a zero denominator fails.
// A smoke run never qualifies.
//
// The comparison (Compare, Paired) clusters by question: per question the
// mean of each arm's repeats, the paired difference, a seeded
// whole-question bootstrap (math/rand/v2 PCG, seeds recorded; type-7
// percentiles computed as numpy does), the paired standard error and
// t-interval, Miller's clustered standard error, the between-arm
// correlation and the smallest difference detectable at 80% power. It is
// labelled a fixed-corpus sensitivity envelope, not a p-value; repeats are
// never counted as independent questions.
//
// # Verified against reference implementations
//
//   - TestWilsonVectors: scipy's Wilson intervals and the unresolved
//     bounds of ../shared/vectors/stats_intervals.json; Go's PCG stream.
//   - TestBootstrapVectors: all 2,000 replicates of bootstrap.json bit for
//     bit, numpy's linear percentiles exactly, the paired and clustered
//     standard errors.
//   - TestBoundsProperty: 0 <= LB <= UB <= 1 for any counts.
//
// # The one tally
//
// Verdicts are counted here only: "citecheck report" feeds a Builder the
// results it reads, and "citecheck grade" the results grade.Run writes
// (RunOptions.Written), its table rendered from the groups and Pool.
//
// # What this package does not do
//
// It does not grade (package grade) or render (package report). It never
// prints or exits.
package metrics

// BUG(metrics): with one question shared by the two arms, the paired
// standard error, t-interval and MDE80 are undefined (0/0 with ddof 1, no
// degrees of freedom) but are written as 0: summary.json's format has
// numbers there, and writing null is a change of its format.
