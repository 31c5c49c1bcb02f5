// Package typedqa scores typed transcription answers — booleans with an
// "illegible" option, integers, paired integers, a string and
// "|"-separated lists — against a ground truth, implementing
// typed-qa-scoring-guidelines.md (the "spec"; § numbers below are its
// sections). It reads the questions, ground truth, responses and
// equivalence dictionary, scores every answer, pools runs per (model,
// condition, question) and renders a table, JSON and a per-item CSV. The
// citecheck "typed" command is a thin wrapper around it.
//
// # Contract
//
//	qs, _    := ReadQuestions(r, name)           // or DefaultQuestions()
//	dict, _  := ReadDictionary(r, name)          // or DefaultDictionary()
//	truth, _ := ReadTruth(r, name, FormatAuto, qs)
//	resp, _  := ReadResponses(r, name, FormatAuto, qs)
//	report, _ := Score(qs, dict, truth, resp)
//	report.WriteTable(w); report.WriteJSON(w); report.WriteItemsCSV(w)
//
// Every input fault is an *InputError (file, 1-based line, field, cause)
// or an *InputErrors holding up to 20 of them in file order; errors.Is
// works with the Err* sentinels. Nothing is dropped silently: a bad row, an
// unknown question id, a duplicate (document, question) in the ground truth
// or (model, condition, run, document, question) in the responses, a
// response with no ground truth, and a (model, condition, run) that does
// not answer every ground-truth row are all errors. The package never
// prints or exits. Output is a pure function of the input rows: items are
// sorted by model, condition, question (questions-file order), document
// and run (numerically when both runs are integers), sums are taken in that
// order, and numbers are printed with exactly six decimals, so the same rows
// in any order give byte-identical output (TestDeterministicUnderShuffle).
//
// # Formats
//
// Questions: JSON {"questions": [...]}, each {"id", "type", "blank_when":
// {"question", "equals"}, "order", "first_words", "partial_credit_marker"};
// questions.schema.json. Types: boolean, integer, paired_integer, string,
// list. questions-default.json (embedded) encodes Q1–Q22 as the spec
// assigns them, with Q2 blank when Q1 = N, Q5 when Q4 = N, Q21 when Q19 = 0
// and "?" as Q2's partial-credit marker.
//
// Dictionary: JSON {"classes": [{"canonical", "forms": [...]}]};
// dictionary.schema.json. dictionary-default.json (embedded) holds the
// figliuolo and domestico families in their four gender/number classes.
//
// Ground truth: CSV with the header document,question,value exactly, or
// JSON Lines with those keys (truth-record.schema.json). Responses: CSV
// with the header model,condition,run,document,question,value, or JSON
// Lines (response-record.schema.json). ".jsonl"/".ndjson" names are JSON
// Lines, ".csv" CSV, anything else is sniffed by its first byte. In JSON
// Lines "value" may be null (blank) and "run" a non-negative integer; every
// other value is a string. An empty value is a blank.
//
// Strictness: invalid UTF-8 anywhere is an error naming the line (a leading
// byte-order mark is ignored); duplicate JSON keys and keys differing only
// in case are errors (encoding/json would take the last or match them
// case-insensitively), and so are lone surrogate escapes (every JSON input
// is parsed by internal/strictjson, as the reference and the plan are);
// unknown keys are errors; identifiers (model,
// condition, run, document) are non-empty, at most 256 bytes, free of
// control characters and of surrounding white space. Caps: 64 MiB per data
// file, 4 MiB per questions or dictionary file, 8 KiB per value, 256
// entries per list value, 1000 questions — character accuracy is quadratic
// in value length and the assignment solver cubic in list length, so these
// bound the cost of one item.
//
// # Units
//
// Character accuracy counts Unicode code points after NFC, never bytes or
// grapheme clusters: max(0, 1 − Levenshtein(gt, answer) / len(gt)), both
// sides pre-processed first (agnivade/levenshtein; checked against
// levenshtein.json). The spec says "matching characters / GT character
// count, using edit distance"; this is that ratio with the edit distance
// standing for the unmatched characters, clipped at 0 when insertions
// outnumber the reference. An empty reference scores 1 against an empty
// answer and 0 against anything else. Lists: precision = Σ matched
// accuracies / answer entries, recall = Σ / truth entries, F1 = 2PR/(P+R)
// in that floating-point order; "any" order matches by a faithful port of
// scipy's rectangular linear_sum_assignment (LinearSumAssignment, checked
// bit for bit against lsap.json, ties and error texts included), "document"
// order by Needleman–Wunsch with zero gap score (checked against
// entry_matching.json).
//
// # Pre-processing (spec §1)
//
// Both sides: NFC; split on Unicode white space (trimming the value and
// each token; runs of white space become one space); strip trailing ",", ".",
// ";", ":", ")", "]", "}" from each word, never inside it ("1767/8",
// "fig.lo" stay); Unicode full case folding (cases.Fold: ß = ss, final
// sigma = sigma), then NFC again. Ground truth only: a trailing "?" is
// stripped with the punctuation ("Caltran?" → "caltran"); answers keep
// theirs. Lists only: split on "|", keep the first N words when the
// question says so, replace each word found in the dictionary by its
// canonical form.
//
// # Scoring
//
// Boolean (Y, N, illegible, blank): match correct, other value incorrect,
// "illegible" against a definite value an illegibility claim (no score),
// blank where a value is expected incorrect, blank against blank excluded,
// any answer against a blank ground truth incorrect. Result: score =
// conditional accuracy = correct/(correct+incorrect); combined score =
// correct/(correct+incorrect+illegible); illegibility rate =
// illegible/(correct+incorrect+illegible). Integer: exact numeric match;
// blank against blank excluded; a value (a year) against a blank ground
// truth incorrect (the 2026-08-16 rule). Paired integer "N | N": both
// values must match. String: character accuracy; blank against blank 1;
// blank answer 0. List: F1; blank answer against entries 0. "illegible" on
// any non-boolean question is a wrong answer scoring 0, never an input
// error. The non-boolean score is the mean item score over items not
// excluded; null when no item is in the base.
//
// # Readings of the spec's ambiguities (each pinned by the named test)
//
//   - §6 gives "?" answers on Q2 partial credit while §3.2 calls integers
//     exact: an integer answer containing the question's
//     partial_credit_marker is scored by character accuracy, every other
//     integer answer exactly; it is a per-question option, not a rule about
//     "Q2" (TestAmbiguityPartialCreditMarker, TestIntegerRules).
//   - An empty list against an empty ground truth is correct with score 1
//     and counted in the base, as §3.4 does for the string; an answer with
//     entries against an empty ground truth scores 0
//     (TestAmbiguityEmptyListAgainstEmptyTruth, TestListRules).
//   - The dictionary applies to list questions only (§5: "for text array
//     questions"), not to the Q5 string (TestAmbiguityDictionaryListsOnly).
//   - "illegible" against a blank boolean ground truth is a non-blank answer
//     where none is expected: incorrect, not an illegibility claim
//     (TestBooleanRules/Q21_illegible_vs_blank).
//   - The illegibility-claim rate's "total questions" are the questions
//     asked: correct + incorrect + illegible, blank-against-blank items
//     excluded (TestBooleanAggregation).
//   - For fractionally scored items (strings, lists, partial-credit
//     integers) "correct" counts full credit and "incorrect" the rest; the
//     score is the mean of the fractions (TestAmbiguityGradedCounts,
//     TestGradedMeans).
//   - Runs are pooled item by item: one mean over every (document, run) of a
//     (model, condition, question), not a mean of per-run means
//     (TestAmbiguityRunsPooledByItem).
//   - "The first two words" are counted after pre-processing, so a lone
//     comma is not a word (TestAmbiguityFirstWordsAfterPreprocessing).
//   - List entries left with no word ("a||b", a trailing "|") are dropped
//     (TestListRules/empty_entries_dropped).
//   - Integer matching compares numbers: "00" equals "0"; only ASCII digits,
//     no sign, no separators ("1,767" is not an integer), no NFKC of
//     answers (TestIntegerRules). A ground-truth "?" is stripped only when
//     trailing.
//   - A string answer against a blank ground truth scores 0
//     (TestStringRules/value_vs_blank).
//   - An answer that is no value of its type ("Yes" for a boolean, "12 |
//     nine" for a pair) is incorrect, not an input error: any answer text is
//     scorable; only ground-truth values are validated (TestBooleanRules,
//     TestScoreAnswerRejectsBadTruth).
//   - blank_when is enforced on the ground truth both ways: where the
//     condition holds the value must be blank, and a blank boolean,
//     integer, pair or string needs its condition to hold (an empty list
//     needs none). Conditions compare canonical values ("0" = "00", "n" =
//     "N"); a blank never satisfies a condition (TestReadTruthErrors,
//     TestConditionEqualsCanonical). Scoring itself looks only at whether
//     the ground truth is blank, as §3 does.
//   - A missing response row is an error, not a blank answer: each (model,
//     condition, run) present must answer every ground-truth row; write an
//     empty value for a blank (TestScoreCrossFileErrors/missing_answer).
//   - Dictionary entries are pre-processed like answer words, so "D.CO."
//     finds d.co; each word may belong to one class; the canonical form is
//     implicitly a form of its class (TestDefaultDictionary,
//     TestReadDictionaryErrors).
//   - Ties: the Hungarian matching breaks ties as scipy does and the
//     alignment's traceback prefers a scoring diagonal step, then skipping a
//     truth entry; ties change only the reported pairs, never a score
//     (TestLSAPVectors, TestEntryMatchingVectors).
//
// # What it does not do
//
// It does not report per-model pooled boolean figures beyond the
// per-question results (the counts are there to pool); it does not
// normalize digits or compatibility characters (NFKC) in answers; it does
// not diagnose lone UTF-16 surrogate escapes in JSON strings, which
// encoding/json turns into U+FFFD; it applies no dictionary entry spanning
// several words; the JSON Schemas describe the formats but the readers are
// authoritative (they also check uniqueness, references, conditions and
// sizes, which a schema cannot).
package typedqa
