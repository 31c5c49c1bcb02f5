package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/citecheck/citecheck/internal/atomicfile"
)

// A DocWriter writes the stored files of one document into a corpus
// folder, for a builder (package corpus/ingest) that then records the
// document in the manifest it commits (Commit). Into the document's folder
// made by this writer, which no manifest can refer to before the build
// commits its own, each file is written in place; into a folder that was
// there, each goes through a temporary file and a rename (writeFileAtomic),
// as a manifest may refer to it. Writing in place saves a rename, a chmod
// and a stat per file: on ext4, a quarter of extract's system calls.
type DocWriter struct {
	dir, folder string // the corpus; the document's folder, in it
	doc         string // the document's hash
	made, ready bool
}

// NewDocWriter writes the files of the document hashed docHash into the
// corpus folder dir; nothing is created before the first write.
func NewDocWriter(dir, docHash string) (*DocWriter, error) {
	rel, err := pageFile(docHash, 1)
	if err != nil {
		return nil, err
	}
	return &DocWriter{dir: dir, folder: filepath.Join(dir, filepath.Dir(filepath.FromSlash(rel))), doc: docHash}, nil
}

// WritePage stores a page (1-based) that passed ValidatePage: its text,
// glyph boxes (compressed), alternative texts and reading orders. It
// returns the page as the manifest records it, DescribePage's description.
func (w *DocWriter) WritePage(page int, p PageText) (Page, error) {
	pg := describeText(page, p)
	rel, _ := pageFile(w.doc, page) // the hash is good: NewDocWriter took it
	if err := w.write(rel, []byte(p.Text)); err != nil {
		return pg, err
	}
	if len(p.Boxes) > 0 {
		rel, _ := boxesFile(w.doc, page)
		if err := w.write(rel, compressBoxes(p.Boxes)); err != nil {
			return pg, err
		}
		pg.Boxes = Hash(p.Boxes)
	}
	for k, alt := range p.Alts {
		rel, _ := altFile(w.doc, page, k)
		if err := w.write(rel, []byte(alt)); err != nil {
			return pg, err
		}
		pg.Alts = append(pg.Alts, Hash([]byte(alt)))
	}
	if len(p.Orders) > 0 {
		b := EncodeOrders(p.Orders)
		rel, _ := ordersFile(w.doc, page)
		if err := w.write(rel, b); err != nil {
			return pg, err
		}
		pg.Orders = Hash(b)
	}
	return pg, nil
}

// WriteText stores text as the text of a page (1-based), byte for byte. A
// stored text already holding these bytes is left as it is, so that
// storing the same pages again rewrites nothing, and repairs a damaged
// store.
func (w *DocWriter) WriteText(page int, text []byte) error {
	rel, _ := pageFile(w.doc, page) // the hash is good: NewDocWriter took it
	if stored, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(rel))); err == nil && bytes.Equal(stored, text) {
		return nil
	}
	return w.write(rel, text)
}

// CopyFrom copies every stored file of doc, a document of the store src
// with the writer's hash, each checked against src's manifest (an
// *IntegrityError otherwise). Glyph boxes are compressed again, as
// WritePage compresses them, so the copy does not depend on the compressor
// of the program that wrote src.
func (w *DocWriter) CopyFrom(ctx context.Context, src *Store, doc *Document) error {
	for page := 1; page <= len(doc.Pages); page++ {
		files, err := storedFiles(doc, page)
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := src.readStored(doc, page, f.rel, f.recorded, f.gzipped)
			if err != nil {
				return err
			}
			if f.gzipped {
				b = compressBoxes(b)
			}
			if err := w.write(f.rel, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// write stores b as rel, a path inside the document's folder.
func (w *DocWriter) write(rel string, b []byte) error {
	if !w.ready {
		if err := os.MkdirAll(filepath.Dir(w.folder), 0o755); err != nil {
			return err
		}
		spreadFolders(filepath.Dir(w.folder))
		switch err := os.Mkdir(w.folder, 0o755); {
		case err == nil:
			w.made = true
		case !errors.Is(err, fs.ErrExist):
			return err
		}
		w.ready = true
	}
	path := filepath.Join(w.dir, filepath.FromSlash(rel))
	if filepath.Dir(path) != w.folder {
		return fmt.Errorf("corpus: %s is not in its document's folder %s", rel, w.folder)
	}
	if !w.made {
		return atomicfile.Write(path, b)
	}
	return os.WriteFile(path, b, 0o644)
}

// storedFile is one file the manifest records for a page.
type storedFile struct {
	rel      string // slash-separated, in the store
	recorded string // its BLAKE3 (of the uncompressed bytes)
	gzipped  bool
}

// storedFiles lists every file the manifest records for a page (1-based)
// of doc: its text, glyph boxes, alternative texts and reading orders. A
// new kind of stored file must be listed here, or CopyFrom leaves it
// behind (TestCopyFromKnowsEveryPageField).
func storedFiles(doc *Document, page int) ([]storedFile, error) {
	p := doc.Pages[page-1]
	rel, err := pageFile(doc.BLAKE3, page)
	if err != nil {
		return nil, err
	}
	files := []storedFile{{rel: rel, recorded: p.BLAKE3}}
	if p.Boxes != "" {
		rel, _ := boxesFile(doc.BLAKE3, page) // the hash is good: pageFile took it
		files = append(files, storedFile{rel: rel, recorded: p.Boxes, gzipped: true})
	}
	for k, h := range p.Alts {
		rel, _ := altFile(doc.BLAKE3, page, k)
		files = append(files, storedFile{rel: rel, recorded: h})
	}
	if p.Orders != "" {
		rel, _ := ordersFile(doc.BLAKE3, page)
		files = append(files, storedFile{rel: rel, recorded: p.Orders})
	}
	return files, nil
}

// Commit puts m in force as the manifest of the corpus in dir, replacing
// old (nil for none): written last, once every file it records is stored,
// and atomically, so that an interrupted build leaves old in force. m
// keeps old's quote index record only when nothing the index was built
// from changed (the same SourcesDigest), so that a stored index never
// describes other texts than the manifest's. Page-text folders no document
// of m refers to (those of a PDF that changed, say) are removed after it.
func Commit(dir string, old, m *Manifest) error {
	m.QuoteIndex = nil
	if old != nil && old.QuoteIndex != nil && old.QuoteIndex.Sources == m.SourcesDigest() {
		// Its file is checked before it is trusted again.
		m.QuoteIndex = old.QuoteIndex
	}
	b, err := encodeManifest(m)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, ManifestFile), b); err != nil {
		return err
	}
	return removeUnreferencedTexts(dir, m)
}

// removeUnreferencedTexts deletes page-text folders no document refers to.
// Only folders named like a hash are touched.
func removeUnreferencedTexts(dir string, m *Manifest) error {
	keep := map[string]bool{}
	for _, d := range m.Documents {
		if h, err := hashHex(d.BLAKE3); err == nil {
			keep[h] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "text"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, err := hashHex("blake3:" + e.Name()); err != nil || keep[e.Name()] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, "text", e.Name())); err != nil {
			return err
		}
	}
	return nil
}
