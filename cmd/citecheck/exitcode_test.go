package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/review"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/typedqa"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exitCase is one run of the CLI and the exit status it must give.
type exitCase struct {
	why  string   // what the case shows
	prep func()   // run just before, in the evaluation folder; may be nil
	args []string // the command line after "citecheck"
	code int
	// names is what stderr must hold for a code other than 0 and 1: the
	// file (or flag) the message names. For 0 and 1 stderr must be empty.
	names string
}

// TestExitCodes drives run() in process over every verb and exit class,
// in one evaluation folder (the demo PDFs extracted into corpus/, the
// fixture reference and plan frozen in eval.lock). Cases run in order:
// those that damage an input come last or work on copies.
func TestExitCodes(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	quotes, run := abs("../../fixtures/citations/quotes.jsonl"), abs("../../fixtures/citations/run.jsonl")
	questions, truth, responses := abs(typedQuestions), abs(typedTruth), abs(typedResponses)
	fixedToolchain(t)
	evalDir(t)
	writeFile(t, "plan.json", string(fixtures.Plan()))
	if out, errOut, code := runCLI(t, "freeze", "--corpus", "corpus", "reference.json", "--plan", "plan.json", "--out", "eval.lock"); code != 0 {
		t.Fatalf("freeze: exit %d\n%s%s", code, out, errOut)
	}
	firstLine, _, _ := strings.Cut(string(fixtures.GradedRun()), "\n")
	writeFile(t, "pass.jsonl", firstLine+"\n")
	writeFile(t, "graded.jsonl", string(fixtures.GradedRun()))
	writeFile(t, "empty.jsonl", "")
	writeFile(t, "blank.jsonl", "\n  \n\t\n")
	writeFile(t, "unique.jsonl", `{"id": "a", "document": "price-list.pdf", "quote": "Housing H-310: 18.20 per piece", "page": 1}`+"\n")
	writeFile(t, "long.jsonl", `{"id": "a", "document": "price-list.pdf", "quote": "`+strings.Repeat("word ", citations.MaxQuoteBytes/5+1)+`"}`+"\n")
	writeFile(t, "on-changed.jsonl", `{"id": "b", "document": "supplier-policy.pdf", "quote": "Orders must be delivered", "page": 1}`+"\n")
	writeFile(t, "audit-changed.jsonl", `{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "10", "citations": [{"id": "c1", "document": "supplier-policy.pdf", "quote": "Orders must be delivered", "page": 1}]}`+"\n")
	writeFile(t, "audit-ok.jsonl", `{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "18.20", "citations": [{"id": "c1", "document": "price-list.pdf", "quote": "Housing H-310: 18.20 per piece", "page": 1}]}`+"\n")
	writeFile(t, "noquestions.json", `{"format": "`+spans.Format+`", "questions": []}`)
	writeFile(t, "broken.json", brokenReference())
	writeFile(t, "a-file", "not a folder\n")
	writeFile(t, "damaged.lock", "citecheck-lock/1\nbogus record\n")
	writeFile(t, "typed-header.csv", "model,condition,run,document,question,value\n")
	writeFile(t, "truth-header.csv", "document,question,value\n")
	writeFile(t, "responses-empty.jsonl", "\n")
	writeFile(t, "broken.pdf", "%PDF-1.7\nnot really\n")
	if err := os.MkdirAll(filepath.Join("pages", "memo.pdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join("pages", "memo.pdf", "0001.txt"), "Memo: the audit is due on 3 March.\n")
	if err := os.Mkdir("a-folder", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("badcorpus", 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join("badcorpus", corpus.ManifestFile), `{"format": 1}`)
	// A copy of the evaluation whose inputs the last cases change.
	for _, d := range []string{"pdfs", "corpus"} {
		if err := os.CopyFS(filepath.Join("t", d), os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join("t", "reference.json"), string(fixtures.Reference()))
	if _, errOut, code := runCLI(t, "freeze", "--corpus", "t/corpus", "t/reference.json", "--out", "t/eval.lock"); code != 0 {
		t.Fatalf("freeze t/: exit %d %s", code, errOut)
	}
	typedIn := []string{"--questions", questions, "--truth", truth, "--responses"}
	cases := []exitCase{
		// extract
		{why: "every PDF extracts", args: []string{"extract", "--out", "c1", "pdfs"}, code: 0},
		{why: "a PDF that does not extract is a failed check", args: []string{"extract", "--out", "c2", "broken.pdf"}, code: 1},
		{why: "--out naming a regular file is a usage error, not a bug", args: []string{"extract", "--out", "a-file", "pdfs"}, code: 2, names: "a-file"},
		{why: "a missing input", args: []string{"extract", "--out", "c3", "nowhere.pdf"}, code: 2, names: "nowhere.pdf"},
		{why: "a folder as the password file", args: []string{"extract", "--out", "c3", "--password-file", "a-folder", "pdfs"}, code: 2, names: "a-folder"},
		{why: "--out holding a manifest that does not decode", args: []string{"extract", "--out", "badcorpus", "pdfs"}, code: 2, names: filepath.Join("badcorpus", corpus.ManifestFile)},
		{why: "PDFs into a corpus of page texts", prep: func() { runCLI(t, "import-text", "--out", "texts", "pages") }, args: []string{"extract", "--out", "texts", "pdfs"}, code: 2, names: "texts"},
		// extract --shard, merge
		{why: "a shard extracts", args: []string{"extract", "--shard", "0/2", "--out", "s0", "pdfs"}, code: 0},
		{why: "the other shard extracts", args: []string{"extract", "--shard", "1/2", "--out", "s1", "pdfs"}, code: 0},
		{why: "--shard K/N with K past N-1", args: []string{"extract", "--shard", "2/2", "--out", "s2", "pdfs"}, code: 2, names: "--shard"},
		{why: "a shard into a whole corpus's folder", args: []string{"extract", "--shard", "0/2", "--out", "c1", "pdfs"}, code: 2, names: "c1"},
		{why: "a whole corpus into a shard's folder", args: []string{"extract", "--out", "s0", "pdfs"}, code: 2, names: "s0"},
		{why: "the shards merge", args: []string{"merge", "--out", "m1", "s0", "s1"}, code: 0},
		{why: "a merged shard whose PDF did not extract is a failed check", prep: func() { runCLI(t, "extract", "--shard", "0/1", "--out", "sb", "broken.pdf") }, args: []string{"merge", "--out", "m2", "sb"}, code: 1},
		{why: "a shard missing", args: []string{"merge", "--out", "m3", "s0"}, code: 2, names: "missing: 1/2"},
		{why: "a shard given twice", args: []string{"merge", "--out", "m3", "s0", "s1", "s0"}, code: 2, names: "s0: shards overlap"},
		{why: "a folder that is no shard", args: []string{"merge", "--out", "m3", "s0", "c1"}, code: 2, names: "c1"},
		{why: "no shard given", args: []string{"merge", "--out", "m3"}, code: 2, names: "no shard"},
		{why: "a shard's page text changed", prep: func() { damageOnePage(t, "s0", "s1") }, args: []string{"merge", "--out", "m3", "s0", "s1"}, code: 3, names: "page 1"},
		// import-text
		{why: "page texts import", args: []string{"import-text", "--out", "texts2", "pages"}, code: 0},
		{why: "--out naming a regular file is a usage error, not a bug", args: []string{"import-text", "--out", "a-file", "pages"}, code: 2, names: "a-file"},
		{why: "--out holding a manifest that does not decode", args: []string{"import-text", "--out", "badcorpus", "pages"}, code: 2, names: filepath.Join("badcorpus", corpus.ManifestFile)},
		{why: "a folder that is not a folder of documents", args: []string{"import-text", "--out", "texts3", "pdfs"}, code: 2, names: "pdfs"},
		// show
		{why: "a page is shown", args: []string{"show", "--corpus", "corpus", "price-list.pdf", "1"}, code: 0},
		{why: "a document the corpus lacks", args: []string{"show", "--corpus", "corpus", "nowhere.pdf"}, code: 2, names: "nowhere.pdf"},
		{why: "a page the document lacks", args: []string{"show", "--corpus", "corpus", "price-list.pdf", "9"}, code: 2, names: "price-list.pdf"},
		{why: "a folder that is no corpus", args: []string{"show", "--corpus", "a-folder", "x.pdf"}, code: 2, names: "a-folder"},
		{why: "a manifest that does not decode is no corpus, not a bug", args: []string{"show", "--corpus", "badcorpus", "x.pdf"}, code: 2, names: filepath.Join("badcorpus", corpus.ManifestFile)},
		{why: "glyph boxes of a page that has none (imported text)", args: []string{"show", "--corpus", "texts", "--boxes", "memo.pdf", "1"}, code: 2, names: "memo.pdf"},
		// locate
		{why: "every quote unique", args: []string{"locate", "--corpus", "corpus", "unique.jsonl"}, code: 0},
		{why: "some quote not unique", args: []string{"locate", "--corpus", "corpus", quotes}, code: 1},
		{why: "an empty quotes file verifies nothing", args: []string{"locate", "--corpus", "corpus", "empty.jsonl"}, code: 2, names: "no records in empty.jsonl"},
		{why: "blank lines only are no records", args: []string{"locate", "--corpus", "corpus", "blank.jsonl"}, code: 2, names: "no records in blank.jsonl"},
		{why: "a quote over 64 KiB is refused, not searched", args: []string{"locate", "--corpus", "corpus", "long.jsonl"}, code: 2, names: "long.jsonl:1: quote: input exceeds the size limit"},
		{why: "a missing quotes file", args: []string{"locate", "--corpus", "corpus", "nowhere.jsonl"}, code: 2, names: "nowhere.jsonl"},
		{why: "a folder as the quotes file", args: []string{"locate", "--corpus", "corpus", "a-folder"}, code: 2, names: "a-folder"},
		// audit
		{why: "every citation unique", args: []string{"audit", "--corpus", "corpus", "audit-ok.jsonl"}, code: 0},
		{why: "some citation not unique", args: []string{"audit", "--corpus", "corpus", run}, code: 1},
		{why: "an empty run file verifies nothing", args: []string{"audit", "--corpus", "corpus", "empty.jsonl"}, code: 2, names: "no records in empty.jsonl"},
		{why: "an empty second run file is named", args: []string{"audit", "--corpus", "corpus", "audit-ok.jsonl", "blank.jsonl"}, code: 2, names: "no records in blank.jsonl"},
		{why: "a manifest that does not decode", args: []string{"audit", "--corpus", "badcorpus", "audit-ok.jsonl"}, code: 2, names: "badcorpus"},
		// spans
		{why: "the fixture reference is sound", args: []string{"spans", "--corpus", "corpus", "reference.json"}, code: 0},
		{why: "span errors are failed checks", args: []string{"spans", "--corpus", "corpus", "broken.json"}, code: 1},
		{why: "a reference without questions checks nothing", args: []string{"spans", "--corpus", "corpus", "noquestions.json"}, code: 2, names: "no records in noquestions.json"},
		{why: "a folder as the reference", args: []string{"spans", "--corpus", "corpus", "a-folder"}, code: 2, names: "a-folder"},
		// plan
		{why: "a plan is made", args: []string{"plan", "reference.json", "--arms", "A,B", "--seed", "1", "--out", "p.json"}, code: 0},
		{why: "a folder as the reference, not a bug", args: []string{"plan", "a-folder", "--arms", "A", "--seed", "1"}, code: 2, names: "a-folder"},
		{why: "a reference without questions makes no plan", args: []string{"plan", "noquestions.json", "--arms", "A", "--seed", "1"}, code: 2, names: "no questions"},
		{why: "--out naming a folder", args: []string{"plan", "reference.json", "--arms", "A", "--seed", "1", "--out", "a-folder"}, code: 2, names: "a-folder"},
		// freeze
		{why: "a lock is written", args: []string{"freeze", "--corpus", "corpus", "reference.json", "--out", "l1.lock"}, code: 0},
		{why: "span errors refuse the freeze", args: []string{"freeze", "--corpus", "corpus", "broken.json", "--out", "l2.lock"}, code: 1},
		{why: "a folder as the reference is a usage error, not a bug", args: []string{"freeze", "--corpus", "corpus", "pdfs", "--out", "l2.lock"}, code: 2, names: "pdfs"},
		{why: "a folder as the plan", args: []string{"freeze", "--corpus", "corpus", "reference.json", "--plan", "a-folder", "--out", "l2.lock"}, code: 2, names: "a-folder"},
		{why: "--out naming a folder", args: []string{"freeze", "--corpus", "corpus", "reference.json", "--out", "a-folder"}, code: 2, names: "a-folder"},
		{why: "a reference without questions freezes nothing", args: []string{"freeze", "--corpus", "corpus", "noquestions.json", "--out", "l2.lock"}, code: 2, names: "no records in noquestions.json"},
		{why: "a plan made for other questions", prep: func() {
			writeFile(t, "ref5.json", strings.Replace(string(fixtures.Reference()), `"id": "Q06"`, `"id": "Q07"`, 1))
		}, args: []string{"freeze", "--corpus", "corpus", "ref5.json", "--plan", "plan.json", "--out", "l2.lock"}, code: 2, names: "plan"},
		{why: "a manifest that does not decode", args: []string{"freeze", "--corpus", "badcorpus", "reference.json", "--out", "l2.lock"}, code: 2, names: "badcorpus"},
		// freeze --verify
		{why: "an untouched evaluation verifies", args: []string{"freeze", "--verify", "eval.lock"}, code: 0},
		{why: "a file that is not a lock", args: []string{"freeze", "--verify", "reference.json"}, code: 2, names: "reference.json"},
		{why: "a missing lock", args: []string{"freeze", "--verify", "nowhere.lock"}, code: 2, names: "nowhere.lock"},
		{why: "a damaged lock is an integrity refusal", args: []string{"freeze", "--verify", "damaged.lock"}, code: 3, names: "damaged.lock"},
		// grade
		{why: "every result passes", args: []string{"grade", "--corpus", "corpus", "--reference", "reference.json", "--out", "r0", "pass.jsonl"}, code: 0},
		{why: "some result fails", args: []string{"grade", "--lock", "eval.lock", "--out", "r1", "graded.jsonl"}, code: 1},
		{why: "an empty run file grades nothing: not a pass, not a failure", args: []string{"grade", "--lock", "eval.lock", "--out", "r2", "empty.jsonl"}, code: 2, names: "no records in empty.jsonl"},
		{why: "an empty second run file is named", args: []string{"grade", "--lock", "eval.lock", "--out", "r2", "graded.jsonl", "blank.jsonl"}, code: 2, names: "no records in blank.jsonl"},
		{why: "--out naming a regular file", args: []string{"grade", "--lock", "eval.lock", "--out", "a-file", "graded.jsonl"}, code: 2, names: "a-file"},
		{why: "a folder as the run file", args: []string{"grade", "--lock", "eval.lock", "--out", "r2", "a-folder"}, code: 2, names: "a-folder"},
		{why: "a file that is not a lock", args: []string{"grade", "--lock", "reference.json", "--out", "r2", "graded.jsonl"}, code: 2, names: "reference.json"},
		{why: "a plan made for other questions, unfrozen", args: []string{"grade", "--corpus", "corpus", "--reference", "ref5.json", "--plan", "plan.json", "--out", "r2", "graded.jsonl"}, code: 2, names: "plan"},
		{why: "a damaged lock", args: []string{"grade", "--lock", "damaged.lock", "--out", "r2", "graded.jsonl"}, code: 3, names: "damaged.lock"},
		// typed
		{why: "the worked example scores", args: append(append([]string{"typed"}, typedIn...), responses), code: 0},
		{why: "responses that are a header only score nothing", args: append(append([]string{"typed"}, typedIn...), "typed-header.csv"), code: 2, names: "no records in typed-header.csv"},
		{why: "JSON Lines responses with no records", args: append(append([]string{"typed"}, typedIn...), "responses-empty.jsonl"), code: 2, names: "no records in responses-empty.jsonl"},
		{why: "a ground truth that is a header only", args: []string{"typed", "--questions", questions, "--truth", "truth-header.csv", "--responses", responses}, code: 2, names: "no records in truth-header.csv"},
		{why: "--items naming a folder is a usage error, not a bug", args: append(append([]string{"typed"}, typedIn...), responses, "--items", "a-folder"), code: 2, names: "a-folder"},
		// version, help, demo
		{why: "the versions print", args: []string{"version"}, code: 0},
		{why: "--version prints them too", args: []string{"--version"}, code: 0},
		{why: "version takes no argument", args: []string{"version", "extra"}, code: 2, names: "extra"},
		{why: "a verb's help", args: []string{"help", "grade"}, code: 0},
		{why: "help for an unknown verb", args: []string{"help", "frobnicate"}, code: 2, names: "frobnicate"},
		{why: "demo --out naming a regular file", args: []string{"demo", "--out", "a-file"}, code: 2, names: "a-file"},
		// Integrity: the copy in t/ changed after extraction and freeze.
		{why: "a page text changed: show refuses, as locate does", prep: func() {
			// supplier-policy.pdf is the one document of three pages.
			pages, _ := filepath.Glob(filepath.Join("t", "corpus", "text", "*", "0003.txt"))
			edit(t, filepath.Join(filepath.Dir(pages[0]), "0001.txt"), "within 10 working days", "within 12 working days")
		}, args: []string{"show", "--corpus", "t/corpus", "supplier-policy.pdf", "1"}, code: 3, names: "supplier-policy.pdf page 1"},
		// locate and audit check the stored files of the pages their
		// lookups read (citations.OpenStored): a changed page another
		// document's quote never reads changes no answer.
		{why: "a page text changed that a quote is on", args: []string{"locate", "--corpus", "t/corpus", "on-changed.jsonl"}, code: 3, names: "supplier-policy.pdf page 1"},
		{why: "a page text changed that no quote reads", args: []string{"locate", "--corpus", "t/corpus", "unique.jsonl"}, code: 0},
		{why: "a page text changed that a citation is on", args: []string{"audit", "--corpus", "t/corpus", "audit-changed.jsonl"}, code: 3, names: "supplier-policy.pdf page 1"},
		{why: "a page text changed that no citation reads", args: []string{"audit", "--corpus", "t/corpus", "audit-ok.jsonl"}, code: 0},
		{why: "a page text changed", args: []string{"spans", "--corpus", "t/corpus", "reference.json"}, code: 3, names: "supplier-policy.pdf page 1"},
		{why: "a page text changed: the corpus is stale", args: []string{"freeze", "--corpus", "t/corpus", "t/reference.json", "--out", "t/l.lock"}, code: 3, names: "supplier-policy.pdf"},
		{why: "a frozen input changed: the report names it", args: []string{"freeze", "--verify", "t/eval.lock"}, code: 3},
		{why: "a frozen input changed: nothing is graded", args: []string{"grade", "--lock", "t/eval.lock", "--out", "r3", "graded.jsonl"}, code: 3},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%02d %s", i, tc.args[0]), func(t *testing.T) {
			if tc.prep != nil {
				tc.prep()
			}
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("%s: citecheck %s: exit %d, want %d\nstdout: %.500s\nstderr: %s", tc.why, strings.Join(tc.args, " "), code, tc.code, out, errOut)
			}
			switch {
			case tc.code >= exitUsage && !strings.Contains(errOut, tc.names):
				t.Errorf("%s: citecheck %s: stderr %q does not name %q", tc.why, strings.Join(tc.args, " "), errOut, tc.names)
			case tc.code >= exitUsage && tc.names == "" && !strings.Contains(out, "changed:"):
				t.Errorf("%s: citecheck %s: no message and no report of what changed:\n%s", tc.why, strings.Join(tc.args, " "), out)
			case tc.code < exitUsage && errOut != "":
				t.Errorf("%s: citecheck %s: stderr %q", tc.why, strings.Join(tc.args, " "), errOut)
			}
			if strings.Contains(errOut, "internal error") {
				t.Errorf("%s: reported as an internal error: %s", tc.why, errOut)
			}
		})
	}
}

// damageOnePage changes the first page text stored in the first of the
// stores that holds one.
func damageOnePage(t *testing.T, stores ...string) {
	t.Helper()
	for _, dir := range stores {
		pages, _ := filepath.Glob(filepath.Join(dir, "text", "*", "0001.txt"))
		if len(pages) > 0 {
			writeFile(t, pages[0], "changed")
			return
		}
	}
	t.Fatalf("no page text in %v", stores)
}

// TestExitCodeOf checks the map on the packages' errors as they come,
// wrapped the way verbs wrap them, and that anything else is a bug.
func TestExitCodeOf(t *testing.T) {
	pathErr := &fs.PathError{Op: "open", Path: "x.json", Err: fs.ErrNotExist}
	tests := []struct {
		why  string
		err  error
		code int
	}{
		{"no error", nil, 0},
		{"help shown", errHelp, 0},
		{"checks failed", errChecksFailed, 1},
		{"span errors refuse a freeze", fmt.Errorf("freeze: %w: 2 errors", freeze.ErrReferenceInvalid), 1},
		{"the extraction child's own code", childExit(7), 7},
		{"a usage error", usageErrorf("x: --out is required"), 2},
		{"no records", fmt.Errorf("grade: %w", noRecords("r.jsonl")), 2},
		{"a located input error", fmt.Errorf("grade: %w", &runs.InputError{File: "r.jsonl", Line: 3, Err: strictjson.ErrValue}), 2},
		{"a list of typed input errors", &typedqa.InputErrors{Errs: []*typedqa.InputError{{File: "t.csv", Line: 2, Err: typedqa.ErrDuplicateRow}}}, 2},
		{"a reference decode error", &spans.DecodeError{File: "r.json", Line: 1, Col: 2, Err: strictjson.ErrSyntax}, 2},
		{"a list of plan decode errors", &plan.DecodeErrors{Errs: []*plan.DecodeError{{File: "p.json", Err: strictjson.ErrType}}}, 2},
		{"an inputerr list", &inputerr.List[*inputerr.Error]{Errs: []*inputerr.Error{{File: "f", Err: errors.New("x")}}}, 2},
		{"an import error", fmt.Errorf("import-text: %w", &ingest.ImportError{File: "p/0001.txt", Offset: -1, Err: ingest.ErrPageGap}), 2},
		{"not a corpus", fmt.Errorf("show: x: %w", corpus.ErrNotCorpus), 2},
		{"a plan for other questions", fmt.Errorf("freeze: %w: lacks Q1", freeze.ErrPlanMismatch), 2},
		{"an edited plan", fmt.Errorf("x: %w", plan.ErrNotReproducible), 2},
		{"not a lock", fmt.Errorf("freeze: %w", freeze.ErrNotLock), 2},
		{"a missing file", fmt.Errorf("spans: %w", pathErr), 2},
		{"a folder where a file is wanted", &fs.PathError{Op: "read", Path: "pdfs", Err: errors.New("is a directory")}, 2},
		{"a rename onto a folder", &os.LinkError{Op: "rename", Old: ".x.tmp", New: "x", Err: fs.ErrExist}, 2},
		{"a page text changed", fmt.Errorf("locate: %w", fmt.Errorf("p 1: %w", corpus.ErrIntegrity)), 3},
		{"a page text missing: integrity before the file error", fmt.Errorf("show: %w", errors.Join(corpus.ErrIntegrity, pathErr)), 3},
		{"a pinned input changed", fmt.Errorf("grade: %w", freeze.ErrChanged), 3},
		{"a damaged lock", &freeze.ParseError{File: "l", Line: 2, Err: freeze.ErrMalformed}, 3},
		{"a stale corpus, even when a PDF is missing", fmt.Errorf("freeze: %w: a.pdf: %w", freeze.ErrStaleCorpus, pathErr), 3},
		{"a verification report printed", errRefused, 3},
		{"an error nobody classified is a bug", errors.New("index out of range"), 4},
		{"wrapped, still a bug", fmt.Errorf("grade: encode: %w", errors.New("unsupported value")), 4},
	}
	for _, tc := range tests {
		if got := exitCodeOf(tc.err); got != tc.code {
			t.Errorf("%s: exitCodeOf(%v) = %d, want %d", tc.why, tc.err, got, tc.code)
		}
	}
}

// filler is n bytes of 'x' that are never held in memory at once: the
// body of a line past a reader's limit.
func filler(n int64) io.Reader { return io.LimitReader(repeatX{}, n) }

type repeatX struct{}

func (repeatX) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// jsonLine is a JSON Lines input whose one string value is n bytes long.
func jsonLine(key string, n int64) io.Reader {
	return io.MultiReader(strings.NewReader(`{"`+key+`": "`), filler(n), strings.NewReader("\"}\n"))
}

// badInput is one faulty input through one package's public reader.
type badInput struct {
	reader string
	fault  string
	read   func() error
	why    string
}

// TestBadInputsExitUsage: every package reports a fault of the user's
// input as an input fault (inputerr.ErrInput), which the exit map gives
// status 2, never 4 ("a bug"): the same six faults through each public
// reader of a user's file. A reader that returns an error the map does not
// classify fails here, naming the reader and the fault.
func TestBadInputsExitUsage(t *testing.T) {
	dir := t.TempDir()
	lines := func(read func(io.Reader) error) func(string) func() error {
		return func(in string) func() error { return func() error { return read(strings.NewReader(in)) } }
	}
	runRecords := lines(func(r io.Reader) error { _, err := runs.ReadRuns(r, "r.jsonl", runs.FormatAuto); return err })
	locate := lines(func(r io.Reader) error { _, err := citations.ReadLocateRequests(r, "q.jsonl"); return err })
	results := lines(func(r io.Reader) error {
		return grade.ReadResults(r, "results.jsonl", func(int, *grade.Result) error { return nil })
	})
	responses := lines(func(r io.Reader) error {
		_, err := typedqa.ReadResponses(r, "responses.jsonl", typedqa.FormatJSONL, typedqa.DefaultQuestions())
		return err
	})
	questions := lines(func(r io.Reader) error { _, err := typedqa.ReadQuestions(r, "questions.json"); return err })
	reference := func(in []byte) func() error {
		return func() error { _, err := spans.Decode(in, "reference.json"); return err }
	}
	planOf := func(in []byte) func() error {
		return func() error { _, err := plan.Decode(in, "plan.json"); return err }
	}
	lock := func(in string) func() error {
		return func() error { _, err := freeze.Parse([]byte(in), "eval.lock"); return err }
	}
	manifest := func(in string) func() error {
		return func() error {
			d, err := os.MkdirTemp(dir, "corpus")
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(d, corpus.ManifestFile), []byte(in), 0o644))
			_, err = corpus.Open(d)
			return err
		}
	}
	run := `{"arm": "A", "session": 1, "question": "Q1", "status": "ok", "response": "x", "citations": []}`
	request := `{"id": "q1", "document": "a.pdf", "quote": "a quote", "page": 1}`
	result := `{"arm":"A","session":1,"question":"Q1","position":1,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v1","value":"value/v2"},"response":"UNKNOWN","frozen":true}`
	response := `{"model": "m", "condition": "c", "run": "1", "document": "d", "question": "Q1", "value": "Y"}`
	decisions := lines(func(r io.Reader) error {
		return review.ReadDecisions(r, "decisions.jsonl", func(review.Decision) error { return nil })
	})
	decision := `{"hash": "blake3:` + strings.Repeat("0f", 32) + `", "verdict": "pass", "reviewer": "ana", "note": "n"}`
	ref, pl := string(fixtures.Reference()), string(fixtures.Plan())
	cases := []badInput{
		{"runs", "truncated JSON", runRecords(run[:20]), "a record cut short"},
		{"runs", "unknown key", runRecords(strings.Replace(run, `"citations"`, `"bogus": 1, "citations"`, 1)), "a key the format lacks"},
		{"runs", "invalid UTF-8", runRecords(strings.Replace(run, `"x"`, "\"\xff\"", 1)), "bytes that are no text"},
		{"runs", "too large", func() error {
			_, err := runs.ReadRuns(jsonLine("response", runs.MaxLineBytes), "r.jsonl", "run")
			return err
		}, "a line past MaxLineBytes"},
		{"runs", "wrong type", runRecords(strings.Replace(run, `"session": 1`, `"session": "1"`, 1)), "a string for a number"},
		{"runs", "missing field", runRecords(strings.Replace(run, `"response": "x", `, ``, 1)), "response is required"},
		{"locate requests", "truncated JSON", locate(request[:15]), "a request cut short"},
		{"locate requests", "unknown key", locate(strings.Replace(request, `"page"`, `"bogus": 1, "page"`, 1)), "a key the format lacks"},
		{"locate requests", "invalid UTF-8", locate(strings.Replace(request, "a quote", "a \xff quote", 1)), "bytes that are no text"},
		{"locate requests", "too large", func() error {
			_, err := citations.ReadLocateRequests(jsonLine("quote", citations.MaxLineBytes), "q.jsonl")
			return err
		}, "a line past MaxLineBytes"},
		{"locate requests", "wrong type", locate(strings.Replace(request, `"page": 1`, `"page": "1"`, 1)), "a string for a number"},
		{"locate requests", "missing field", locate(strings.Replace(request, `"quote": "a quote", `, ``, 1)), "quote is required"},
		{"reference", "truncated JSON", reference([]byte(ref[:len(ref)/2])), "a reference cut short"},
		{"reference", "unknown key", reference([]byte(strings.Replace(ref, `"questions"`, `"bogus": 1, "questions"`, 1))), "a key the format lacks"},
		{"reference", "invalid UTF-8", reference([]byte(strings.Replace(ref, `"questions"`, "\"\xff\": 1, \"questions\"", 1))), "bytes that are no text"},
		{"reference", "too large", reference(make([]byte, spans.MaxReferenceBytes+1)), "a file past MaxReferenceBytes"},
		{"reference", "wrong type", reference([]byte(strings.Replace(ref, `"questions": [`, `"questions": 7, "x": [`, 1))), "a number for the questions"},
		{"reference", "missing field", reference([]byte(`{}`)), "format and questions are required"},
		{"plan", "truncated JSON", planOf([]byte(pl[:len(pl)/2])), "a plan cut short"},
		{"plan", "unknown key", planOf([]byte(strings.Replace(pl, `"arms"`, `"bogus": 1, "arms"`, 1))), "a key the format lacks"},
		{"plan", "invalid UTF-8", planOf([]byte(strings.Replace(pl, `"arms"`, "\"\xff\": 1, \"arms\"", 1))), "bytes that are no text"},
		{"plan", "too large", planOf(make([]byte, plan.MaxPlanBytes+1)), "a file past MaxPlanBytes"},
		{"plan", "wrong type", planOf([]byte(strings.Replace(pl, `"seed": `, `"seed": "`, 1))), "a string for the seed"},
		{"plan", "missing field", planOf([]byte(`{}`)), "every key is required"},
		{"typed responses", "truncated JSON", responses(response[:30]), "a record cut short"},
		{"typed responses", "unknown key", responses(strings.Replace(response, `"value"`, `"bogus": "1", "value"`, 1)), "a key the format lacks"},
		{"typed responses", "invalid UTF-8", responses(strings.Replace(response, `"m"`, "\"\xff\"", 1)), "bytes that are no text"},
		{"typed questions", "too large", func() error {
			_, err := typedqa.ReadQuestions(jsonLine("questions", typedqa.MaxConfigFileBytes), "questions.json")
			return err
		}, "a file past MaxConfigFileBytes"},
		{"typed responses", "wrong type", responses(strings.Replace(response, `"model": "m"`, `"model": {"name": "m"}`, 1)), "an object for a name"},
		{"typed responses", "missing field", responses(strings.Replace(response, `"model": "m", `, ``, 1)), "model is required"},
		{"typed questions", "unknown key", questions(`{"questions": [{"id": "Q1", "type": "boolean", "bogus": 1}]}`), "a key the format lacks"},
		// A lock's faults past its format line (a size past MaxLockBytes
		// among them) are an integrity refusal, exit 3: only freeze writes
		// a lock, so a malformed one was damaged (TestExitCodes).
		{"lock", "truncated JSON", lock(`{"format": "citecheck-lock/1"`), "a JSON file is no lock"},
		{"lock", "unknown key", lock("citecheck-lockfile\ncorpus x\n"), "another first line is no lock"},
		{"lock", "invalid UTF-8", lock("\xff\xfe"), "bytes that are no text are no lock"},
		{"lock", "missing field", lock(""), "an empty file is no lock"},
		// A manifest's size limit is 1 GiB, too large to write here.
		{"corpus manifest", "truncated JSON", manifest(`{"format": "citecheck-corpus/1", "documents": [`), "a manifest cut short"},
		{"corpus manifest", "unknown key", manifest(`{"format": "citecheck-corpus/1", "bogus": 1}`), "a key the format lacks"},
		{"corpus manifest", "invalid UTF-8", manifest("{\"format\": \xff}"), "bytes that are no text"},
		{"corpus manifest", "wrong type", manifest(`{"format": 1}`), "a number for the format"},
		{"corpus manifest", "missing field", manifest(`{}`), "format is required"},
		{"results", "truncated JSON", results(result[:40]), "a result cut short"},
		{"results", "unknown key", results(strings.Replace(result, `"frozen"`, `"bogus": 1, "frozen"`, 1)), "a key the format lacks"},
		{"results", "invalid UTF-8", results(strings.Replace(result, `"UNKNOWN"`, "\"\xff\"", 1)), "bytes that are no text"},
		{"results", "too large", func() error {
			return grade.ReadResults(jsonLine("response", grade.MaxResultBytes), "results.jsonl", func(int, *grade.Result) error { return nil })
		}, "a line past MaxResultBytes"},
		{"results", "wrong type", results(strings.Replace(result, `"session":1`, `"session":"1"`, 1)), "a string for a number"},
		{"results", "missing field", results(strings.Replace(result, `"kind":"unknown",`, ``, 1)), "kind is required"},
		{"decisions", "truncated JSON", decisions(decision[:30]), "a decision cut short"},
		{"decisions", "unknown key", decisions(strings.Replace(decision, `"note"`, `"bogus": 1, "note"`, 1)), "a key the format lacks"},
		{"decisions", "invalid UTF-8", decisions(strings.Replace(decision, `"n"`, "\"\xff\"", 1)), "bytes that are no text"},
		{"decisions", "too large", decisions(`{"note": "` + strings.Repeat("x", review.MaxDecisionBytes) + `"}`), "a line past MaxDecisionBytes"},
		{"decisions", "wrong type", decisions(strings.Replace(decision, `"pass"`, `1`, 1)), "a number for a verdict"},
		{"decisions", "missing field", decisions(strings.Replace(decision, `"reviewer": "ana", `, ``, 1)), "reviewer is required"},
	}
	for _, tc := range cases {
		err := tc.read()
		if !assert.Error(t, err, "%s, %s: %s: accepted", tc.reader, tc.fault, tc.why) {
			continue
		}
		assert.Equal(t, exitUsage, exitCodeOf(err), "%s, %s (%s): %T %v", tc.reader, tc.fault, tc.why, err, err)
	}
}

// TestPlanMismatchIsInput: a plan made for other questions, read without
// a lock, is the user's to make again (exit 2), as freeze reports it.
func TestPlanMismatchIsInput(t *testing.T) {
	ref, err := spans.Decode(fixtures.Reference(), "reference.json")
	require.NoError(t, err)
	p, err := plan.Decode(fixtures.Plan(), "plan.json")
	require.NoError(t, err)
	p.Questions = append(p.Questions[:len(p.Questions):len(p.Questions)], "Q99")
	err = freeze.MatchPlan(p, ref)
	require.Error(t, err)
	assert.ErrorIs(t, err, freeze.ErrPlanMismatch)
	assert.Equal(t, exitUsage, exitCodeOf(err))
	assert.NotContains(t, err.Error(), freeze.ErrPlanMismatch.Error(), "the caller words the kind")
}
