package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// Shard names one of Count parts of a sharded extraction (Build with
// BuildOptions.Shard, then Merge). A document belongs to shard
// uint64(first 8 bytes of its BLAKE3, big-endian) mod Count: its content
// decides, so a document stays in its shard as the corpus grows, and
// which other files are extracted alongside does not matter.
type Shard struct {
	Index int // 0 <= Index < Count
	Count int // 0: not sharded
}

// String writes the shard as ParseShard reads it: "K/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "K/N": shard K (0-based) of N.
func ParseShard(text string) (Shard, error) {
	k, n, ok := strings.Cut(text, "/")
	index, err1 := strconv.Atoi(k)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count || count > MaxShards {
		return Shard{}, fmt.Errorf("shard %q: want K/N, N from 1 to %d and K from 0 to N-1 (shard 0/4 is the first of four)", text, MaxShards)
	}
	return Shard{Index: index, Count: count}, nil
}

// MaxShards bounds N in K/N.
const MaxShards = 1 << 16

// Owns reports whether the document with the given digest
// ("blake3:<hex>") belongs to s. An unsharded s owns everything.
func (s Shard) Owns(digest string) bool {
	return s.Count <= 1 || s.of(digest) == s.Index
}

// of returns the shard, among s.Count, of a digest.
func (s Shard) of(digest string) int {
	sum, ok := corpus.ParseHash(digest)
	if !ok {
		return -1
	}
	return int(binary.BigEndian.Uint64(sum[:8]) % uint64(s.Count))
}

// ShardFormat is the format of ShardFile.
const ShardFormat = "citecheck-shard/1"

// ShardFile is the shard manifest's file name in a shard's store, beside
// its manifest.json.
const ShardFile = "shard.json"

// ShardManifest describes a shard's store: which shard it is, the
// extractor, and every input of the sharded extraction (all shards'), so
// that Merge can tell a shard that is missing, or one made from other
// files.
type ShardManifest struct {
	Format string `json:"format"`
	Shard  int    `json:"shard"` // 0-based
	Of     int    `json:"of"`
	// Folder is the shard's folder, absolute, as it was extracted: the
	// sources in its manifest are relative to it, so the shard may be
	// moved (from a node's scratch disk to shared storage) before Merge.
	Folder    string             `json:"folder"`
	Extractor corpus.ExtractorID `json:"extractor"`
	Inputs    []ShardInput       `json:"inputs"` // sorted by name
}

// ShardInput is one input of a sharded extraction.
type ShardInput struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	BLAKE3 string `json:"blake3"`
	Shard  int    `json:"shard"`
}

// Errors of sharded extraction. Each comes in a *ShardError naming the
// shard's folder.
var (
	// ErrNotShard: a folder given to Merge holds no shard manifest, or
	// Build with a Shard was pointed at a corpus that is not a shard (or
	// Build without one at a shard).
	ErrNotShard = inputerr.New("not the store of one shard")
	// ErrShardMismatch: shards made by other extractor versions or
	// limits, split N ways for different N, or from different inputs.
	ErrShardMismatch = inputerr.New("shards of different extractions")
	// ErrShardOverlap: a shard given twice, or a document in a shard it
	// does not belong to.
	ErrShardOverlap = inputerr.New("shards overlap")
	// ErrShardMissing: a shard not given, or a document its shard should
	// hold and does not.
	ErrShardMissing = inputerr.New("shards missing")
)

// ShardError is a fault of the shards given to Merge (or of a folder
// given to Build with a Shard).
type ShardError struct {
	Dir string // the shard's folder, as given; "" for a fault of the set
	Err error  // ErrNotShard, ErrShardMismatch, ErrShardOverlap, ErrShardMissing, or why the folder cannot be read
	Msg string
}

func (e *ShardError) Error() string {
	msg := e.Err.Error()
	if e.Msg != "" {
		msg += ": " + e.Msg
	}
	if e.Dir != "" {
		return e.Dir + ": " + msg
	}
	return msg
}

func (e *ShardError) Unwrap() error { return e.Err }

// checkShardStore refuses to build a shard into a corpus that is not one,
// and a whole corpus into a shard's store.
func checkShardStore(dir string, old *corpus.Manifest, shard Shard) error {
	_, err := os.Stat(filepath.Join(dir, ShardFile))
	isShard := err == nil
	switch {
	case shard.Count > 0 && old != nil && !isShard:
		return &ShardError{Dir: dir, Err: ErrNotShard, Msg: "it holds a whole corpus; extract each shard into a folder of its own"}
	case shard.Count == 0 && isShard:
		return &ShardError{Dir: dir, Err: ErrNotShard, Msg: "it holds one shard of a sharded extraction (" + ShardFile + "); merge the shards (citecheck merge), or extract into it with --shard"}
	}
	return nil
}

