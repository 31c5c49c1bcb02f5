// Command citecheck-locbench measures the quote locator of package
// citations; "make bench" runs it. It prints figures, it does not judge
// them: targets live in the README and docs/benchmarks.md.
//
//	citecheck-locbench --store CORPUS [--quotes 100000] [--scale 1] [--workers 0] [--seed 6] [--gogc 50]
//
// It builds the index over a corpus store (with --scale N, over N copies of
// every document, copies 2..N perturbed so that no two are equal), then
// locates a deterministic mix of quotes sampled from the store's own page
// texts: genuine quotes (40%), quotes with one content word changed (20%),
// quotes with one digit changed (20%) and quotes across a page break
// (20%). It prints the index build time, quotes per second, how each kind
// was found, and the process's peak resident memory (VmHWM). A changed
// quote counts as caught when it is not located in its document; one found
// anyway is listed by the level it needed, and a changed number found at a
// relaxed level (joined_words, reordered, elided) is a locator bug.
//
// With --index-file PATH it also writes the index in the persisted format
// (citations.WriteIndex) and locates from it in a child process that maps
// the file and opens it (citations.OpenIndex), as a verb opening a stored
// index would: it prints the file's size, the time to write it, to open it
// (with and without checking its hash), to locate the first quote, and the
// child's resident memory, apart from the build's.
//
// With --build-file PATH it instead builds the index straight into PATH,
// piece by piece (citations.BuildFile), the copies of --scale made page by
// page as the build reads them, prints the build's time and peak memory,
// and locates from the file in a child process as --index-file does:
// memory that does not grow with --scale, at any scale.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "citecheck-locbench: %v\n", err)
		os.Exit(1)
	}
}

func run(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("citecheck-locbench", flag.ContinueOnError)
	store := fs.String("store", "", "corpus store `folder` (from citecheck extract)")
	nq := fs.Int("quotes", 100000, "quotes to locate")
	scale := fs.Int("scale", 1, "index this many copies of the corpus (perturbed)")
	workers := fs.Int("workers", 0, "parallel locators (0: GOMAXPROCS)")
	seed := fs.Uint64("seed", 6, "sampling seed")
	gcPercent := fs.Int("gogc", 50, "garbage collector growth target, as citecheck locate and audit set it")
	indexFile := fs.String("index-file", "", "write the index to this `file` and locate from it, mapped, in a child process")
	open := fs.String("open", "", "child mode of --index-file: locate the quotes of `file`.quotes from the index file")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the locating to `file`")
	buildFile := fs.String("build-file", "", "build the index straight into this `file`, piece by piece (citations.BuildFile), print the build's peak memory, then locate from the file in a child process")
	kindsFlag := fs.String("kinds", "", "locate only the quotes of these kinds, comma-separated (genuine, changed-word, changed-digit, cross-page; default all)")
	quotesFor := fs.String("quotes-for", "", "only write the sampled quotes beside this index `file` (file.quotes), for --open to locate them from a file built before")
	shardChars := fs.Int("shard-chars", 0, "page text, in code points, per piece of the index (0: citations' default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *open != "" {
		return runOpened(stdout, *open, *workers)
	}
	if *store == "" {
		return errors.New("--store is required")
	}
	debug.SetGCPercent(*gcPercent)
	st, err := corpus.Open(*store)
	if err != nil {
		return err
	}
	srcs, err := readDocuments(st)
	if err != nil {
		return err
	}
	pages := 0
	for _, s := range srcs {
		pages += len(s.Pages)
	}
	if *quotesFor != "" {
		return writeQuotes(onlyKinds(sample(srcs, *nq, *seed), *kindsFlag), *quotesFor)
	}
	if *buildFile != "" {
		if err := buildToFile(stdout, srcs, *scale, citations.Options{Workers: *workers, ShardChars: *shardChars}, *buildFile); err != nil {
			return err
		}
		if err := writeQuotes(onlyKinds(sample(srcs, *nq, *seed), *kindsFlag), *buildFile); err != nil {
			return err
		}
		return locateOpened(stdout, *buildFile, *workers, nil)
	}
	all, err := corpus.NewMemory(replicate(srcs, *scale)...)
	if err != nil {
		return err
	}
	runtime.GC()
	t0 := time.Now()
	ix, err := citations.Build(all, citations.Options{Workers: *workers, ShardChars: *shardChars})
	if err != nil {
		return err
	}
	build := time.Since(t0)
	text, joined := ix.Size()
	skel, ascii := ix.SkeletonSize()
	fmt.Fprintf(stdout, "corpus: %d documents, %d pages, scale %d: %d pages indexed, %.1f MB normalized text + %.1f MB joined + %.1f MB skeletons of the pages + %.1f MB of their reading orders\n",
		len(srcs), pages, *scale, pages**scale, float64(text)/1e6, float64(joined)/1e6, float64(skel)/1e6, float64(ascii)/1e6)
	fmt.Fprintf(stdout, "index build: %.2fs (GOGC %d)\n", build.Seconds(), *gcPercent)

	qs := onlyKinds(sample(srcs, *nq, *seed), *kindsFlag)
	if *indexFile != "" {
		var childArgs []string
		if *cpuProfile != "" {
			// The profile is the child's: its locating from the opened index.
			pprof.StopCPUProfile()
			childArgs = []string{"--cpuprofile", *cpuProfile + ".opened"}
		}
		timed(stdout, "locate from the built index", ix, qs, *workers)
		if err := persist(stdout, ix, qs, *indexFile); err != nil {
			return err
		}
		return locateOpened(stdout, *indexFile, *workers, childArgs)
	}
	timeLocate(stdout, "locate", ix, qs, *workers)
	fmt.Fprintf(stdout, "peak memory (VmHWM): %s\n", vmHWM())
	return nil
}

