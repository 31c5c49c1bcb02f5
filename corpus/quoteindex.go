package corpus

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"
)

// QuoteIndexDir is the folder of a corpus holding its stored quote index,
// one file named by its BLAKE3 (QuoteIndex.File).
const QuoteIndexDir = "quote-index"

// QuoteIndex is the manifest's record of a corpus's stored quote index: a
// file this package stores and checks but does not read (package
// citations writes and opens it).
type QuoteIndex struct {
	Format string `json:"format"` // the file's format, as its writer names it
	File   string `json:"file"`   // "quote-index/<hex>.bin", <hex> its BLAKE3
	Bytes  int64  `json:"bytes"`  // its size
	BLAKE3 string `json:"blake3"` // its hash
	// Blocks is the digest its writer gave of the file's parts (for a
	// citecheck-quote-index/2 or /3, its table of block sums), which a reader
	// verifies it by without hashing it whole.
	Blocks  string `json:"blocks,omitempty"`
	Sources string `json:"sources"` // the SourcesDigest of the manifest it was built from
}

func quoteIndexFile(hash string) (string, error) {
	h, err := hashHex(hash)
	if err != nil {
		return "", err
	}
	return QuoteIndexDir + "/" + h + ".bin", nil
}

func (q *QuoteIndex) validate() error {
	want, err := quoteIndexFile(q.BLAKE3)
	if err != nil {
		return fmt.Errorf("quote_index: %v", err)
	}
	if _, err := hashHex(q.Sources); err != nil {
		return fmt.Errorf("quote_index: sources: %v", err)
	}
	if q.Blocks != "" {
		if _, err := hashHex(q.Blocks); err != nil {
			return fmt.Errorf("quote_index: blocks: %v", err)
		}
	}
	if q.Format == "" || q.File != want || q.Bytes < 0 {
		return fmt.Errorf("quote_index: format %q, file %q (want %q), %d bytes", q.Format, q.File, want, q.Bytes)
	}
	return nil
}

// SourcesDigest identifies what a quote index is built from: the BLAKE3 of
// the manifest's bytes without its quote_index, which record every stored
// page text, alternative text and reading orders by hash, with labels,
// flags and statuses. An index recording another digest is stale.
func (m *Manifest) SourcesDigest() string {
	c := *m
	c.QuoteIndex = nil
	b, err := encodeManifest(&c)
	if err != nil {
		panic(err) // a Manifest always encodes
	}
	return Hash(b)
}

// sourcesDigestOf is m.SourcesDigest(), m decoded from the stored bytes b,
// computed without encoding m again when it can be: encodeManifest writes
// quote_index last, so b without that member hashes as m without it
// encodes whenever b is the bytes encodeManifest wrote. Equality with the
// digest the index records is what shows it (then b without quote_index
// is the very encoding the index was built from, and decodes as m does);
// otherwise m is encoded again.
func (m *Manifest) sourcesDigestOf(b []byte) string {
	if q := m.QuoteIndex; q != nil {
		qb, err := json.MarshalIndent(q, "  ", "  ")
		if err != nil {
			panic(err) // a QuoteIndex always encodes
		}
		tail := append(append([]byte(",\n  \"quote_index\": "), qb...), "\n}\n"...)
		if rest, ok := bytes.CutSuffix(b, tail); ok {
			h := blake3.New()
			h.Write(rest)
			h.Write([]byte("\n}\n"))
			if d := "blake3:" + hex.EncodeToString(h.Sum(nil)); d == q.Sources {
				return d
			}
		}
	}
	return m.SourcesDigest()
}

// SourcesDigest is the manifest's SourcesDigest, computed once per Store
// (the quote_index record does not change it).
func (s *Store) SourcesDigest() string { return s.digest() }

// ErrQuoteIndex reports a stored quote index that cannot be used: missing,
// changed since the manifest recorded it, or built from other texts
// (stale). It wraps ErrIntegrity: like a changed page text, it is never
// silently replaced.
var ErrQuoteIndex = fmt.Errorf("stored quote index unusable: %w", ErrIntegrity)

