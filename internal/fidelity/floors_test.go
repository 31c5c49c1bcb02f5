package fidelity

import (
	"bytes"
	"strings"
	"testing"
)

const sampleFloors = FloorsHeader + `# tools: pdftotext=22.12.0 pdfjs=4.10.38
pdftotext * 912
pdftotext a.pdf 950
pdftotext b with spaces.pdf 800
pdfjs * 880
pdfjs a.pdf 900
`

func TestFloorsRoundTrip(t *testing.T) {
	f, err := ReadFloors(strings.NewReader(sampleFloors))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version["pdftotext"] != "22.12.0" || f.Version["pdfjs"] != "4.10.38" {
		t.Errorf("versions %v", f.Version)
	}
	if f.Rate["pdftotext"]["b with spaces.pdf"] != 800 || f.Rate["pdfjs"][Corpus] != 880 {
		t.Errorf("rates %v", f.Rate)
	}
	if got := string(f.Format()); got != sampleFloors {
		t.Errorf("Format does not give back what was read:\n%s\nwant\n%s", got, sampleFloors)
	}
}

func TestReadFloorsRejects(t *testing.T) {
	for name, text := range map[string]string{
		"old format":      "# tools: pdftotext=22.12.0\n* 877\n",
		"unknown tool":    "# tools: pdftotext=1\nxpdf * 900\n",
		"no version":      "pdftotext * 900\n",
		"not a number":    "# tools: pdftotext=1\npdftotext a.pdf high\n",
		"over 100%":       "# tools: pdftotext=1\npdftotext a.pdf 1001\n",
		"duplicate":       "# tools: pdftotext=1\npdftotext a.pdf 900\npdftotext a.pdf 901\n",
		"bad tools line":  "# tools: pdftotext\n",
		"no document":     "# tools: pdftotext=1\npdftotext 900\n",
		"unknown on line": "# tools: xpdf=3\n",
	} {
		if _, err := ReadFloors(strings.NewReader(text)); err == nil {
			t.Errorf("%s: %q read without an error", name, text)
		}
	}
}

func measured(tool, version string, all Cell, docs map[string]Cell) *Measured {
	return &Measured{Tool: tool, Version: version, All: all, Docs: docs}
}

func TestFloorsCheck(t *testing.T) {
	f, err := ReadFloors(strings.NewReader(sampleFloors))
	if err != nil {
		t.Fatal(err)
	}
	// At the floors: pass, and the summary says so.
	sum, below := f.Check(measured("pdftotext", "22.12.0", Cell{912, 1000}, map[string]Cell{"a.pdf": {95, 100}, "b with spaces.pdf": {80, 100}}))
	if len(below) != 0 || !strings.Contains(sum, "pass") {
		t.Errorf("at the floors: %q %v", sum, below)
	}
	// One document and the corpus below.
	_, below = f.Check(measured("pdftotext", "22.12.0", Cell{911, 1000}, map[string]Cell{"a.pdf": {94, 100}, "b with spaces.pdf": {80, 100}}))
	if len(below) != 2 {
		t.Errorf("below on a.pdf and the corpus: got %v", below)
	}
	// Another version: documents not checked, the corpus with the slack.
	sum, below = f.Check(measured("pdftotext", "24.02.0", Cell{903, 1000}, map[string]Cell{"a.pdf": {10, 100}}))
	if len(below) != 0 || !strings.Contains(sum, "not checked") {
		t.Errorf("another version within the slack: %q %v", sum, below)
	}
	_, below = f.Check(measured("pdftotext", "24.02.0", Cell{901, 1000}, nil))
	if len(below) != 1 {
		t.Errorf("another version below the slack: %v", below)
	}
	// A tool without floors passes and says it has none.
	sum, below = f.Check(measured("mutool", "1.21.1", Cell{1, 1000}, nil))
	if len(below) != 0 || !strings.Contains(sum, "no floors") {
		t.Errorf("tool without floors: %q %v", sum, below)
	}
	// A document without windows now is not held to its floor.
	_, below = f.Check(measured("pdfjs", "4.10.38", Cell{900, 1000}, map[string]Cell{}))
	if len(below) != 0 {
		t.Errorf("document without windows: %v", below)
	}
}

func TestFloorsNeverGoDown(t *testing.T) {
	f, _ := ReadFloors(strings.NewReader(sampleFloors))
	m := measured("pdftotext", "22.12.0", Cell{950, 1000}, map[string]Cell{"a.pdf": {90, 100}, "c.pdf": {70, 100}})
	if err := f.Raise(m); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{Corpus: 950, "a.pdf": 950, "b with spaces.pdf": 800, "c.pdf": 700}
	for d, v := range want {
		if f.Rate["pdftotext"][d] != v {
			t.Errorf("after Raise, %s = %d, want %d", d, f.Rate["pdftotext"][d], v)
		}
	}
	// The other tools' floors are left alone.
	if f.Rate["pdfjs"]["a.pdf"] != 900 || f.Version["pdfjs"] != "4.10.38" {
		t.Errorf("pdfjs floors changed: %v %v", f.Rate["pdfjs"], f.Version)
	}
	// A new tool gets its figures.
	if err := f.Raise(measured("mutool", "1.21.1", Cell{800, 1000}, map[string]Cell{"a.pdf": {1, 2}})); err != nil {
		t.Fatal(err)
	}
	if f.Rate["mutool"][Corpus] != 800 || f.Rate["mutool"]["a.pdf"] != 500 || f.Version["mutool"] != "1.21.1" {
		t.Errorf("new tool: %v %v", f.Rate["mutool"], f.Version)
	}
	// Another version is refused and changes nothing.
	before := string(f.Format())
	if err := f.Raise(measured("pdfjs", "5.0.0", Cell{999, 1000}, nil)); err == nil {
		t.Error("Raise with another version did not refuse")
	}
	if string(f.Format()) != before {
		t.Error("a refused Raise changed the floors")
	}
	// Reset lowers, deliberately.
	f.Reset(measured("pdfjs", "5.0.0", Cell{500, 1000}, nil))
	if f.Rate["pdfjs"][Corpus] != 500 || len(f.Rate["pdfjs"]) != 1 || f.Version["pdfjs"] != "5.0.0" {
		t.Errorf("after Reset: %v %v", f.Rate["pdfjs"], f.Version)
	}
	if _, err := ReadFloors(bytes.NewReader(f.Format())); err != nil {
		t.Errorf("formatted floors do not read back: %v", err)
	}
}
