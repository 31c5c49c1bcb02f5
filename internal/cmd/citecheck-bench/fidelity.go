package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/fidelity"
)

func benchFidelity(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("fidelity", flag.ContinueOnError)
	storeDir := fs.String("corpus-store", "", "a corpus built by citecheck extract")
	cacheDir := fs.String("cache", fidelity.DefaultCacheDir(), "cache of reference tools' page texts")
	jobs := fs.Int("jobs", 2, "reference extractions in parallel")
	missFile := fs.String("misses", "", "write the windows missing from citecheck's text here (JSON Lines)")
	worst := fs.Int("worst", 15, "list this many documents with the lowest rate")
	locMissFile := fs.String("locate-misses", "", "with --locate, write the windows the locator did not place on their page here (JSON Lines)")
	locate := fs.Bool("locate", false, "also measure the quote locator: windows unique in their source's document text, placed by citations.Index.Locate on their page")
	if err := fs.Parse(args); err != nil {
		return err
	}
	store, err := corpus.Open(*storeDir)
	if err != nil {
		return err
	}
	tools := findTools(stdout)
	if len(tools) == 0 {
		fmt.Fprintln(stdout, "no reference extractor is installed: nothing to measure")
		return nil
	}
	run := &fidelityRun{store: store, tools: tools, cache: &fidelity.Cache{Dir: *cacheDir},
		keepMisses: *missFile != "", keepLocMisses: *locMissFile != ""}
	for _, d := range store.Manifest().Documents {
		if d.Status == corpus.StatusOK {
			run.docs = append(run.docs, d)
		}
	}
	for _, t := range tools {
		run.names = append(run.names, t.Name)
	}
	if *locate {
		start := time.Now()
		if run.ix, err = citations.NewIndex(store, citations.Options{}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "locator index built in %.2fs\n", time.Since(start).Seconds())
	}
	if err := run.measure(max(*jobs, 1)); err != nil {
		return err
	}
	run.writeExtraction(stdout, *storeDir, *worst)
	if run.ix != nil {
		run.writeLocate(stdout)
	}
	return run.writeMisses(*missFile, *locMissFile)
}

// findTools returns the reference extractors installed, saying which.
func findTools(stdout io.Writer) []*fidelity.Tool {
	var tools []*fidelity.Tool
	for _, name := range fidelity.ToolNames {
		t, err := fidelity.Find(name)
		if err != nil {
			fmt.Fprintf(stdout, "%-10s %v: left out\n", name, err)
			continue
		}
		fmt.Fprintf(stdout, "%-10s %s\n", t.Name, t.Version)
		tools = append(tools, t)
	}
	return tools
}

// fidelityRun is one measurement: the corpus's documents with text, the
// reference tools and what was measured of each document, by index.
type fidelityRun struct {
	store                     *corpus.Store
	docs                      []corpus.Document
	tools                     []*fidelity.Tool
	names                     []string // the tools' names
	cache                     *fidelity.Cache
	ix                        *citations.Index // nil: the locator is not measured
	keepMisses, keepLocMisses bool
	results                   []*fidelity.Result
	locResults                []*fidelity.LocateResult
}

// measure measures every document on jobs goroutines; it returns the
// first error any met.
func (run *fidelityRun) measure(jobs int) error {
	run.results = make([]*fidelity.Result, len(run.docs))
	run.locResults = make([]*fidelity.LocateResult, len(run.docs))
	work := make(chan int)
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r, lr, err := run.measureDoc(&run.docs[i])
				run.locResults[i] = lr
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				run.results[i] = r
				mu.Unlock()
			}
		}()
	}
	for i := range run.docs {
		work <- i
	}
	close(work)
	wg.Wait()
	return firstErr
}

// measureDoc gathers our page texts and each tool's, then measures them.
func (run *fidelityRun) measureDoc(d *corpus.Document) (*fidelity.Result, *fidelity.LocateResult, error) {
	texts, err := fidelity.DocumentTexts(context.Background(), run.store, d, run.tools, run.cache)
	if err != nil {
		return nil, nil, err
	}
	var lr *fidelity.LocateResult
	if ix := run.ix; ix != nil {
		lr = fidelity.MeasureLocate(d.BLAKE3, texts, func(q string, page int) ([]int, bool) {
			r := ix.Locate(citations.Query{Document: d.Name, Quote: q, Page: page})
			switch r.Status {
			case citations.StatusUnique:
				return r.Pages(), true
			case citations.StatusAmbiguous:
				return nil, true
			}
			return nil, false
		}, run.keepLocMisses)
	}
	return fidelity.Measure(d.BLAKE3, texts, run.keepMisses), lr, nil
}

