// Package typedqa scores typed transcription answers — booleans with an
// "illegible" option, integers, paired integers, a string and
// "|"-separated lists — against a ground truth, implementing the
// typed-question rubric that docs/typed.md states rule by rule
// (docs/typed.md, Scoring rules). It reads the questions, ground truth,
// responses and equivalence dictionary, scores every answer, pools runs
// per (model, condition, question) and renders a table, JSON and a
// per-item CSV. The citecheck "typed" command is a thin wrapper around it.
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
// Every input fault is an *InputError (file, 1-based line, field, cause) or
// an *InputErrors holding up to 20 of them in file order; errors.Is finds
// inputerr.ErrInput, the kind of every input fault, and the Err* sentinels
// (the strict-JSON layer's for JSON faults). Nothing is dropped silently: a
// bad row, an unknown question id, a duplicate (document, question) in the
// ground truth or (model, condition, run, document, question) in the
// responses, a response with no ground truth, and a (model, condition, run)
// that does not answer every ground-truth row are all errors. The package
// never prints or exits. Output is a pure function of the input rows: items
// are sorted by model, condition, question (questions-file order), document
// and run (numerically when both runs are integers), sums are taken in that
// order, and numbers are printed with exactly six decimals, so the same
// rows in any order give byte-identical output
// (TestDeterministicUnderShuffle).
//
// # Formats
//
// Questions: JSON {"questions": [...]}, each {"id", "type", "blank_when":
// {"question", "equals"}, "order", "first_words", "partial_credit_marker"};
// docs/schema/typed-questions.schema.json. Types: boolean, integer, paired_integer, string,
// list. questions-default.json (embedded) encodes Q1–Q22 as the rubric
// assigns them (docs/typed.md, Question types), with Q2 blank when Q1 =
// N, Q5 when Q4 = N, Q21 when Q19 = 0 and "?" as Q2's partial-credit
// marker.
//
// Dictionary: JSON {"classes": [{"canonical", "forms": [...]}]};
// docs/schema/typed-dictionary.schema.json. dictionary-default.json (embedded) holds the
// figliuolo and domestico families in their four gender/number classes.
//
// Ground truth: CSV with the header document,question,value exactly, or
// JSON Lines with those keys (docs/schema/typed-truth-record.schema.json). Responses: CSV
// with the header model,condition,run,document,question,value, or JSON
// Lines (docs/schema/typed-response-record.schema.json). ".jsonl"/".ndjson" names are JSON
// Lines, ".csv" CSV, anything else is sniffed by its first byte. In JSON
// Lines "value" may be null (blank) and "run" a non-negative integer; every
// other value is a string. An empty value is a blank.
//
// Strictness: invalid UTF-8 anywhere is an error naming the line (a leading
// byte-order mark is ignored); duplicate JSON keys, keys differing only in
// case, lone surrogate escapes and unknown keys are errors (every JSON
// input is parsed by internal/strictjson); identifiers (model, condition,
// run, document) are non-empty, at most 256 bytes, free of control
// characters and of surrounding white space. Caps: 64 MiB per data
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
// levenshtein.json): the rubric's "matching characters / GT character
// count, using edit distance" (docs/typed.md, Character accuracy), clipped
// at 0 when insertions outnumber the reference. An empty reference scores
// 1 against an empty answer and 0 against anything else. Lists:
// precision = Σ matched accuracies / answer entries, recall = Σ / truth
// entries, F1 = 2PR/(P+R) in that floating-point order; "any" order matches
// by a faithful port of scipy's rectangular linear_sum_assignment
// (LinearSumAssignment, checked bit for bit against lsap.json, ties and
// error texts included), "document" order by Needleman–Wunsch with zero gap
// score (checked against entry_matching.json).
//
// # Pre-processing
//
// The steps of docs/typed.md, Pre-processing, as implemented.
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
// The rules of docs/typed.md, Scoring rules, in short.
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
// # Readings of the rubric's open cases
//
// Where the rubric is silent or contradicts itself, docs/typed.md states
// the reading taken beside the rule (marked "Reading"), and so does the
// test that pins it: the TestAmbiguity* tests (ambiguity_test.go), and
// TestBooleanRules, TestIntegerRules, TestStringRules, TestListRules,
// TestBooleanAggregation, TestReadTruthErrors, TestScoreCrossFileErrors,
// TestDefaultDictionary and TestLSAPVectors.
//
// # What it does not do
//
// It does not report per-model pooled boolean figures beyond the
// per-question results (the counts are there to pool); it does not
// normalize digits or compatibility characters (NFKC) in answers; it
// applies no dictionary entry spanning
// several words; the JSON Schemas describe the formats but the readers are
// authoritative (they also check uniqueness, references, conditions and
// sizes, which a schema cannot).
package typedqa
