package freeze_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/textnorm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestMain lets the test binary serve as the extraction child.
func TestMain(m *testing.M) { testcorpus.Main(m) }

// testToolchain stands for the running toolchain, so that locks and their
// root hashes do not depend on the Go version or the commit.
var testToolchain = freeze.Toolchain{
	Tool: "github.com/citecheck/citecheck", Version: "v0.0.0-test", Go: "go1.26.0",
	Modules:   map[string]string{"github.com/zeebo/blake3": "v0.2.4", "golang.org/x/text": "v0.44.0"},
	UnicodeGo: "15.0.0", UnicodeNorm: "15.0.0", Normalization: "quote/v1",
}

var (
	templateOnce sync.Once
	templateDir  string
	templateErr  error
)

// evaluation returns a fresh folder laid out as an evaluation: pdfs/ with
// the fixture PDFs, corpus/ extracted from them, reference.json and
// plan.json from fixtures. The extraction runs once; each test gets a copy.
// The corpus holds every kind of stored file: pdftext records glyph boxes
// for every page, and page 1 of price-list.pdf is given an alternative
// text (withAlt), as pdftext gives a page whose font names glyphs other
// extractors read by their codes.
func evaluation(t *testing.T) string {
	t.Helper()
	templateOnce.Do(func() {
		if templateDir, templateErr = testcorpus.TempDir("freeze-test-"); templateErr != nil {
			return
		}
		if _, _, templateErr = testcorpus.Build(templateDir, fixtures.Demo(), testcorpus.Options{Extract: withAlt}); templateErr != nil {
			return
		}
		if templateErr = os.WriteFile(filepath.Join(templateDir, "reference.json"), fixtures.Reference(), 0o644); templateErr != nil {
			return
		}
		templateErr = os.WriteFile(filepath.Join(templateDir, "plan.json"), fixtures.Plan(), 0o644)
	})
	if templateErr != nil {
		t.Fatalf("building the fixture evaluation: %v", templateErr)
	}
	dir := t.TempDir()
	err := filepath.WalkDir(templateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(templateDir, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// withAlt wraps an extractor to give page 1 of price-list.pdf an
// alternative text: its hyphens read as minus signs.
func withAlt(extract ingest.ExtractFunc) ingest.ExtractFunc {
	return func(ctx context.Context, name string, pdf []byte) corpus.Extraction {
		ex := extract(ctx, name, pdf)
		if name == "price-list.pdf" && len(ex.Pages) > 0 {
			ex.Pages[0].Alts = []string{strings.ReplaceAll(ex.Pages[0].Text, "-", "\u2212")}
		}
		return ex
	}
}

func inputs(dir string) freeze.Inputs {
	return freeze.Inputs{
		LockPath:      filepath.Join(dir, "eval.lock"),
		CorpusDir:     filepath.Join(dir, "corpus"),
		ReferencePath: filepath.Join(dir, "reference.json"),
		PlanPath:      filepath.Join(dir, "plan.json"),
		Toolchain:     testToolchain,
	}
}

// frozen returns an evaluation folder with its lock written.
func frozen(t *testing.T) string {
	t.Helper()
	dir := evaluation(t)
	if _, err := freeze.Write(inputs(dir)); err != nil {
		t.Fatalf("freeze: %v", err)
	}
	return dir
}

func TestVerifyUnchanged(t *testing.T) {
	dir := frozen(t)
	rep, err := freeze.Check(filepath.Join(dir, "eval.lock"), testToolchain)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Warnings) != 0 || rep.Err() != nil {
		t.Errorf("an untouched evaluation: changes %v, warnings %v", rep.Changes, rep.Warnings)
	}
	if rep.PDFs != 3 || rep.Pages != 6 || rep.Alts != 1 || rep.Boxes != 6 || rep.Questions != 6 || rep.Orders != 3 {
		t.Errorf("re-hashed %d PDFs, %d pages, %d alternative texts, %d glyph-box files, %d questions, %d orders", rep.PDFs, rep.Pages, rep.Alts, rep.Boxes, rep.Questions, rep.Orders)
	}
}

// TestMovedLockSaysSo: a lock copied away from what it pins reads as every
// input changed; the report says why, where it looked, and what to do. A
// lock whose inputs are only changed has no such hint.
func TestMovedLockSaysSo(t *testing.T) {
	dir := frozen(t)
	elsewhere := filepath.Join(t.TempDir(), "eval.lock")
	data, err := os.ReadFile(filepath.Join(dir, "eval.lock"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(elsewhere, data, 0o644))
	rep, err := freeze.Check(elsewhere, testToolchain)
	require.NoError(t, err)
	require.False(t, rep.OK())
	assert.Contains(t, rep.Moved, "paths relative to its own folder ("+filepath.Dir(elsewhere)+")")
	assert.Contains(t, rep.Moved, "it looked for the corpus at "+filepath.Join(filepath.Dir(elsewhere), "corpus"))
	assert.Contains(t, rep.Moved, "was the lock moved")

	require.NoError(t, os.Remove(filepath.Join(dir, "reference.json")))
	rep, err = freeze.Check(filepath.Join(dir, "eval.lock"), testToolchain)
	require.NoError(t, err)
	assert.False(t, rep.OK())
	assert.Empty(t, rep.Moved, "the corpus is where the lock says: only the reference is gone")
}

// TestLockGolden pins the format on the fixtures, and that the lock is
// byte-identical wherever the evaluation folder is.
func TestLockGolden(t *testing.T) {
	a, b := frozen(t), frozen(t)
	la, _ := os.ReadFile(filepath.Join(a, "eval.lock"))
	lb, _ := os.ReadFile(filepath.Join(b, "eval.lock"))
	if !bytes.Equal(la, lb) {
		t.Fatal("two freezes of the same inputs in two folders differ")
	}
	golden := filepath.Join("testdata", "fixtures.lock")
	if *update {
		if err := os.WriteFile(golden, la, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(la, want) {
		t.Errorf("the lock differs from %s (run go test -update to accept):\n%s", golden, la)
	}
	l, err := freeze.Parse(la, "eval.lock")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(l.Encode(), la) {
		t.Error("Parse and Encode are not inverse")
	}
	lines := strings.Split(strings.TrimSuffix(string(la), "\n"), "\n")
	if lines[0] != freeze.Format || !strings.HasPrefix(lines[len(lines)-1], "root blake3:") {
		t.Errorf("first line %q, last line %q", lines[0], lines[len(lines)-1])
	}
	if !slices.IsSorted(lines[1 : len(lines)-1]) {
		t.Error("records are not sorted")
	}
	body := la[:bytes.LastIndex(la, []byte("root "))]
	if "root "+corpus.Hash(body) != lines[len(lines)-1] {
		t.Error("the root is not the hash of the lines before it")
	}
}

// TestTamper: every change to a frozen input is refused with the change
// named.
func TestTamper(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		inputs []string // the Change inputs, in report order
		detail string   // in one of the details
	}{
		{"one byte flipped in a fixture PDF", func(t *testing.T, dir string) {
			flipByte(t, filepath.Join(dir, "pdfs", "price-list.pdf"), 100)
		}, []string{"pdf price-list.pdf"}, "pdfs/price-list.pdf changed: BLAKE3 frozen blake3:8553fe3f"},
		{"one page text edited", func(t *testing.T, dir string) {
			replaceIn(t, storedFile(t, dir, "supplier-policy.pdf", "0002.txt"), "45 calendar days", "46 calendar days")
		}, []string{"page supplier-policy.pdf 2"}, "the stored text was edited"},
		{"a page text removed: the manifest still records it", func(t *testing.T, dir string) {
			os.Remove(storedFile(t, dir, "supplier-policy.pdf", "0002.txt"))
		}, []string{"page supplier-policy.pdf 2"}, "missing: no file at corpus/text/"},
		{"one byte of an alternative text changed: locate would refuse the corpus", func(t *testing.T, dir string) {
			flipByte(t, storedFile(t, dir, "price-list.pdf", "0001.alt1.txt"), 0)
		}, []string{"alt price-list.pdf 1 1"}, "the stored alternative text was edited: its file no longer hashes to blake3:"},
		{"an alternative text removed: the manifest still records it", func(t *testing.T, dir string) {
			os.Remove(storedFile(t, dir, "price-list.pdf", "0001.alt1.txt"))
		}, []string{"alt price-list.pdf 1 1"}, "missing: no file at corpus/text/"},
		{"one byte of a reading-orders file changed: locate would refuse the corpus", func(t *testing.T, dir string) {
			flipByte(t, storedFile(t, dir, "inspection-manual.pdf", "0002.orders.txt"), 30)
		}, []string{"layout inspection-manual.pdf 2"}, "the stored reading orders were edited: their file no longer hashes to blake3:"},
		{"one byte of a boxes.gz changed: the gzip no longer decompresses (show --boxes would fail)", func(t *testing.T, dir string) {
			path := storedFile(t, dir, "supplier-policy.pdf", "0002.boxes.gz")
			flipByte(t, path, fileSize(t, path)-8) // the CRC-32 of the trailer
		}, []string{"boxes supplier-policy.pdf 2"}, "0002.boxes.gz: not a gzip file that decompresses: gzip: invalid checksum"},
		{"a boxes.gz replaced by a valid gzip of other boxes: only the uncompressed hash tells", func(t *testing.T, dir string) {
			b, _ := os.ReadFile(storedFile(t, dir, "supplier-policy.pdf", "0001.boxes.gz"))
			os.WriteFile(storedFile(t, dir, "supplier-policy.pdf", "0002.boxes.gz"), b, 0o644)
		}, []string{"boxes supplier-policy.pdf 2"}, "the stored glyph boxes were edited: their file no longer decompresses to blake3:"},
		{"a boxes.gz removed: the manifest still records it", func(t *testing.T, dir string) {
			os.Remove(storedFile(t, dir, "supplier-policy.pdf", "0002.boxes.gz"))
		}, []string{"boxes supplier-policy.pdf 2"}, "missing: no file at corpus/text/"},
		{"an alternative text edited and the manifest edited to match: the manifest is pinned", func(t *testing.T, dir string) {
			path := storedFile(t, dir, "price-list.pdf", "0001.alt1.txt")
			_, before := hashOf(t, path)
			flipByte(t, path, 0)
			_, after := hashOf(t, path)
			replaceIn(t, filepath.Join(dir, "corpus", corpus.ManifestFile), before, after)
		}, []string{"corpus corpus", "alt price-list.pdf 1 1"}, "the stored alternative text changed: frozen blake3:"},
		{"a lock without alt and boxes records (as citecheck wrote before it pinned them): they are not pinned", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "eval.lock")
			b, _ := os.ReadFile(path)
			var body strings.Builder
			for _, line := range strings.SplitAfter(string(b), "\n") {
				if !strings.HasPrefix(line, "alt ") && !strings.HasPrefix(line, "boxes ") && !strings.HasPrefix(line, "root ") {
					body.WriteString(line)
				}
			}
			os.WriteFile(path, []byte(body.String()+"root "+corpus.Hash([]byte(body.String()))+"\n"), 0o644)
		}, []string{"pdf inspection-manual.pdf", "pdf price-list.pdf", "pdf supplier-policy.pdf"}, "1 alternative text and 1 glyph-box file in the corpus not in the lock"},
		{"one claim value changed", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `"value": "every 6 months"`, `"value": "every 7 months"`)
		}, []string{"reference reference.json", "question Q04"}, "essential_claims changed"},
		{"an alias added", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `["10 working days from the purchase order date"]`, `["10 working days from the purchase order date", "two weeks"]`)
		}, []string{"reference reference.json", "question Q01"}, "accepted_alternatives changed"},
		{"two questions swapped in the plan", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "plan.json"), `["Q06", "Q01", "Q03"`, `["Q01", "Q06", "Q03"`)
		}, []string{"plan plan.json", "plan plan.json"}, "positions 1 and 2 swapped"},
		{"the lock edited", func(t *testing.T, dir string) {
			// Someone "updates" the lock to accept a changed PDF.
			pdf := filepath.Join(dir, "pdfs", "price-list.pdf")
			_, old := hashOf(t, pdf)
			flipByte(t, pdf, 100)
			_, sum := hashOf(t, pdf)
			replaceIn(t, filepath.Join(dir, "eval.lock"), old+" pdfs/", sum+" pdfs/")
		}, []string{"lock", "pdf price-list.pdf"}, "the lock was edited after freeze"},
		{"reference reformatted only", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `"format": "citecheck-reference/1.5",`, `"format":"citecheck-reference/1.5",`)
		}, []string{"reference reference.json"}, "only formatting was edited"},
		{"a PDF removed", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "pdfs", "inspection-manual.pdf"))
		}, []string{"pdf inspection-manual.pdf"}, "missing: no file at pdfs/inspection-manual.pdf"},
		{"a question removed", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `"id": "Q04"`, `"id": "Q07"`)
		}, []string{"reference reference.json", "question Q07", "question Q04"}, "removed after freeze"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := frozen(t)
			tc.tamper(t, dir)
			rep, err := freeze.Check(filepath.Join(dir, "eval.lock"), testToolchain)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var details strings.Builder
			for _, c := range rep.Changes {
				got = append(got, c.Input)
				details.WriteString(c.String() + "\n")
			}
			if rep.OK() || !errors.Is(rep.Err(), freeze.ErrChanged) {
				t.Fatal("the change was not refused")
			}
			if !slices.Equal(got, tc.inputs) {
				t.Errorf("changes named %q, want %q:\n%s", got, tc.inputs, details.String())
			}
			if !strings.Contains(details.String(), tc.detail) {
				t.Errorf("%q not in:\n%s", tc.detail, details.String())
			}
		})
	}
}