// writeShardManifest writes the shard manifest of a shard's build: every
// input's name, size, hash and shard.
func writeShardManifest(dir string, shard Shard, ext corpus.ExtractorID, docs []corpus.Document) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	m := ShardManifest{Format: ShardFormat, Shard: shard.Index, Of: shard.Count, Folder: absDir, Extractor: ext, Inputs: []ShardInput{}}
	for _, d := range docs {
		m.Inputs = append(m.Inputs, ShardInput{Name: d.Name, Bytes: d.Bytes, BLAKE3: d.BLAKE3, Shard: shard.of(d.BLAKE3)})
	}
	slices.SortFunc(m.Inputs, func(a, b ShardInput) int { return strings.Compare(a.Name, b.Name) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(absDir, ShardFile), append(b, '\n'))
}

// readShardManifest reads and checks a shard's manifest.
func readShardManifest(dir string) (*ShardManifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ShardFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &ShardError{Dir: dir, Err: ErrNotShard, Msg: "no " + ShardFile + " (made by citecheck extract --shard K/N)"}
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m ShardManifest
	if err := dec.Decode(&m); err != nil || dec.More() {
		return nil, &ShardError{Dir: dir, Err: ErrNotShard, Msg: fmt.Sprintf("%s does not decode: %v", ShardFile, err)}
	}
	bad := func(format string, args ...any) error {
		return &ShardError{Dir: dir, Err: ErrNotShard, Msg: ShardFile + ": " + fmt.Sprintf(format, args...)}
	}
	if m.Format != ShardFormat {
		return nil, bad("format %q: this citecheck reads %q", m.Format, ShardFormat)
	}
	if m.Of < 1 || m.Of > MaxShards || m.Shard < 0 || m.Shard >= m.Of {
		return nil, bad("shard %d of %d", m.Shard, m.Of)
	}
	if !filepath.IsAbs(m.Folder) {
		return nil, bad("folder %q is not an absolute path", m.Folder)
	}
	s := Shard{Count: m.Of}
	for i, in := range m.Inputs {
		if i > 0 && m.Inputs[i-1].Name >= in.Name {
			return nil, bad("inputs not sorted by name, or a name repeated, at %q", in.Name)
		}
		if s.of(in.BLAKE3) != in.Shard {
			return nil, bad("input %q is in shard %d, its hash says %d", in.Name, in.Shard, s.of(in.BLAKE3))
		}
	}
	return &m, nil
}

// MergeOptions configures Merge.
type MergeOptions struct {
	Jobs int // documents copied in parallel; 1 when < 1
}

// shardStore is one opened shard.
type shardStore struct {
	dir      string // as given
	abs      string
	shard    *ShardManifest
	store    *corpus.Store
	manifest *corpus.Manifest // the store's
}

// Merge makes the corpus in dir from the stores of every shard of a
// sharded extraction (Build with BuildOptions.Shard), the same bytes an
// unsharded Build of the same inputs into dir would write. See the
// package doc for the contract.
func Merge(ctx context.Context, dir string, shards []string, opts MergeOptions) (_ *Report, err error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if len(shards) == 0 {
		return nil, &ShardError{Err: ErrShardMissing, Msg: "no shard given"}
	}
	stores, err := openShards(shards, absDir)
	if err != nil {
		return nil, err
	}
	docs, owner, err := checkShards(stores)
	if err != nil {
		return nil, err
	}
	ext := stores[0].manifest.Extractor
	old, err := existingManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := checkShardStore(dir, old, Shard{}); err != nil {
		return nil, err
	}
	if old != nil && old.Extractor.FromText() {
		return nil, fmt.Errorf("%s: %w: it holds page texts imported by %s %s (citecheck import-text); merge into another corpus folder", dir, corpus.ErrMixedCorpus, old.Extractor.Name, old.Extractor.Version)
	}

	// Each source becomes relative to dir, as Build would have written it.
	for i := range docs {
		docs[i].Source = pdfSource(absDir, shardSourcePath(owner[i].shard.Folder, docs[i].Source))
	}
	if clashes := mergeClashes(docs, old); len(clashes) > 0 {
		return nil, clashError(clashes)
	}

	// Copy every stored file, checked against its shard's manifest. A
	// folder made here goes again if the merge fails.
	if old == nil {
		_, statErr := os.Stat(dir)
		existed := statErr == nil
		defer func() {
			if err != nil {
				removeMade(dir, existed)
			}
		}()
		if err = markBuilding(dir); err != nil {
			return nil, err
		}
	}
	if err = copyDocuments(ctx, absDir, docs, owner, opts.Jobs); err != nil {
		return nil, err
	}
	named := make(map[string]bool, len(docs))
	for _, d := range docs {
		named[d.Name] = true
	}
	if err = commit(dir, old, ext, named, docs); err != nil {
		return nil, err
	}
	report := &Report{}
	for i := range docs {
		report.Results = append(report.Results, resultOf(&docs[i], false))
	}
	return report, nil
}

