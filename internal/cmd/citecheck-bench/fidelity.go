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
	if len(tools) == 0 {
		fmt.Fprintln(stdout, "no reference extractor is installed: nothing to measure")
		return nil
	}
	var docs []corpus.Document
	for _, d := range store.Manifest().Documents {
		if d.Status == corpus.StatusOK {
			docs = append(docs, d)
		}
	}
	cache := &fidelity.Cache{Dir: *cacheDir}
	var ix *citations.Index
	if *locate {
		start := time.Now()
		if ix, err = citations.NewIndex(store, citations.Options{}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "locator index built in %.2fs\n", time.Since(start).Seconds())
	}
	locResults := make([]*fidelity.LocateResult, len(docs))
	results := make([]*fidelity.Result, len(docs))
	work := make(chan int)
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	for range max(*jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r, lr, err := measureDoc(store, &docs[i], tools, cache, *missFile != "", *locMissFile != "", ix)
				locResults[i] = lr
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				results[i] = r
				mu.Unlock()
			}
		}()
	}
	for i := range docs {
		work <- i
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	var total fidelity.Result
	for _, r := range results {
		total.Add(r)
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	fmt.Fprintf(stdout, "\nextraction fidelity over %d documents of %s: windows of %d-%d words (seed %d)\n"+
		"found in each text of the same page after quote/v2 normalization, exact substring\n\n",
		len(docs), *storeDir, fidelity.MinWords, fidelity.MaxWords, fidelity.Seed)
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
	for _, d := range docs {
		for _, p := range d.Pages {
			pages++
			if slices.Contains(p.Flags, corpus.FlagUnreliableText) {
				flagged++
			}
		}
	}
	fmt.Fprintf(stdout, "\npages flagged %s: %d of %d (%.2f%%)\n", corpus.FlagUnreliableText, flagged, pages, 100*float64(flagged)/float64(max(pages, 1)))

	type docRate struct {
		name string
		c    fidelity.Cell
	}
	var rates []docRate
	for i, r := range results {
		if c := r.Overall(fidelity.Ours); c.Total > 0 {
			rates = append(rates, docRate{docs[i].Name, c})
		}
	}
	sort.SliceStable(rates, func(i, j int) bool { return rates[i].c.Rate() < rates[j].c.Rate() })
	fmt.Fprintf(stdout, "\nlowest documents (citecheck text, all quote sources):\n")
	for _, d := range rates[:min(*worst, len(rates))] {
		fmt.Fprintf(stdout, "  %6.2f%% %6d windows  %s\n", d.c.Rate(), d.c.Total, d.name)
	}
	if ix != nil {
		var lt fidelity.LocateResult
		for _, r := range locResults {
			if r != nil {
				lt.Add(r)
			}
		}
		fmt.Fprintf(stdout, "\nlocate: windows unique in their source's document text, found by citecheck locate uniquely on their page\n")
		fmt.Fprintf(stdout, "  %-10s %-28s %s\n", "", "quote alone", "with its page given")
		var all, allPage fidelity.Cell
		for _, q := range names {
			c, wp := lt.Cells[q], lt.WithPage[q]
			all.Found += c.Found
			all.Total += c.Total
			allPage.Found += wp.Found
			allPage.Total += wp.Total
			fmt.Fprintf(stdout, "  %-10s %-28s %s\n", q, rateOf(c), rateOf(wp))
		}
		fmt.Fprintf(stdout, "  %-10s %-28s %s\n", "all", rateOf(all), rateOf(allPage))
		fmt.Fprintf(stdout, "\nthe same windows changed in one digit or one content word (and then in none of the document's texts): not found\n")
		var digits, words fidelity.Cell
		for _, q := range names {
			d, w := lt.ChangedDigit[q], lt.ChangedWord[q]
			digits.Found += d.Found
			digits.Total += d.Total
			words.Found += w.Found
			words.Total += w.Total
			fmt.Fprintf(stdout, "  %-10s digit %s  word %s\n", q, caught(d), caught(w))
		}
		fmt.Fprintf(stdout, "  %-10s digit %s  word %s\n", "all", caught(digits), caught(words))
		for i, r := range locResults {
			for _, e := range r.Escapes {
				fmt.Fprintf(stdout, "  found anyway: %s p%d %s %q -> pages %v\n", docs[i].Name, e.Page, e.Source, e.Quote, e.Pages)
			}
		}
	}
	if *locMissFile != "" {
		err := writeJSONLines(*locMissFile, len(docs), func(i int, enc *json.Encoder) {
			if locResults[i] == nil {
				return
			}
			for _, m := range locResults[i].Misses {
				enc.Encode(struct {
					Document string `json:"document"`
					fidelity.LocateMiss
				}{docs[i].Name, m})
			}
		})
		if err != nil {
			return err
		}
	}
	if *missFile != "" {
		err := writeJSONLines(*missFile, len(docs), func(i int, enc *json.Encoder) {
			for _, m := range results[i].Misses {
				enc.Encode(struct {
					Document string `json:"document"`
					fidelity.Miss
				}{docs[i].Name, m})
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// measureDoc gathers our page texts and each tool's, then measures them.
func measureDoc(store *corpus.Store, d *corpus.Document, tools []*fidelity.Tool, cache *fidelity.Cache, keepMisses, keepLocMisses bool, ix *citations.Index) (*fidelity.Result, *fidelity.LocateResult, error) {
	texts, err := fidelity.DocumentTexts(context.Background(), store, d, tools, cache)
	if err != nil {
		return nil, nil, err
	}
	var lr *fidelity.LocateResult
	if ix != nil {
		lr = fidelity.MeasureLocate(d.BLAKE3, texts, func(q string, page int) ([]int, bool) {
			r := ix.Locate(citations.Query{Document: d.Name, Quote: q, Page: page})
			switch r.Status {
			case citations.StatusUnique:
				return r.Pages(), true
			case citations.StatusAmbiguous:
				return nil, true
			}
			return nil, false
		}, keepLocMisses)
	}
	return fidelity.Measure(d.BLAKE3, texts, keepMisses), lr, nil
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
