package fidelity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVariants: each variant changes a window as its case says
// (testdata/variants.json: variant, in, want, why).
func TestVariants(t *testing.T) {
	for _, c := range readCases(t, "variants.json") {
		var got string
		for _, v := range Variants {
			if v.Name == c.Variant {
				got = v.Apply(c.In)
			}
		}
		if got != c.Want {
			t.Errorf("%s(%q) = %q, want %q: %s", c.Variant, c.In, got, c.Want, c.Why)
		}
	}
}

// TestMeaningDropped: dropping a window's non-ASCII characters drops
// meaning or not as each case says (testdata/meaning.json: in, meaning,
// why).
func TestMeaningDropped(t *testing.T) {
	for _, c := range readCases(t, "meaning.json") {
		if got := MeaningDropped(c.In, DropNonASCII(c.In)); got != c.Meaning {
			t.Errorf("MeaningDropped(%q) = %v, want %v: %s", c.In, got, c.Meaning, c.Why)
		}
	}
}

// variantCase is a case of variants.json or meaning.json.
type variantCase struct {
	Variant, In, Want, Why string
	Meaning                bool
}

// readCases reads a file of cases, a JSON array.
func readCases(t *testing.T, file string) (cases []variantCase) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err == nil {
		err = json.Unmarshal(b, &cases)
	}
	if err != nil || len(cases) == 0 {
		t.Fatalf("%s: %v, %d cases", file, err, len(cases))
	}
	return cases
}

// TestMeasureVariants: a window a variant changes is measured under it; a
// variant that dropped a minus sign is a control the locator must not find.
func TestMeasureVariants(t *testing.T) {
	page := "The first-quarter revenue fell — by a change of −5 points in all regions of the world this year"
	texts := map[string][]string{Ours: {page}, "ref": {page}}
	var seen []string
	r := MeasureLocate(LocateInput{Key: "k", Texts: texts, Locator: Locator{In: func(q string, page int) Answer {
		seen = append(seen, q)
		return Answer{Pages: []int{1}, Found: true, Level: "exact"}
	}}})
	total := 0
	for k, c := range r.Counts {
		if strings.HasPrefix(k.Measure, MeasureFound) {
			total += c.Total
		}
	}
	if total == 0 {
		t.Fatal("no window measured")
	}
	if m := r.Cell(MeasureFound+"/hyphen_space", "ref"); m.Total == 0 {
		t.Errorf("the hyphen_space variant measured nothing; quotes asked: %q", seen)
	}
	ascii := r.Cell(MeasureFound+"/ascii", "ref")
	meaning := r.Cell(MeasureMeaning+"/ascii", "ref")
	if ascii.Total+meaning.Total == 0 || meaning.Found != meaning.Total {
		t.Errorf("ascii: %d measured, %d meaning controls (%d found by a locator that finds everything)", ascii.Total, meaning.Total, meaning.Found)
	}
	if meaning.Total > 0 && len(r.Escapes) == 0 {
		t.Error("a meaning control found was not kept as an escape")
	}
}