// openShards opens every shard, none of them the output folder absDir.
func openShards(shards []string, absDir string) ([]*shardStore, error) {
	stores := make([]*shardStore, 0, len(shards))
	for _, s := range shards {
		st, err := openShard(s)
		if err != nil {
			return nil, err
		}
		if st.abs == absDir {
			return nil, &ShardError{Dir: s, Err: ErrShardOverlap, Msg: "it is also the output folder; merge into a folder of its own"}
		}
		stores = append(stores, st)
	}
	return stores, nil
}

// mergeClashes returns the name clashes of a merge, sorted by
// description: names clash as they would in one Build, with each other,
// ignoring case, and with documents of old from another source.
func mergeClashes(docs []corpus.Document, old *corpus.Manifest) []clash {
	var clashes []clash
	byFold := map[string]*corpus.Document{}
	for i := range docs {
		d := &docs[i]
		key := strings.ToLower(d.Name)
		if o := byFold[key]; o != nil {
			clashes = append(clashes, clash{text: fmt.Sprintf("%q (%s) and %q (%s)", o.Name, o.Source, d.Name, d.Source)})
		}
		byFold[key] = d
	}
	if old != nil {
		for _, o := range old.Documents {
			if d := byFold[strings.ToLower(o.Name)]; d != nil && o.Source != d.Source {
				clashes = append(clashes, clash{text: fmt.Sprintf("%q (%s) and %q already in the corpus from %s", d.Name, d.Source, o.Name, o.Source)})
			}
		}
	}
	slices.SortFunc(clashes, func(a, b clash) int { return strings.Compare(a.text, b.text) })
	return clashes
}