// onlyKinds keeps the quotes of the kinds listed in list (all for "").
func onlyKinds(qs []quote, list string) []quote {
	if list == "" {
		return qs
	}
	keep := strings.Split(list, ",")
	return slices.DeleteFunc(qs, func(q quote) bool { return !slices.Contains(keep, string(q.kind)) })
}

// timeLocate locates every quote on workers goroutines (0: GOMAXPROCS),
// prints the rate under label and the report, and returns the results.
func timeLocate(stdout io.Writer, label string, ix *citations.Index, qs []quote, workers int) []citations.Result {
	results := timed(stdout, label, ix, qs, workers)
	report(stdout, qs, results)
	return results
}

// timed locates every quote on workers goroutines (0: GOMAXPROCS) and
// prints the rate under label.
func timed(stdout io.Writer, label string, ix *citations.Index, qs []quote, workers int) []citations.Result {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]citations.Result, len(qs))
	durs := make([]time.Duration, len(qs))
	t0 := time.Now()
	c0 := cpuTime()
	locateAll(ix, qs, results, durs, workers)
	el := time.Since(t0)
	fmt.Fprintf(stdout, "%s: %d quotes in %.2fs with %d workers: %.0f quotes/s%s\n", label, len(qs), el.Seconds(), workers, float64(len(qs))/el.Seconds(), perCPU(len(qs), cpuTime()-c0))
	fmt.Fprintf(stdout, "%s, by kind: %s\n", label, byKind(qs, results, durs, workers))
	return results
}

// byKind says, per kind of quote and for the quotes found in the document
// they name, how many quotes a second the workers located (each quote's
// own time, so the kinds' rates compare across scales though the mix runs
// together).
func byKind(qs []quote, rs []citations.Result, durs []time.Duration, workers int) string {
	sum, n := map[string]time.Duration{}, map[string]int{}
	for i, q := range qs {
		k := string(q.kind)
		sum[k] += durs[i]
		n[k]++
		if rs[i].Found() {
			sum["found in its document"] += durs[i]
			n["found in its document"]++
		} else {
			sum["not found in its document"] += durs[i]
			n["not found in its document"]++
		}
	}
	var out []string
	for _, k := range []string{string(genuine), string(changedWord), string(changedDigit), string(crossPage), "found in its document", "not found in its document"} {
		if n[k] > 0 && sum[k] > 0 {
			out = append(out, fmt.Sprintf("%s %.0f quotes/s (%d)", k, float64(n[k]*workers)/sum[k].Seconds(), n[k]))
		}
	}
	return strings.Join(out, ", ")
}