func TestToolchainDriftIsAWarning(t *testing.T) {
	dir := frozen(t)
	other := testToolchain
	other.Go = "go1.27.0"
	other.UnicodeNorm = "17.0.0"
	other.Modules = map[string]string{"github.com/zeebo/blake3": "v0.2.5", "golang.org/x/text": "v0.44.0", "example.com/new": "v1.0.0"}
	rep, err := freeze.Check(filepath.Join(dir, "eval.lock"), other)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("toolchain drift alone must not refuse: %v", rep.Changes)
	}
	var got []string
	for _, w := range rep.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		"go: frozen with go1.26.0, running go1.27.0",
		"module example.com/new: not in the freezing toolchain; running v1.0.0",
		"module github.com/zeebo/blake3: frozen with v0.2.4, running v0.2.5",
		"unicode norm: frozen with 15.0.0, running 17.0.0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDecisionProfileVersionWarns: quote/v2 replaced quote/v1;
// a lock frozen under quote/v1 still checks (its evidence is unchanged) and
// warns that verdicts computed now may differ: quote/v2 finds quotes
// quote/v1 called fabricated.
func TestDecisionProfileVersionWarns(t *testing.T) {
	dir := frozen(t)
	now := testToolchain
	now.Normalization = textnorm.ProfileQuoteV2
	rep, err := freeze.Check(filepath.Join(dir, "eval.lock"), now)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("a profile change alone must not refuse: %v", rep.Changes)
	}
	var got []string
	for _, w := range rep.Warnings {
		got = append(got, w.String())
	}
	want := []string{"normalization: frozen with quote/v1, running quote/v2"}
	if !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func TestFreezeRefuses(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		is     error
		want   string
	}{
		{"a span error", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `"start": 243`, `"start": 244`)
		}, freeze.ErrReferenceInvalid, "1 error"},
		{"a plan for other questions", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "reference.json"), `"id": "Q04"`, `"id": "Q07"`)
		}, freeze.ErrPlanMismatch, "lacks questions [Q07] and has questions [Q04]"},
		{"a PDF changed since extraction", func(t *testing.T, dir string) {
			flipByte(t, filepath.Join(dir, "pdfs", "supplier-policy.pdf"), 50)
		}, freeze.ErrStaleCorpus, "has changed since it was extracted"},
		{"a page text edited since extraction", func(t *testing.T, dir string) {
			replaceIn(t, storedFile(t, dir, "price-list.pdf", "0001.txt"), "4.75", "4.57")
		}, freeze.ErrStaleCorpus, "0001.txt): stored file does not match the manifest"},
		{"an alternative text edited since extraction", func(t *testing.T, dir string) {
			flipByte(t, storedFile(t, dir, "price-list.pdf", "0001.alt1.txt"), 0)
		}, freeze.ErrStaleCorpus, "0001.alt1.txt): stored file does not match the manifest"},
		{"a boxes.gz damaged since extraction", func(t *testing.T, dir string) {
			path := storedFile(t, dir, "inspection-manual.pdf", "0002.boxes.gz")
			flipByte(t, path, fileSize(t, path)-8)
		}, freeze.ErrStaleCorpus, "0002.boxes.gz): stored file does not match the manifest: not a gzip file that decompresses"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := evaluation(t)
			tc.tamper(t, dir)
			fr, err := freeze.Write(inputs(dir))
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %v saying %q", err, tc.is, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "eval.lock")); !errors.Is(err, fs.ErrNotExist) {
				t.Error("a refused freeze wrote a lock")
			}
			if tc.is == freeze.ErrReferenceInvalid && (fr == nil || !fr.Spans.HasErrors()) {
				t.Error("the span report is not returned with the refusal")
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	good := "citecheck-lock/1\ngo go1.26.0\nroot blake3:00\n"
	tests := []struct {
		name, in string
		is       error
		want     string
	}{
		{"not a lock", "{}\n", freeze.ErrNotLock, "eval.lock:1:"},
		{"other version", "citecheck-lock/2\n", freeze.ErrMalformed, `format "citecheck-lock/2"`},
		{"unknown kind", strings.Replace(good, "go go1", "gopher go1", 1), freeze.ErrMalformed, `eval.lock:2: malformed lock: unknown record kind "gopher"`},
		{"missing field", strings.Replace(good, "go go1.26.0", "go", 1), freeze.ErrMalformed, "go has 0 fields, want 1"},
		{"two spaces", strings.Replace(good, "go go1", "go  go1", 1), freeze.ErrMalformed, "eval.lock:2"},
		{"no root", "citecheck-lock/1\ngo go1.26.0\n", freeze.ErrMalformed, "no root line"},
		{"root not last", "citecheck-lock/1\nroot blake3:00\ngo go1.26.0\n", freeze.ErrMalformed, "must be the last"},
		{"truncated", strings.TrimSuffix(good, "\n"), freeze.ErrMalformed, "truncated"},
		{"bad quoting", strings.Replace(good, "go go1.26.0", `go "go1`, 1), freeze.ErrMalformed, "bad quoted field"},
	}
	for _, tc := range tests {
		_, err := freeze.Parse([]byte(tc.in), "eval.lock")
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %v saying %q", tc.name, err, tc.is, tc.want)
		}
	}
	// Quoted fields carry names with spaces.
	l, err := freeze.Parse([]byte("citecheck-lock/1\nquestion \"Q 1\" blake3:00\nroot x\n"), "eval.lock")
	if err != nil || l.Records[0].Fields[0] != "Q 1" {
		t.Errorf("quoted field: %v %v", l, err)
	}
}

// storedFile returns the path of a stored file (name: "0001.txt",
// "0001.alt1.txt", "0001.boxes.gz") of a document in the corpus of the
// evaluation folder dir.
func storedFile(t *testing.T, dir, doc, name string) string {
	t.Helper()
	store, err := corpus.Open(filepath.Join(dir, "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := store.Manifest().Document(doc)
	if !ok {
		t.Fatalf("no document %s in the corpus", doc)
	}
	return filepath.Join(dir, "corpus", "text", strings.TrimPrefix(d.BLAKE3, "blake3:"), name)
}

func fileSize(t *testing.T, path string) int {
	t.Helper()
	n, _ := hashOf(t, path)
	return n
}

func flipByte(t *testing.T, path string, at int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at] ^= 0x01
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func hashOf(t *testing.T, path string) (int, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(b), corpus.Hash(b)
}
