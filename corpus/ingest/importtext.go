package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// DefaultMaxPageBytes is the default cap on one page file of ImportText.
const DefaultMaxPageBytes = 64 << 20

// ImportOptions configures ImportText and ReadTextDocument.
type ImportOptions struct {
	// MaxPageBytes is the largest page file read; a larger one is an input
	// error (ErrPageTooLarge). 0 means DefaultMaxPageBytes.
	MaxPageBytes int64
}

// Input errors of ImportText and ReadTextDocument, wrapped in an
// *ImportError naming the file.
var (
	// ErrInvalidUTF8Page: a page file is not valid UTF-8 (the ImportError's
	// Offset is the first bad byte).
	ErrInvalidUTF8Page = errors.New("page text is not valid UTF-8")
	// ErrFormFeedPage: a page file holds a form feed (U+000C), which stored
	// texts never hold (Offset is its byte).
	ErrFormFeedPage = errors.New("page text holds a form feed (U+000C)")
	// ErrPageGap: a document folder's pages are not 0001.txt to NNNN.txt
	// with none missing: a page is missing, a page is numbered 0000, or the
	// folder holds no page at all.
	ErrPageGap = errors.New("pages are not numbered 0001 to N without a gap")
	// ErrPageName: a document folder holds something other than a page
	// file named with exactly four digits and ".txt".
	ErrPageName = errors.New("not a page file named NNNN.txt")
	// ErrPageTooLarge: a page file is over ImportOptions.MaxPageBytes.
	ErrPageTooLarge = errors.New("page file too large")
	// ErrNotTextFolder: an input is not a folder holding one folder per
	// document: it is a file, it is empty, or it holds a file.
	ErrNotTextFolder = errors.New("not a folder of document folders")
)

// ImportError is a fault in the input of ImportText or ReadTextDocument:
// the file or folder at fault and, for a page's bytes, the byte offset.
// Err wraps one of the Err* input errors of this package (ErrPageGap,
// ...), corpus.ErrDuplicateName, corpus.ErrMixedCorpus,
// corpus.ErrNotCorpus, or the error of reading the file.
type ImportError struct {
	File   string // as the caller named it (joined with the input folder)
	Offset int64  // byte offset in File; -1 when the fault has no position
	Err    error
}

func (e *ImportError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s: byte %d: %v", e.File, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *ImportError) Unwrap() error { return e.Err }

// Is makes every fault of an imported file an input fault
// (inputerr.ErrInput), whatever its cause.
func (e *ImportError) Is(target error) bool { return target == inputerr.ErrInput }

// importErr returns the ImportError of file; an *fs.PathError about file
// is unwrapped, so the message names the file once.
func importErr(file string, err error) *ImportError {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == file {
		err = pe.Err
	}
	return &ImportError{File: file, Offset: -1, Err: err}
}

// TextPageName returns the file name of a page (1-based) in a document
// folder: four digits and ".txt".
func TextPageName(page int) string { return fmt.Sprintf("%04d.txt", page) }

// ParseTextPageName returns the page number a page file's name gives:
// exactly four ASCII digits then ".txt". "0000.txt" parses, as page 0,
// which no document has.
func ParseTextPageName(name string) (page int, ok bool) {
	digits, ok := strings.CutSuffix(name, ".txt")
	if !ok || len(digits) != 4 {
		return 0, false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, false
		}
		page = 10*page + int(c-'0')
	}
	return page, true
}

// TextDocument is one document folder of page texts, read and checked.
type TextDocument struct {
	Bytes  int64         // the page files' sizes, summed
	BLAKE3 string        // the identity: TextHash of the pages
	Pages  []corpus.Page // as the manifest records them
}

// ReadTextDocument reads and checks the page files of one document folder
// (folder/0001.txt to folder/NNNN.txt) exactly as ImportText does, and
// describes them. Every fault is an *ImportError naming the file; the first
// found, in page order, is returned.
func ReadTextDocument(folder string, opts ImportOptions) (*TextDocument, error) {
	files, err := textPageFiles(folder)
	if err != nil {
		return nil, err
	}
	td := &TextDocument{}
	texts := make([]string, len(files))
	for i, f := range files {
		b, err := readTextPage(f, opts)
		if err != nil {
			return nil, err
		}
		texts[i] = string(b)
		td.Bytes += int64(len(b))
		td.Pages = append(td.Pages, corpus.DescribePage(i+1, corpus.PageText{Text: texts[i]}))
	}
	td.BLAKE3 = corpus.TextHash(texts)
	return td, nil
}

