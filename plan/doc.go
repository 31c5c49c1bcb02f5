// Package plan makes and reads session plans: for an evaluation with arms
// (the systems compared) and repetitions, one frozen question permutation
// per repetition, shared by every arm, and the declared order of the
// sessions (policy v1.5, "Metrics, repetitions and claim limits": "Use one
// frozen permutation per paired repetition and the same order for both
// systems; declare the six-session order before execution").
//
// # Determinism and the algorithm
//
// A plan is a pure function of the reference's question ids, the arms, the
// number of repetitions, the seed and the session order. Algorithm names the
// permutation rule, "pcg-dxsm-fisher-yates/1":
//
//  1. Start from the question ids sorted bytewise (the reference's order
//     does not matter).
//  2. For repetition r (1-based), seed a PCG-DXSM generator with
//     math/rand/v2 rand.NewPCG(seed, r): its stream is specified and stable.
//  3. For i from n-1 down to 1, draw j uniform in [0, i] and swap the ids at
//     i and j (Fisher-Yates). A uniform draw below m is Lemire's method as
//     Go's 64-bit Rand.IntN does it: a power of two m takes the low bits of
//     one Uint64; otherwise (hi, lo) = 128-bit product of Uint64() and m,
//     and while lo < (2^64 - m) mod m draw again; the result is hi. This is
//     written out here, not delegated to Rand.IntN or Rand.Shuffle, so the
//     plan is the same on 32-bit platforms (where IntN takes another path)
//     and whatever a later Go release does to those methods. TestPCGVectors
//     checks the draws against ../shared/vectors/stats_intervals.json.
//
// Seeding each repetition by its number means adding a repetition never
// changes the earlier ones. Encode writes a fixed layout, so the same plan
// is the same bytes (TestEncodeIsDeterministic).
//
// The default session order, "alternating", runs the arms in the given
// order in odd repetitions and reversed in even ones (A1 B1 B2 A2 A3 B3), so
// that neither system always goes first; Options.Sessions declares any
// other order.
//
// # Format "citecheck-plan/1"
//
//	{
//	  "format": "citecheck-plan/1",
//	  "algorithm": "pcg-dxsm-fisher-yates/1",
//	  "seed": 20240601,
//	  "arms": ["A", "B"],
//	  "repetitions": 3,
//	  "expected": {"answerable": 30, "unknown": 10},
//	  "counts": {"answerable": 30, "unknown": 10},
//	  "questions": ["Q01", "Q02", ...],
//	  "orders": [
//	    {"repetition": 1, "questions": ["Q17", "Q03", ...]},
//	    ...
//	  ],
//	  "sessions": [
//	    {"session": 1, "arm": "A", "repetition": 1},
//	    ...
//	  ]
//	}
//
// questions are the reference's ids, sorted; counts are how many of them are
// answerable and unknown, expected the counts the policy asks for (30 and
// 10 unless configured). Schema: docs/schema/plan.schema.json.
//
// # Failure classes
//
// Decode is strict like the reference decoder (package spans): invalid
// UTF-8, duplicate or case-variant keys, unknown fields, wrong types and
// over-size input are *DecodeError values with file:line:col and JSON path.
// It also regenerates every order from the seed: a plan whose order was
// edited (two questions swapped) is refused with the position that differs
// (ErrNotReproducible), as is a plan whose sessions do not run every arm
// once per repetition (ErrValue of internal/strictjson, whose sentinels
// every fault wraps, all of them input faults: inputerr.ErrInput). New
// returns errors for impossible options (no arms, a repeated arm,
// repetitions < 1, a session list that is not a permutation of arm ×
// repetition); a count that differs from the expected one is not an error
// but a warning (Plan.Warnings), since smoke tests and pilots run small
// banks.
//
// The package does not read the corpus, does not run sessions and does not
// check runs against the plan (grading does). It never prints.
//
// BUG(plan): a plan records its questions' ids and counts, not a hash of
// the reference, so that fixing a span does not force a new plan; the lock
// (package freeze) checks that plan and reference name the same questions.
package plan
