package spans

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/textnorm"
)

// cardinals are the number words the policy normalizes ("Standalone
// cardinal words zero through twenty").
var cardinals = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
	"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
	"nineteen": 19, "twenty": 20,
}

// articles are cosmetic in a value ("Generic article a/an/the/any is
// cosmetic").
var articles = map[string]bool{"a": true, "an": true, "the": true, "any": true}

// valueProfile normalizes values and span texts alike before comparing
// them; no footer names: a value never holds a footer.
var valueProfile = textnorm.QuoteV2(textnorm.Options{})

// valueCheck warns when a claim's value is not inside a span's text, by a
// heuristic rather than the grader's value normalizer: the whole value
// after quote/v2 normalization and case folding; failing that, every
// number of the value (digits with their sign, decimal point and
// separators, or a cardinal word zero..twenty) must be a number of the
// span; a value without numbers needs every word but articles, a trailing
// plural "s" ignored.
func (v *validator) valueCheck(c *Claim, spanText, sp string) {
	if blank(c.Value) {
		return
	}
	value := v.fold.String(valueProfile.Normalize(c.Value).String())
	span := v.fold.String(valueProfile.Normalize(spanText).String())
	if strings.Contains(span, value) {
		return
	}
	if vn := numbers(value); len(vn) > 0 {
		if missing := minus(vn, numbers(span)); len(missing) > 0 {
			v.warnf(CodeValueNotInSpan, sp, "check that the span states this value, or correct the value",
				"the span does not contain the number %s of the claim's value %s", strings.Join(missing, ", "), quote(c.Value, 60))
		}
		return
	}
	if missing := minus(words(value), words(span)); len(missing) > 0 {
		v.warnf(CodeValueNotInSpan, sp, "check that the span states this value, or correct the value",
			"the span does not contain the word %s of the claim's value %s", strings.Join(missing, ", "), quote(c.Value, 60))
	}
}

// numbers returns the numbers written in s: a run of ASCII digits with
// '.', ',' or ':' between digits, with a leading '+' or '-' sign when that
// does not follow a letter or digit (so "B-200" is 200, "-5" is -5), and
// the cardinal words as digits.
func numbers(s string) map[string]bool {
	out := map[string]bool{}
	rs := []rune(s)
	digit := func(i int) bool { return i < len(rs) && rs[i] >= '0' && rs[i] <= '9' }
	for i := 0; i < len(rs); {
		start := i
		if (rs[i] == '-' || rs[i] == '+') && digit(i+1) && (i == 0 || !isWordRune(rs[i-1])) {
			i++
		}
		if !digit(i) {
			i = start + 1
			continue
		}
		for digit(i) || (rs[i] == '.' || rs[i] == ',' || rs[i] == ':') && digit(i+1) {
			i++
		}
		out[string(rs[start:i])] = true
	}
	for _, w := range splitWords(s) {
		if n, ok := cardinals[w]; ok {
			out[strconv.Itoa(n)] = true
		}
	}
	return out
}

// words returns the words of s that carry content: no articles, no numbers,
// a trailing plural "s" removed from words longer than three letters.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range splitWords(s) {
		if articles[w] || w[0] >= '0' && w[0] <= '9' {
			continue
		}
		if _, ok := cardinals[w]; ok {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		out[w] = true
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

// minus returns the sorted members of a that b lacks.
func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