// textPageFiles returns the paths of a document folder's pages, page 1
// first, or the *ImportError of a folder that is not 0001.txt to NNNN.txt.
func textPageFiles(folder string) ([]string, error) {
	entries, err := os.ReadDir(folder) // sorted by name: four digits sort as numbers
	if err != nil {
		return nil, importErr(folder, err)
	}
	if len(entries) == 0 {
		return nil, importErr(folder, fmt.Errorf("%w: the document folder is empty; it must hold its pages, 0001.txt to NNNN.txt", ErrPageGap))
	}
	var files []string
	for _, e := range entries {
		path := filepath.Join(folder, e.Name())
		page, ok := ParseTextPageName(e.Name())
		if !ok {
			return nil, importErr(path, fmt.Errorf("%w: a document folder holds only its pages, 0001.txt to NNNN.txt (four digits, 1-based)", ErrPageName))
		}
		if info, err := os.Stat(path); err != nil {
			return nil, importErr(path, err)
		} else if !info.Mode().IsRegular() {
			return nil, importErr(path, fmt.Errorf("%w: it is not a regular file", ErrPageName))
		}
		if page == 0 {
			return nil, importErr(path, fmt.Errorf("%w: page 0000: pages are numbered from 0001", ErrPageGap))
		}
		if want := len(files) + 1; page != want {
			return nil, importErr(filepath.Join(folder, TextPageName(want)), fmt.Errorf("%w: page %d is missing; the folder's next page is %s", ErrPageGap, want, e.Name()))
		}
		files = append(files, path)
	}
	return files, nil
}

// readTextPage reads one page file and checks that the store can hold it
// as it is: valid UTF-8 without a form feed, within the size cap.
func readTextPage(path string, opts ImportOptions) ([]byte, error) {
	limit := opts.MaxPageBytes
	if limit <= 0 {
		limit = DefaultMaxPageBytes
	}
	b, size, err := readCapped(path, limit)
	if err != nil {
		return nil, importErr(path, err)
	}
	if size > limit {
		return nil, importErr(path, fmt.Errorf("%w: %d bytes, over the %d-byte limit", ErrPageTooLarge, size, limit))
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return nil, &ImportError{File: path, Offset: int64(i), Err: ErrInvalidUTF8Page}
		}
		i += n
	}
	if i := bytes.IndexByte(b, '\f'); i >= 0 {
		return nil, &ImportError{File: path, Offset: int64(i), Err: fmt.Errorf("%w: stored texts never hold one (pages are separated by it)", ErrFormFeedPage)}
	}
	return b, nil
}

