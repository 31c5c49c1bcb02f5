package freeze_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/freeze"
)

// textEvaluation returns an evaluation folder whose corpus was imported
// from page texts (ingest.ImportText): pages/<document>/NNNN.txt hold the
// texts the fixture PDFs extract to, so the fixture reference and plan fit
// it as they fit the extracted corpus.
func textEvaluation(t *testing.T) string {
	t.Helper()
	dir := evaluation(t)
	store, err := corpus.Open(filepath.Join(dir, "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range store.Manifest().Documents {
		d := &store.Manifest().Documents[i]
		if err := os.MkdirAll(filepath.Join(dir, "pages", d.Name), 0o755); err != nil {
			t.Fatal(err)
		}
		for p := 1; p <= len(d.Pages); p++ {
			text, err := store.Text(d, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "pages", d.Name, ingest.TextPageName(p)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "corpus")); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.ImportText(filepath.Join(dir, "corpus"), []string{filepath.Join(dir, "pages")}, ingest.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func frozenText(t *testing.T) string {
	t.Helper()
	dir := textEvaluation(t)
	if _, err := freeze.Write(inputs(dir)); err != nil {
		t.Fatalf("freeze: %v", err)
	}
	return dir
}

// TestTextLock: a lock over an imported corpus pins each document's page
// folder with a text record, verifies unchanged, and is the same bytes
// wherever the evaluation folder is.
func TestTextLock(t *testing.T) {
	a, b := frozenText(t), frozenText(t)
	la, _ := os.ReadFile(filepath.Join(a, "eval.lock"))
	lb, _ := os.ReadFile(filepath.Join(b, "eval.lock"))
	if !bytes.Equal(la, lb) {
		t.Fatal("two freezes of the same inputs in two folders differ")
	}
	golden := filepath.Join("testdata", "text.lock")
	if *update {
		if err := os.WriteFile(golden, la, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(la, want) {
		t.Errorf("the lock differs from %s (run go test -update to accept; %v):\n%s", golden, err, la)
	}
	l, err := freeze.Parse(la, "eval.lock")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Find("pdf")); n != 0 {
		t.Errorf("%d pdf records for a corpus with no PDF", n)
	}
	store, _ := corpus.Open(filepath.Join(a, "corpus"))
	var want []string
	for _, d := range store.Manifest().Documents {
		want = append(want, fmt.Sprintf("text %s %d %s pages/%s", d.Name, d.Bytes, d.BLAKE3, d.Name))
	}
	var got []string
	for _, r := range l.Find("text") {
		got = append(got, r.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("text records\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ex := l.Find("extractor"); len(ex) != 1 || ex[0].String() != "extractor citecheck-import-text 1" || len(l.Find("extractor.limit")) != 0 {
		t.Errorf("extractor records: %v %v", ex, l.Find("extractor.limit"))
	}

	rep, err := freeze.Check(filepath.Join(a, "eval.lock"), testToolchain)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Warnings) != 0 {
		t.Errorf("an untouched evaluation: changes %v, warnings %v", rep.Changes, rep.Warnings)
	}
	if rep.Texts != 3 || rep.PDFs != 0 || rep.Pages != 6 {
		t.Errorf("re-hashed %d text documents, %d PDFs, %d pages", rep.Texts, rep.PDFs, rep.Pages)
	}
	if s := rep.Summary(); !strings.HasPrefix(s, "3 text documents, 6 page texts, 6 questions") {
		t.Errorf("summary %q", s)
	}
}

// TestTextTamper: a change to a frozen page folder is refused, the pages
// that changed named.
func TestTextTamper(t *testing.T) {
	pageFile := func(dir, doc string, page int) string {
		return filepath.Join(dir, "pages", doc, ingest.TextPageName(page))
	}
	tests := []struct {
		name    string
		tamper  func(t *testing.T, dir string)
		inputs  []string
		details []string
	}{
		{"one byte of a page file changed", func(t *testing.T, dir string) {
			replaceIn(t, pageFile(dir, "price-list.pdf", 1), "4.75", "4.76")
		}, []string{"text price-list.pdf"}, []string{"pages/price-list.pdf changed (0001.txt changed): BLAKE3 frozen blake3:", "bytes frozen"}},
		{"the last page removed", func(t *testing.T, dir string) {
			os.Remove(pageFile(dir, "supplier-policy.pdf", 3))
		}, []string{"text supplier-policy.pdf"}, []string{"pages/supplier-policy.pdf changed (0003.txt missing): BLAKE3"}},
		{"a middle page removed", func(t *testing.T, dir string) {
			os.Remove(pageFile(dir, "supplier-policy.pdf", 2))
		}, []string{"text supplier-policy.pdf"}, []string{"(0002.txt missing) and no longer imports", "0002.txt: pages are not numbered 0001 to N"}},
		{"a page added", func(t *testing.T, dir string) {
			if err := os.WriteFile(pageFile(dir, "inspection-manual.pdf", 3), []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"text inspection-manual.pdf"}, []string{"(0003.txt added)"}},
		{"a page made invalid UTF-8", func(t *testing.T, dir string) {
			b, _ := os.ReadFile(pageFile(dir, "price-list.pdf", 1))
			b[0] = 0x80 // a continuation byte with no lead
			if err := os.WriteFile(pageFile(dir, "price-list.pdf", 1), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"text price-list.pdf"}, []string{"(0001.txt changed) and no longer imports", "byte 0: page text is not valid UTF-8"}},
		{"the folder removed", func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "pages", "price-list.pdf"))
		}, []string{"text price-list.pdf"}, []string{"missing: no folder at pages/price-list.pdf"}},
		{"a stored text edited", func(t *testing.T, dir string) {
			store, _ := corpus.Open(filepath.Join(dir, "corpus"))
			d, _ := store.Manifest().Document("supplier-policy.pdf")
			replaceIn(t, filepath.Join(dir, "corpus", "text", strings.TrimPrefix(d.BLAKE3, "blake3:"), "0002.txt"), "45 calendar days", "46 calendar days")
		}, []string{"page supplier-policy.pdf 2"}, []string{"the stored text was edited"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := frozenText(t)
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
			for _, d := range tc.details {
				if !strings.Contains(details.String(), d) {
					t.Errorf("%q not in:\n%s", d, details.String())
				}
			}
		})
	}
}

// TestTextFreezeRefusesStale: a page folder changed since the import
// refuses the freeze, as a changed PDF does.
func TestTextFreezeRefusesStale(t *testing.T) {
	dir := textEvaluation(t)
	replaceIn(t, filepath.Join(dir, "pages", "price-list.pdf", "0001.txt"), "4.75", "4.76")
	_, err := freeze.Write(inputs(dir))
	if !errors.Is(err, freeze.ErrStaleCorpus) || !strings.Contains(err.Error(), "has changed since it was imported: run citecheck import-text again") {
		t.Fatalf("got %v, want ErrStaleCorpus", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "eval.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused freeze wrote a lock")
	}
}
