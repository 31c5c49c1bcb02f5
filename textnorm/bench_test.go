package textnorm

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// syntheticPages builds about size bytes of page-like text: mostly ASCII
// prose with the features extractors produce at realistic rates (line
// breaks, line-end hyphenation, curly quotes, dashes, ligatures, NBSP,
// accented letters, some decomposed, and a footer per page).
func syntheticPages(size int) []string {
	r := rand.New(rand.NewPCG(1900, 6))
	words := []string{"the", "limit", "is", "measured", "at", "final", "inspection", "and", "shall", "not",
		"exceed", "3.5", "mm", "per", "batch", "of", "1,000", "units", "supplier", "report", "within", "days"}
	special := []string{"\ufb01eld", "e\ufb03cient", "\u201cquoted\u201d", "it\u2019s", "2019\u20132020", "\u22125",
		"caf\u00e9", "cafe\u0301", "10\u00a0km", "wait\u2026", "inter-\nnational", "ac\u00adtual"}
	var pages []string
	var sb strings.Builder
	total := 0
	for total < size {
		sb.Reset()
		for line := 0; line < 45; line++ {
			for w := 0; w < 11; w++ {
				if w > 0 {
					sb.WriteByte(' ')
				}
				if r.IntN(40) == 0 {
					sb.WriteString(special[r.IntN(len(special))])
				} else {
					sb.WriteString(words[r.IntN(len(words))])
				}
			}
			sb.WriteByte('\n')
		}
		sb.WriteString("report.pdf Page 7")
		pages = append(pages, sb.String())
		total += sb.Len()
	}
	return pages
}

// BenchmarkNormalize normalizes about 1 MB of page text per iteration (the
// whole 1,900-page corpus is about 10 MB).
func BenchmarkNormalize(b *testing.B) {
	p := QuoteV2(Options{FooterNames: []string{"report.pdf", "annex.pdf"}})
	pages := syntheticPages(1 << 20)
	n := 0
	for _, pg := range pages {
		n += len(pg)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, pg := range pages {
			p.Normalize(pg)
		}
	}
}

// BenchmarkNormalizeOneText is the same megabyte as one text: the cost of
// the offset checkpoints and footer scan over a long string.
func BenchmarkNormalizeOneText(b *testing.B) {
	p := QuoteV2(Options{FooterNames: []string{"report.pdf"}})
	s := strings.Join(syntheticPages(1<<20), "\n")
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		p.Normalize(s)
	}
}

func BenchmarkJoined(b *testing.B) {
	x := QuoteV2(Options{}).Normalize(strings.Join(syntheticPages(1<<20), "\n"))
	b.SetBytes(int64(len(x.String())))
	for b.Loop() {
		x.Joined()
	}
}

// BenchmarkMatch verifies a 25-word quote against its page, as the locator
// does for each candidate hit.
func BenchmarkMatch(b *testing.B) {
	p := QuoteV2(Options{})
	pages := syntheticPages(1 << 16)
	page := p.Normalize(pages[0])
	at := 300
	q := p.Normalize(page.Slice(at, at+160))
	b.ResetTimer()
	for b.Loop() {
		if _, _, ok := Match(page, at, q); !ok {
			b.Fatal("no match")
		}
	}
}

func TestSyntheticPagesSane(t *testing.T) {
	pages := syntheticPages(1 << 16)
	for _, pg := range pages[:2] {
		checkInvariants(t, quote, pg, quote.Normalize(pg))
	}
}
