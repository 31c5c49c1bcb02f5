package suggest

import (
	"slices"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// MaxNear is how many names Near returns at the most.
const MaxNear = 5

// Near returns the names, at most MaxNear and sorted, that a "did you
// mean" offers for key among candidates (see the package doc).
func Near(candidates []string, key string) []string {
	lower := fold(key)
	var near []string
	for _, c := range candidates {
		if c != key && isNear(fold(c), lower) {
			near = append(near, c)
		}
	}
	slices.Sort(near)
	near = slices.Compact(near)
	return near[:min(len(near), MaxNear)]
}

// Phrase is Near as the end of a message: ` (did you mean "a" or "b"?)`,
// or "" when nothing is near.
func Phrase(candidates []string, key string) string {
	near := Near(candidates, key)
	if len(near) == 0 {
		return ""
	}
	quoted := make([]string, len(near))
	for i, n := range near {
		quoted[i] = `"` + n + `"`
	}
	if len(quoted) == 1 {
		return " (did you mean " + quoted[0] + "?)"
	}
	return " (did you mean " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1] + "?)"
}

func fold(s string) string { return strings.TrimSuffix(strings.ToLower(s), ".pdf") }

func isNear(c, key string) bool {
	switch {
	case c == key:
		return true
	case c == "" || key == "":
		return false
	case strings.Contains(c, key) || strings.Contains(key, c):
		if min(len(c), len(key)) < 3 { // "b" is in "obj" by chance
			return false
		}
		return digits(c) == digits(key) || strings.Contains(c, key) && len(key) >= 4
	}
	if digits(c) != digits(key) {
		return false
	}
	limit := 2
	switch {
	case len(key) <= 2: // "A" is one edit from every arm: only case counts
		limit = 0
	case len(key) <= 4:
		limit = 1
	}
	return levenshtein.ComputeDistance(c, key) <= limit
}

// digits are a name's digits in order: names that differ in them are
// other names ("Q1" and "Q7", "2019" and "2020"), never typos of each
// other.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}
