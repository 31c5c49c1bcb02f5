package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/textnorm"
)

// fixedToolchain replaces the running toolchain so that golden output does
// not depend on the Go version, the modules or the commit.
func fixedToolchain(t *testing.T) {
	t.Helper()
	old := cliToolchain
	cliToolchain = func() freeze.Toolchain {
		return freeze.Toolchain{
			Tool: "github.com/citecheck/citecheck", Version: "v0.0.0-test", Go: "go1.26.0",
			Modules:   map[string]string{"github.com/zeebo/blake3": "v0.2.4"},
			UnicodeGo: "15.0.0", UnicodeNorm: "15.0.0", Normalization: textnorm.ProfileQuoteV2,
		}
	}
	t.Cleanup(func() { cliToolchain = old })
}

// evalDir makes an evaluation folder (pdfs/, corpus/, reference.json) and
// changes into it, so that the commands' output names files relatively.
func evalDir(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	pdfs := filepath.Join(dir, "pdfs")
	if err := os.MkdirAll(pdfs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range fixtures.Demo() {
		if err := os.WriteFile(filepath.Join(pdfs, d.Name), d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "reference.json"), fixtures.Reference(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if out, errOut, code := runCLI(t, "extract", "--out", "corpus", "--jobs", "2", "pdfs"); code != 0 {
		t.Fatalf("extract: %d\n%s%s", code, out, errOut)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	writeFile(t, name, strings.Replace(string(b), old, new, 1))
}

// brokenReference is the fixture reference with one mistake of each common
// kind: a shifted offset, a typo, a wrong page, a missing offset pair, a
// value the span does not state.
func brokenReference() string {
	return strings.NewReplacer(
		`"start": 243,`, `"start": 244,`,
		`"end": 318,`, `"end": 319,`,
		`"Bracket B-200: 4.75 per piece"`, `"Bracket B-200: 4.57 per piece"`,
		`"document": "inspection-manual.pdf", "page": 1`, `"document": "inspection-manual.pdf", "page": 2`,
		`"start": 142, "end": 211, `, ``,
		`"value": "32 parts"`, `"value": "30 parts"`,
	).Replace(string(fixtures.Reference()))
}

func TestSpansCommand(t *testing.T) {
	evalDir(t)
	out, errOut, code := runCLI(t, "spans", "--corpus", "corpus", "reference.json")
	if code != 0 || errOut != "" {
		t.Fatalf("spans on the fixture: exit %d\n%s%s", code, out, errOut)
	}
	checkGolden(t, "spans/ok.txt", []byte(out))

	writeFile(t, "broken.json", brokenReference())
	out, _, code = runCLI(t, "spans", "--corpus", "corpus", "broken.json")
	if code != exitFailed {
		t.Errorf("errors found: exit %d, want 1", code)
	}
	checkGolden(t, "spans/problems.txt", []byte(out))
	out, _, _ = runCLI(t, "spans", "--corpus", "corpus", "--json", "broken.json")
	checkGolden(t, "spans/problems.json", []byte(out))

	// --fix fills the missing pair and nothing else; the input is untouched.
	before, _ := os.ReadFile("broken.json")
	out, _, code = runCLI(t, "spans", "--corpus", "corpus", "--fix", "--out", "fixed.json", "broken.json")
	if code != exitFailed {
		t.Errorf("--fix with other errors left: exit %d, want 1", code)
	}
	checkGolden(t, "spans/fix.txt", []byte(out))
	after, _ := os.ReadFile("broken.json")
	fixed, _ := os.ReadFile("fixed.json")
	if !bytes.Equal(before, after) {
		t.Error("--fix edited its input")
	}
	if want := strings.Replace(brokenReference(), `"page": 2, "text": "A batch`, `"page": 2, "start": 142, "end": 211, "text": "A batch`, 1); string(fixed) != want {
		t.Errorf("--fix output:\n%s", fixed)
	}
}

func TestSpansUsage(t *testing.T) {
	evalDir(t)
	writeFile(t, "bad.json", `{"format": "citecheck-reference/1.5", "questions": [{"id": "Q1", "id": "Q2"}]}`)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"spans", "reference.json"}, exitUsage, "--corpus CORPUS is required"},
		{[]string{"spans", "--corpus", "corpus"}, exitUsage, "want one REFERENCE"},
		{[]string{"spans", "--corpus", "corpus", "--fix", "reference.json"}, exitUsage, "--fix and --out NEW go together"},
		{[]string{"spans", "--corpus", "corpus", "--fix", "--out", "./reference.json", "reference.json"}, exitUsage, "never edits in place"},
		{[]string{"spans", "--corpus", "corpus", "bad.json"}, exitUsage, `bad.json:1:66: questions[0].id: duplicate key "id"`},
		{[]string{"spans", "--corpus", "nowhere", "reference.json"}, exitUsage, "not a citecheck corpus"},
	}
	for _, tc := range tests {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d mentioning %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

func TestPlanCommand(t *testing.T) {
	evalDir(t)
	out, errOut, code := runCLI(t, "plan", "reference.json", "--arms", "A,B", "--repeats", "3", "--seed", "20240601")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != string(fixtures.Plan()) {
		t.Errorf("the plan on stdout is not fixtures/plan.json:\n%s", out)
	}
	checkGolden(t, "plan/summary.txt", []byte(errOut))
	out, errOut, code = runCLI(t, "plan", "reference.json", "--arms", "A,B", "--seed", "20240601", "--out", "plan.json", "--answerable", "4", "--unknown", "2")
	if b, _ := os.ReadFile("plan.json"); code != 0 || errOut != "" || strings.Contains(out, "warning") || !bytes.Contains(b, []byte(`"expected": {"answerable": 4, "unknown": 2}`)) {
		t.Errorf("--out with the expected counts met: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, "plan", "reference.json", "--arms", "A,B", "--repeats", "2", "--seed", "1", "--out", "p2.json", "--sessions", "B:1,A:1,A:2,B:2")
	if code != 0 || !strings.Contains(out, "sessions: B1 A1 A2 B2") {
		t.Errorf("--sessions: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "reference.json", "--arms", "A,B"}, "--arms and --seed are required"},
		{[]string{"plan", "reference.json", "--arms", "A,B", "--seed", "-3"}, "not an unsigned 64-bit integer"},
		{[]string{"plan", "reference.json", "--arms", "A,A", "--seed", "1"}, `arm "A" is named twice`},
		{[]string{"plan", "reference.json", "--arms", "A", "--seed", "1", "--sessions", "A1"}, `"A1" is not ARM:REPETITION`},
		{[]string{"plan", "--arms", "A", "--seed", "1"}, "want one REFERENCE"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestFreezeCommand(t *testing.T) {
	fixedToolchain(t)
	evalDir(t)
	writeFile(t, "plan.json", string(fixtures.Plan()))
	out, errOut, code := runCLI(t, "freeze", "--corpus", "corpus", "reference.json", "--plan", "plan.json", "--out", "eval.lock")
	if code != 0 {
		t.Fatalf("freeze: exit %d\n%s%s", code, out, errOut)
	}
	checkGolden(t, "freeze/freeze.txt", []byte(out))
	lock, _ := os.ReadFile("eval.lock")
	checkGolden(t, "freeze/eval.lock", lock)

	out, _, code = runCLI(t, "freeze", "--verify", "eval.lock")
	if code != 0 {
		t.Errorf("verify an untouched evaluation: exit %d\n%s", code, out)
	}
	checkGolden(t, "freeze/verify-ok.txt", []byte(out))

	// Toolchain drift alone: a warning, exit 0.
	drifted := cliToolchain()
	drifted.Go = "go1.27.0"
	old := cliToolchain
	cliToolchain = func() freeze.Toolchain { return drifted }
	out, _, code = runCLI(t, "freeze", "--verify", "eval.lock")
	cliToolchain = old
	if code != 0 || !strings.Contains(out, "warning: go: frozen with go1.26.0, running go1.27.0") {
		t.Errorf("toolchain drift: exit %d\n%s", code, out)
	}

	// Tampering: a PDF byte, a page text, a claim value, an alias, the
	// plan order: exit 3, each named.
	flip := func(name string, at int) {
		b, _ := os.ReadFile(name)
		b[at] ^= 1
		writeFile(t, name, string(b))
	}
	flip(filepath.Join("pdfs", "price-list.pdf"), 100)
	edit(t, "reference.json", `"value": "every 6 months"`, `"value": "every 7 months"`)
	edit(t, "reference.json", `["ten working days of the purchase order date"]`, `["ten working days of the purchase order date", "two weeks"]`)
	edit(t, "plan.json", `["Q06", "Q01", "Q03"`, `["Q01", "Q06", "Q03"`)
	pages, _ := filepath.Glob(filepath.Join("corpus", "text", "*", "0003.txt"))
	edit(t, pages[0], "7 years", "5 years")
	out, _, code = runCLI(t, "freeze", "--verify", "eval.lock")
	if code != exitIntegrity {
		t.Errorf("tampered: exit %d, want 3", code)
	}
	checkGolden(t, "freeze/verify-tampered.txt", []byte(out))

	// The lock itself edited: refused, exit 3.
	edit(t, "eval.lock", "go go1.26.0", "go go1.25.0")
	out, _, code = runCLI(t, "freeze", "--verify", "eval.lock")
	if code != exitIntegrity || !strings.Contains(out, "changed: lock: its records hash to") {
		t.Errorf("edited lock: exit %d\n%s", code, out)
	}
	// A damaged lock: exit 3; not a lock at all: exit 2.
	writeFile(t, "damaged.lock", "citecheck-lock/1\nbogus record\n")
	if _, errOut, code := runCLI(t, "freeze", "--verify", "damaged.lock"); code != exitIntegrity || !strings.Contains(errOut, "damaged.lock:2: malformed lock") {
		t.Errorf("damaged lock: exit %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "freeze", "--verify", "reference.json"); code != exitUsage || !strings.Contains(errOut, "not a citecheck lock") {
		t.Errorf("not a lock: exit %d %q", code, errOut)
	}
}

func TestFreezeRefusesSpanErrors(t *testing.T) {
	fixedToolchain(t)
	evalDir(t)
	writeFile(t, "broken.json", brokenReference())
	out, _, code := runCLI(t, "freeze", "--corpus", "corpus", "broken.json", "--out", "eval.lock")
	if code != exitFailed {
		t.Errorf("span errors: exit %d, want 1", code)
	}
	checkGolden(t, "freeze/refused.txt", []byte(out))
	if _, err := os.Stat("eval.lock"); err == nil {
		t.Error("a refused freeze wrote the lock")
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"freeze", "--corpus", "corpus", "reference.json"}, exitUsage, "want --corpus CORPUS REFERENCE --out LOCK"},
		{[]string{"freeze", "--verify", "x.lock", "--out", "y"}, exitUsage, "takes no other flag"},
		{[]string{"freeze", "--corpus", "corpus", "reference.json", "--plan", "missing.json", "--out", "l"}, exitUsage, "no such file"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d mentioning %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
