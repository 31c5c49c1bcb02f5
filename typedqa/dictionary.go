package typedqa

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// DictionaryClass is one equivalence class: every form, as written or in
// any case, stands for the canonical (expanded) form (docs/typed.md,
// Equivalence dictionary).
type DictionaryClass struct {
	Canonical string   `json:"canonical"`
	Forms     []string `json:"forms"`
}

// Dictionary maps words to their canonical forms. It applies word by word,
// to list questions only, on both the ground-truth and the answer side.
type Dictionary struct {
	classes []DictionaryClass
	canon   map[string]string // pre-processed form -> pre-processed canonical
}

// Classes returns the classes in file order.
func (d *Dictionary) Classes() []DictionaryClass {
	out := make([]DictionaryClass, len(d.classes))
	for i, c := range d.classes {
		out[i] = DictionaryClass{Canonical: c.Canonical, Forms: append([]string(nil), c.Forms...)}
	}
	return out
}

// expand returns the canonical form of a pre-processed word, or the word.
func (d *Dictionary) expand(word string) string {
	if d == nil {
		return word
	}
	if c, ok := d.canon[word]; ok {
		return c
	}
	return word
}

//go:embed dictionary-default.json
var defaultDictionaryJSON []byte

// DefaultDictionaryJSON returns the shipped dictionary-default.json.
func DefaultDictionaryJSON() []byte { return bytes.Clone(defaultDictionaryJSON) }

// DefaultDictionary is the built-in dictionary: the figliuolo and domestico
// families, each in four gender/number classes.
func DefaultDictionary() *Dictionary {
	d, err := ReadDictionary(bytes.NewReader(defaultDictionaryJSON), "dictionary-default.json")
	if err != nil {
		panic("typedqa: embedded dictionary-default.json is invalid: " + err.Error()) // a build defect, caught by tests
	}
	return d
}

// classShape lists the keys of a class (docs/schema/typed-dictionary.schema.json).
var classShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{"canonical": nil, "forms": nil}}

// decodeClass fills c from its tree as encoding/json would.
func decodeClass(d *strictjson.TreeDecoder, v *strictjson.Value, c *DictionaryClass) {
	for _, m := range v.Members {
		switch m.Key {
		case "canonical":
			c.Canonical = d.Str(m.Value, m.Key)
		case "forms":
			c.Forms = d.Strings(m.Value, m.Key)
		}
	}
}

// ReadDictionary reads and validates an equivalence dictionary (schema:
// docs/schema/typed-dictionary.schema.json). Each canonical form and each form must be one
// word once pre-processed (case folded, trailing punctuation stripped); a
// word may belong to one class only, so expansion never depends on order.
// The canonical form is implicitly one of its own forms. {"classes": []}
// is a valid, empty dictionary.
func ReadDictionary(r io.Reader, file string) (*Dictionary, error) {
	data, err := readAll(r, file, MaxConfigFileBytes)
	if err != nil {
		return nil, err
	}
	classes, lines, err := decodeTopArray(data, file, "classes", classShape, decodeClass)
	if err != nil {
		return nil, err
	}
	d := &Dictionary{classes: classes, canon: map[string]string{}}
	owner := map[string]int{} // pre-processed word -> index of its class
	var errs errorList
	for i, c := range classes {
		canon, err := dictionaryWord(c.Canonical)
		if err != nil {
			errs.add(file, lines[i], "canonical", err)
			continue
		}
		if len(c.Forms) == 0 {
			errs.addf(file, lines[i], "forms", "class %q has no forms", c.Canonical)
		}
		if j, ok := owner[canon]; ok && j != i {
			errs.addf(file, lines[i], "canonical", "%q is already in the class on line %d", c.Canonical, lines[j])
			continue
		}
		owner[canon] = i
		d.canon[canon] = canon
		listed := map[string]bool{}
		for _, f := range c.Forms {
			w, err := dictionaryWord(f)
			if err != nil {
				errs.add(file, lines[i], "forms", err)
				continue
			}
			if listed[w] {
				errs.addf(file, lines[i], "forms", "%q is listed twice in the class (after pre-processing)", f)
				continue
			}
			listed[w] = true
			if j, ok := owner[w]; ok && j != i {
				errs.addf(file, lines[i], "forms", "%q is already in the class on line %d", f, lines[j])
				continue
			}
			owner[w] = i
			d.canon[w] = canon
		}
	}
	// A canonical form declared after another class claimed it as a form
	// is caught above; a form claimed after being another class's
	// canonical too. Nothing else can conflict.
	if err := errs.err(); err != nil {
		return nil, err
	}
	return d, nil
}

// dictionaryWord pre-processes a dictionary entry as an answer word is
// pre-processed, so that a lookup sees the same form.
func dictionaryWord(s string) (string, error) {
	w := words(s, false)
	switch {
	case len(s) > MaxValueBytes:
		return "", fmt.Errorf("form longer than %d bytes", MaxValueBytes)
	case strings.Contains(s, "|"):
		return "", fmt.Errorf("%q contains '|', which separates list entries", s)
	case len(w) != 1:
		return "", fmt.Errorf("%q is not a single word after pre-processing", s)
	}
	return w[0], nil
}

// sortedForms lists (form, canonical) pairs sorted by form, for tests and
// documentation.
func (d *Dictionary) sortedForms() [][2]string {
	out := make([][2]string, 0, len(d.canon))
	for f, c := range d.canon {
		out = append(out, [2]string{f, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
