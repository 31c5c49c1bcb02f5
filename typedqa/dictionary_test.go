package typedqa

import (
	"strings"
	"testing"
)

// TestDefaultDictionary checks every class of docs/typed.md, Equivalence
// dictionary, and the forms it says are never equivalents.
//
// Reading stated there: dictionary entries are pre-processed like answer
// words, so "D.CO." finds d.co; each word may belong to one class; the
// canonical form is implicitly a form of its class (also
// TestReadDictionaryErrors).
func TestDefaultDictionary(t *testing.T) {
	d := DefaultDictionary()
	classes := map[string][]string{
		"figliuolo":  {"figliuolo", "figlio", "figliolo", "fig.lo"},
		"figliuola":  {"figliuola", "figlia", "figliola", "fig.la"},
		"figliuoli":  {"figliuoli", "figli", "figlioli", "fig.li"},
		"figliuole":  {"figliuole", "figlie", "figliole", "fig.le"},
		"domestico":  {"domestico", "d.co"},
		"domestica":  {"domestica", "d.ca"},
		"domestici":  {"domestici", "d.ci"},
		"domestiche": {"domestiche", "d.che"},
	}
	if got := len(d.Classes()); got != len(classes) {
		t.Errorf("%d classes, want %d", got, len(classes))
	}
	for canon, forms := range classes {
		for _, f := range forms {
			for _, variant := range []string{f, strings.ToUpper(f), f + "."} {
				w := words(variant, false)
				if len(w) != 1 || d.expand(w[0]) != canon {
					t.Errorf("%q expands to %v, want %q", variant, w, canon)
				}
			}
		}
	}
	for _, f := range []string{"domesti", "domest", "figlo", "figolo", "figlivoli", "figle", "figla", "domestic"} {
		if got := d.expand(f); got != f {
			t.Errorf("%q expands to %q; truncations and corruptions are not equivalents", f, got)
		}
	}
	if n := len(d.sortedForms()); n != 24 {
		t.Errorf("%d distinct forms, want 24 (16 figliuolo + 8 domestico)", n)
	}
}

func TestReadDictionaryErrors(t *testing.T) {
	tests := []struct {
		name, input string
		line        int
		want        string
	}{
		{"form in two classes", `{"classes": [
{"canonical": "figliuolo", "forms": ["figlio"]},
{"canonical": "figliuola", "forms": ["Figlio"]}]}`, 3, `"Figlio" is already in the class on line 2`},
		{"canonical in two classes", `{"classes": [
{"canonical": "a", "forms": ["b"]},
{"canonical": "b", "forms": ["c"]}]}`, 3, `"b" is already in the class on line 2`},
		{"multi-word form", `{"classes": [{"canonical": "giovanni", "forms": ["Gio. Batta"]}]}`, 1, "not a single word"},
		{"punctuation-only form", `{"classes": [{"canonical": "x", "forms": [".,"]}]}`, 1, "not a single word"},
		{"form twice", `{"classes": [{"canonical": "x", "forms": ["y", "Y."]}]}`, 1, "listed twice"},
		{"no forms", `{"classes": [{"canonical": "x", "forms": []}]}`, 1, "has no forms"},
		{"unknown key", `{"classes": [{"canonical": "x", "forms": ["y"], "note": "z"}]}`, 1, "unknown key"},
		{"duplicate key", `{"classes": [{"canonical": "x", "canonical": "y", "forms": ["y"]}]}`, 1, `duplicate key "canonical"`},
		{"forms not strings", `{"classes": [{"canonical": "x", "forms": [1]}]}`, 1, "expected string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDictionary(strings.NewReader(tc.input), "d.json")
			checkInputError(t, err, "d.json", tc.line, tc.want, nil)
		})
	}
}

// TestEmptyDictionary: {"classes": []} turns the equivalences off, so
// fig.lo is then scored by character accuracy.
func TestEmptyDictionary(t *testing.T) {
	d, err := ReadDictionary(strings.NewReader(`{"classes": []}`), "d.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScoreAnswer(mustQuestion(t, "Q22"), d, "figliuolo", "fig.lo")
	if err != nil {
		t.Fatal(err)
	}
	if want := CharAccuracy("figliuolo", "fig.lo"); *s.Score != want || want == 1 {
		t.Errorf("score %v, want the plain character accuracy %v", *s.Score, want)
	}
}
