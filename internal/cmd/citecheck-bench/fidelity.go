package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/fidelity"
)

func benchFidelity(stdout, stderr io.Writer, args []string) error {
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
	run := &fidelityRun{store: store, tools: tools, cache: &fidelity.Cache{Dir: *cacheDir}, keepMisses: *missFile != "", keepLocMisses: *locMissFile != "", progress: stderr}
	if *locate {
		start := time.Now()
		if run.ix, err = citations.NewIndex(store, citations.Options{}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "locator index built in %.2fs\n", time.Since(start).Seconds())
	}
	results, locResults, err := run.measureAll(docs, *jobs)
	if err != nil {
		return err
	}
	var total fidelity.Result
	for _, r := range results {
		total.Add(r)
	}
	names := run.names()
	fmt.Fprintf(stdout, "\nextraction fidelity over %d documents of %s: windows of %d-%d words (seed %d)\n"+
		"found in each text of the same page after quote/v2 normalization, exact substring\n\n",
		len(docs), *storeDir, fidelity.MinWords, fidelity.MaxWords, fidelity.Seed)
	total.WriteMatrix(stdout, names)
	run.writeExtraction(stdout, &total, results, docs, *worst)
	if run.ix != nil {
		var lt fidelity.LocateResult
		for _, r := range locResults {
			if r != nil {
				lt.Add(r)
			}
		}
		writeLocate(stdout, &lt, names)
		for i, r := range locResults {
			for _, e := range r.Escapes {
				fmt.Fprintf(stdout, "  found anyway (%s): %s p%d %s %q -> pages %v at %s\n", e.Control, docs[i].Name, e.Page, e.Source, e.Quote, e.Pages, e.Level)
			}
		}
	}
	if *locMissFile != "" && run.ix != nil {
		if err := writeJSONLines(*locMissFile, len(docs), func(i int) []any { return withDocument(docs[i].Name, locResults[i].Misses) }); err != nil {
			return err
		}
	}
	if *missFile != "" {
		if err := writeJSONLines(*missFile, len(docs), func(i int) []any { return withDocument(docs[i].Name, results[i].Misses) }); err != nil {
			return err
		}
	}
	return nil
}

// writeExtraction prints, per quote source, our text against the best
// other one, the ceiling, the flagged pages and the lowest documents.
func (run *fidelityRun) writeExtraction(stdout io.Writer, total *fidelity.Result, results []*fidelity.Result, docs []corpus.Document, worst int) {
	names := run.names()
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
	for _, d := range rates[:min(worst, len(rates))] {
		fmt.Fprintf(stdout, "  %6.2f%% %6d windows  %s\n", d.c.Rate(), d.c.Total, d.name)
	}
}

// fidelityRun is what measuring every document needs.
type fidelityRun struct {
	store                     *corpus.Store
	tools                     []*fidelity.Tool
	cache                     *fidelity.Cache
	keepMisses, keepLocMisses bool
	ix                        *citations.Index // nil: the locator is not measured
	progress                  io.Writer        // a line every ProgressEvery while measuring
}

// ProgressEvery is how often a measurement says how far it got: with the
// locator and six tools it runs for tens of minutes.
const ProgressEvery = 30 * time.Second

// names are the tools' names, in ToolNames order.
func (run *fidelityRun) names() []string {
	names := make([]string, len(run.tools))
	for i, t := range run.tools {
		names[i] = t.Name
	}
	return names
}

// measureAll measures every document on jobs goroutines, each with the
// next document as the other one its controls need.
func (run *fidelityRun) measureAll(docs []corpus.Document, jobs int) ([]*fidelity.Result, []*fidelity.LocateResult, error) {
	locResults := make([]*fidelity.LocateResult, len(docs))
	results := make([]*fidelity.Result, len(docs))
	errs := make([]error, len(docs))
	var done atomic.Int64
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i], locResults[i], errs[i] = run.measureDoc(&docs[i], &docs[(i+1)%len(docs)])
				done.Add(1)
			}
		}()
	}
	stop := run.report(len(docs), &done)
	for i := range docs {
		work <- i
	}
	close(work)
	wg.Wait()
	stop()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return results, locResults, nil
}

// report writes how many of n documents are done every ProgressEvery
// until the returned function is called.
func (run *fidelityRun) report(n int, done *atomic.Int64) (stop func()) {
	if run.progress == nil {
		return func() {}
	}
	start := time.Now()
	tick := time.NewTicker(ProgressEvery)
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-tick.C:
				fmt.Fprintf(run.progress, "fidelity: %d of %d documents measured, %s\n", done.Load(), n, time.Since(start).Round(time.Second))
			case <-quit:
				return
			}
		}
	}()
	return func() {
		tick.Stop()
		close(quit)
		<-finished
	}
}

