package cmap

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/shareddata"
)

// cmapStreams returns the CMap programs found in a PDF by a crude scan: each
// "stream ... endstream" body, inflated if it is zlib data, that contains
// "begincmap". Good enough to replay the real CMaps of the shared corpus;
// not a PDF parser.
func cmapStreams(pdf []byte) [][]byte {
	var out [][]byte
	rest := pdf
	for {
		i := bytes.Index(rest, []byte("stream"))
		if i < 0 {
			return out
		}
		body := rest[i+len("stream"):]
		if bytes.HasPrefix(body, []byte("\r\n")) {
			body = body[2:]
		} else if len(body) > 0 && (body[0] == '\n' || body[0] == '\r') {
			body = body[1:]
		} else {
			rest = body
			continue
		}
		j := bytes.Index(body, []byte("endstream"))
		if j < 0 {
			return out
		}
		raw := body[:j]
		rest = body[j+len("endstream"):]
		data := raw
		if zr, err := zlib.NewReader(bytes.NewReader(raw)); err == nil {
			// Look at the start first: a CMap says so early, and most
			// streams (images, page content) are not worth inflating.
			head, _ := io.ReadAll(io.LimitReader(zr, 4096))
			if !bytes.Contains(head, []byte("CMap")) && !bytes.Contains(head, []byte("begincmap")) {
				continue
			}
			rest, _ := io.ReadAll(io.LimitReader(zr, MaxInput))
			data = append(head, rest...)
		}
		if bytes.Contains(data, []byte("begincmap")) {
			out = append(out, data)
		}
	}
}

// TestCorpusCMaps parses every CMap embedded in the shared PDF corpora and
// checks the invariants the extractor relies on.
func TestCorpusCMaps(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus replay skipped in -short mode")
	}
	sharedDir := shareddata.Path(t, "") // skips without ../shared
	var files []string
	for _, dir := range []string{"pdf-corpus", "pdf-corpus-ext"} {
		m, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.pdf"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skipf("no shared PDF corpus in %s (it is beside the repository in CI)", sharedDir)
	}
	identity, _ := Predefined("Identity-H")
	shown := []byte("\x00\x03\x00A\x01\x02\x81\x40\xa5\xff\x20\x7e")
	var nCMaps, nWarn, nMapped int
	for _, f := range files {
		pdf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, data := range cmapStreams(pdf) {
			nCMaps++
			c, err := Parse(data)
			if err != nil {
				if !errors.Is(err, ErrNotCMap) {
					t.Errorf("%s: %v", filepath.Base(f), err)
				}
				continue
			}
			if len(c.Warnings()) > 0 {
				nWarn++
				t.Logf("%s: %s", filepath.Base(f), strings.Join(c.Warnings()[:min(3, len(c.Warnings()))], "; "))
			}
			if c.NumUnicodeMappings()+c.NumCIDMappings() > 0 {
				nMapped++
			}
			for _, cm := range []*CMap{c, c.Merge(identity)} {
				codes := cm.Split(shown)
				checkCover(t, codes, shown)
				for _, cd := range codes {
					cm.Unicode(cd)
					cm.CID(cd)
				}
			}
		}
	}
	t.Logf("%d PDFs, %d CMaps, %d with mappings, %d with warnings", len(files), nCMaps, nMapped, nWarn)
	if nCMaps == 0 {
		t.Error("no CMaps found in the corpus: the scan is broken")
	}
}
