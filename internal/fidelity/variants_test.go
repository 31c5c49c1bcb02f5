package fidelity

import (
	"strings"
	"testing"
)

func TestVariants(t *testing.T) {
	tests := []struct {
		variant, in, want, why string
	}{
		{"ascii", "Former Issuer’s shares", "Former Issuers shares", "the curly apostrophe is dropped, as text.encode(\"ascii\", \"ignore\") drops it"},
		{"ascii", "Marketable securities — current", "Marketable securities  current", "the em dash goes, its spaces stay"},
		{"ascii", "Agência Nacional", "Agncia Nacional", "an accented letter vanishes"},
		{"hyphen_space", "first-quarter results", "first quarter results", "a hyphen between letters"},
		{"hyphen_space", "COVID-19 and 2019-2020", "COVID-19 and 2019-2020", "a hyphen next to a digit is kept"},
		{"hyphen_space", "well- known", "well- known", "a hyphen before a space is no hyphen between letters"},
		{"dash_ascii", "securities — current and 2019–2020", "securities -- current and 2019--2020", "em and en dashes become --"},
	}
	for _, tt := range tests {
		var got string
		for _, v := range Variants {
			if v.Name == tt.variant {
				got = v.Apply(tt.in)
			}
		}
		if got != tt.want {
			t.Errorf("%s(%q) = %q, want %q: %s", tt.variant, tt.in, got, tt.want, tt.why)
		}
	}
}

func TestMeaningDropped(t *testing.T) {
	tests := []struct {
		in   string
		want bool
		why  string
	}{
		{"Former Issuer’s shares", false, "an apostrophe carries no number's meaning"},
		{"securities — current", false, "a dash between words"},
		{"a change of −5 points", true, "the minus sign"},
		{"at 20 °C", true, "the degree sign"},
		{"costs €5 each", true, "the currency sign"},
		{"x ≤ 3", true, "a comparison"},
		{"1\u2009000 units", true, "a thin space between digits: 1 000 read 1000"},
		{"a 5 μm layer", true, "a letter of the unit after a number"},
		{"area in m² of land", true, "a number character other than a digit"},
		{"Agência Nacional", false, "an accented letter of a word"},
		{"in 2019 Agência Nacional", false, "a long word after a number is no unit"},
		{"a change of –5 points", true, "an en dash attached to a number: a minus sign"},
		{"total — 5", false, "an em dash apart from a number: a table's nil, not a sign"},
		{"total –  5", true, "an en dash apart from a number by spaces may still be its sign"},
		{"plain ASCII text", false, "nothing dropped"},
		{"where 0 ≤", false, "a comparison dropped at the edge only shortens the quote"},
		{"of (ε1, ε2) gives", true, "a letter attached to a digit: a variable's name"},
	}
	for _, tt := range tests {
		if got := MeaningDropped(tt.in, DropNonASCII(tt.in)); got != tt.want {
			t.Errorf("MeaningDropped(%q) = %v, want %v: %s", tt.in, got, tt.want, tt.why)
		}
	}
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
