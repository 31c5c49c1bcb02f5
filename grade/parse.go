package grade

import (
	"slices"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/spans"
	"golang.org/x/text/cases"
)

// Review flags of a parsed response (the policy: "Unassigned prefaces,
// duplicate/missing labels and extra output are retained for review").
const (
	FlagUnassignedPreface = "unassigned_preface" // text before the first label
	FlagDuplicateLabel    = "duplicate_label"    // a label given more than once
	FlagMissingLabel      = "missing_label"      // a required field without its label
	FlagExtraOutput       = "extra_output"       // unlabelled lines after a labelled value
	FlagUnlabelled        = "unlabelled_fields"  // several fields asked, no label given
	FlagUnknownField      = "unknown_field"      // a structured field the question does not ask for
)

// Response is an answer parsed into its fields by their display labels.
type Response struct {
	// Raw is the response as the run recorded it.
	Raw string
	// Labelled: at least one line starts with a required field's label (or
	// the run gave structured fields).
	Labelled bool
	// Values holds, per field, the value under each of its labels, in
	// order; a field given twice has two. Without labels a one-field
	// question's whole response is its value (the policy: "A single field
	// can use its full prose").
	Values map[string][]string
	// Preface is the text before the first label.
	Preface string
	// Flags are the review flags, sorted.
	Flags []string
}

// ParseResponse splits a response into the question's fields. A label line
// is a line that starts, after optional markdown (a bullet, a number,
// "#", "**" or "__"), with a field's display label, compared with case
// folded and white space collapsed, then a colon; its value is the rest of
// the line and the following lines up to the next label line (so trailing
// output stays in the last field's value). Structured fields, when
// the run gave them, are used instead of the prose.
func ParseResponse(q *spans.Question, raw string, structured map[string]string) Response {
	return parseResponse(q, labelKeys(q), raw, structured)
}

// parseResponse is ParseResponse with the question's label keys computed.
func parseResponse(q *spans.Question, labels []string, raw string, structured map[string]string) Response {
	r := Response{Raw: raw, Values: map[string][]string{}}
	var flags []string
	if len(structured) > 0 {
		r.Labelled = true
		keys := make([]string, 0, len(structured))
		for k := range structured {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if fieldIndex(q, k) < 0 {
				flags = append(flags, FlagUnknownField)
				continue
			}
			r.Values[k] = append(r.Values[k], structured[k])
		}
		for _, f := range q.RequiredFields {
			if _, ok := r.Values[f.Field]; !ok {
				flags = append(flags, FlagMissingLabel)
			}
		}
		r.Flags = sortedFlags(flags)
		return r
	}
	lines := strings.Split(strings.ReplaceAll(raw, "\r\n", "\n"), "\n")
	current := -1
	var preface []string
	filled := map[int]bool{} // the current value already has text
	var cur []string
	flush := func() {
		if current >= 0 {
			f := q.RequiredFields[current].Field
			r.Values[f] = append(r.Values[f], strings.TrimSpace(strings.Join(cur, "\n")))
		}
		cur = nil
	}
	for _, line := range lines {
		if i, value, ok := labelLine(line, labels); ok {
			flush()
			current = i
			r.Labelled = true
			cur = []string{value}
			filled[i] = strings.TrimSpace(value) != ""
			continue
		}
		if current < 0 {
			preface = append(preface, line)
			continue
		}
		if strings.TrimSpace(line) != "" {
			if filled[current] {
				flags = append(flags, FlagExtraOutput)
			}
			filled[current] = true
		}
		cur = append(cur, line)
	}
	flush()
	if !r.Labelled {
		if len(q.RequiredFields) == 1 {
			r.Values[q.RequiredFields[0].Field] = []string{strings.TrimSpace(raw)}
		} else if strings.TrimSpace(raw) != "" {
			flags = append(flags, FlagUnlabelled)
		}
		r.Flags = sortedFlags(flags)
		return r
	}
	r.Preface = strings.TrimSpace(strings.Join(preface, "\n"))
	if r.Preface != "" {
		flags = append(flags, FlagUnassignedPreface)
	}
	for _, f := range q.RequiredFields {
		switch n := len(r.Values[f.Field]); {
		case n == 0:
			flags = append(flags, FlagMissingLabel)
		case n > 1:
			flags = append(flags, FlagDuplicateLabel)
		}
	}
	r.Flags = sortedFlags(flags)
	return r
}

func sortedFlags(fs []string) []string {
	slices.Sort(fs)
	fs = slices.Compact(fs)
	if fs == nil {
		return []string{}
	}
	return fs
}

func fieldIndex(q *spans.Question, field string) int {
	for i, f := range q.RequiredFields {
		if f.Field == field {
			return i
		}
	}
	return -1
}

// labelKey folds case and collapses white space, for comparing labels.
func labelKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		ascii = ascii && s[i] < 0x80
	}
	if ascii {
		s = strings.ToLower(s)
	} else {
		s = cases.Fold().String(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// labelKeys are a question's labels as labelKey compares them.
func labelKeys(q *spans.Question) []string {
	labels := make([]string, len(q.RequiredFields))
	for i, f := range q.RequiredFields {
		labels[i] = labelKey(f.Label)
	}
	return labels
}

// labelLine reports whether line starts with one of the labels and a colon,
// and returns the label's index and the text after the colon. The longest
// matching label wins.
func labelLine(line string, labels []string) (int, string, bool) {
	s := strings.TrimSpace(line)
	// Markdown around the label: a heading, a bullet, a list number.
	s = strings.TrimLeft(s, "#")
	s = strings.TrimSpace(s)
	if len(s) > 1 && strings.ContainsRune("-*•+", rune(s[0])) && (s[1] == ' ' || s[1] == '\t') {
		s = strings.TrimSpace(s[2:])
	} else if strings.HasPrefix(s, "• ") {
		s = strings.TrimSpace(strings.TrimPrefix(s, "• "))
	} else if k := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }); k > 0 && k < len(s)-1 && (s[k] == '.' || s[k] == ')') && s[k+1] == ' ' {
		s = strings.TrimSpace(s[k+2:])
	}
	colon := strings.IndexAny(s, ":：")
	if colon < 0 {
		return 0, "", false
	}
	head := strings.Trim(s[:colon], "*_` \t")
	key := labelKey(head)
	// A label with a parenthetical after it: "Free storage period (days)".
	if i := strings.LastIndex(key, " ("); i > 0 && strings.HasSuffix(key, ")") {
		for _, l := range labels {
			if l == key[:i] {
				key = l
				break
			}
		}
	}
	best, bestLen := -1, -1
	for i, l := range labels {
		if l != "" && key == l && len(l) > bestLen {
			best, bestLen = i, len(l)
		}
	}
	if best < 0 {
		return 0, "", false
	}
	_, size := firstRuneSize(s[colon:])
	value := s[colon+size:]
	// Bold closing after the colon: "**Label:** value".
	value = strings.TrimLeft(value, "*_")
	return best, strings.TrimSpace(value), true
}

func firstRuneSize(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}
