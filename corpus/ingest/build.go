package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/corpus"
)

// ExtractFunc turns the bytes of one PDF into page texts. It must not fail:
// every outcome is a corpus.Extraction with a Status.
type ExtractFunc func(ctx context.Context, name string, pdf []byte) corpus.Extraction

// BuildOptions configures Build.
type BuildOptions struct {
	Extractor corpus.ExtractorID // recorded in the manifest; a change re-extracts everything
	Extract   ExtractFunc        // required
	Jobs      int                // parallel extractions; 1 when < 1
	// MaxFileBytes is the largest PDF read; a larger one is recorded as
	// resource_limit without being read. 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// Progress, when set, is called once per document as it finishes, from
	// one goroutine at a time.
	Progress func(Progress)
	// Shard, when Count > 0, extracts only this shard's share of files:
	// the store holds its documents and a shard manifest (shard.go) for
	// Merge. Every input is still read, to hash it.
	Shard Shard
}

// DefaultMaxFileBytes is the default cap on one PDF's size.
const DefaultMaxFileBytes = 2 << 30

// Progress reports one finished document.
type Progress struct {
	Done, Total int
	Result      Result
	// Other is true for a document of another shard (BuildOptions.Shard):
	// read and hashed, not extracted, and not in the Report.
	Other bool
}

// Result is the outcome for one input of Build.
type Result struct {
	Name   string
	Source string
	Status corpus.Status
	Error  string
	Pages  int
	Reused bool // unchanged since the last build: not extracted again
}

// Report lists the outcome of every input, sorted by name.
type Report struct {
	Results []Result
}

// Count returns how many inputs ended with status s.
func (r *Report) Count(s corpus.Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Status == s {
			n++
		}
	}
	return n
}

// Pages returns the number of pages of the documents that extracted ok.
func (r *Report) Pages() int {
	n := 0
	for _, res := range r.Results {
		n += res.Pages
	}
	return n
}

// Inputs expands paths into the PDF files they name: a file is taken as it
// is, a folder is searched recursively for files ending in ".pdf" (any case).
// Symbolic links are followed: a link to a PDF is taken under the link's
// path, a link to a folder is searched (under its target's path) once, so
// that a link that loops back ends. The result is sorted and free of
// repeats.
func Inputs(paths []string) ([]string, error) {
	w := inputWalker{visited: map[string]bool{}}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			w.files = append(w.files, filepath.Clean(p))
			continue
		}
		if err := w.folder(p); err != nil {
			return nil, err
		}
	}
	slices.Sort(w.files)
	return slices.Compact(w.files), nil
}

// inputWalker finds the PDFs of folders, following symbolic links: a link
// to a PDF is the PDF, under the link's path; a link to a folder is
// searched like a folder, once, so that a link back up the tree (a loop)
// ends rather than recurs.
type inputWalker struct {
	files   []string
	visited map[string]bool // folders searched, by their real path
}

func (w *inputWalker) folder(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	if w.visited[real] {
		return nil
	}
	w.visited[real] = true
	if st, err := os.Lstat(dir); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		dir = real // WalkDir does not enter a link, even its root
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type()&fs.ModeSymlink != 0:
			return w.link(path)
		case d.IsDir() && path != dir:
			if r, err := filepath.EvalSymlinks(path); err == nil {
				w.visited[r] = true
			}
		case d.Type().IsRegular() && isPDFName(path):
			w.files = append(w.files, path)
		}
		return nil
	})
}

// link takes what a symbolic link found in a folder points to.
func (w *inputWalker) link(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: a symbolic link to nothing readable: %w", path, err)
	}
	switch {
	case info.IsDir():
		return w.folder(path)
	case info.Mode().IsRegular() && isPDFName(path):
		w.files = append(w.files, path)
	case info.Mode().IsRegular():
		if target, err := filepath.EvalSymlinks(path); err == nil && isPDFName(target) {
			w.files = append(w.files, path)
		}
	}
	return nil
}

func isPDFName(path string) bool { return strings.EqualFold(filepath.Ext(path), ".pdf") }

