package corpus

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/citecheck/citecheck/internal/inputerr"
)

// Format is the manifest format version this package reads and writes.
const Format = "citecheck-corpus/1"

// ManifestFile is the manifest's file name inside a corpus folder.
const ManifestFile = "manifest.json"

// Status is the outcome of extracting one document.
type Status string

// The outcome classes. Every document ends in exactly one.
const (
	StatusOK            Status = "ok"
	StatusEncrypted     Status = "encrypted"      // a password is needed, or the one given is wrong
	StatusMalformed     Status = "malformed"      // the file is not a readable PDF
	StatusUnsupported   Status = "unsupported"    // a readable PDF using a feature we do not handle
	StatusTimeout       Status = "timeout"        // extraction ran past its wall-clock limit
	StatusResourceLimit Status = "resource_limit" // memory, stack, decoded bytes or operator limits
	StatusCrash         Status = "crash"          // the extractor died or panicked: a bug of ours
)

// Statuses lists every status in report order.
var Statuses = []Status{StatusOK, StatusEncrypted, StatusMalformed, StatusUnsupported, StatusTimeout, StatusResourceLimit, StatusCrash}

// Valid reports whether s is one of the defined statuses.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// Page flags.
const (
	FlagNoTextLayer    = "no_text_layer"   // no visible text: a scan, a drawing or a blank page
	FlagUnreliableText = "unreliable_text" // mostly U+FFFD or private-use characters
)

// Manifest describes a corpus folder.
type Manifest struct {
	Format    string      `json:"format"`
	Extractor ExtractorID `json:"extractor"`
	Documents []Document  `json:"documents"` // sorted by Name
	// QuoteIndex records the stored quote index (quoteindex.go), when one
	// was built from these documents' texts.
	QuoteIndex *QuoteIndex `json:"quote_index,omitempty"`
}

// ExtractorID names the text extractor that made a corpus's page texts
// (name and version) and the limits it ran under: not the extractor, the
// record of which one ran. Offsets into page texts are only comparable
// under equal ExtractorIDs.
type ExtractorID struct {
	Name    string           `json:"name"`
	Version string           `json:"version"`
	Limits  map[string]int64 `json:"limits"`
}

// FromText reports whether e is TextExtractorID's: the corpus holds page
// texts imported as they are, not extracted from PDFs.
func (e ExtractorID) FromText() bool { return e.Name == TextExtractorName }

