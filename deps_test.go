package citecheck_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/citecheck/citecheck"

// allowed lists, for each package, the project packages it may import.
// The layers, lowest first: the leaves (atomic files, suffix arrays, the
// strict-JSON layer and the input-error kind every reader wraps); the
// corpus store and text normalization; the store's builders
// (corpus/ingest), which the store's readers never need; what users write
// (the reference, the plan, the lock, which re-reads imported page texts
// as ingest reads them, the runs); the locator (citations), which knows quotes,
// documents and pages but never run records; the run-facing audit and the
// grader, which bring runs and the locator together; the tally of
// grading's results (metrics), the source review of what grading left
// unresolved (review, which metrics counts and the reports show) and the
// reports. PDF extraction (pdftext, layout) only fills corpora, and the
// commands import anything. A package missing here may import nothing of
// the project until it is added, deliberately.
var allowed = map[string][]string{
	"internal/atomicfile":             {},
	"corpus":                          {"internal/atomicfile", "internal/inputerr"},
	"corpus/ingest":                   {"corpus", "internal/atomicfile", "internal/inputerr"},
	"textnorm":                        {},
	"internal/inputerr":               {},
	"internal/suggest":                {},
	"internal/shareddata":             {},
	"internal/testbrowser":            {},
	"internal/sais":                   {},
	"typedqa":                         {"internal/inputerr", "internal/strictjson"},
	"fixtures":                        {},
	"internal/strictjson":             {"internal/inputerr", "internal/suggest"},
	"spans":                           {"corpus", "textnorm", "internal/inputerr", "internal/strictjson", "internal/suggest"},
	"plan":                            {"spans", "internal/inputerr", "internal/strictjson"},
	"freeze":                          {"corpus", "corpus/ingest", "internal/atomicfile", "internal/inputerr", "spans", "plan", "textnorm"},
	"runs":                            {"internal/inputerr", "internal/strictjson", "textnorm"},
	"citations":                       {"corpus", "internal/inputerr", "internal/sais", "internal/strictjson", "internal/suggest", "textnorm"},
	"audit":                           {"citations", "runs"},
	"absence":                         {"spans", "textnorm"},
	"grade":                           {"absence", "audit", "citations", "corpus", "freeze", "internal/inputerr", "internal/strictjson", "internal/suggest", "plan", "runs", "spans", "textnorm"},
	"metrics":                         {"grade"},
	"review":                          {"corpus", "grade", "internal/inputerr", "internal/strictjson", "metrics", "plan", "spans"},
	"report":                          {"citations", "metrics", "grade", "corpus", "spans", "review"},
	"pdftext/internal/fontenc":        {},
	"pdftext/internal/cmap":           {"pdftext/internal/fontenc"},
	"pdftext/internal/fontfile":       {"pdftext/internal/fontenc"},
	"layout":                          {"corpus"},
	"pdftext":                         {"corpus", "layout", "pdftext/internal/cmap", "pdftext/internal/fontenc", "pdftext/internal/fontfile"},
	"internal/fidelity":               {"corpus", "textnorm"},
	"internal/sweeps":                 {},
	"internal/schematest":             {},
	"internal/testcorpus":             {"corpus", "corpus/ingest", "fixtures", "pdftext"},
	"internal/cmd/citecheck-bench":    {"citations", "corpus", "corpus/ingest", "internal/fidelity", "pdftext", "textnorm"},
	"internal/cmd/citecheck-locbench": {"citations", "corpus"},
	"cmd/citecheck":                   {"*"},
}

// pdfLibraries may be imported only by pdftext (and the bench tool, which
// measures against them): grading never parses PDFs.
var pdfLibraries = []string{"github.com/pdfcpu/pdfcpu", "github.com/ledongthuc/pdf"}

var pdfImporters = []string{"pdftext", "internal/cmd/citecheck-bench"}

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if pkg == "" || pkg == module {
			continue
		}
		rules, known := allowed[pkg]
		if !known {
			t.Errorf("package %s has no entry in deps_test.go's allowed map: decide its place in the layering", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module+"/") {
				dep := strings.TrimPrefix(imp, module+"/")
				if strings.HasPrefix(dep, "cmd/") {
					t.Errorf("%s imports %s: nothing imports a command", pkg, dep)
				}
				if !slices.Contains(rules, "*") && !slices.Contains(rules, dep) {
					t.Errorf("%s imports %s, against the layering of deps_test.go's allowed map", pkg, dep)
				}
			}
			for _, lib := range pdfLibraries {
				if strings.HasPrefix(imp, lib) && !slices.ContainsFunc(pdfImporters, func(p string) bool { return pkg == p || strings.HasPrefix(pkg, p+"/") }) {
					t.Errorf("%s imports the PDF library %s: only pdftext may", pkg, imp)
				}
			}
		}
	}
}

var exitOrPrint = regexp.MustCompile(`\bos\.Exit\(|\bfmt\.Print|\bos\.Stdout\b|\bos\.Stderr\b|\blog\.(Print|Fatal)`)

// TestLibrariesNeitherPrintNorExit keeps output and exit codes in the
// commands: library packages return values and errors.
func TestLibrariesNeitherPrintNorExit(t *testing.T) {
	for pkg := range allowed {
		if strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "internal/cmd/") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(pkg), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "//go:build ignore") {
				continue // generators are programs
			}
			for i, line := range strings.Split(string(b), "\n") {
				if exitOrPrint.MatchString(line) && !strings.Contains(line, "// deps: allowed") {
					t.Errorf("%s:%d: a library package prints or exits: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}

// TestChildStartsCheaply keeps go-runewidth out of the binary: its init
// builds lookup tables for ~47 ms, paid by every extraction child, which
// once made "citecheck extract" twice as slow as pdftotext. pdfcpu's api
// package links it; pdftext sets pdfcpu's config path directly instead.
func TestChildStartsCheaply(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/citecheck").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/mattn/go-runewidth" || dep == "github.com/pdfcpu/pdfcpu/pkg/api" {
			t.Errorf("cmd/citecheck links %s, which slows every extraction child's start", dep)
		}
	}
}
