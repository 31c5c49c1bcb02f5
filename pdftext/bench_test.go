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
