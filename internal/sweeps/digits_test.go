package sweeps

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/pdftext"
)

// numbers counts the maximal runs of digits of a text.
func numbers(s string) map[string]int {
	m := map[string]int{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) {
		m[f]++
	}
	return m
}

// lostNumbers lists the numbers pdftotext prints and we print only when
// copies are kept: each as often as it is missing.
func lostNumbers(kept, all, poppler string) []string {
	k, a, p := numbers(kept), numbers(all), numbers(poppler)
	var out []string
	for n, c := range p {
		for range min(c, a[n]) - k[n] {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// pdftotextPages runs poppler's pdftotext (its default, reading order) on
// one PDF: the page texts, "" for none.
func pdftotextPages(ctx context.Context, bin, path string) []string {
	out, err := exec.CommandContext(ctx, bin, "-q", "-enc", "UTF-8", path, "-").Output()
	if err != nil && len(out) == 0 {
		return nil
	}
	pages := strings.Split(string(out), "\f")
	return pages[:len(pages)-1]
}

// TestDuplicateGlyphsKeepDigits sweeps the shared corpus for digits the
// duplicate-glyph rule drops (pdftext reads a glyph drawn again on top of
// itself once: fake bold, shadows) where pdftotext prints them: no number
// (a run of digits) that pdftotext prints on a page may be one we print
// only when copies are kept. pdfplumber's issue-912.pdf was found
// printing "26 06 76" for pdftotext's "26406576" so; the rule now wants a
// copy to repeat a neighbour too.
func TestDuplicateGlyphsKeepDigits(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep skipped in -short mode")
	}
	dir := shareddata.Path(t, "pdf-corpus")
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("the reference extractor pdftotext is not installed (make reftools)")
	}
	files, err := ingest.Inputs([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	type lost struct {
		file    string
		page    int
		numbers []string
	}
	var mu sync.Mutex
	var losses []lost
	pagesDropping := 0
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 2) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Error(err)
					continue
				}
				doc, err := pdftext.Extract(data, pdftext.Options{})
				if err != nil {
					continue // the isolated sweep (pdftext) checks failures
				}
				all, err := pdftext.Extract(data, pdftext.Options{KeepCopies: true})
				if err != nil || len(all.Pages) != len(doc.Pages) {
					t.Errorf("%s: keeping copies changed the outcome: %v", f, err)
					continue
				}
				var poppler []string
				for i := range doc.Pages {
					if doc.Pages[i].Text == all.Pages[i].Text {
						continue
					}
					if poppler == nil {
						poppler = pdftotextPages(context.Background(), bin, f)
					}
					mu.Lock()
					pagesDropping++
					if i < len(poppler) {
						if ns := lostNumbers(doc.Pages[i].Text, all.Pages[i].Text, poppler[i]); len(ns) > 0 {
							losses = append(losses, lost{filepath.Base(f), i + 1, ns})
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	slices.SortFunc(losses, func(a, b lost) int { return cmp.Or(strings.Compare(a.file, b.file), a.page-b.page) })
	t.Logf("%d documents; %d pages where glyphs drawn on top of themselves were dropped", len(files), pagesDropping)
	for _, l := range losses {
		t.Errorf("%s p%d: pdftotext prints %q, which we print only with the copies kept: real digits taken for copies", l.file, l.page, l.numbers)
	}
}
