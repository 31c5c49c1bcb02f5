package pdftext

import (
	"bytes"
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
func BenchmarkExtractCorpus(b *testing.B) { benchExtractDir(b, "pdf-corpus") }

// BenchmarkExtractFilings is the same over the shared SEC filings: a few
// long, table-heavy documents, where per-document costs weigh little and
// per-page ones all.
func BenchmarkExtractFilings(b *testing.B) { benchExtractDir(b, "pdf-corpus-filings") }

// BenchmarkWorkerFilings is what a worker does with the filings: extract
// each, then encode the response the parent reads.
func BenchmarkWorkerFilings(b *testing.B) {
	files, total := readShared(b, "pdf-corpus-filings")
	b.SetBytes(total)
	b.ResetTimer()
	var enc encoder
	for b.Loop() {
		n := 0
		for _, data := range files {
			resp := enc.extract(data, nil, DefaultLimits)
			var buf bytes.Buffer
			if err := enc.writeFrame(&buf, resp); err != nil {
				b.Fatal(err)
			}
			n += buf.Len()
		}
		b.ReportMetric(float64(n), "frame-bytes/op")
	}
}

func benchExtractDir(b *testing.B, rel string) {
	files, total := readShared(b, rel)
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

// readShared reads the PDFs of a folder of ../shared.
func readShared(b *testing.B, rel string) (files [][]byte, total int64) {
	dir := shareddata.Path(b, rel)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		total += int64(len(data))
	}
	return files, total
}

// BenchmarkOrdersCorpus measures the reading orders alone (package layout)
// over the pages of the shared corpus, extracted once beforehand: their
// share of BenchmarkExtractCorpus is what the orders cost extraction.
func BenchmarkOrdersCorpus(b *testing.B) { benchOrdersDir(b, "pdf-corpus") }

// BenchmarkOrdersFilings is the same over the filings, whose tables make
// pages of hundreds of text boxes.
func BenchmarkOrdersFilings(b *testing.B) { benchOrdersDir(b, "pdf-corpus-filings") }

func benchOrdersDir(b *testing.B, rel string) {
	files, _ := readShared(b, rel)
	var pages []Page
	var rotates []int
	for _, data := range files {
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
