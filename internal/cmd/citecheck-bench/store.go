package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/citecheck/citecheck/corpus"
)

// benchStore prints what a store holds, by kind of file, per byte of the
// PDFs it was extracted from and per byte of its page texts.
func benchStore(stdout io.Writer, args []string) error {
	fset := flag.NewFlagSet("store", flag.ContinueOnError)
	store := fset.String("store", "", "corpus store `folder`")
	if err := fset.Parse(args); err != nil {
		return err
	}
	st, err := corpus.Open(*store)
	if err != nil {
		return err
	}
	var pdf int64
	for _, d := range st.Documents() {
		pdf += d.Bytes
	}
	by := map[string]int64{}
	total := int64(0)
	err = filepath.WalkDir(*store, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		by[storeKind(path)] += fi.Size()
		total += fi.Size()
		return nil
	})
	if err != nil {
		return err
	}
	text := by["page texts (.txt)"]
	fmt.Fprintf(stdout, "store %s: %d bytes from %d bytes of PDFs: %.2f bytes per PDF byte, %.2f per byte of page text\n",
		*store, total, pdf, float64(total)/float64(max(pdf, 1)), float64(total)/float64(max(text, 1)))
	kinds := make([]string, 0, len(by))
	for k := range by {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(stdout, "  %-28s %12d bytes  %5.2f per PDF byte  %5.2f per page-text byte\n", k, by[k], float64(by[k])/float64(max(pdf, 1)), float64(by[k])/float64(max(text, 1)))
	}
	return nil
}

// storeKind names the kind of a store's file by its name.
func storeKind(path string) string {
	base := filepath.Base(path)
	switch {
	case strings.Contains(filepath.ToSlash(path), "/quote-index/"):
		return "quote index"
	case base == corpus.ManifestFile:
		return "manifest"
	case strings.HasSuffix(base, ".boxes.gz"):
		return "glyph boxes (.boxes.gz)"
	case strings.HasSuffix(base, ".orders.txt"):
		return "reading orders (.orders.txt)"
	case strings.HasSuffix(base, ".txt") && strings.Count(base, ".") == 1:
		return "page texts (.txt)"
	}
	return "other"
}
