package pdftext

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/fidelity"
	"github.com/citecheck/citecheck/internal/shareddata"
)

var (
	updateFloors = flag.Bool("update-floors", false, "raise testdata/fidelity-floors.txt to the rates measured now (never lowers one)")
	resetFloors  = flag.Bool("reset-floors", false, "set testdata/fidelity-floors.txt to the rates measured now, lowering floors: only for a deliberate change, with the reason in the commit")
)

const floorsFile = "testdata/fidelity-floors.txt"

// floors is the ratchet: per document (and "*" for all together), the
// least share, in tenths of a percent, of reference windows found in our
// text. The tools line says which reference extractors and versions the
// floors were measured with.
type floors struct {
	tools string
	rate  map[string]int
}

func readFloors(t *testing.T) floors {
	f := floors{rate: map[string]int{}}
	file, err := os.Open(floorsFile)
	if os.IsNotExist(err) {
		return f
	}
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if tools, ok := strings.CutPrefix(line, "# tools: "); ok {
			f.tools = tools
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		v, err := strconv.Atoi(val)
		if !ok || err != nil {
			t.Fatalf("%s:%d: want \"<document> <tenths of a percent>\", got %q", floorsFile, n, line)
		}
		f.rate[name] = v
	}
	return f
}

func (f floors) write(t *testing.T) {
	names := make([]string, 0, len(f.rate))
	for n := range f.rate {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("# Extraction fidelity ratchet (TestFidelityRatchet): per document, the least share of\n")
	b.WriteString("# reference-extractor windows found in citecheck's page text, in tenths of a percent;\n")
	b.WriteString("# \"*\" is the whole corpus. Raised with go test ./pdftext -run FidelityRatchet -update-floors;\n")
	b.WriteString("# a floor never goes down.\n")
	fmt.Fprintf(&b, "# tools: %s\n", f.tools)
	for _, n := range names {
		fmt.Fprintf(&b, "%s %d\n", n, f.rate[n])
	}
	if err := os.MkdirAll(filepath.Dir(floorsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(floorsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
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

// TestFidelityRatchet measures, for every document of the shared corpus,
// how many windows of the installed reference extractors' page texts are
// found in ours (package internal/fidelity), and fails when a document, or
// the corpus as a whole, falls below its recorded floor. The reference
// tools' output changes between versions, so floors are enforced per
// document only with the tool versions they were measured with; with other
// versions only the whole-corpus floor, less one point, is. It also fails
// when a page pdftotext reads as text comes back empty from us.
func TestFidelityRatchet(t *testing.T) {
	if testing.Short() {
		t.Skip("fidelity ratchet skipped in -short mode")
	}
	dir := shareddata.Path(t, "pdf-corpus")
	var tools []*fidelity.Tool
	var ids []string
	for _, name := range fidelity.ToolNames {
		tool, err := fidelity.Find(name)
		if err != nil {
			t.Logf("%v: left out", err)
			continue
		}
		tools = append(tools, tool)
		ids = append(ids, tool.Name+"="+tool.Version)
	}
	if len(tools) == 0 {
		t.Skip("no reference extractor is installed (make reftools installs them): nothing to compare with")
	}
	toolID := strings.Join(ids, " ")

	files, err := corpus.Inputs([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	r := testRunner(t, "extract", Limits{})
	if _, err := corpus.Build(context.Background(), store, files, corpus.BuildOptions{Extractor: r.Extractor(), Extract: r.Extract, Jobs: 2}); err != nil {
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
	results := make([]*fidelity.Result, len(docs))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				d := &docs[i]
				texts, err := fidelity.DocumentTexts(context.Background(), st, d, tools, cache)
				if err != nil {
					t.Error(err)
					return
				}
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

	old := readFloors(t)
	now := floors{tools: toolID, rate: map[string]int{}}
	var total fidelity.Result
	tenths := func(c fidelity.Cell) int {
		if c.Total == 0 {
			return 1000
		}
		return int(math.Floor(1000 * float64(c.Found) / float64(c.Total)))
	}
	sameTools := old.tools == toolID
	for i, res := range results {
		total.Add(res)
		c := res.Overall(fidelity.Ours)
		if c.Total == 0 {
			continue
		}
		now.rate[docs[i].Name] = tenths(c)
		if floor, ok := old.rate[docs[i].Name]; ok && sameTools && tenths(c) < floor {
			t.Errorf("%s: %d of %d reference windows found (%.1f%%), below its floor of %.1f%%", docs[i].Name, c.Found, c.Total, c.Rate(), float64(floor)/10)
		}
	}
	all := total.Overall(fidelity.Ours)
	now.rate["*"] = tenths(all)
	t.Logf("reference windows found in our text: %d of %d (%.2f%%) with %s", all.Found, all.Total, all.Rate(), toolID)
	if floor, ok := old.rate["*"]; ok {
		slack := 0
		if !sameTools {
			slack = 10
			t.Logf("floors were measured with %q: per-document floors not enforced", old.tools)
		}
		if tenths(all) < floor-slack {
			t.Errorf("whole corpus: %.2f%% of reference windows found, below the floor of %.1f%%", all.Rate(), float64(floor-slack)/10)
		}
	}
	if *resetFloors {
		now.write(t)
		return
	}
	if *updateFloors {
		if !sameTools && old.tools != "" {
			t.Fatalf("not raising floors measured with %q using %q: compare like with like", old.tools, toolID)
		}
		for name, v := range old.rate {
			if v > now.rate[name] {
				now.rate[name] = v
			}
		}
		now.write(t)
	}
}