// Build extracts files (see Inputs) into the corpus folder dir, creating it
// when needed, and returns what happened to each file. See the package doc
// for the contract.
func Build(ctx context.Context, dir string, files []string, opts BuildOptions) (*Report, error) {
	if opts.Extract == nil {
		return nil, errors.New("ingest.Build: no ExtractFunc")
	}
	old, err := existingManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := checkShardStore(dir, old, opts.Shard); err != nil {
		return nil, err
	}
	if old != nil && old.Extractor.FromText() != opts.Extractor.FromText() {
		return nil, fmt.Errorf("%s: %w: it holds page texts imported by %s %s (citecheck import-text); extract PDFs into another corpus folder", dir, corpus.ErrMixedCorpus, old.Extractor.Name, old.Extractor.Version)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	jobs, err := plan(absDir, files, old, opts.Extractor)
	if err != nil {
		return nil, err
	}
	// A folder without a manifest yet goes again (is emptied, when it
	// existed) if the build does not finish, interrupted or failing:
	// half-written, it would hold no manifest, and the next Build would
	// refuse it as not a corpus.
	committed := false
	if old == nil {
		_, statErr := os.Stat(dir)
		existed := statErr == nil
		defer func() {
			if !committed {
				removeMade(dir, existed)
			}
		}()
		if err := markBuilding(dir); err != nil {
			return nil, err
		}
	}

	results, err := runJobs(ctx, absDir, jobs, opts)
	if err != nil {
		return nil, err
	}

	var kept []corpus.Document
	report := &Report{}
	for i := range results {
		if !jobs[i].other {
			kept = append(kept, results[i])
			report.Results = append(report.Results, resultOf(&results[i], jobs[i].reuse != nil))
		}
	}
	if opts.Shard.Count > 0 {
		// A shard holds its share of these inputs and nothing else.
		old = nil
		if err := writeShardManifest(dir, opts.Shard, opts.Extractor, results); err != nil {
			return nil, err
		}
	}
	if err := commit(dir, old, opts.Extractor, jobNames(jobs), kept); err != nil {
		return nil, err
	}
	committed = true
	return report, nil
}

// runJobs runs every job, opts.Jobs at a time, reporting each as it
// finishes (opts.Progress), and returns their documents by job index, so
// that the result does not depend on scheduling.
func runJobs(ctx context.Context, absDir string, jobs []job, opts BuildOptions) ([]corpus.Document, error) {
	results := make([]corpus.Document, len(jobs))
	errs := make([]error, len(jobs))
	work := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for range max(opts.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i], errs[i] = jobs[i].run(ctx, absDir, opts)
				done <- i
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range jobs {
			select {
			case work <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	finished := 0
	for i := range done {
		finished++
		if opts.Progress != nil && errs[i] == nil {
			opts.Progress(Progress{Done: finished, Total: len(jobs), Result: resultOf(&results[i], jobs[i].reuse != nil), Other: jobs[i].other})
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return results, nil
}

// jobNames is the set of the jobs' names.
func jobNames(jobs []job) map[string]bool {
	names := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		names[j.name] = true
	}
	return names
}

// commit writes the manifest of a build: docs, and the documents of old
// not named this time when old was made by the same extractor.
func commit(dir string, old *corpus.Manifest, ext corpus.ExtractorID, named map[string]bool, docs []corpus.Document) error {
	m := &corpus.Manifest{Format: corpus.Format, Extractor: ext}
	if old != nil && old.Extractor.Equal(ext) {
		// Documents not named this time stay, unless an input replaced them.
		for _, d := range old.Documents {
			if !named[d.Name] {
				m.Documents = append(m.Documents, d)
			}
		}
	}
	m.Documents = append(m.Documents, docs...)
	slices.SortFunc(m.Documents, func(a, b corpus.Document) int { return strings.Compare(a.Name, b.Name) })
	if err := corpus.Commit(dir, old, m); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, BuildingFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// BuildingFile marks a corpus folder whose first build (extract,
// import-text, merge) has not finished: written before anything else and
// removed once the manifest is. A folder holding it and no manifest is
// what a build killed outright (a crash, SIGKILL, power loss) left, which
// could not take its files away as an interrupted build does; the next
// build empties it and starts over instead of refusing it as not a
// corpus.
const BuildingFile = ".citecheck-building"

// markBuilding makes dir, if needed, and writes BuildingFile into it.
func markBuilding(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, BuildingFile), []byte("a citecheck corpus being built: without manifest.json, what a build killed outright left\n"), 0o644)
}

// removeMade removes what a first build that did not finish, or was
// killed outright (leftover), wrote into dir: dir itself, or its contents
// when dir was there before.
func removeMade(dir string, existed bool) {
	if !existed {
		os.RemoveAll(dir)
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// leftover reports whether entries, a folder's without a manifest, are
// what a first build killed outright left: its BuildingFile and nothing a
// build does not write.
func leftover(entries []fs.DirEntry) bool {
	marked := false
	for _, e := range entries {
		switch name := e.Name(); {
		case name == BuildingFile:
			marked = true
		case name == "text" || name == corpus.QuoteIndexDir || name == ShardFile ||
			strings.HasPrefix(name, "."+corpus.ManifestFile+".tmp-") || strings.HasPrefix(name, "."+ShardFile+".tmp-"): // atomicfile's
		default:
			return false
		}
	}
	return marked
}

func resultOf(d *corpus.Document, reused bool) Result {
	return Result{Name: d.Name, Source: d.Source, Status: d.Status, Error: d.Error, Pages: len(d.Pages), Reused: reused}
}

// existingManifest returns the manifest in dir, nil when dir does not exist
// or is empty (or held what a killed first build left, now removed), or
// corpus.ErrNotCorpus when dir holds something else.
func existingManifest(dir string) (*corpus.Manifest, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(dir, corpus.ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		if leftover(entries) {
			removeMade(dir, true)
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w: it is not empty and has no %s", dir, corpus.ErrNotCorpus, corpus.ManifestFile)
	}
	st, err := corpus.Open(dir)
	if err != nil {
		return nil, err
	}
	return st.Manifest(), nil
}

// job is one input to extract or reuse.
type job struct {
	path   string // as given
	name   string
	source string           // relative to the corpus folder
	reuse  *corpus.Document // the stored entry, when it may be reused
	other  bool             // another shard's: hashed, not extracted
}

// plan names every input and refuses name clashes before any work starts.
func plan(absDir string, files []string, old *corpus.Manifest, ext corpus.ExtractorID) ([]job, error) {
	jobs := make([]job, 0, len(files))
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job{path: f, name: filepath.Base(f), source: pdfSource(absDir, abs)})
	}
	if clashes := checkNames(jobs, old, ext); len(clashes) > 0 {
		return nil, clashError(clashes)
	}
	return jobs, nil
}

// pdfSource is the Source of the PDF at the absolute path abs in a corpus
// in the absolute folder absDir: relative to it where it can be.
func pdfSource(absDir, abs string) string {
	source := abs
	if rel, err := filepath.Rel(absDir, abs); err == nil {
		source = rel
	}
	source = filepath.ToSlash(source)
	if strings.HasPrefix(source, corpus.TextSourcePrefix) {
		source = "./" + source // a PDF's path never reads as a page folder
	}
	return source
}

// clash is one name clash: the input at fault (of inputs clashing with
// each other, the last in input order) and a description naming all sides.
type clash struct {
	file, text string
}

// checkNames sorts jobs by name (then path) and returns every name clash,
// sorted by description: inputs whose names differ at most in case, and an
// input whose name is already in old from another source. For the other
// inputs already in old, ok and from the same extractor, it sets reuse.
func checkNames(jobs []job, old *corpus.Manifest, ext corpus.ExtractorID) []clash {
	slices.SortStableFunc(jobs, func(a, b job) int { return strings.Compare(a.name, b.name) })

	// Names that differ only in case clash too: a reference naming "a.pdf"
	// must not silently match "A.pdf".
	byFold := map[string][]int{}
	for i, j := range jobs {
		key := strings.ToLower(j.name)
		byFold[key] = append(byFold[key], i)
	}
	var clashes []clash
	for _, idx := range byFold {
		if len(idx) > 1 {
			var names []string
			for _, i := range idx {
				names = append(names, fmt.Sprintf("%q (%s)", jobs[i].name, jobs[i].path))
			}
			clashes = append(clashes, clash{jobs[idx[len(idx)-1]].path, strings.Join(names, " and ")})
		}
	}
	if old != nil {
		for k := range old.Documents {
			d := &old.Documents[k]
			for _, i := range byFold[strings.ToLower(d.Name)] {
				switch {
				case d.Source != jobs[i].source:
					clashes = append(clashes, clash{jobs[i].path, fmt.Sprintf("%q (%s) and %q already in the corpus from %s", jobs[i].name, jobs[i].path, d.Name, d.Source)})
				case d.Status == corpus.StatusOK && old.Extractor.Equal(ext):
					jobs[i].reuse = d
				}
			}
		}
	}
	slices.SortFunc(clashes, func(a, b clash) int { return strings.Compare(a.text, b.text) })
	return clashes
}

// clashError describes every clash in one corpus.ErrDuplicateName error.
func clashError(clashes []clash) error {
	texts := make([]string, len(clashes))
	for i, c := range clashes {
		texts[i] = c.text
	}
	return fmt.Errorf("%w: %s (names must be unique, ignoring case: rename one or build separate corpora)", corpus.ErrDuplicateName, strings.Join(texts, "; "))
}

// run reads, hashes and (unless unchanged) extracts one input, writing its
// page texts into the corpus.
func (j *job) run(ctx context.Context, dir string, opts BuildOptions) (corpus.Document, error) {
	doc := corpus.Document{Name: j.name, Source: j.source}
	limit := opts.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	data, size, err := readCapped(j.path, limit)
	if err != nil {
		return doc, fmt.Errorf("%s: %w", j.path, err)
	}
	doc.Bytes = size
	if data == nil {
		_, doc.BLAKE3, err = corpus.HashFile(j.path)
		if err != nil {
			return doc, fmt.Errorf("%s: %w", j.path, err)
		}
		doc.Status = corpus.StatusResourceLimit
		doc.Error = fmt.Sprintf("file is %d bytes, over the %d-byte limit", size, limit)
		j.other = opts.Shard.Count > 0 && !opts.Shard.Owns(doc.BLAKE3)
		return doc, nil
	}
	doc.BLAKE3 = corpus.Hash(data)
	if opts.Shard.Count > 0 && !opts.Shard.Owns(doc.BLAKE3) {
		j.other = true
		return doc, nil
	}
	if j.reuse != nil && j.reuse.BLAKE3 == doc.BLAKE3 && j.reuse.Bytes == size {
		return *j.reuse, nil
	}
	j.reuse = nil
	ex := opts.Extract(ctx, j.name, data)
	if err := ctx.Err(); err != nil {
		return doc, err
	}
	if err := fill(&doc, ex); err != nil {
		doc.Status, doc.Error, doc.PageCount, doc.Pages = corpus.StatusCrash, err.Error(), 0, nil
		return doc, nil
	}
	w, err := corpus.NewDocWriter(dir, doc.BLAKE3)
	if err != nil {
		return doc, err
	}
	for i, p := range ex.Pages[:doc.PageCount] {
		pg, err := w.WritePage(i+1, p)
		if err != nil {
			return doc, err
		}
		doc.Pages = append(doc.Pages, pg)
	}
	return doc, nil
}

// fill copies an extraction's outcome into doc, enforcing the store's
// invariants on its pages, which the caller then stores. An error means
// the extractor broke its contract.
func fill(doc *corpus.Document, ex corpus.Extraction) error {
	if !ex.Status.Valid() {
		return fmt.Errorf("extractor returned unknown status %q", ex.Status)
	}
	doc.Status, doc.Error, doc.Warnings = ex.Status, ex.Error, ex.Warnings
	if ex.Status != corpus.StatusOK {
		if doc.Error == "" {
			doc.Error = string(ex.Status)
		}
		return nil
	}
	if len(ex.Pages) == 0 {
		doc.Status = corpus.StatusMalformed
		doc.Error = "no pages found in a file that has content"
		return nil
	}
	for i, p := range ex.Pages {
		if err := corpus.ValidatePage(i+1, p); err != nil {
			return fmt.Errorf("extractor returned %w", err)
		}
	}
	doc.PageCount = len(ex.Pages)
	return nil
}

// readCapped reads a file unless it is larger than limit, in which case it
// returns nil data and the size.
func readCapped(path string, limit int64) ([]byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if info.Size() > limit {
		return nil, info.Size(), nil
	}
	// Read into a buffer of the size the file had, plus one byte to see
	// whether it grew meanwhile.
	b := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		if int64(len(b)) > limit {
			return nil, int64(len(b)), nil
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // it grew: let append find room
		}
	}
	return b, int64(len(b)), nil
}
