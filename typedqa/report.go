package typedqa

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Report is the outcome of Score: per-item verdicts and pooled results,
// both in a fixed order.
type Report struct {
	// Results has one entry per (model, condition, question), sorted by
	// model, condition and questions-file order.
	Results []Result
	// Items has one entry per response row, sorted by model, condition,
	// question, document and run.
	Items []Item
}

// Result pools every run and document of one (model, condition, question).
// Pointer fields are nil where the quantity does not apply (or its
// denominator is zero).
type Result struct {
	Model, Condition, Question string
	Type                       Type
	// N counts the items; N = Excluded + Correct + Incorrect (+ Illegible
	// for booleans).
	N, Excluded, Correct, Incorrect int
	// Illegible counts boolean illegibility claims; nil for other types.
	Illegible *int
	// Score is the type's headline figure: conditional accuracy for
	// booleans; for every other type the mean item score over the items
	// not excluded (accuracy for integers and pairs, mean character
	// accuracy for strings, mean F1 for lists).
	Score *float64
	// Booleans only: correct/(correct+incorrect+illegible) and
	// illegible/(correct+incorrect+illegible).
	ConditionalAccuracy, CombinedScore, IllegibilityRate *float64
}

// aggregate pools sorted items. Scores are summed in item order, which is
// fixed, so the floating-point sums are too.
func aggregate(items []Item) []Result {
	var out []Result
	for start := 0; start < len(items); {
		end := start
		for end < len(items) && sameGroup(items[start], items[end]) {
			end++
		}
		out = append(out, pool(items[start:end]))
		start = end
	}
	return out
}

func sameGroup(a, b Item) bool {
	return a.Model == b.Model && a.Condition == b.Condition && a.Question == b.Question
}

func pool(items []Item) Result {
	first := items[0]
	r := Result{Model: first.Model, Condition: first.Condition, Question: first.Question, Type: first.Type, N: len(items)}
	illegible, sum := 0, 0.0
	for _, it := range items {
		switch it.Outcome {
		case OutcomeExcluded:
			r.Excluded++
		case OutcomeCorrect:
			r.Correct++
		case OutcomeIncorrect:
			r.Incorrect++
		case OutcomeIllegible:
			illegible++
		}
		if it.Score != nil {
			sum += *it.Score
		}
	}
	ratio := func(num float64, den int) *float64 {
		if den == 0 {
			return nil
		}
		x := num / float64(den)
		return &x
	}
	if r.Type == TypeBoolean {
		r.Illegible = &illegible
		asked := r.Correct + r.Incorrect + illegible
		r.ConditionalAccuracy = ratio(float64(r.Correct), r.Correct+r.Incorrect)
		r.CombinedScore = ratio(float64(r.Correct), asked)
		r.IllegibilityRate = ratio(float64(illegible), asked)
		r.Score = r.ConditionalAccuracy
		return r
	}
	r.Score = ratio(sum, r.Correct+r.Incorrect)
	return r
}

// formatFixed prints x with exactly six decimals (round half to even on
// the binary value, as strconv does).
func formatFixed(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

func fixedOrNull(x *float64) string {
	if x == nil {
		return "null"
	}
	return formatFixed(*x)
}

func intOrNull(x *int) string {
	if x == nil {
		return "null"
	}
	return strconv.Itoa(*x)
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteJSON writes {"results": [...]}, one result object per line, keys
// in a fixed order, numbers with six decimals, null where not applicable.
func (rep *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString("{\"results\": [")
	for i, r := range rep.Results {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n  {\"model\": %s, \"condition\": %s, \"question\": %s, \"type\": %s, \"n\": %d, \"excluded\": %d, \"correct\": %d, \"incorrect\": %d, \"illegible\": %s, \"score\": %s, \"conditional_accuracy\": %s, \"combined_score\": %s, \"illegibility_rate\": %s}",
			jsonString(r.Model), jsonString(r.Condition), jsonString(r.Question), jsonString(string(r.Type)),
			r.N, r.Excluded, r.Correct, r.Incorrect, intOrNull(r.Illegible),
			fixedOrNull(r.Score), fixedOrNull(r.ConditionalAccuracy), fixedOrNull(r.CombinedScore), fixedOrNull(r.IllegibilityRate))
	}
	if len(rep.Results) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// TableColumns are the headings of WriteTable, in order; the last three
// abbreviate conditional_accuracy, combined_score and illegibility_rate.
var TableColumns = []string{"model", "condition", "question", "type", "n", "excluded", "correct", "incorrect", "illegible", "score", "cond_acc", "combined", "illeg_rate"}

// WriteTable writes one aligned row per result; "-" marks a quantity that
// does not apply. Identifiers hold no tabs or other control characters
// (checkIdentifier), so they cannot break the columns.
func (rep *Report) WriteTable(w io.Writer) error {
	dash := func(s string) string {
		if s == "null" {
			return "-"
		}
		return s
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(TableColumns, "\t"))
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n",
			r.Model, r.Condition, r.Question, r.Type, r.N, r.Excluded, r.Correct, r.Incorrect,
			dash(intOrNull(r.Illegible)), dash(fixedOrNull(r.Score)), dash(fixedOrNull(r.ConditionalAccuracy)),
			dash(fixedOrNull(r.CombinedScore)), dash(fixedOrNull(r.IllegibilityRate)))
	}
	return tw.Flush()
}

// ItemColumns is the header of WriteItemsCSV.
var ItemColumns = []string{"model", "condition", "run", "document", "question", "type", "truth", "response", "outcome", "score", "reason", "detail"}

// WriteItemsCSV writes one CSV row per response, excluded items and
// illegibility claims included (with an empty score), in Items order.
func (rep *Report) WriteItemsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ItemColumns); err != nil {
		return err
	}
	for _, it := range rep.Items {
		score := ""
		if it.Score != nil {
			score = formatFixed(*it.Score)
		}
		if err := cw.Write([]string{it.Model, it.Condition, it.Run, it.Document, it.Question, string(it.Type),
			it.Truth, it.Response, string(it.Outcome), score, it.Reason, it.Detail}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
