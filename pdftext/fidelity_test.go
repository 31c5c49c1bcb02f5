package pdftext

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/internal/fidelity"
	"github.com/citecheck/citecheck/internal/shareddata"
)

var (
	updateFloors = flag.Bool("update-floors", false, "raise the installed tools' floors in testdata/fidelity-floors.txt to the rates measured now (never lowers one)")
	resetFloors  = flag.Bool("reset-floors", false, "set the installed tools' floors in testdata/fidelity-floors.txt to the rates measured now, lowering floors: only for a deliberate change, with the reason in the commit")
)

const floorsFile = "testdata/fidelity-floors.txt"

// requireEnv names the reference tools that must be installed, comma or
// space separated ("all" for every one): .ci/run sets it, so that on CI a
// missing tool fails the ratchet rather than leaving its floors unchecked.
const requireEnv = "CITECHECK_FIDELITY_REQUIRE"

func readFloors(t *testing.T) *fidelity.Floors {
	file, err := os.Open(floorsFile)
	if os.IsNotExist(err) {
		return fidelity.NewFloors()
	}
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	f, err := fidelity.ReadFloors(file)
	if err != nil {
		t.Fatalf("%s: %v", floorsFile, err)
	}
	return f
}

func writeFloors(t *testing.T, f *fidelity.Floors) {
	if err := os.MkdirAll(filepath.Dir(floorsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(floorsFile, f.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// requiredTools reads requireEnv.
func requiredTools(t *testing.T) []string {
	var names []string
	for _, n := range strings.FieldsFunc(os.Getenv(requireEnv), func(r rune) bool { return r == ',' || r == ' ' }) {
		switch {
		case n == "all":
			names = append(names, fidelity.ToolNames...)
		case slices.Contains(fidelity.ToolNames, n):
			names = append(names, n)
		default:
			t.Fatalf("$%s names %q: the tools are %s (or all)", requireEnv, n, strings.Join(fidelity.ToolNames, ", "))
		}
	}
	return names
}

// emptyKnown lists the corpus pages that come back empty from us while
// pdftotext reads text on them, each with the reason. It may only shrink.
var emptyKnown = map[string]string{}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// TestFidelityRatchet measures, for every document of the shared corpus
// and each installed reference extractor, how many windows of the tool's
// page texts are found in ours (package internal/fidelity), and fails when
// a tool's figure on a document, or on the corpus as a whole, falls below
// its recorded floor (fidelity.Floors). Each tool's figure counts its own
// windows only, so it does not depend on which other tools are installed.
// An absent tool's floors are not checked, unless
// $CITECHECK_FIDELITY_REQUIRE names the tool: then its absence fails the
// test. The reference tools' output changes between versions, so a tool's
// per-document floors are enforced only with the version they were
// measured with; with another version only its whole-corpus floor, less
// fidelity.Slack, is. It also fails when a page pdftotext reads as text
// comes back empty from us.
func TestFidelityRatchet(t *testing.T) {
	if testing.Short() {
		t.Skip("fidelity ratchet skipped in -short mode")
	}
	dir := shareddata.Path(t, "pdf-corpus")
	required := requiredTools(t)
	var tools []*fidelity.Tool
	var ids []string
	for _, name := range fidelity.ToolNames {
		tool, err := fidelity.Find(name)
		if err != nil {
			if slices.Contains(required, name) {
				t.Errorf("%v: $%s requires it (make reftools installs it)", err, requireEnv)
			} else {
				t.Logf("%v: left out, its floors not checked", err)
			}
			continue
		}
		tools = append(tools, tool)
		ids = append(ids, tool.Name+"="+tool.Version)
	}
	if t.Failed() {
		t.FailNow()
	}
	if len(tools) == 0 {
		t.Skip("no reference extractor is installed (make reftools installs them): nothing to compare with")
	}
	t.Logf("reference extractors: %s; each bounded to %s", strings.Join(ids, " "), fidelity.Bounds())

	files, err := ingest.Inputs([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	r := testRunner(t, "extract", Limits{})
	if _, err := ingest.Build(context.Background(), store, files, ingest.BuildOptions{Extractor: r.ExtractorID(), Extract: r.Extract, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	st, err := corpus.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	var docs []corpus.Document
	for _, d := range st.Manifest().Documents {
		if d.Status == corpus.StatusOK {
			docs = append(docs, d)
		}
	}
	cache := &fidelity.Cache{Dir: fidelity.DefaultCacheDir()}
	start := time.Now()
	results := make([]*fidelity.Result, len(docs))
	failed := make([]map[string]error, len(docs))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				d := &docs[i]
				texts, fails, err := fidelity.GatherTexts(context.Background(), st, d, tools, cache)
				if err != nil {
					t.Error(err)
					continue
				}
				failed[i] = fails
				results[i] = fidelity.Measure(d.BLAKE3, texts, false)
				for p, ref := range texts["pdftotext"] {
					if p < len(texts[fidelity.Ours]) && strings.TrimSpace(ref) != "" && strings.TrimSpace(texts[fidelity.Ours][p]) == "" {
						if why, known := emptyKnown[fmt.Sprintf("%s %d", d.Name, p+1)]; known {
							t.Logf("%s page %d: empty, pdftotext reads %q: known: %s", d.Name, p+1, firstLine(ref), why)
						} else {
							t.Errorf("%s page %d: our text is empty where pdftotext reads %q", d.Name, p+1, firstLine(ref))
						}
					}
				}
			}
		}()
	}
	for i := range docs {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("%d documents measured in %v (reference texts cached in %s)", len(docs), time.Since(start).Round(time.Second), cache.Dir)

	old := readFloors(t)
	now := readFloors(t)
	var total fidelity.Result
	for i, res := range results {
		if res != nil {
			total.Add(res)
		}
		for _, tool := range tools {
			if err, ok := failed[i][tool.Name]; ok {
				t.Logf("%s: %s has no text for it, left out: %v", docs[i].Name, tool.Name, err)
			}
		}
	}
	for _, tool := range tools {
		m := &fidelity.Measured{Tool: tool.Name, Version: tool.Version, Docs: map[string]fidelity.Cell{}, All: total.Cells[fidelity.Pair{Text: fidelity.Ours, Quote: tool.Name}]}
		for i, res := range results {
			if res != nil {
				if c := res.Cells[fidelity.Pair{Text: fidelity.Ours, Quote: tool.Name}]; c.Total > 0 {
					m.Docs[docs[i].Name] = c
				}
			}
		}
		summary, below := old.Check(m)
		t.Logf("floors of %s", summary)
		if runs, peak := tool.Usage.Runs(); runs > 0 {
			t.Logf("%s ran on %d documents (the others from the cache); largest resident set %d MiB", tool.Name, runs, peak>>20)
		}
		for _, b := range below {
			t.Error(b)
		}
		switch {
		case *resetFloors:
			now.Reset(m)
		case *updateFloors:
			if err := now.Raise(m); err != nil {
				t.Error(err)
			}
		}
	}
	all := total.Overall(fidelity.Ours)
	t.Logf("all installed tools together (not a floor): %d of %d reference windows found in our text (%.2f%%)", all.Found, all.Total, all.Rate())
	if *resetFloors || *updateFloors {
		writeFloors(t, now)
	}
}
