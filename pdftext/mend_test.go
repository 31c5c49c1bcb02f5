package pdftext

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMendObjects(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // "" when nothing is to change
		notes    int
	}{
		{"a well-formed file is left alone",
			"1 0 obj\n<< /Length 2 >>\nstream\nab\nendstream\nendobj\n2 0 obj\n<< >>\nendobj\nxref\n", "", 0},
		{"a stream without /Length is measured to endstream, its end-of-line excluded",
			"1 0 obj\n<< >>\nstream\nBT ET\nendstream\nendobj\n", "1 0 obj\n<<  /Length 5>>\nstream\nBT ET\nendstream\nendobj\n", 1},
		{"CR LF before endstream is not data",
			"1 0 obj\r\n<< /Filter /X >>\r\nstream\r\nabc\r\nendstream\r\nendobj\r\n", "1 0 obj\r\n<< /Filter /X  /Length 3>>\r\nstream\r\nabc\r\nendstream\r\nendobj\r\n", 1},
		{"an object without endobj before the next object gets one",
			"1 0 obj\n<< /A 1 >>\n2 0 obj\n<< >>\nendobj\n", "1 0 obj\n<< /A 1 >>\n\nendobj\n2 0 obj\n<< >>\nendobj\n", 1},
		{"the last object without endobj before xref gets one there",
			"1 0 obj\n<< /A 1 >>\nxref\n0 1\n", "1 0 obj\n<< /A 1 >>\n\nendobj\nxref\n0 1\n", 1},
		{"/Length1 of a font program counts as a length key only with its own /Length",
			"1 0 obj\n<< /Length 3 /Length1 3 >>\nstream\nabc\nendstream\nendobj\n", "", 0},
		{"a stream whose endstream is missing is not measured",
			"1 0 obj\n<< >>\nstream\nabc", "1 0 obj\n<< >>\nstream\nabc\nendobj\n", 1},
	}
	for _, tt := range tests {
		got, notes, ok := mendObjects([]byte(tt.in), DefaultLimits)
		if tt.want == "" {
			if ok {
				t.Errorf("%s: changed to %q", tt.name, got)
			}
			continue
		}
		if !ok || string(got) != tt.want || len(notes) != tt.notes {
			t.Errorf("%s:\ngot  %q (%d notes: %q)\nwant %q (%d notes)", tt.name, got, len(notes), notes, tt.want, tt.notes)
		}
	}
}

// TestMendedFileReads: pdf.js's operator-in-TJ-array file, reduced to its
// two defects behind a correct cross-reference table (so that nothing
// else triggers a repair), reads once mended; it read as an empty page
// before.
func TestMendedFileReads(t *testing.T) {
	objs := []string{
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
		"<< /Type /Catalog /Pages 1 0 R >>\nendobj\n",
		"<< /Type /Page /Parent 1 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n",
		"<< >>\nstream\nBT /F1 10 Tf 72 700 Td [(Grandes) 0.0 Tc -250 (Clienteles)] TJ ET\nendstream\nendobj\n",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Bold /Encoding /WinAnsiEncoding >>\n", // no endobj
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.3\n")
	var offs []int
	for i, o := range objs {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 2 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	got := extractText(t, b.Bytes())
	if len(got) != 1 || got[0] != "Grandes Clienteles" {
		t.Errorf("got %q, want the page's text", got)
	}
}

func FuzzMendObjects(f *testing.F) {
	f.Add([]byte("1 0 obj\n<< >>\nstream\nBT ET\nendstream\nendobj\n"))
	f.Add([]byte("1 0 obj\n<< /A 1 >>\n2 0 obj\n<< >>\nxref\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, ok := mendObjects(data, DefaultLimits)
		if !ok {
			return
		}
		// Mending only inserts: the input is a subsequence of the output.
		i := 0
		for j := 0; j < len(got) && i < len(data); j++ {
			if got[j] == data[i] {
				i++
			}
		}
		if i != len(data) || len(got) <= len(data) {
			t.Fatalf("mending removed or changed bytes: %q -> %q", data, got)
		}
	})
}

// TestBrokenFileFailsTheSameWay: pdfcpu dereferences objects in map order
// unless a stats logger is set, so this file, whose objects 6 and 7 each
// hold the other's broken /Length, failed naming one or the other at
// random, and stores of pdf-corpus-ext differed between runs. Forty reads
// give one message.
func TestBrokenFileFailsTheSameWay(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(shareddata.Path(t, "pdf-corpus-ext"), "pdfjs__test_pdfs_poppler-91414-0-54.pdf"))
	require.NoError(t, err)
	seen := map[string]int{}
	for range 40 {
		_, _, err := readPDF(data, nil, DefaultLimits)
		require.Error(t, err)
		seen[err.Error()]++
	}
	assert.Len(t, seen, 1, "messages: %v", seen)
}
