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

// TestMeaningControlHeldElsewhere: a variant that dropped a minus sign is
// no control where another text of the document reads as the variant
// does but for characters that carry no meaning (a figure's tick "4"
// after the line, as a reading order sees it): the locator may find it
// there.
func TestMeaningControlHeldElsewhere(t *testing.T) {
	texts := map[string][]string{
		Ours:   {"Also für n = 1:\n−4"},
		"ref":  {"Also für n = 1:\n−4"},
		"ref2": {"Also für n = 1:\n4 −4"},
	}
	r := MeasureLocate(LocateInput{Key: "k", Texts: texts, Locator: Locator{In: func(q string, page int) Answer {
		return Answer{Pages: []int{1}, Found: true, Level: "exact"}
	}}})
	if c := r.Cell(MeasureMeaning+"/ascii", "ref"); c.Total != 0 {
		t.Errorf("ref's ascii variant %q counted as a meaning control (%d), though ref2 holds it", DropNonASCII(texts["ref"][0]), c.Total)
	}
}

// TestMinVariantLen: a variant that keeps fewer letters and digits than
// the locator's levels look up is neither measured nor a control: an
// ASCII copy of a Greek line keeps too little for any rule to find it.
func TestMinVariantLen(t *testing.T) {
	page := "Es ist αβγδ ικλμ ρστυ gut so"
	texts := map[string][]string{Ours: {page}, "ref": {page}}
	r := MeasureLocate(LocateInput{Key: "k", Texts: texts, MinVariantLen: 16, Locator: Locator{In: func(q string, page int) Answer {
		return Answer{}
	}}})
	if c := r.Cell(MeasureFound+"/ascii", "ref"); c.Total != 0 {
		t.Errorf("the ascii variant %q (%d letters) measured %d times", DropNonASCII(page), len(skeleton(DropNonASCII(page))), c.Total)
	}
	if c := r.Cell(MeasureFound, "ref"); c.Total == 0 {
		t.Error("the window itself was not measured")
	}
}

// TestDashVariantMeasured: a dash written as "--" is measured, never a
// meaning control: the locator reads a run of dashes as one dash, so the
// en dash of a range between two numbers is still there.
func TestDashVariantMeasured(t *testing.T) {
	page := "Sales in 2019–2020 rose by a lot this year"
	texts := map[string][]string{Ours: {page}, "ref": {page}}
	r := MeasureLocate(LocateInput{Key: "k", Texts: texts, Locator: Locator{In: func(q string, page int) Answer {
		return Answer{Pages: []int{1}, Found: true, Level: "exact"}
	}}})
	if c := r.Cell(MeasureFound+"/dash_ascii", "ref"); c.Total == 0 {
		t.Errorf("the dash_ascii variant of %q was not measured (meaning controls: %d)", page, r.Cell(MeasureMeaning+"/dash_ascii", "ref").Total)
	}
}
