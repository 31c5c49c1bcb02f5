package sweeps

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/pdftext"
)

// peerQuote is a text the test suite of another PDF library expects to
// read from a PDF of the shared corpora: copied from such a library's
// output, a quote must be found on its page, at a normalized level.
type peerQuote struct {
	corpus, file string
	page         int
	quote        string
	order        string // the reading order it is found in, "" for the page text
	why          string
}

var peerQuotes = []peerQuote{
	{"pdf-corpus", "pdfjs__test_pdfs_tracemonkey.pdf", 1, "Unlike method-based dynamic compilers, our dynamic com-", "",
		"pdf.js text_layer_spec.mjs: a line that ends at a line-end hyphen"},
	{"pdf-corpus", "pdfjs__test_pdfs_tracemonkey.pdf", 2, "a naïve implementation", "", "TeX's na¨ıve, as MuPDF and people write it"},
	{"pdf-corpus", "pdfjs__test_pdfs_tracemonkey.pdf", 2, "a naı̈ve implementation", "", "TeX's na¨ıve, as pdftotext prints it"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_federal-register-2020-17221.pdf", 3, "steps or “recall” items", "", "the Federal Register's ‘‘recall’’"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_federal-register-2020-17221.pdf", 3, `steps or "recall" items`, "", "the same with straight quotes"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_federal-register-2020-17221.pdf", 5, "Agência Nacional de Aviação Civil", "",
		"the Federal Register stores TeX's spacing accents after their letters (Aviac¸a˜o); pdftotext and people write Aviação"},
	{"pdf-corpus-ext", "pdfjs__test_pdfs_issue15340.pdf", 1, "検知機構", "", "pdf.js pdf_find_controller_spec.js: 検知機\\n構"},
	{"pdf-corpus-ext", "pdfjs__test_pdfs_issue15759.pdf", 1, "ソレノイド", "", "pdf.js pdf_find_controller_spec.js: ソ\\nレノイド"},
	{"pdf-corpus", "pdfjs__test_pdfs_copy_paste_ligatures.pdf", 1, "abcdeffffiflffifflſtstghijklmno", "", "pdf.js copy_paste_spec.mjs: ﬅ copied as ſt"},
	{"pdf-corpus", "pypdf__026-latex-multicolumn_multicolumn.pdf", 1, "molestie vitae, placerat a, molestie nec, leo.  Maece-", "",
		"pypdf test_text_extraction_layout_mode (multicolumn-lorem-ipsum.txt): a column's line ending at a hyphen"},
	{"pdf-corpus", "pypdf__026-latex-multicolumn_multicolumn.pdf", 1, "cursus  pulvinar  lectus.   Donec  et  mi.   Nam  vulpu-", "", "another"},
	{"pdf-corpus", "pypdf__026-latex-multicolumn_multicolumn.pdf", 1, "mauris.     Nam  arcu  libero,   nonummy  eget,   con-", "", "one of the left column"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_issue-912.pdf", 1, "RICE PAYMENT 26406576 0 1207631 Cr", "",
		"pdfplumber test_text_flow_overlapping: the amount's 4 and 5 are no copies of the line beneath"},
	{"pdf-corpus-ext", "pdfplumber__tests_pdfs_issue-987-test.pdf", 1, "Big Text\nSmall Text", "boxes",
		"pdfplumber test_x_tolerance_ratio: Big Text on one baseline, drawn apart"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_scotus-transcript-p1.pdf", 1, "1      IN THE SUPREME COURT OF THE UNITED STATES", "layout",
		"pdfplumber test_extract_text_layout: line numbers beside the text"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_scotus-transcript-p1.pdf", 1, "12                 The above-entitled matter came on for oral", "layout", "another"},
	{"pdf-corpus", "pdfplumber__tests_pdfs_issue-71-duplicate-chars.pdf", 1, "微软 培训课程： 名模意义一些有意义一些", "layout",
		"pdfplumber test_dedupe_chars: CJK on one baseline 141 points apart"},
	{"pdf-corpus", "pdfminer__samples_zen_of_python_corrupted.pdf", 1, "Mai 30, 18 13:27\n\nzen_of_python.txt", "boxes",
		"pdfminer.six test_zlib_corrupted: the running head before the body"},
	{"pdf-corpus", "pdfminer__samples_contrib_issue_495_pdfobjref.pdf", 1, "8\n\n7\n\n6\n\n5\n\n4\n\n3\n\n2\n\n1\n\n150,00\n\n30,00", "boxes",
		"pdfminer.six test_issue_495_pdfobjref_iterable: a drawing's labels"},
	{"pdf-corpus", "pdfminer__samples_contrib_issue_495_pdfobjref.pdf", 1, "Allgemeintoleranzen\n\nMATERIAL\n\nDIN ISO 2768 - mK\n\nPET BLACK\n\nFINISH\n\nEloxieren (natur)\n\nRa 1,6", "boxes", "its title block"},
	{"pdf-corpus", "pdfminer__samples_contrib_issue_495_pdfobjref.pdf", 1, "Date\n29.03.2021\n\nName\nLucas Giering", "boxes", "and its last lines"},
}

// TestPeersExpectations extracts the PDFs the peers' test suites read and
// locates what those suites expect to read in them (peerQuotes). It also
// pins the decision that a dropped accent is not found
// (textnorm's TestDecisionDroppedAccentNotFound).
func TestPeersExpectations(t *testing.T) {
	type doc struct{ corpus, file string }
	var docs []doc
	for _, q := range peerQuotes {
		if d := (doc{q.corpus, q.file}); !slices.Contains(docs, d) {
			docs = append(docs, d)
		}
	}
	var docs2 []corpus.MemoryDocument
	for _, d := range docs {
		data, err := os.ReadFile(filepath.Join(shareddata.Path(t, d.corpus), d.file))
		require.NoError(t, err)
		ex, err := pdftext.Extract(data, pdftext.Options{})
		require.NoError(t, err, d.file)
		md := corpus.MemoryDocument{Name: d.file}
		for _, p := range ex.Pages {
			md.Pages = append(md.Pages, corpus.PageText{Text: p.Text, Label: p.Label, Flags: p.Flags, Alts: p.Alts, Orders: p.Orders})
		}
		docs2 = append(docs2, md)
	}
	ix, err := citations.Build(testcorpus.Memory(t, docs2), citations.Options{})
	require.NoError(t, err)
	for _, q := range peerQuotes {
		r := ix.Locate(citations.Query{Document: q.file, Quote: q.quote})
		if !assert.Equal(t, citations.StatusUnique, r.Status, "%s p%d %q: %s", q.file, q.page, q.quote, q.why) {
			continue
		}
		l, _ := r.Location()
		assert.Equal(t, []int{q.page}, l.Pages(), "%q", q.quote)
		assert.LessOrEqual(t, l.Level, citations.Ligature, "%q: found at a normalized level", q.quote)
		assert.Equal(t, q.order, l.Order, "%q: %s", q.quote, q.why)
	}
	// The same name as an ASCII-only pipeline passes it on: its accents
	// dropped with the letters they sit on, as encode("ascii", "ignore")
	// keeps the letters of "e^" and "c¸a˜" that the page stores apart.
	r := ix.Locate(citations.Query{Document: "pdfplumber__tests_pdfs_federal-register-2020-17221.pdf", Quote: "Agencia Nacional de Aviacao Civil"})
	if assert.Equal(t, citations.StatusUnique, r.Status, "the ASCII-dropped register quote: %s", r.Note) {
		l, _ := r.Location()
		assert.Equal(t, []int{5}, l.Pages())
		assert.Equal(t, citations.NonASCIIDropped, l.Level)
	}
	r = ix.Locate(citations.Query{Document: "pdfjs__test_pdfs_tracemonkey.pdf", Quote: "a naive implementation"})
	assert.Equal(t, citations.StatusNotFound, r.Status, "an accent dropped is another spelling")
}