func locateAll(ix *citations.Index, qs []quote, out []citations.Result, durs []time.Duration, workers int) {
	var wg sync.WaitGroup
	next := make(chan int, 1024)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				out[i] = ix.Locate(qs[i].q)
				durs[i] = time.Since(t0)
			}
		}()
	}
	for i := range qs {
		next <- i
	}
	close(next)
	wg.Wait()
}

// vmHWM reads the peak resident set size of this process.
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unavailable (" + err.Error() + ")"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "unavailable"
}

// readDocuments reads every document of a corpus store, with its pages'
// texts, alternative texts, reading orders, labels and flags: what the
// index is built from, held in memory so that the build's timing leaves
// out reading the store.
func readDocuments(st *corpus.Store) ([]corpus.MemoryDocument, error) {
	var out []corpus.MemoryDocument
	docs := st.Documents()
	for i := range docs {
		d := &docs[i]
		md := corpus.MemoryDocument{Name: d.Name, BLAKE3: d.BLAKE3, Status: d.Status}
		for p, pg := range d.Pages {
			text, err := st.Text(d, p+1)
			if err != nil {
				return nil, err
			}
			alts, err := st.AltTexts(d, p+1)
			if err != nil {
				return nil, err
			}
			orders, err := st.OrdersOf(d, p+1, text)
			if err != nil {
				return nil, err
			}
			md.Pages = append(md.Pages, corpus.PageText{Text: text, Alts: alts, Orders: orders, Label: pg.Label, Flags: pg.Flags})
		}
		out = append(out, md)
	}
	return out, nil
}

// replicate returns the documents and scale-1 perturbed copies of them.
func replicate(srcs []corpus.MemoryDocument, scale int) []corpus.MemoryDocument {
	out := slices.Clone(srcs)
	for k := 1; k < scale; k++ {
		for _, s := range srcs {
			c := corpus.MemoryDocument{Name: fmt.Sprintf("copy%d-%s", k, s.Name), Status: s.Status}
			for _, p := range s.Pages {
				c.Pages = append(c.Pages, corpus.PageText{Text: perturb(p.Text, k), Label: p.Label, Flags: p.Flags})
			}
			out = append(out, c)
		}
	}
	return out
}

// perturb makes copy k of a page differ from the original and from the
// other copies with the same statistics: every digit shifted by k, and every
// fifth word (from an offset set by k) written backwards.
func perturb(text string, k int) string {
	var b strings.Builder
	b.Grow(len(text))
	word := 0
	inWord := false
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		if word%5 == k%5 {
			for i, j := 0, len(cur)-1; i < j; i, j = i+1, j-1 {
				cur[i], cur[j] = cur[j], cur[i]
			}
		}
		b.WriteString(string(cur))
		cur = cur[:0]
		word++
	}
	for _, r := range text {
		if r >= '0' && r <= '9' {
			r = '0' + (r-'0'+rune(k))%10
		}
		if r == ' ' || r == '\n' || r == '\t' {
			if inWord {
				flush()
			}
			inWord = false
			b.WriteRune(r)
			continue
		}
		inWord = true
		cur = append(cur, r)
	}
	flush()
	return b.String()
}

// agg is what one kind of quote gave.
type agg struct {
	n, uniqueRight, ambiguousRight, wrongPage, notInDoc, notFound int
	levels                                                        map[string]int
	found                                                         []int // indexes of quotes located in their document
	// relaxedOnPage counts changed quotes found at a relaxed level
	// (joined_words, reordered, elided) on the page they were sampled
	// from: a relaxation excusing the change, which must never happen.
	relaxedOnPage, relaxedElsewhere int
}

