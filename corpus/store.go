package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/internal/inputerr"
	gojson "github.com/goccy/go-json"
)

// maxManifestBytes caps the manifest a Store will read; a corpus of 100,000
// documents of 100 pages stays far below it.
const maxManifestBytes = 1 << 30

// Store is an opened corpus folder.
type Store struct {
	dir      string
	manifest *Manifest
	digest   func() string // SourcesDigest, computed once
}

// Open reads and checks the manifest of the corpus in dir.
func Open(dir string) (*Store, error) {
	m, b, err := readManifestBytes(dir)
	if err != nil {
		return nil, err
	}
	return &Store{dir: dir, manifest: m, digest: sync.OnceValue(func() string { return m.sourcesDigestOf(b) })}, nil
}

// Dir returns the corpus folder.
func (s *Store) Dir() string { return s.dir }

// Manifest returns the manifest. Callers must not modify it.
func (s *Store) Manifest() *Manifest { return s.manifest }

// Text returns the stored text of a page (1-based) of doc, checked against
// the manifest's hash.
func (s *Store) Text(doc *Document, page int) (string, error) {
	if page < 1 || page > len(doc.Pages) {
		return "", fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	rel, err := pageFile(doc.BLAKE3, page)
	if err != nil {
		return "", err
	}
	b, err := s.readStored(doc, page, rel, doc.Pages[page-1].BLAKE3, false)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// An IntegrityError is a stored file of a page that does not match the
// manifest: missing, damaged (a glyph-box file that does not decompress),
// hashing to another BLAKE3 than the manifest records, or, hashing as
// recorded, not fitting the page's recorded length. It wraps ErrIntegrity,
// and Err when set (fs.ErrNotExist for a missing file).
type IntegrityError struct {
	Doc      string // document name
	Page     int    // 1-based
	File     string // the stored file, slash-separated, relative to the corpus folder
	Recorded string // the BLAKE3 the manifest records for it
	Stored   string // the BLAKE3 of what is stored; "" when it could not be read (Err)
	Err      error  // why it could not be read or does not fit; nil when only the hash differs
}

func (e *IntegrityError) Error() string {
	what := fmt.Sprintf("stored %s, recorded %s", e.Stored, e.Recorded)
	if e.Err != nil {
		what = e.Err.Error()
	}
	return fmt.Sprintf("%s page %d (%s): %v: %s", e.Doc, e.Page, e.File, ErrIntegrity, what)
}

func (e *IntegrityError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrIntegrity}
	}
	return []error{ErrIntegrity, e.Err}
}

// errNoGzip: a gzip-compressed stored file does not decompress.
var errNoGzip = errors.New("not a gzip file that decompresses")

// readStored reads the stored file rel of a page, gunzipped when gzipped,
// and checks it against recorded, the hash the manifest records for it (of
// the uncompressed bytes). The manifest records every stored file, so a
// missing one, or a gzip file that does not decompress, is an integrity
// failure too; other read errors (permissions, I/O) are returned as they
// are.
func (s *Store) readStored(doc *Document, page int, rel, recorded string, gzipped bool) ([]byte, error) {
	path := filepath.Join(s.dir, filepath.FromSlash(rel))
	// Only a regular file is read: a FIFO or device put in its place would
	// block the reader; it is a changed file.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: recorded, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: recorded, Err: fs.ErrNotExist}
	}
	if err != nil {
		return nil, fmt.Errorf("%s page %d: %w", doc.Name, page, err)
	}
	if gzipped {
		if b, err = decompressBoxes(b); err != nil {
			return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: recorded, Err: fmt.Errorf("%w: %w", errNoGzip, err)}
		}
	}
	if got := Hash(b); got != recorded {
		return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: recorded, Stored: got}
	}
	return b, nil
}

func readManifest(dir string) (*Manifest, error) {
	m, _, err := readManifestBytes(dir)
	return m, err
}

// readManifestBytes is readManifest, also returning the manifest's bytes.
func readManifestBytes(dir string) (*Manifest, []byte, error) {
	path := filepath.Join(dir, ManifestFile)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: %w (no %s)%s", dir, ErrNotCorpus, ManifestFile, notCorpusHint(dir))
		}
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxManifestBytes {
		return nil, nil, &inputerr.Error{File: path, Err: fmt.Errorf("larger than %d bytes", maxManifestBytes)}
	}
	m, err := decodeManifest(b, path)
	return m, b, err
}

// decodeManifest parses and checks a manifest's bytes; path names it in
// errors, each an input fault (an *inputerr.Error): a folder whose
// manifest cannot be read as one is not a citecheck corpus.
//
// The bytes are decoded by github.com/goccy/go-json, which decodes
// encoding/json's way (unknown fields refused alike; FuzzDecodeManifest
// compares the two) in a quarter of the time: decoding the manifest was
// most of a one-quote locate. A manifest it refuses is decoded again by
// encoding/json, whose error is the one reported.
func decodeManifest(b []byte, path string) (*Manifest, error) {
	var m Manifest
	if err := decodeManifestFast(b, &m); err != nil {
		m = Manifest{}
		if err := decodeManifestStd(b, &m); err != nil {
			return nil, &inputerr.Error{File: path, Err: err}
		}
	}
	if err := m.validate(); err != nil {
		return nil, &inputerr.Error{File: path, Err: err}
	}
	return &m, nil
}

func decodeManifestFast(b []byte, m *Manifest) error {
	return decodeManifestWith(gojson.NewDecoder(bytes.NewReader(b)), m)
}

func decodeManifestStd(b []byte, m *Manifest) error {
	return decodeManifestWith(json.NewDecoder(bytes.NewReader(b)), m)
}

// jsonDecoder is what encoding/json's and go-json's decoders share.
type jsonDecoder interface {
	DisallowUnknownFields()
	Decode(any) error
	More() bool
}

func decodeManifestWith(dec jsonDecoder, m *Manifest) error {
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return err
	}
	if dec.More() {
		return errDataAfterManifest
	}
	return nil
}

var errDataAfterManifest = errors.New("data after the manifest object")

// encodeManifest renders m as the stored bytes: indented JSON with a final
// newline, so the file diffs well and hashes stably.
func encodeManifest(m *Manifest) ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// writeFileAtomic writes b to path, creating its folder, so that a reader
// never sees a half-written file.
func writeFileAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}

// notCorpusHint says how to make a corpus of what a folder that is not one
// holds: PDFs are extracted, page texts imported.
func notCorpusHint(dir string) string {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return ": there is no such folder"
	}
	if err != nil {
		return ""
	}
	pdfs := 0
	for _, e := range entries {
		if strings.EqualFold(filepath.Ext(e.Name()), ".pdf") {
			pdfs++
		}
	}
	if pdfs > 0 {
		files := "files"
		if pdfs == 1 {
			files = "file"
		}
		return fmt.Sprintf(": it holds %d PDF %s; make a corpus of them first with \"citecheck extract --out CORPUS %s\", then give --corpus CORPUS", pdfs, files, dir)
	}
	return fmt.Sprintf(": make one first, from PDFs with \"citecheck extract --out %s PDF...\" or from page texts with \"citecheck import-text --out %s DIR\"", dir, dir)
}