// writeExtraction prints the extraction fidelity: the matrix of texts and
// quote sources, citecheck against the best other text per source, the
// ceiling, the flagged pages and the worst documents.
func (run *fidelityRun) writeExtraction(stdout io.Writer, storeDir string, worst int) {
	var total fidelity.Result
	for _, r := range run.results {
		total.Add(r)
	}
	names := run.names
	fmt.Fprintf(stdout, "\nextraction fidelity over %d documents of %s: windows of %d-%d words (seed %d)\n"+
		"found in each text of the same page after quote/v2 normalization, exact substring\n\n",
		len(run.docs), storeDir, fidelity.MinWords, fidelity.MaxWords, fidelity.Seed)
	total.WriteMatrix(stdout, names)
	fmt.Fprintln(stdout, "\nper quote source, citecheck against the best other text:")
	for _, q := range names {
		ours := total.Cells[fidelity.Pair{Text: fidelity.Ours, Quote: q}]
		best, bestName := -1.0, ""
		for _, t := range names {
			if t != q {
				if r := total.Cells[fidelity.Pair{Text: t, Quote: q}].Rate(); r > best {
					best, bestName = r, t
				}
			}
		}
		verdict := "ok"
		if ours.Rate() < best {
			verdict = "BELOW"
		}
		fmt.Fprintf(stdout, "  %-10s citecheck %6.2f%%  best other %6.2f%% (%s)  %s\n", q, ours.Rate(), best, bestName, verdict)
	}
	bp := total.BestPerPage
	fmt.Fprintf(stdout, "\nceiling: the one text of each page (ours or a tool's) that holds most windows of all sources,\n"+
		"a tool's own windows counted as found: %.2f%% (%d of %d); ours %.2f%%\n", bp.Rate(), bp.Found, bp.Total, total.Overall(fidelity.Ours).Rate())
	flagged, pages := 0, 0
	for _, d := range run.docs {
		for _, p := range d.Pages {
			pages++
			if slices.Contains(p.Flags, corpus.FlagUnreliableText) {
				flagged++
			}
		}
	}
	fmt.Fprintf(stdout, "\npages flagged %s: %d of %d (%.2f%%)\n", corpus.FlagUnreliableText, flagged, pages, 100*float64(flagged)/float64(max(pages, 1)))
	run.writeWorst(stdout, worst)
}

// writeWorst lists the worst documents by citecheck's rate over every
// quote source.
func (run *fidelityRun) writeWorst(stdout io.Writer, worst int) {
	type docRate struct {
		name string
		c    fidelity.Cell
	}
	var rates []docRate
	for i, r := range run.results {
		if c := r.Overall(fidelity.Ours); c.Total > 0 {
			rates = append(rates, docRate{run.docs[i].Name, c})
		}
	}
	sort.SliceStable(rates, func(i, j int) bool { return rates[i].c.Rate() < rates[j].c.Rate() })
	fmt.Fprintf(stdout, "\nlowest documents (citecheck text, all quote sources):\n")
	for _, d := range rates[:min(worst, len(rates))] {
		fmt.Fprintf(stdout, "  %6.2f%% %6d windows  %s\n", d.c.Rate(), d.c.Total, d.name)
	}
}

// writeLocate prints how the locator placed the windows: unique on their
// page, with and without the page given, and how it refused changed ones.
func (run *fidelityRun) writeLocate(stdout io.Writer) {
	var lt fidelity.LocateResult
	for _, r := range run.locResults {
		if r != nil {
			lt.Add(r)
		}
	}
	fmt.Fprintf(stdout, "\nlocate: windows unique in their source's document text, found by citecheck locate uniquely on their page\n")
	fmt.Fprintf(stdout, "  %-10s %-28s %s\n", "", "quote alone", "with its page given")
	var all, allPage fidelity.Cell
	for _, q := range run.names {
		c, wp := lt.Cells[q], lt.WithPage[q]
		all, allPage = all.Plus(c), allPage.Plus(wp)
		fmt.Fprintf(stdout, "  %-10s %-28s %s\n", q, rateOf(c), rateOf(wp))
	}
	fmt.Fprintf(stdout, "  %-10s %-28s %s\n", "all", rateOf(all), rateOf(allPage))
	fmt.Fprintf(stdout, "\nthe same windows changed in one digit or one content word (and then in none of the document's texts): not found\n")
	var digits, words fidelity.Cell
	for _, q := range run.names {
		d, w := lt.ChangedDigit[q], lt.ChangedWord[q]
		digits, words = digits.Plus(d), words.Plus(w)
		fmt.Fprintf(stdout, "  %-10s digit %s  word %s\n", q, caught(d), caught(w))
	}
	fmt.Fprintf(stdout, "  %-10s digit %s  word %s\n", "all", caught(digits), caught(words))
	for i, r := range run.locResults {
		for _, e := range r.Escapes {
			fmt.Fprintf(stdout, "  found anyway: %s p%d %s %q -> pages %v\n", run.docs[i].Name, e.Page, e.Source, e.Quote, e.Pages)
		}
	}
}

// writeMisses writes, where a file is named, the windows the locator did
// not place and those missing from citecheck's text.
func (run *fidelityRun) writeMisses(missFile, locMissFile string) error {
	if locMissFile != "" {
		err := writeJSONLines(locMissFile, len(run.docs), func(i int, enc *json.Encoder) {
			if run.locResults[i] == nil {
				return
			}
			for _, m := range run.locResults[i].Misses {
				enc.Encode(struct {
					Document string `json:"document"`
					fidelity.LocateMiss
				}{run.docs[i].Name, m})
			}
		})
		if err != nil {
			return err
		}
	}
	if missFile != "" {
		err := writeJSONLines(missFile, len(run.docs), func(i int, enc *json.Encoder) {
			for _, m := range run.results[i].Misses {
				enc.Encode(struct {
					Document string `json:"document"`
					fidelity.Miss
				}{run.docs[i].Name, m})
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// rateOf formats a located share.
func rateOf(c fidelity.Cell) string {
	return fmt.Sprintf("%6.2f%%  (%d of %d)", c.Rate(), c.Found, c.Total)
}

// caught formats how many changed windows were not found: c.Found counts
// the escapes.
func caught(c fidelity.Cell) string {
	if c.Total == 0 {
		return "      -"
	}
	return fmt.Sprintf("%6.2f%% (%d of %d)", 100*float64(c.Total-c.Found)/float64(c.Total), c.Total-c.Found, c.Total)
}

// writeJSONLines creates path and lets each of n documents write its records.
func writeJSONLines(path string, n int, each func(i int, enc *json.Encoder)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for i := range n {
		each(i, enc)
	}
	return f.Close()
}