func (a *agg) caught() int { return a.notFound + a.notInDoc }

func summarize(qs []quote, rs []citations.Result) map[kind]*agg {
	by := map[kind]*agg{}
	for _, k := range kinds {
		by[k] = &agg{levels: map[string]int{}}
	}
	for i, q := range qs {
		a, r := by[q.kind], &rs[i]
		a.n++
		switch {
		case r.Status == citations.StatusNotFound:
			a.notFound++
			continue
		case !r.Found():
			a.notInDoc++
			continue
		}
		lv := r.Level.String()
		if r.Elided {
			lv += "+elided"
		}
		a.levels[lv]++
		a.found = append(a.found, i)
		onPage := containsAll(r.Pages(), q.pages)
		if q.kind == crossPage {
			l, ok := r.Location()
			onPage = ok && equalInts(l.Pages(), q.pages)
		}
		switch {
		case onPage && r.Status == citations.StatusUnique:
			a.uniqueRight++
		case onPage:
			a.ambiguousRight++
		default:
			a.wrongPage++
		}
		if (q.kind == changedWord || q.kind == changedDigit) && (r.Level.Relaxed() || r.Elided) {
			if containsAll(r.Pages(), q.pages) {
				a.relaxedOnPage++
			} else {
				a.relaxedElsewhere++
			}
		}
	}
	return by
}

func report(w io.Writer, qs []quote, rs []citations.Result) {
	by := summarize(qs, rs)
	pct := func(x, n int) string {
		if n == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f%%", 100*float64(x)/float64(n))
	}
	for _, k := range kinds {
		a := by[k]
		fmt.Fprintf(w, "%-13s %6d quotes: ", k, a.n)
		if k == genuine || k == crossPage {
			fmt.Fprintf(w, "unique on the right page %s, ambiguous incl. it %s, elsewhere in the document %s, not in the document %s, not found %s\n",
				pct(a.uniqueRight, a.n), pct(a.ambiguousRight, a.n), pct(a.wrongPage, a.n), pct(a.notInDoc, a.n), pct(a.notFound, a.n))
		} else {
			fmt.Fprintf(w, "caught (not located in the document) %s, not_found %s, found anyway %d\n", pct(a.caught(), a.n), pct(a.notFound, a.n), len(a.found))
		}
		var ls []string
		for l, c := range a.levels {
			ls = append(ls, fmt.Sprintf("%s %d", l, c))
		}
		sort.Strings(ls)
		if len(ls) > 0 {
			fmt.Fprintf(w, "%-13s        levels: %s\n", "", strings.Join(ls, ", "))
		}
		if k == changedWord || k == changedDigit {
			for _, i := range a.found {
				if !rs[i].Level.Relaxed() && !rs[i].Elided {
					continue
				}
				if containsAll(rs[i].Pages(), qs[i].pages) {
					fmt.Fprintf(w, "  RELAXED CHANGED QUOTE FOUND ON ITS PAGE: %q -> %s %s\n", qs[i].q.Quote, rs[i].Status, rs[i].Level)
				} else {
					fmt.Fprintf(w, "  relaxed changed quote found on another page: %q (page %v) -> %s %s pages %v\n", qs[i].q.Quote, qs[i].pages, rs[i].Status, rs[i].Level, rs[i].Pages())
				}
			}
			fmt.Fprintf(w, "%-13s        found at a relaxed level on the sampled page: %d (a locator bug, unless a changed word is a prefix of the page's word at joined_words: see go doc citations); on another page: %d\n", "", a.relaxedOnPage, a.relaxedElsewhere)
		}
	}
}

func containsAll(have, want []int) bool {
	for _, p := range want {
		found := false
		for _, h := range have {
			if h == p {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
