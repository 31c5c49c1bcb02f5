package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
)

// TestStoredQuoteIndex: extract stores the quote index and records it in
// the manifest; locate answers from it byte for byte as from an index it
// builds; a stored index that is stale, cut short or edited is refused
// (exit 3) and never rebuilt, and freeze --verify names it.
func TestStoredQuoteIndex(t *testing.T) {
	in := writeDemoPDFs(t)
	dir := t.TempDir()
	c := filepath.Join(dir, "corpus")
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	store, err := corpus.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	q := store.Manifest().QuoteIndex
	if q == nil || q.Format != "citecheck-quote-index/4" || q.Blocks == "" {
		t.Fatalf("extract stored no quote index: %+v", q)
	}
	quotes := filepath.Join("..", "..", "fixtures", "citations", "quotes.jsonl")
	stored, _, code := runCLI(t, "locate", "--corpus", c, quotes)
	if code != exitFailed {
		t.Fatalf("locate from the stored index: exit %d", code)
	}

	// The same corpus without the index's record: locate builds one.
	manifest := filepath.Join(c, corpus.ManifestFile)
	orig, _ := os.ReadFile(manifest)
	var m map[string]any
	if err := json.Unmarshal(orig, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "quote_index")
	b, _ := json.MarshalIndent(m, "", "  ")
	writeFile(t, manifest, string(b)+"\n")
	built, _, _ := runCLI(t, "locate", "--corpus", c, quotes)
	if built != stored {
		t.Errorf("locate from the stored index differs from locate from a built one:\n%s\n%s", stored, built)
	}
	writeFile(t, manifest, string(orig))

	index := filepath.Join(c, filepath.FromSlash(q.File))
	data, _ := os.ReadFile(index)
	refused := func(why, want string) {
		t.Helper()
		out, errOut, code := runCLI(t, "locate", "--corpus", c, quotes)
		if code != exitIntegrity || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want exit 3 naming %q)", why, code, out, errOut, want)
		}
	}
	writeFile(t, index, string(data[:len(data)-8]))
	refused("an index cut short", "stored quote index unusable")
	os.Remove(index)
	refused("a missing index", "missing")
	writeFile(t, index, string(data))
	edit(t, manifest, q.Sources, "blake3:"+strings.Repeat("0", 64))
	refused("an index of other texts (stale)", "built from the texts of manifest")
	writeFile(t, manifest, string(orig))
	// An index of the format before (written by an older citecheck): its
	// name is refused, and extract stores this format's again.
	edit(t, manifest, `"format": "citecheck-quote-index/4"`, `"format": "citecheck-quote-index/3"`)
	refused("an index of the format before", "this citecheck reads citecheck-quote-index/4")
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract over an index of the format before: exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(manifest); string(now) != string(orig) {
		t.Error("extract did not store this format's index again")
	}

	// An index edited in place, its size kept: freeze refuses to pin it,
	// and freeze --verify reports it after the pin.
	ref := filepath.Join(dir, "reference.json")
	writeFile(t, ref, string(fixtures.Reference()))
	lock := filepath.Join(dir, "eval.lock")
	if out, errOut, code := runCLI(t, "freeze", "--corpus", c, ref, "--out", lock); code != 0 {
		t.Fatalf("freeze: exit %d\n%s%s", code, out, errOut)
	}
	changed := []byte(string(data))
	changed[len(changed)/2] ^= 0x20
	writeFile(t, index, string(changed))
	out, _, code := runCLI(t, "freeze", "--verify", lock)
	if code != exitIntegrity || !strings.Contains(out, "quote-index "+q.File) {
		t.Errorf("freeze --verify of an edited index: exit %d\n%s", code, out)
	}
	// The reading verbs verify each block of the file they read: an edit
	// they read is refused, one they do not read changes no answer.
	if out, errOut, code := runCLI(t, "locate", "--corpus", c, quotes); code == exitIntegrity {
		if out != "" || !strings.Contains(errOut, "it hashes to") {
			t.Errorf("an edited block read: stdout %q, stderr %q", out, errOut)
		}
	} else if out != stored {
		t.Errorf("an edited block: exit %d and other answers:\n%s\nwant\n%s", code, out, stored)
	}
	for _, at := range []struct {
		why string
		off int
	}{
		{"the table of arrays, read on opening", 128 + 24 + 3},
		{"the table of block sums", len(data) - 5},
	} {
		changed := []byte(string(data))
		changed[at.off] ^= 0x20
		writeFile(t, index, string(changed))
		refused("an index edited in place in "+at.why, "hashes to")
		if _, errOut, code := runCLI(t, "audit", "--corpus", c, filepath.Join("..", "..", "fixtures", "citations", "run.jsonl")); code != exitIntegrity || !strings.Contains(errOut, "hashes to") {
			t.Errorf("audit of an index edited in %s: exit %d, stderr %q", at.why, code, errOut)
		}
	}

	// extract again: the PDFs did not change, so the manifest stays; the
	// edited index does not check, so it is built again, to the same bytes.
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract again: exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(index); string(now) != string(data) {
		t.Error("extract again did not restore the edited index")
	}
	if now, _ := os.ReadFile(manifest); string(now) != string(orig) {
		t.Error("extract of unchanged PDFs changed the manifest")
	}
	if out, _, code := runCLI(t, "freeze", "--verify", lock); code != 0 {
		t.Errorf("freeze --verify after extract again: exit %d\n%s", code, out)
	}
}
