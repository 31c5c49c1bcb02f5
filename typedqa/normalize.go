package typedqa

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// trailingPunct is what pre-processing strips from the end of a word
// (docs/typed.md, Pre-processing, step 2): commas, periods, semicolons,
// colons and closing brackets. Nothing is stripped inside a word, so
// "1767/8" and "fig.lo" keep their inner marks.
const trailingPunct = ",.;:)]}"

// uncertainMark is the annotator's uncertainty marker, stripped from the
// end of ground-truth words only (docs/typed.md, Uncertain readings).
const uncertainMark = '?'

// words applies pre-processing steps 1-4 (docs/typed.md, Pre-processing)
// to s: NFC, split on Unicode white space (which also trims the whole
// value and each token), strip trailing punctuation from each word (and a
// trailing "?" when truth is set), fold case with Unicode full case
// folding, and NFC again since folding may leave a string that is not in
// NFC. Words that strip to nothing (a lone "," or, in the ground truth, a
// lone "?") are dropped: they hold no characters to compare.
func words(s string, truth bool) []string {
	fold := cases.Fold()
	var out []string
	for _, tok := range strings.FieldsFunc(norm.NFC.String(s), unicode.IsSpace) {
		tok = strings.TrimRightFunc(tok, func(r rune) bool {
			return strings.ContainsRune(trailingPunct, r) || (truth && r == uncertainMark)
		})
		if tok == "" {
			continue
		}
		out = append(out, norm.NFC.String(fold.String(tok)))
	}
	return out
}

// normalize is words joined by single spaces: the form in which values are
// compared.
func normalize(s string, truth bool) string {
	return strings.Join(words(s, truth), " ")
}

// CharAccuracy is the character accuracy of pred against the reference gt:
// max(0, 1 - d/n), with d the Levenshtein distance (insertion, deletion
// and substitution all cost 1) between the NFC forms counted in Unicode
// code points, and n the number of code points of NFC(gt). An empty gt
// scores 1 against an empty pred and 0 against anything else. It applies no
// other normalization: the scorer pre-processes both sides first.
func CharAccuracy(gt, pred string) float64 {
	acc, _, _ := charAccuracy(gt, pred)
	return acc
}

// charAccuracy is CharAccuracy with the distance and the reference length.
func charAccuracy(gt, pred string) (acc float64, dist, n int) {
	gt, pred = norm.NFC.String(gt), norm.NFC.String(pred)
	n = utf8.RuneCountInString(gt)
	dist = levenshtein.ComputeDistance(gt, pred)
	if n == 0 {
		if pred == "" {
			return 1, dist, n
		}
		return 0, dist, n
	}
	acc = 1 - float64(dist)/float64(n)
	if acc < 0 {
		acc = 0
	}
	return acc, dist, n
}