// QuoteIndexPath returns the manifest's record of the stored quote index and
// the file's path, after checking that the index was built from this
// manifest's texts and that the file has the recorded size (ErrQuoteIndex
// otherwise; its hash is checked by "freeze", which pins it, not here:
// reading the whole file would cost what the index saves). ok is false
// when the corpus has no stored index.
func (s *Store) QuoteIndexPath() (q *QuoteIndex, path string, ok bool, err error) {
	q = s.manifest.QuoteIndex
	if q == nil {
		return nil, "", false, nil
	}
	if d := s.SourcesDigest(); q.Sources != d {
		return q, "", true, fmt.Errorf("%s: %w: built from the texts of manifest %s, the corpus is now %s", q.File, ErrQuoteIndex, q.Sources, d)
	}
	path = filepath.Join(s.dir, filepath.FromSlash(q.File))
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return q, "", true, fmt.Errorf("%s: %w: missing", q.File, ErrQuoteIndex)
	case err != nil:
		return q, "", true, err
	case fi.Size() != q.Bytes:
		return q, "", true, fmt.Errorf("%s: %w: %d bytes, the manifest records %d", q.File, ErrQuoteIndex, fi.Size(), q.Bytes)
	}
	return q, path, true, nil
}

// CheckQuoteIndex re-hashes the stored quote index against the manifest
// (ErrQuoteIndex when it differs or is missing); freeze calls it.
func (s *Store) CheckQuoteIndex() error {
	q, path, ok, err := s.QuoteIndexPath()
	if !ok || err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := blake3.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := "blake3:" + hex.EncodeToString(h.Sum(nil)); got != q.BLAKE3 {
		return fmt.Errorf("%s: %w: it hashes to %s, the manifest records %s", q.File, ErrQuoteIndex, got, q.BLAKE3)
	}
	return nil
}

// WriteQuoteIndex stores a quote index built from this store's texts:
// write writes its bytes, in format, and returns the digest its reader
// verifies it by (QuoteIndex.Blocks; "" for none). The file is written under its hash
// and then recorded in the manifest, each atomically, and older index
// files are removed after: a reader sees the manifest before or after,
// each with its own index file. The Store reads the new manifest.
func (s *Store) WriteQuoteIndex(format string, write func(io.Writer) (blocks string, err error)) error {
	if err := os.MkdirAll(filepath.Join(s.dir, QuoteIndexDir), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Join(s.dir, QuoteIndexDir), ".new-*.tmp")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := blake3.New()
	cw := &countWriter{w: io.MultiWriter(tmp, h)}
	blocks, err := write(cw)
	if err != nil {
		return err
	}
	q := &QuoteIndex{Format: format, Bytes: cw.n, BLAKE3: "blake3:" + hex.EncodeToString(h.Sum(nil)), Blocks: blocks, Sources: s.SourcesDigest()}
	if q.File, err = quoteIndexFile(q.BLAKE3); err != nil {
		return err
	}
	if err := errors.Join(tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, filepath.FromSlash(q.File))); err != nil {
		return err
	}
	done = true
	m := *s.manifest
	m.QuoteIndex = q
	b, err := encodeManifest(&m)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(s.dir, ManifestFile), b); err != nil {
		return err
	}
	s.manifest = &m
	return removeOtherQuoteIndexes(s.dir, q.File)
}

// removeOtherQuoteIndexes removes the index files the manifest no longer
// records (keep is the one it records, "" for none).
func removeOtherQuoteIndexes(dir, keep string) error {
	entries, err := os.ReadDir(filepath.Join(dir, QuoteIndexDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if QuoteIndexDir+"/"+e.Name() == keep {
			continue
		}
		if err := os.Remove(filepath.Join(dir, QuoteIndexDir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