// Equal reports whether two extractors would produce the same texts.
func (e ExtractorID) Equal(o ExtractorID) bool {
	if e.Name != o.Name || e.Version != o.Version || len(e.Limits) != len(o.Limits) {
		return false
	}
	for k, v := range e.Limits {
		if w, ok := o.Limits[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Document is one PDF of the corpus, or one folder of page texts
// (ingest.ImportText).
type Document struct {
	Name      string   `json:"name"`   // file (or page folder) name, unique in the corpus
	Source    string   `json:"source"` // path of the PDF relative to the corpus folder, slash-separated; "text:" and the page folder's path for imported text (TextSource)
	Bytes     int64    `json:"bytes"`
	BLAKE3    string   `json:"blake3"`
	Status    Status   `json:"status"`
	Error     string   `json:"error,omitempty"` // why Status is not ok
	PageCount int      `json:"page_count"`
	Pages     []Page   `json:"pages,omitempty"`
	Warnings  []string `json:"warnings,omitempty"` // document-level problems that did not stop extraction
}

// Page is one page's stored text, described.
type Page struct {
	Page     int      `json:"page"` // 1-based
	BLAKE3   string   `json:"blake3"`
	Chars    int      `json:"chars"` // length of the text in code points
	Label    string   `json:"label,omitempty"`
	Boxes    string   `json:"boxes,omitempty"`    // blake3 of the uncompressed glyph boxes (BoxesFormat), when recorded
	Alts     []string `json:"alts,omitempty"`     // blake3 of each alternative text (alt.go), when the page has them
	Orders   string   `json:"orders,omitempty"`   // blake3 of the reading orders (OrdersFormat), when the page has them
	Flags    []string `json:"flags,omitempty"`    // sorted
	Warnings []string `json:"warnings,omitempty"` // what the extractor could not read on this page
}

// Document returns the document named name.
func (m *Manifest) Document(name string) (*Document, bool) {
	i, ok := slices.BinarySearchFunc(m.Documents, name, func(d Document, name string) int {
		return strings.Compare(d.Name, name)
	})
	if !ok {
		return nil, false
	}
	return &m.Documents[i], true
}

// Hash returns the BLAKE3-256 digest of b written "blake3:<hex>".
func Hash(b []byte) string {
	sum := blake3.Sum256(b)
	return "blake3:" + hex.EncodeToString(sum[:])
}

// HashFile returns a file's size and the BLAKE3-256 digest of its bytes,
// written as Hash writes it, streaming the file rather than reading it whole.
func HashFile(path string) (size int64, digest string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := blake3.New()
	size, err = io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return size, "blake3:" + hex.EncodeToString(h.Sum(nil)), nil
}

// ParseHash decodes a digest written as Hash writes it, "blake3:<64
// lower-case hex digits>", without allocating; ok is false for anything
// else.
func ParseHash(digest string) (sum [32]byte, ok bool) {
	h, ok := strings.CutPrefix(digest, "blake3:")
	if !ok || len(h) != 64 {
		return sum, false
	}
	for i := range sum {
		hi, ok1 := fromHex(h[2*i])
		lo, ok2 := fromHex(h[2*i+1])
		if !ok1 || !ok2 {
			return sum, false
		}
		sum[i] = hi<<4 | lo
	}
	return sum, true
}

func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// hashHex returns the hex part of a "blake3:<hex>" digest.
func hashHex(digest string) (string, error) {
	h, ok := strings.CutPrefix(digest, "blake3:")
	if !ok || len(h) != 64 {
		return "", fmt.Errorf("bad digest %q: want blake3:<64 hex digits>", digest)
	}
	if _, ok := ParseHash(digest); !ok { // lower-case hex, checked without allocating
		return "", fmt.Errorf("bad digest %q: want blake3:<64 lower-case hex digits>", digest)
	}
	return h, nil
}

// pageFile returns the slash-separated path of a page text inside the corpus.
func pageFile(docHash string, page int) (string, error) {
	h, err := hashHex(docHash)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("text/%s/%04d.txt", h, page), nil
}

// validate checks the invariants every builder keeps, so that a
// hand-edited or damaged manifest is refused rather than half-read.
func (m *Manifest) validate() error {
	if m.Format != Format {
		return fmt.Errorf("format %q: this citecheck reads %q", m.Format, Format)
	}
	fromText := m.Extractor.FromText()
	if m.QuoteIndex != nil {
		if err := m.QuoteIndex.validate(); err != nil {
			return err
		}
	}
	for i, d := range m.Documents {
		where := fmt.Sprintf("documents[%d] (%q)", i, d.Name)
		if d.Name == "" {
			return fmt.Errorf("%s: empty name", where)
		}
		if _, isText := TextSource(d.Source); isText != fromText {
			return fmt.Errorf("%s: source %q in a corpus made by %s: %w", where, d.Source, m.Extractor.Name, ErrMixedCorpus)
		}
		if i > 0 && m.Documents[i-1].Name >= d.Name {
			return fmt.Errorf("%s: documents not sorted by name or name repeated", where)
		}
		if _, err := hashHex(d.BLAKE3); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		if !d.Status.Valid() {
			return fmt.Errorf("%s: unknown status %q", where, d.Status)
		}
		if d.Status == StatusOK && (d.PageCount == 0 || len(d.Pages) != d.PageCount) {
			return fmt.Errorf("%s: status ok with page_count %d and %d pages", where, d.PageCount, len(d.Pages))
		}
		for j, p := range d.Pages {
			if p.Page != j+1 {
				return fmt.Errorf("%s: pages[%d] is numbered %d", where, j, p.Page)
			}
			if p.Boxes != "" {
				if _, err := hashHex(p.Boxes); err != nil {
					return fmt.Errorf("%s: pages[%d].boxes: %v", where, j, err)
				}
			}
			if p.Orders != "" {
				if _, err := hashHex(p.Orders); err != nil {
					return fmt.Errorf("%s: pages[%d].orders: %v", where, j, err)
				}
			}
			if len(p.Alts) > MaxAlts {
				return fmt.Errorf("%s: pages[%d].alts: %d, at most %d", where, j, len(p.Alts), MaxAlts)
			}
			for k, h := range p.Alts {
				if _, err := hashHex(h); err != nil {
					return fmt.Errorf("%s: pages[%d].alts[%d]: %v", where, j, k, err)
				}
			}
			if _, err := hashHex(p.BLAKE3); err != nil {
				return fmt.Errorf("%s: page %d: %v", where, p.Page, err)
			}
		}
	}
	return nil
}

// ErrIntegrity reports a stored file (a page text, an alternative text,
// glyph boxes) that is missing or no longer matches the hash the manifest
// records (see IntegrityError).
var ErrIntegrity = errors.New("stored file does not match the manifest")

// ErrDuplicateName reports two different PDFs with the same file name.
var ErrDuplicateName = inputerr.New("two documents with the same name")

// ErrMixedCorpus reports an attempt to add documents extracted from PDFs to
// a corpus of imported page texts, or the reverse: a corpus is built from
// PDFs (ingest.Build) or from page texts (ingest.ImportText), never both.
var ErrMixedCorpus = inputerr.New("a corpus is built from PDFs or from page texts, never both")

// ErrNotCorpus reports a folder that holds no corpus manifest: Open
// refuses to read it, and a builder to write into it when it exists and is
// not empty.
var ErrNotCorpus = inputerr.New("folder is not a citecheck corpus")