// copyDocuments copies every document's stored files from the shard that
// holds it (owner) into the corpus at dir, jobs at a time.
func copyDocuments(ctx context.Context, dir string, docs []corpus.Document, owner []*shardStore, jobs int) error {
	errs := make([]error, len(docs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Go(func() {
			for i := range work {
				errs[i] = copyDocument(ctx, dir, owner[i].store, &docs[i])
			}
		})
	}
	for i := range docs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// copyDocument copies the stored files of doc from its shard's store src
// into the corpus at dir.
func copyDocument(ctx context.Context, dir string, src *corpus.Store, doc *corpus.Document) error {
	w, err := corpus.NewDocWriter(dir, doc.BLAKE3)
	if err != nil {
		return err
	}
	return w.CopyFrom(ctx, src, doc)
}

// shardSourcePath is the path of the PDF a shard's document was
// extracted from: its Source (pdfSource) read from absShard, the absolute
// folder the shard was extracted into.
func shardSourcePath(absShard, source string) string {
	if p, ok := strings.CutPrefix(source, "./"+corpus.TextSourcePrefix); ok {
		source = corpus.TextSourcePrefix + p
	}
	path := filepath.FromSlash(source)
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(absShard, path)
}

// openShard reads a shard's two manifests and checks that they agree.
func openShard(dir string) (*shardStore, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	sm, err := readShardManifest(dir)
	if err != nil {
		return nil, err
	}
	st, err := corpus.Open(dir)
	if err != nil {
		return nil, err
	}
	m := st.Manifest()
	if !m.Extractor.Equal(sm.Extractor) {
		return nil, &ShardError{Dir: dir, Err: ErrNotShard, Msg: fmt.Sprintf("%s and %s name different extractors", ShardFile, corpus.ManifestFile)}
	}
	if m.Extractor.FromText() {
		return nil, &ShardError{Dir: dir, Err: ErrNotShard, Msg: "it holds imported page texts; only extraction from PDFs is sharded"}
	}
	return &shardStore{dir: dir, abs: abs, shard: sm, store: st, manifest: m}, nil
}

// checkShards checks that the shards are every shard of one extraction,
// each holding exactly its documents, and returns the documents, sorted
// by name, with the shard that holds each.
func checkShards(stores []*shardStore) ([]corpus.Document, []*shardStore, error) {
	first := stores[0]
	byIndex := make([]*shardStore, first.shard.Of)
	for _, st := range stores {
		sm := st.shard
		switch {
		case !st.manifest.Extractor.Equal(first.manifest.Extractor):
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMismatch, Msg: fmt.Sprintf("extracted with %s in %s (extractor versions and limits must be equal)",
				extractorDiff(st.manifest.Extractor, first.manifest.Extractor), first.dir)}
		case sm.Of != first.shard.Of:
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMismatch, Msg: fmt.Sprintf("shard %d/%d, but %s is shard %d/%d", sm.Shard, sm.Of, first.dir, first.shard.Shard, first.shard.Of)}
		case !slices.Equal(sm.Inputs, first.shard.Inputs):
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMismatch, Msg: fmt.Sprintf("extracted from other inputs than %s (%s)", first.dir, inputsDiff(sm.Inputs, first.shard.Inputs))}
		case byIndex[sm.Shard] != nil:
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardOverlap, Msg: fmt.Sprintf("shard %d/%d, as is %s", sm.Shard, sm.Of, byIndex[sm.Shard].dir)}
		}
		byIndex[sm.Shard] = st
	}
	var missing []string
	for k, st := range byIndex {
		if st == nil {
			missing = append(missing, Shard{Index: k, Count: first.shard.Of}.String())
		}
	}
	if len(missing) > 0 {
		return nil, nil, &ShardError{Err: ErrShardMissing, Msg: fmt.Sprintf("%d of %d shards given; missing: %s", len(stores), first.shard.Of, strings.Join(missing, ", "))}
	}
	var docs []corpus.Document
	var owner []*shardStore
	for _, in := range first.shard.Inputs {
		st := byIndex[in.Shard]
		d, ok := st.manifest.Document(in.Name)
		if !ok {
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMissing, Msg: fmt.Sprintf("document %q of shard %d/%d is not in its %s", in.Name, in.Shard, first.shard.Of, corpus.ManifestFile)}
		}
		if d.BLAKE3 != in.BLAKE3 || d.Bytes != in.Bytes {
			return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMismatch, Msg: fmt.Sprintf("document %q is %s in %s and %s in %s", in.Name, d.BLAKE3, corpus.ManifestFile, in.BLAKE3, ShardFile)}
		}
		docs = append(docs, *d)
		owner = append(owner, st)
	}
	for _, st := range stores {
		for _, d := range st.manifest.Documents {
			i, ok := slices.BinarySearchFunc(first.shard.Inputs, d.Name, func(in ShardInput, name string) int { return strings.Compare(in.Name, name) })
			switch {
			case !ok:
				return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardMismatch, Msg: fmt.Sprintf("document %q is not one of the extraction's inputs", d.Name)}
			case first.shard.Inputs[i].Shard != st.shard.Shard:
				return nil, nil, &ShardError{Dir: st.dir, Err: ErrShardOverlap, Msg: fmt.Sprintf("document %q belongs to shard %d/%d, not %d/%d", d.Name, first.shard.Inputs[i].Shard, first.shard.Of, st.shard.Shard, first.shard.Of)}
			}
		}
	}
	return docs, owner, nil
}

// extractorDiff says how extractor a differs from b: name and version,
// and the limits that differ.
func extractorDiff(a, b corpus.ExtractorID) string {
	var diffs []string
	if a.Name != b.Name || a.Version != b.Version {
		diffs = append(diffs, fmt.Sprintf("%s %s against %s %s", a.Name, a.Version, b.Name, b.Version))
	}
	keys := make([]string, 0, len(a.Limits)+len(b.Limits))
	for k := range a.Limits {
		keys = append(keys, k)
	}
	for k := range b.Limits {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		x, okA := a.Limits[k]
		y, okB := b.Limits[k]
		if okA != okB || x != y {
			diffs = append(diffs, fmt.Sprintf("%s %s against %s", k, limitText(x, okA), limitText(y, okB)))
		}
	}
	return strings.Join(diffs, ", ")
}

func limitText(v int64, ok bool) string {
	if !ok {
		return "unset"
	}
	return strconv.FormatInt(v, 10)
}

// inputsDiff names the first input that differs between two lists.
func inputsDiff(a, b []ShardInput) string {
	for i := range max(len(a), len(b)) {
		switch {
		case i >= len(a):
			return fmt.Sprintf("%q only in the other", b[i].Name)
		case i >= len(b):
			return fmt.Sprintf("%q only in this one", a[i].Name)
		case a[i] != b[i]:
			return fmt.Sprintf("%q differs: %s, %d bytes here; %s %s, %d bytes there", a[i].Name, a[i].BLAKE3, a[i].Bytes, b[i].Name, b[i].BLAKE3, b[i].Bytes)
		}
	}
	return "none"
}
