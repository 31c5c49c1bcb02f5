package pdftext

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/shareddata"
)

// BenchmarkExtractDemo measures in-process extraction of the fixture PDFs.
func BenchmarkExtractDemo(b *testing.B) {
	docs := fixtures.Demo()
	var bytes int64
	for _, d := range docs {
		bytes += int64(len(d.Data))
	}
	b.SetBytes(bytes)
	for b.Loop() {
		for _, d := range docs {
			if _, err := Extract(d.Data, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExtractCorpus measures in-process extraction of the shared
// real-world corpus, without the child processes "citecheck extract" adds:
// the difference between the two is the cost of isolation.
func BenchmarkExtractCorpus(b *testing.B) {
	dir := shareddata.Path(b, "pdf-corpus")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	var files [][]byte
	var total int64
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		total += int64(len(data))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		pages := 0
		for _, data := range files {
			if doc, err := Extract(data, Options{}); err == nil {
				pages += len(doc.Pages)
			}
		}
		b.ReportMetric(float64(pages), "pages/op")
	}
}

// BenchmarkOrdersCorpus measures the reading orders alone (package layout)
// over the pages of the shared corpus, extracted once beforehand: their
// share of BenchmarkExtractCorpus is what the orders cost extraction.
func BenchmarkOrdersCorpus(b *testing.B) {
	dir := shareddata.Path(b, "pdf-corpus")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	var pages []Page
	var rotates []int
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		xref, _, err := readPDF(data, nil, DefaultLimits)
		if err != nil {
			continue
		}
		infos, _ := objects{xref: xref}.pages(DefaultLimits)
		doc, err := Extract(data, Options{})
		if err != nil || len(infos) != len(doc.Pages) {
			continue
		}
		for i, pg := range doc.Pages {
			pages = append(pages, pg)
			rotates = append(rotates, infos[i].rotate)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for i, pg := range pages {
			n += len(orders(pg.Text, pg.Boxes, rotates[i]))
		}
		b.ReportMetric(float64(n), "orders/op")
	}
}
