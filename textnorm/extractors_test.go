package textnorm

import "testing"

// The same printed lines as different extractors emit them. Quotes copied
// from one must be found in the other's text; quotes with a changed number
// or word must not.
const (
	// pdftotext (reading order, hard line breaks, hyphenation kept,
	// ligature glyphs mapped to U+FB03, curly quotes, em dashes).
	pdftotextPage = "The e\ufb03cient \u201ctwo-stage\u201d method\u2014see Fig. 3\u2014reduces\n" +
		"costs by 3.5 % (from 1,000 to 965 units) for inter-\nnational\n" +
		"suppliers; the limit is \u22125 \u00b0C.\f"
	// pdf.js text layer joined with spaces at line ends (ligature decoded
	// to letters, NBSP inside numbers, a soft hyphen for the break).
	pdfjsPage = "The efficient \u201ctwo-stage\u201d method\u2014see Fig. 3\u2014reduces costs by 3.5\u00a0% " +
		"(from 1,000 to 965 units) for inter\u00adnational suppliers; the limit is \u22125 \u00b0C."
	// mutool/pdfminer style: layout spaces doubled, straight quotes from a
	// font without curly glyphs, a plain hyphen for the minus.
	layoutPage = "The  efficient  \"two-stage\"  method\u2014see  Fig. 3\u2014reduces\r\n" +
		"costs  by  3.5 %  (from  1,000  to  965  units)  for  inter-\r\nnational\r\n" +
		"suppliers;  the  limit  is  -5 \u00b0C."
)

func TestQuotesAcrossExtractors(t *testing.T) {
	pages := map[string]string{"pdftotext": pdftotextPage, "pdf.js": pdfjsPage, "layout": layoutPage}
	quotes := []struct {
		quote string
		found bool
		why   string
	}{
		{"The efficient \u201ctwo-stage\u201d method\u2014see Fig. 3\u2014reduces costs", true, "ligature, line break"},
		{"The efficient \"two-stage\" method - see", false, "a spaced hyphen is not an em dash between words (whitespace differs)"},
		{"The e\ufb03cient \"two-stage\" method\u2014see Fig. 3\u2014reduces", true, "quote keeps the ligature, straight quotes"},
		{"reduces costs by 3.5 % (from 1,000 to 965 units)", true, "numbers intact"},
		{"reduces costs by 3.6 % (from 1,000 to 965 units)", false, "changed digit"},
		{"reduces costs by 35 % (from 1,000 to 965 units)", false, "dropped decimal point"},
		{"reduces costs by 3.5 % (from 1000 to 965 units)", false, "dropped thousands separator"},
		{"reduces costs by 3.5 % (from 1,000 to 965 items)", false, "changed word"},
		{"for international suppliers", true, "hyphenation removed by the quoter"},
		{"for inter-national suppliers", true, "hyphen kept, break lost"},
		{"for inter- national suppliers", true, "break turned into a space"},
		{"for inter-\nnational suppliers", true, "copied with the break"},
		{"the limit is -5 \u00b0C.", true, "minus vs hyphen-minus"},
		{"the limit is 5 \u00b0C.", false, "sign dropped"},
		{"the limit is \u22125\u00b0C.", false, "space before the unit removed: not whitespace-equal"},
		{"The Efficient", false, "case changed"},
	}
	for name, page := range pages {
		for _, q := range quotes {
			_, _, _, ok := locate(quote, page, q.quote)
			if ok != q.found {
				t.Errorf("%s: %q found=%v, want %v (%s)", name, q.quote, ok, q.found, q.why)
			}
		}
	}
	// Quotes cut from each extractor's own text are found in every other.
	cuts := map[string][][2]int{
		"pdftotext": {{0, 40}, {30, 110}, {100, 160}},
		"pdf.js":    {{4, 60}, {50, 140}, {120, 170}},
		"layout":    {{5, 70}, {60, 150}, {140, 210}},
	}
	for from, spans := range cuts {
		src := quote.Normalize(pages[from])
		for _, sp := range spans {
			a, b := min(sp[0], src.Len()), min(sp[1], src.Len())
			// Cut on normalized positions and copy the raw text behind them.
			ra, rb := src.RawSpan(a, b)
			q := src.RawSlice(ra, rb)
			for to, page := range pages {
				if _, _, _, ok := locate(quote, page, q); !ok {
					t.Errorf("quote %q from %s not found in %s", q, from, to)
				}
			}
		}
	}
}

// TestLocateReportsRawOffsets: the located span maps back to the raw page
// text the quote came from, with the level it needed.
func TestLocateReportsRawOffsets(t *testing.T) {
	pt := quote.Normalize(pdftotextPage)
	s, e, l, ok := locate(quote, pdftotextPage, "for international suppliers")
	if !ok {
		t.Fatal("not found")
	}
	a, b := pt.RawSpan(s, e)
	if got := pt.RawSlice(a, b); got != "for inter-\nnational\nsuppliers" {
		t.Fatalf("raw span %q", got)
	}
	if l != Hyphenation {
		t.Fatalf("level %v", l)
	}
}
