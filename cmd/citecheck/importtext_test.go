package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
)

// textPages are the page texts the import-text tests import: an OCR'd
// scan and a short memo, with a non-ASCII character and an empty page.
var textPages = map[string]string{
	"scan-0042.pdf/0001.txt": "Delivery terms\nOrders ship within 5 working days.\nscan-0042.pdf Page 1\n",
	"scan-0042.pdf/0002.txt": "Prices\nThe unit price is 12.50 € per bracket.\nscan-0042.pdf Page 2\n",
	"scan-0042.pdf/0003.txt": "",
	"memo.pdf/0001.txt":      "Memo: the audit is due on 3 March.\n",
}

// textDir makes a folder holding pages/ (textPages) and changes into it,
// so that the commands' output names files relatively.
func textDir(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
	for name, text := range textPages {
		path := filepath.Join("pages", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, text)
	}
}

func TestImportText(t *testing.T) {
	textDir(t)
	out, errOut, code := runCLI(t, "import-text", "--out", "corpus", "pages")
	if code != 0 || errOut != "" {
		t.Fatalf("import-text: exit %d\n%s%s", code, out, errOut)
	}
	checkGolden(t, "import-text/ok.txt", []byte(out))

	// Again: nothing changes, and the output says so.
	manifest, _ := os.ReadFile(filepath.Join("corpus", corpus.ManifestFile))
	out, _, code = runCLI(t, "import-text", "--out", "corpus", "pages")
	if again, _ := os.ReadFile(filepath.Join("corpus", corpus.ManifestFile)); code != 0 || string(again) != string(manifest) || !strings.Contains(out, "(2 unchanged)") {
		t.Errorf("re-import: exit %d, manifest changed %v:\n%s", code, string(again) != string(manifest), out)
	}

	// show and locate read an imported corpus as they read an extracted one.
	out, _, code = runCLI(t, "show", "--corpus", "corpus", "scan-0042.pdf", "2")
	if code != 0 || out != textPages["scan-0042.pdf/0002.txt"] {
		t.Errorf("show DOC PAGE prints the page file's bytes: exit %d %q", code, out)
	}
	out, _, code = runCLI(t, "show", "--corpus", "corpus", "scan-0042.pdf")
	if code != 0 || strings.Count(out, "\f") != 2 {
		t.Errorf("show DOC separates the pages with form feeds: exit %d %q", code, out)
	}
	writeFile(t, "quotes.jsonl", `{"id": "price", "document": "scan-0042.pdf", "quote": "The unit price is 12.50 € per bracket.", "page": 2}`+"\n")
	out, errOut, code = runCLI(t, "locate", "--corpus", "corpus", "quotes.jsonl")
	if code != 0 || !strings.Contains(out, `"status":"unique","pages":[2],"spans":[{"page":2,"start":7,"end":45}],"match":"exact"`) {
		t.Errorf("locate on an imported corpus: exit %d\n%s%s", code, out, errOut)
	}

	out, _, code = runCLI(t, "import-text", "--json", "--out", "corpus", "pages")
	if code != 0 || !strings.Contains(out, `"Source": "text:../pages/memo.pdf"`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

func TestImportTextRefuses(t *testing.T) {
	textDir(t)
	writeFile(t, filepath.Join("pages", "memo.pdf", "0002.txt"), "caf\xe9\n") // Latin-1, not UTF-8
	out, errOut, code := runCLI(t, "import-text", "--out", "corpus", "pages")
	if code != exitUsage || out != "" {
		t.Errorf("invalid UTF-8: exit %d, stdout %q; want exit 2", code, out)
	}
	checkGolden(t, "import-text/invalid-utf8.txt", []byte(errOut))
	if _, err := os.Stat("corpus"); !os.IsNotExist(err) {
		t.Error("a refused import wrote the corpus folder")
	}

	os.Remove(filepath.Join("pages", "memo.pdf", "0002.txt"))
	os.Remove(filepath.Join("pages", "scan-0042.pdf", "0002.txt"))
	_, errOut, code = runCLI(t, "import-text", "--out", "corpus", "pages")
	if want := "citecheck: import-text: " + filepath.Join("pages", "scan-0042.pdf", "0002.txt") + ": pages are not numbered 0001 to N without a gap: page 2 is missing; the folder's next page is 0003.txt\n"; code != exitUsage || errOut != want {
		t.Errorf("gap: exit %d\n got %q\nwant %q", code, errOut, want)
	}

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"import-text", "pages"}, "--out CORPUS is required"},
		{[]string{"import-text", "--out", "corpus"}, "no folder of page texts given"},
		{[]string{"import-text", "--out", "corpus", "absent"}, "citecheck: import-text: absent: no such file or directory"},
		{[]string{"import-text", "--out", "corpus", filepath.Join("pages", "memo.pdf")}, "is pages/memo.pdf itself a document folder?"},
	}
	for _, tc := range tests {
		_, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(filepath.ToSlash(errOut), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestImportTextNeverMixes: PDFs are not extracted into an imported
// corpus, nor page texts imported into an extracted one.
func TestImportTextNeverMixes(t *testing.T) {
	pdfs := writeDemoPDFs(t)
	textDir(t)
	if _, errOut, code := runCLI(t, "import-text", "--out", "texts", "pages"); code != 0 {
		t.Fatalf("import-text: %d %s", code, errOut)
	}
	_, errOut, code := runCLI(t, "extract", "--out", "texts", pdfs)
	if code != exitUsage || !strings.Contains(errOut, "never both") {
		t.Errorf("extract into an imported corpus: exit %d %q", code, errOut)
	}
	if out, errOut, code := runCLI(t, "extract", "--out", "pdfcorpus", pdfs); code != 0 {
		t.Fatalf("extract: %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "import-text", "--out", "pdfcorpus", "pages")
	if want := "citecheck: import-text: " + filepath.Join("pdfcorpus", "manifest.json") + ": a corpus is built from PDFs or from page texts, never both: this corpus was extracted from PDFs by"; code != exitUsage || !strings.HasPrefix(errOut, want) {
		t.Errorf("import-text into an extracted corpus: exit %d %q", code, errOut)
	}
}

// TestImportTextFreeze freezes an evaluation whose corpus was imported from
// the texts the fixture PDFs extract to, verifies it, and refuses one byte
// changed in a page file.
func TestImportTextFreeze(t *testing.T) {
	evalDir(t)
	fixedToolchain(t)
	store, err := corpus.Open("corpus")
	if err != nil {
		t.Fatal(err)
	}
	for i := range store.Manifest().Documents {
		d := &store.Manifest().Documents[i]
		for p := 1; p <= len(d.Pages); p++ {
			text, err := store.Text(d, p)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join("pages", d.Name), 0o755)
			writeFile(t, filepath.Join("pages", d.Name, ingest.TextPageName(p)), text)
		}
	}
	if out, errOut, code := runCLI(t, "import-text", "--out", "texts", "pages"); code != 0 {
		t.Fatalf("import-text: %d\n%s%s", code, out, errOut)
	}
	frozen, errOut, code := runCLI(t, "freeze", "--corpus", "texts", "reference.json", "--out", "eval.lock")
	if code != 0 {
		t.Fatalf("freeze: exit %d\n%s%s", code, frozen, errOut)
	}
	lock, _ := os.ReadFile("eval.lock")
	var records []string
	for _, line := range strings.Split(string(lock), "\n") {
		if strings.HasPrefix(line, "text ") || strings.HasPrefix(line, "extractor") {
			records = append(records, line)
		}
	}
	out, _, code := runCLI(t, "freeze", "--verify", "eval.lock")
	if code != 0 {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	verified := out
	replaceFirst(t, filepath.Join("pages", "price-list.pdf", "0001.txt"), "4.75", "4.76")
	out, _, code = runCLI(t, "freeze", "--verify", "eval.lock")
	if code != exitIntegrity {
		t.Errorf("one byte changed in a page file: exit %d, want 3\n%s", code, out)
	}
	checkGolden(t, "import-text/freeze.txt", []byte(frozen+"\n"+strings.Join(records, "\n")+"\n\n"+verified+"\n"+out))
}

func replaceFirst(t *testing.T, name, old, new string) {
	t.Helper()
	edit(t, name, old, new)
}