// ImportText makes or updates the corpus in dir from folders of page
// texts: every folder inputs[i]/<document name>/ holding 0001.txt to
// NNNN.txt becomes the document <document name>. It returns what happened
// to each document, sorted by name. See the package doc for the contract;
// every input fault is an *ImportError, and nothing is written unless every
// input is sound.
func ImportText(dir string, inputs []string, opts ImportOptions) (*Report, error) {
	ext := corpus.TextExtractorID()
	old, err := existingManifest(dir)
	if errors.Is(err, corpus.ErrNotCorpus) {
		return nil, importErr(dir, fmt.Errorf("%w: it is not empty and has no %s", corpus.ErrNotCorpus, corpus.ManifestFile))
	}
	if err != nil {
		return nil, err
	}
	if old != nil && !old.Extractor.FromText() {
		return nil, importErr(filepath.Join(dir, corpus.ManifestFile), fmt.Errorf("%w: this corpus was extracted from PDFs by %s %s; import page texts into a new corpus folder", corpus.ErrMixedCorpus, old.Extractor.Name, old.Extractor.Version))
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	jobs, err := textJobs(absDir, inputs)
	if err != nil {
		return nil, err
	}
	if clashes := checkNames(jobs, old, ext); len(clashes) > 0 {
		return nil, importErr(clashes[0].file, clashError(clashes))
	}

	// Every document is read and checked before anything is written.
	docs := make([]corpus.Document, len(jobs))
	for i, j := range jobs {
		td, err := ReadTextDocument(j.path, opts)
		if err != nil {
			return nil, err
		}
		docs[i] = corpus.Document{Name: j.name, Source: j.source, Bytes: td.Bytes, BLAKE3: td.BLAKE3,
			Status: corpus.StatusOK, PageCount: len(td.Pages), Pages: td.Pages}
	}
	report := &Report{}
	if old == nil {
		if err := markBuilding(dir); err != nil {
			return nil, err
		}
	}
	for i, j := range jobs {
		if err := writeTextPages(dir, j.path, &docs[i], opts); err != nil {
			return nil, err
		}
		reused := j.reuse != nil && j.reuse.BLAKE3 == docs[i].BLAKE3 && j.reuse.Bytes == docs[i].Bytes
		report.Results = append(report.Results, resultOf(&docs[i], reused))
	}
	if err := commit(dir, old, ext, jobNames(jobs), docs); err != nil {
		return nil, err
	}
	return report, nil
}

// textJobs lists the document folders of every input, refusing an input
// that is not a folder of document folders. A folder named twice (the same
// input given twice) is taken once.
func textJobs(absDir string, inputs []string) ([]job, error) {
	var jobs []job
	seen := map[string]bool{}
	for _, in := range inputs {
		info, err := os.Stat(in)
		if err != nil {
			return nil, importErr(in, err)
		}
		if !info.IsDir() {
			return nil, importErr(in, fmt.Errorf("%w: it is a file; give the folder holding one folder per document, each with its pages 0001.txt to NNNN.txt", ErrNotTextFolder))
		}
		entries, err := os.ReadDir(in)
		if err != nil {
			return nil, importErr(in, err)
		}
		if len(entries) == 0 {
			return nil, importErr(in, fmt.Errorf("%w: it is empty; it must hold one folder per document, each with its pages 0001.txt to NNNN.txt", ErrNotTextFolder))
		}
		for _, e := range entries {
			path := filepath.Join(in, e.Name())
			info, err := os.Stat(path)
			if err != nil {
				return nil, importErr(path, err)
			}
			if !info.IsDir() {
				hint := ""
				if _, ok := ParseTextPageName(e.Name()); ok {
					hint = fmt.Sprintf(" (is %s itself a document folder? give the folder above it)", in)
				}
				return nil, importErr(path, fmt.Errorf("%w: a file directly in %s, which must hold only document folders, each with its pages 0001.txt to NNNN.txt%s", ErrNotTextFolder, in, hint))
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, err
			}
			if seen[abs] {
				continue
			}
			seen[abs] = true
			source := abs
			if rel, err := filepath.Rel(absDir, abs); err == nil {
				source = rel
			}
			jobs = append(jobs, job{path: path, name: e.Name(), source: corpus.TextSourcePrefix + filepath.ToSlash(source)})
		}
	}
	return jobs, nil
}

// writeTextPages stores the page texts of a document read by
// ReadTextDocument, reading each page file again: one that no longer hashes
// as it did is refused. Storing the same pages again rewrites nothing
// (corpus.DocWriter.WriteText).
func writeTextPages(dir, folder string, doc *corpus.Document, opts ImportOptions) error {
	w, err := corpus.NewDocWriter(dir, doc.BLAKE3)
	if err != nil {
		return err
	}
	for i := range doc.Pages {
		p := &doc.Pages[i]
		path := filepath.Join(folder, TextPageName(p.Page))
		b, err := readTextPage(path, opts)
		if err != nil {
			return err
		}
		if corpus.Hash(b) != p.BLAKE3 {
			return importErr(path, errors.New("changed while it was being imported: import again"))
		}
		if err := w.WriteText(p.Page, b); err != nil {
			return err
		}
	}
	return nil
}
