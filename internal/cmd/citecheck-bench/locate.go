package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/citecheck/citecheck/corpus"
)

// benchLocate times whole "citecheck locate" processes of one quote on a
// store with a stored quote index, alternating with "citecheck version"
// (what starting the process costs), and prints medians and ranges.
func benchLocate(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("locate", flag.ContinueOnError)
	bin := fs.String("citecheck", "bin/citecheck", "citecheck binary")
	dir := fs.String("store", "", "corpus store with a stored quote index (citecheck extract)")
	runs := fs.Int("runs", 21, "runs of each command, alternated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *runs < 1 {
		return errors.New("locate: --store and --runs >= 1 are required")
	}
	store, err := corpus.Open(*dir)
	if err != nil {
		return err
	}
	q, err := oneQuote(store, 40)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "citecheck-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "q1.jsonl")
	b, _ := json.Marshal(q)
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	var locate, version []measured
	for range *runs {
		m, err := runMeasured(*bin, "locate", "--corpus", *dir, path)
		if err != nil {
			return err
		}
		locate = append(locate, m)
		if m, err = runMeasured(*bin, "version"); err != nil {
			return err
		}
		version = append(version, m)
	}
	fmt.Fprintf(stdout, "one quote (%s page %d, %d code points) on %s, %d runs each, alternated:\n", q.Document, q.Page, len([]rune(q.Quote)), *dir, *runs)
	for _, r := range []struct {
		what string
		ms   []measured
	}{{"citecheck locate", locate}, {"citecheck version", version}} {
		wall, cpu := make([]time.Duration, len(r.ms)), make([]time.Duration, len(r.ms))
		for i, m := range r.ms {
			wall[i], cpu[i] = m.wall, m.user+m.sys
		}
		slices.Sort(wall)
		slices.Sort(cpu)
		fmt.Fprintf(stdout, "  %-18s wall median %5.1f ms (%.1f-%.1f), CPU median %5.1f ms\n", r.what,
			ms(wall[len(wall)/2]), ms(wall[0]), ms(wall[len(wall)-1]), ms(cpu[len(cpu)/2]))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quote1 is a locate input record.
type quote1 struct {
	ID       string `json:"id"`
	Document string `json:"document"`
	Quote    string `json:"quote"`
	Page     int    `json:"page"`
}

// oneQuote takes words 20 to 31 of page 2 of the first document in name
// order, after skip others, with more than three pages and over 40 words
// there: a sentence-length quote from the middle of the corpus, the same
// for the same store.
func oneQuote(store *corpus.Store, skip int) (quote1, error) {
	docs := store.Manifest().Documents
	seen := 0
	for i := range docs {
		d := &docs[i]
		if d.Status != corpus.StatusOK || len(d.Pages) <= 3 {
			continue
		}
		if seen++; seen <= skip {
			continue
		}
		text, err := store.Text(d, 2)
		if err != nil {
			return quote1{}, err
		}
		if w := strings.Fields(text); len(w) > 40 {
			return quote1{ID: "q1", Document: d.Name, Quote: strings.Join(w[20:32], " "), Page: 2}, nil
		}
	}
	return quote1{}, errors.New("locate: no document of the store has a page 2 of 40 words")
}