// measureDoc gathers our page texts and each tool's, then measures them;
// with an index, it also locates the windows, other's among them for the
// controls that need another document.
func (run *fidelityRun) measureDoc(d, other *corpus.Document) (*fidelity.Result, *fidelity.LocateResult, error) {
	store, tools, cache, ix := run.store, run.tools, run.cache, run.ix
	keepMisses, keepLocMisses := run.keepMisses, run.keepLocMisses
	texts, err := fidelity.DocumentTexts(context.Background(), store, d, tools, cache)
	if err != nil {
		return nil, nil, err
	}
	var lr *fidelity.LocateResult
	if ix != nil {
		in := fidelity.LocateInput{Key: d.BLAKE3, Texts: texts, KeepMisses: keepLocMisses, MinVariantLen: citations.SymbolMinLen, Locator: fidelity.Locator{
			In: func(q string, page int) fidelity.Answer {
				return answer(ix.Locate(citations.Query{Document: d.Name, Quote: q, Page: page}))
			},
		}}
		if other != nil && other.Name != d.Name {
			if in.OtherTexts, err = fidelity.DocumentTexts(context.Background(), store, other, tools, cache); err != nil {
				return nil, nil, err
			}
			in.Locator.Other = func(q string) fidelity.Answer {
				return answer(ix.Locate(citations.Query{Document: other.Name, Quote: q}))
			}
		}
		lr = fidelity.MeasureLocate(in)
	}
	return fidelity.Measure(d.BLAKE3, texts, keepMisses), lr, nil
}

// answer reads a locator's result as fidelity counts it.
func answer(r citations.Result) fidelity.Answer {
	a := fidelity.Answer{Found: r.Found()}
	if a.Found {
		a.Level = r.Level.String()
	}
	if r.Status == citations.StatusUnique {
		a.Pages = r.Pages()
		if l, ok := r.Location(); ok {
			a.Level = l.Level.String()
		}
	}
	return a
}

// writeLocate prints the locator's figures: windows placed on their page,
// as copied and under each variant, then the controls.
func writeLocate(w io.Writer, lt *fidelity.LocateResult, names []string) {
	fmt.Fprintf(w, "\nlocate: windows unique in their source's document text, found by citecheck locate uniquely on their page\n")
	found := []string{fidelity.MeasureFound, fidelity.MeasureWithPage}
	for _, v := range fidelity.Variants {
		found = append(found, fidelity.VariantMeasure(fidelity.MeasureFound, v.Name))
	}
	writeTable(w, lt, names, found, false)
	fmt.Fprintf(w, "(%s: the window alone; %s: with its page given; %s/<variant>: the windows a variant changes, as changed:\n"+
		" ascii: non-ASCII characters dropped; hyphen_space: a hyphen between letters written as a space; dash_ascii: em and en dashes written as --)\n",
		fidelity.MeasureFound, fidelity.MeasureWithPage, fidelity.MeasureFound)
	fmt.Fprintf(w, "\ncontrols: changed quotes that must not be found, not found (each one found is listed below)\n")
	writeTable(w, lt, names, []string{fidelity.MeasureChangedDigit, fidelity.MeasureChangedWord, fidelity.MeasureFabricated, fidelity.MeasureWrongDocument}, true)
	var vc []string
	for _, v := range fidelity.Variants {
		for _, m := range []string{fidelity.MeasureMeaning, fidelity.MeasureChangedDigit, fidelity.MeasureChangedWord} {
			vc = append(vc, fidelity.VariantMeasure(m, v.Name))
		}
	}
	writeTable(w, lt, names, vc, true)
	fmt.Fprintf(w, "(changed_digit, changed_word: one digit, one content word changed; fabricated: the window's first half, then half a window\n"+
		" of another document that this one does not hold; wrong_document: the window named to another document that does not hold it;\n"+
		" meaning/<variant>: the variant dropped a sign, comparison, currency, unit or separator next to a number)\n")
	fmt.Fprintf(w, "\nlevels of the windows found on their page, and of the changed quotes found:\n")
	rows := map[string][]string{}
	for k, n := range lt.Levels {
		rows[k.Measure] = append(rows[k.Measure], fmt.Sprintf("%s %d", k.Source, n))
	}
	for _, m := range slices.Sorted(maps.Keys(rows)) {
		slices.Sort(rows[m])
		fmt.Fprintf(w, "  %-26s %s\n", m, strings.Join(rows[m], ", "))
	}
}

// writeTable prints one row per quote source and one for all, one column
// per measure: the share found or, for controls, the share not found.
func writeTable(w io.Writer, lt *fidelity.LocateResult, names, measures []string, control bool) {
	fmt.Fprintf(w, "  %-10s", "")
	for _, m := range measures {
		fmt.Fprintf(w, " %24s", m)
	}
	fmt.Fprintln(w)
	for _, src := range append(slices.Clone(names), "all") {
		fmt.Fprintf(w, "  %-10s", src)
		for _, m := range measures {
			var c fidelity.Cell
			for _, n := range names {
				if src == "all" || src == n {
					x := lt.Cell(m, n)
					c.Found += x.Found
					c.Total += x.Total
				}
			}
			if control {
				c.Found = c.Total - c.Found
			}
			fmt.Fprintf(w, " %24s", rateOf(c))
		}
		fmt.Fprintln(w)
	}
}

// rateOf formats a located share.
func rateOf(c fidelity.Cell) string {
	if c.Total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%% (%d of %d)", c.Rate(), c.Found, c.Total)
}

// writeJSONLines creates path and writes each of n documents' records,
// one a line.
func writeJSONLines(path string, n int, records func(i int) []any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for i := range n {
		for _, r := range records(i) {
			enc.Encode(r)
		}
	}
	return f.Close()
}

// docRecord is a miss with its document's name first.
type docRecord[M any] struct {
	Document string `json:"document"`
	Miss     M      `json:"miss"`
}

// withDocument wraps a document's misses in records naming it.
func withDocument[M any](doc string, misses []M) []any {
	out := make([]any, len(misses))
	for k, m := range misses {
		out[k] = docRecord[M]{doc, m}
	}
	return out
}
