package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
)

// replicas is the corpus replicate describes, its copies made page by page
// when the index reads them, so that a large scale is indexed without
// holding its texts: srcs and scale-1 perturbed copies of them.
type replicas struct {
	src  *corpus.Memory
	docs []corpus.Document // sorted by name
}

func newReplicas(srcs []corpus.MemoryDocument, scale int) (*replicas, error) {
	src, err := corpus.NewMemory(srcs...)
	if err != nil {
		return nil, err
	}
	r := &replicas{src: src}
	for _, d := range src.Documents() {
		r.docs = append(r.docs, d)
		for k := 1; k < scale; k++ {
			c := corpus.Document{Name: fmt.Sprintf("copy%d-%s", k, d.Name), Status: d.Status, PageCount: d.PageCount}
			for _, p := range d.Pages {
				c.Pages = append(c.Pages, corpus.Page{Page: p.Page, Chars: p.Chars, Label: p.Label, Flags: p.Flags})
			}
			r.docs = append(r.docs, c)
		}
	}
	slices.SortFunc(r.docs, func(a, b corpus.Document) int { return strings.Compare(a.Name, b.Name) })
	return r, nil
}

func (r *replicas) Documents() []corpus.Document { return r.docs }

func (r *replicas) Document(name string) (*corpus.Document, bool) {
	i, ok := slices.BinarySearchFunc(r.docs, name, func(d corpus.Document, n string) int { return strings.Compare(d.Name, n) })
	if !ok {
		return nil, false
	}
	return &r.docs[i], true
}

// source returns the document a copy copies and which copy it is (0: an
// original).
func (r *replicas) source(doc *corpus.Document) (*corpus.Document, int) {
	if rest, ok := strings.CutPrefix(doc.Name, "copy"); ok {
		if i := strings.IndexByte(rest, '-'); i > 0 {
			if k, err := strconv.Atoi(rest[:i]); err == nil {
				if d, ok := r.src.Document(rest[i+1:]); ok {
					return d, k
				}
			}
		}
	}
	d, _ := r.src.Document(doc.Name)
	return d, 0
}

func (r *replicas) Text(doc *corpus.Document, page int) (string, error) {
	d, k := r.source(doc)
	if d == nil {
		return "", fmt.Errorf("%q: no such document", doc.Name)
	}
	t, err := r.src.Text(d, page)
	if err != nil || k == 0 {
		return t, err
	}
	return perturb(t, k), nil
}

// AltTexts and OrdersOf: the copies have none, as replicate's.
func (r *replicas) AltTexts(doc *corpus.Document, page int) ([]string, error) {
	if d, k := r.source(doc); k == 0 && d != nil {
		return r.src.AltTexts(d, page)
	}
	return nil, nil
}

func (r *replicas) OrdersOf(doc *corpus.Document, page int, text string) ([]corpus.Order, error) {
	if d, k := r.source(doc); k == 0 && d != nil {
		return r.src.OrdersOf(d, page, text)
	}
	return nil, nil
}

// buildToFile builds the index of srcs at scale straight into path
// (citations.BuildFile) and prints the time and this process's peak
// memory, which is the build's: the copies' texts are made as the build
// reads them.
func buildToFile(stdout io.Writer, srcs []corpus.MemoryDocument, scale int, opts citations.Options, path string) error {
	r, err := newReplicas(srcs, scale)
	if err != nil {
		return err
	}
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	t0 := time.Now()
	c0 := cpuTime()
	if _, err := citations.BuildFile(f, r, opts, [32]byte{}); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "index built into %s (citations.BuildFile): %.1f MB in %.2fs, %.2f s CPU; peak memory (VmHWM) %s\n",
		path, float64(fi.Size())/1e6, time.Since(t0).Seconds(), (cpuTime() - c0).Seconds(), vmHWM())
	return nil
}
