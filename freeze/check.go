package freeze

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

// Change is one frozen input that differs from the lock, or one toolchain
// difference.
type Change struct {
	Input  string `json:"input"`  // "pdf supplier-policy.pdf", "page price-list.pdf 1", "question Q03", "lock", ...
	Detail string `json:"detail"` // what differs
}

func (c Change) String() string { return c.Input + ": " + c.Detail }

// Report is the outcome of Check.
type Report struct {
	Changes  []Change `json:"changes"`  // frozen inputs that changed: refuse
	Warnings []Change `json:"warnings"` // toolchain drift: proceed
	// What was re-hashed. Texts counts folders of imported page texts,
	// Alts stored alternative texts, Boxes stored glyph-box files, Layouts
	// stored reading-orders files.
	PDFs, Texts, Pages, Alts, Boxes, Layouts, Questions, Orders int
	// QuoteIndexes is 1 when the stored quote index was re-hashed.
	QuoteIndexes int
	// Moved, when set, says why every input looks changed: neither the
	// corpus nor the reference is where the lock names them, relative to
	// its folder, as when a lock is copied away from what it pins.
	Moved string `json:"moved,omitempty"`
	Lock  *Lock  `json:"-"`

	// Reviews counts the decisions files re-hashed.
	Reviews int
}

// OK reports whether every frozen input matches the lock.
func (r *Report) OK() bool { return len(r.Changes) == 0 }

// ErrChanged is wrapped by Report.Err when frozen inputs changed.
var ErrChanged = errors.New("frozen inputs changed")

// Err returns nil when r is OK, else an error wrapping ErrChanged that
// names the first change.
func (r *Report) Err() error {
	if r.OK() {
		return nil
	}
	return fmt.Errorf("%w: %s (and %d more)", ErrChanged, r.Changes[0], len(r.Changes)-1)
}

// Summary counts what was checked. Text documents, alternative texts and
// glyph-box files are counted only when the lock has some.
func (r *Report) Summary() string {
	docs := fmt.Sprintf("%d PDFs", r.PDFs)
	switch {
	case r.Texts > 0 && r.PDFs == 0:
		docs = plural(r.Texts, "text document")
	case r.Texts > 0:
		docs += ", " + plural(r.Texts, "text document")
	}
	stored := fmt.Sprintf("%d page texts", r.Pages)
	if r.Alts > 0 {
		stored += ", " + plural(r.Alts, "alternative text")
	}
	if r.Boxes > 0 {
		stored += ", " + plural(r.Boxes, "glyph-box file")
	}
	if r.Layouts > 0 {
		stored += ", " + plural(r.Layouts, "reading-orders file")
	}
	if r.QuoteIndexes > 0 {
		stored += ", the quote index"
	}
	return fmt.Sprintf("%s, %s, %d questions, %d plan orders re-hashed: %s, %s",
		docs, stored, r.Questions, r.Orders, plural(len(r.Changes), "change"), plural(len(r.Warnings), "warning"))
}

// Check re-hashes everything the lock at lockPath pins, reading each input
// at its path relative to the lock's folder, and compares the toolchain
// with tc. It never repairs anything. The error is for a lock that cannot
// be read: ErrNotLock, ErrMalformed (treat as an integrity failure) or an
// I/O error; every difference is a Change in the Report.
func Check(lockPath string, tc Toolchain) (*Report, error) {
	data, err := readCapped(lockPath, MaxLockBytes)
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	l, err := Parse(data, lockPath)
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	c := &checker{l: l, dir: filepath.Dir(lockPath), rep: &Report{Lock: l}}
	c.lockItself(data)
	c.corpus()
	c.reference()
	c.plan()
	c.reviews()
	c.toolchain(tc)
	c.rep.Moved = c.moved()
	return c.rep, nil
}

// moved says, when neither the corpus nor the reference is where the lock
// names them, that its paths are relative to its own folder and where it
// looked: a lock moved away from what it pins otherwise reads as every
// input changed.
func (c *checker) moved() string {
	rec, ok := c.l.one("corpus")
	ref, ok2 := c.l.one("reference")
	if !ok || !ok2 {
		return ""
	}
	corpusAt, refAt := c.path(rec.Fields[0]), c.path(ref.Fields[0])
	for _, p := range []string{filepath.Join(corpusAt, corpus.ManifestFile), refAt} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			return ""
		}
	}
	return fmt.Sprintf("the lock names what it pins by paths relative to its own folder (%s); it looked for the corpus at %s and the reference at %s and found neither: was the lock moved or copied away from them? Give the lock where freeze wrote it, or freeze again where it is now",
		c.dir, corpusAt, refAt)
}

type checker struct {
	l   *Lock
	dir string
	rep *Report
}

func (c *checker) change(input, format string, args ...any) {
	c.rep.Changes = append(c.rep.Changes, Change{input, fmt.Sprintf(format, args...)})
}

func (c *checker) path(rel string) string { return filepath.Join(c.dir, filepath.FromSlash(rel)) }

// lockItself checks the root and the form: an edited lock is a change.
func (c *checker) lockItself(data []byte) {
	body := data[:bytes.LastIndex(data, []byte("\nroot "))+1]
	if got := corpus.Hash(body); got != c.l.Root {
		c.change("lock", "its records hash to %s, not to its root %s: the lock was edited after freeze", got, c.l.Root)
	}
	sorted := sort.SliceIsSorted(c.l.Records, func(i, j int) bool { return c.l.Records[i].String() < c.l.Records[j].String() })
	if !sorted {
		c.change("lock", "its records are not sorted: the lock was edited after freeze")
	}
	for i := 1; i < len(c.l.Records); i++ {
		if c.l.Records[i].String() == c.l.Records[i-1].String() {
			c.change("lock", "record %q is repeated: the lock was edited after freeze", c.l.Records[i].String())
		}
	}
	for _, kind := range []string{"corpus", "reference", "extractor"} {
		if n := len(c.l.Find(kind)); n != 1 {
			c.change("lock", "%d %s records, want 1: the lock was edited after freeze", n, kind)
		}
	}
	if n := len(c.l.Find("plan")); n > 1 {
		c.change("lock", "%d plan records, want at most 1: the lock was edited after freeze", n)
	}
}

func (c *checker) corpus() {
	rec, ok := c.l.one("corpus")
	if !ok {
		return
	}
	corpusRel := rec.Fields[0]
	dir := c.path(corpusRel)
	if b, err := readCapped(filepath.Join(dir, corpus.ManifestFile), 1<<30); err != nil {
		c.change("corpus "+rec.Fields[0], "%v", err)
	} else if got := corpus.Hash(b); got != rec.Fields[1] {
		c.change("corpus "+rec.Fields[0], "manifest.json changed: frozen %s, now %s", rec.Fields[1], got)
	}
	store, err := corpus.Open(dir)
	if err != nil {
		c.change("corpus "+rec.Fields[0], "cannot be opened: %v", err)
	}
	var m *corpus.Manifest
	if store != nil {
		m = store.Manifest()
		if ex, ok := c.l.one("extractor"); ok && (m.Extractor.Name != ex.Fields[0] || m.Extractor.Version != ex.Fields[1]) {
			c.change("extractor", "frozen %s %s, the corpus now says %s %s", ex.Fields[0], ex.Fields[1], m.Extractor.Name, m.Extractor.Version)
		}
		limits := map[string]string{}
		for _, r := range c.l.Find("extractor.limit") {
			limits[r.Fields[0]] = r.Fields[1]
		}
		for _, k := range sortedKeys(limits, m.Extractor.Limits) {
			now, ok := m.Extractor.Limits[k]
			switch frozen, was := limits[k]; {
			case !was:
				c.change("extractor.limit "+k, "not frozen; the corpus now sets it to %d", now)
			case !ok:
				c.change("extractor.limit "+k, "frozen %s; the corpus no longer sets it", frozen)
			case frozen != strconv.FormatInt(now, 10):
				c.change("extractor.limit "+k, "frozen %s, the corpus now says %d", frozen, now)
			}
		}
	}

	frozenDocs := map[string]bool{}
	for _, r := range c.l.Find("pdf") {
		name, status, size, sum, rel := r.Fields[0], r.Fields[1], r.Fields[2], r.Fields[3], r.Fields[4]
		frozenDocs[name] = true
		c.rep.PDFs++
		in := "pdf " + name
		gotSize, gotSum, err := corpus.HashFile(c.path(rel))
		switch {
		case errors.Is(err, os.ErrNotExist):
			c.change(in, "missing: no file at %s", rel)
		case err != nil:
			c.change(in, "%s: %v", rel, err)
		case gotSum != sum:
			c.change(in, "%s changed: BLAKE3 frozen %s, now %s (%s bytes frozen, %d now)", rel, sum, gotSum, size, gotSize)
		}
		if m == nil {
			continue
		}
		d, ok := m.Document(name)
		if !ok {
			c.change(in, "no longer in the corpus")
			continue
		}
		if string(d.Status) != status || strconv.FormatInt(d.Bytes, 10) != size || d.BLAKE3 != sum {
			c.change(in, "the corpus entry changed: frozen %s %s bytes %s, now %s %d bytes %s", status, size, sum, d.Status, d.Bytes, d.BLAKE3)
		}
	}
	c.texts(m, frozenDocs)
	if m != nil {
		for _, d := range m.Documents {
			if !frozenDocs[d.Name] {
				c.change(docKind(&d)+" "+d.Name, "added to the corpus after freeze")
			}
		}
	}

	frozenPages := map[string]int{}
	for _, r := range c.l.Find("page") {
		name, pageStr, chars, sum := r.Fields[0], r.Fields[1], r.Fields[2], r.Fields[3]
		in := "page " + name + " " + pageStr
		c.rep.Pages++
		page, ok := c.pageOf(r)
		if !ok {
			continue
		}
		frozenPages[name] = max(frozenPages[name], page)
		d, p := c.corpusPage(m, in, name, page)
		if p == nil {
			continue
		}
		if p.BLAKE3 != sum || strconv.Itoa(p.Chars) != chars {
			c.change(in, "the stored text changed: frozen %s (%s code points), the manifest now says %s (%d)", sum, chars, p.BLAKE3, p.Chars)
			continue
		}
		if _, err := store.Text(d, page); err != nil {
			c.storedFile(in, corpusRel, err, "the stored text was edited: its file no longer hashes to "+sum)
		}
	}
	pinned := c.altsAndBoxes(store, m, corpusRel)
	if m != nil {
		for _, d := range m.Documents {
			if !frozenDocs[d.Name] {
				continue
			}
			if len(d.Pages) > frozenPages[d.Name] {
				c.change(docKind(&d)+" "+d.Name, "has %d pages in the corpus, %d frozen", len(d.Pages), frozenPages[d.Name])
			}
			c.unpinned(&d, frozenPages[d.Name], pinned)
		}
	}
	c.quoteIndex(store, m)
}

// quoteIndex compares the stored quote index with its pin: the manifest's
// record, and the file re-hashed.
func (c *checker) quoteIndex(store *corpus.Store, m *corpus.Manifest) {
	r, pinned := c.l.one("quote-index")
	if m == nil {
		return
	}
	q := m.QuoteIndex
	switch {
	case !pinned && q == nil:
		return
	case !pinned:
		c.change("quote-index "+q.File, "the corpus stores a quote index the lock does not pin: freeze again")
		return
	case q == nil:
		c.change("quote-index "+r.Fields[0], "no longer in the corpus: the manifest records no quote index")
		return
	}
	in := "quote-index " + r.Fields[0]
	c.rep.QuoteIndexes++
	if got := []string{q.File, q.Format, strconv.FormatInt(q.Bytes, 10), q.BLAKE3, q.Sources}; !slices.Equal(got, r.Fields) {
		c.change(in, "the stored quote index changed: frozen %s, the manifest now says %s", strings.Join(r.Fields, " "), strings.Join(got, " "))
		return
	}
	if err := store.CheckQuoteIndex(); err != nil {
		c.change(in, "the stored quote index was edited or is stale: %v", err)
	}
}

// pageOf reads the page number of a page, alt, boxes or layout record (its second
// field), naming the lock edited when it is not one.
func (c *checker) pageOf(r Record) (int, bool) {
	page, err := strconv.Atoi(r.Fields[1])
	if err != nil || page < 1 {
		c.change("lock", "%s record %q has a bad page number: the lock was edited after freeze", r.Kind, r.String())
		return 0, false
	}
	return page, true
}

// corpusPage returns the manifest's entry for the page a record names, or
// nil after naming it gone (or nil when the corpus did not open).
func (c *checker) corpusPage(m *corpus.Manifest, in, name string, page int) (*corpus.Document, *corpus.Page) {
	if m == nil {
		return nil, nil
	}
	d, ok := m.Document(name)
	if !ok || page > len(d.Pages) {
		c.change(in, "no longer in the corpus")
		return nil, nil
	}
	return d, &d.Pages[page-1]
}

// storedFile names what is wrong with a stored file that a corpus.Store
// reader refused; edited is the detail for a file that hashes otherwise.
// A missing file, or a glyph-box file that no longer decompresses, is a
// change like any other, named with its path relative to the lock.
func (c *checker) storedFile(in, corpusRel string, err error, edited string) {
	var ie *corpus.IntegrityError
	switch {
	case !errors.As(err, &ie):
		c.change(in, "%v", err)
	case errors.Is(ie.Err, fs.ErrNotExist):
		c.change(in, "missing: no file at %s", path.Join(corpusRel, ie.File))
	case ie.Err != nil:
		c.change(in, "%s: %v", path.Join(corpusRel, ie.File), ie.Err)
	default:
		c.change(in, "%s", edited)
	}
}

// altsAndBoxes compares every alt and boxes record with the manifest and
// re-reads its file through the corpus.Store reader the verbs use: an
// alternative text re-hashed, a glyph-box file decompressed and re-hashed.
// It returns what the records pin (pinKey).
func (c *checker) altsAndBoxes(store *corpus.Store, m *corpus.Manifest, corpusRel string) map[string]bool {
	pinned := map[string]bool{}
	for _, r := range c.l.Find("alt") {
		name, pageStr, kStr, sum := r.Fields[0], r.Fields[1], r.Fields[2], r.Fields[3]
		in := "alt " + name + " " + pageStr + " " + kStr
		c.rep.Alts++
		page, ok := c.pageOf(r)
		if !ok {
			continue
		}
		k, err := strconv.Atoi(kStr)
		if err != nil || k < 1 {
			c.change("lock", "alt record %q has a bad alternative number: the lock was edited after freeze", r.String())
			continue
		}
		pinned[pinKey(name, page, k)] = true
		d, p := c.corpusPage(m, in, name, page)
		switch {
		case p == nil:
		case k > len(p.Alts):
			c.change(in, "no longer in the corpus: the manifest now records %d alternative texts for the page", len(p.Alts))
		case p.Alts[k-1] != sum:
			c.change(in, "the stored alternative text changed: frozen %s, the manifest now says %s", sum, p.Alts[k-1])
		default:
			if _, err := store.AltText(d, page, k); err != nil {
				c.storedFile(in, corpusRel, err, "the stored alternative text was edited: its file no longer hashes to "+sum)
			}
		}
	}
	for _, r := range c.l.Find("boxes") {
		name, pageStr, sum := r.Fields[0], r.Fields[1], r.Fields[2]
		in := "boxes " + name + " " + pageStr
		c.rep.Boxes++
		page, ok := c.pageOf(r)
		if !ok {
			continue
		}
		pinned[pinKey(name, page, 0)] = true
		d, p := c.corpusPage(m, in, name, page)
		switch {
		case p == nil:
		case p.Boxes == "":
			c.change(in, "no longer in the corpus: the manifest now records no glyph boxes for the page")
		case p.Boxes != sum:
			c.change(in, "the stored glyph boxes changed: frozen %s, the manifest now says %s", sum, p.Boxes)
		default:
			if _, err := store.Boxes(d, page); err != nil {
				c.storedFile(in, corpusRel, err, "the stored glyph boxes were edited: their file no longer decompresses to "+sum)
			}
		}
	}
	for _, r := range c.l.Find("layout") {
		name, pageStr, sum := r.Fields[0], r.Fields[1], r.Fields[2]
		in := "layout " + name + " " + pageStr
		c.rep.Layouts++
		page, ok := c.pageOf(r)
		if !ok {
			continue
		}
		pinned[pinKey(name, page, -1)] = true
		d, p := c.corpusPage(m, in, name, page)
		switch {
		case p == nil:
		case p.Orders == "":
			c.change(in, "no longer in the corpus: the manifest now records no reading orders for the page")
		case p.Orders != sum:
			c.change(in, "the stored reading orders changed: frozen %s, the manifest now says %s", sum, p.Orders)
		default:
			// Orders are read against the page text; a page text that
			// changed is its own record's change.
			var ie *corpus.IntegrityError
			if _, err := store.Orders(d, page); err != nil && !(errors.As(err, &ie) && !strings.HasSuffix(ie.File, ".orders.txt")) {
				c.storedFile(in, corpusRel, err, "the stored reading orders were edited: their file no longer hashes to "+sum)
			}
		}
	}
	return pinned
}

// pinKey identifies alternative text k (1-based) of a page, with k 0 its
// glyph boxes, with k -1 its reading orders.
func pinKey(doc string, page, k int) string {
	return doc + "\x00" + strconv.Itoa(page) + "\x00" + strconv.Itoa(k)
}

// unpinned names the alternative texts and glyph-box files the manifest
// records for the frozen pages of d (1..pages) that the lock does not pin
// (pinned, from altsAndBoxes): added after freeze, or frozen by a
// citecheck that did not pin them.
func (c *checker) unpinned(d *corpus.Document, pages int, pinned map[string]bool) {
	var nAlts, nBoxes, nLayouts int
	for _, p := range d.Pages[:min(pages, len(d.Pages))] {
		if p.Orders != "" && !pinned[pinKey(d.Name, p.Page, -1)] {
			nLayouts++
		}
		for k := range p.Alts {
			if !pinned[pinKey(d.Name, p.Page, k+1)] {
				nAlts++
			}
		}
		if p.Boxes != "" && !pinned[pinKey(d.Name, p.Page, 0)] {
			nBoxes++
		}
	}
	var what []string
	if nAlts > 0 {
		what = append(what, plural(nAlts, "alternative text"))
	}
	if nBoxes > 0 {
		what = append(what, plural(nBoxes, "glyph-box file"))
	}
	if nLayouts > 0 {
		what = append(what, plural(nLayouts, "reading-orders file"))
	}
	if len(what) > 0 {
		c.change(docKind(d)+" "+d.Name, "%s in the corpus not in the lock: added after freeze, or the lock was written by a citecheck that did not pin them (freeze again)", strings.Join(what, " and "))
	}
}

// docKind is the record kind that pins a corpus document: "text" for
// imported page texts, else "pdf".
func docKind(d *corpus.Document) string {
	if _, ok := corpus.TextSource(d.Source); ok {
		return "text"
	}
	return "pdf"
}

// texts re-hashes every folder of imported page texts the lock pins, as
// ImportText hashed it (ingest.ReadTextDocument), naming the pages that
// changed, went missing or were added, and compares it with its corpus
// entry.
func (c *checker) texts(m *corpus.Manifest, frozenDocs map[string]bool) {
	records := c.l.Find("text")
	if len(records) == 0 {
		return
	}
	// The frozen page hashes: for imported text, the page files' own.
	frozenPages := map[string]map[int]string{}
	for _, r := range c.l.Find("page") {
		if page, err := strconv.Atoi(r.Fields[1]); err == nil {
			if frozenPages[r.Fields[0]] == nil {
				frozenPages[r.Fields[0]] = map[int]string{}
			}
			frozenPages[r.Fields[0]][page] = r.Fields[3]
		}
	}
	for _, r := range records {
		name, size, sum, rel := r.Fields[0], r.Fields[1], r.Fields[2], r.Fields[3]
		frozenDocs[name] = true
		c.rep.Texts++
		in := "text " + name
		folder := c.path(rel)
		td, err := ingest.ReadTextDocument(folder, ingest.ImportOptions{})
		if info, serr := os.Stat(folder); errors.Is(serr, os.ErrNotExist) {
			c.change(in, "missing: no folder at %s", rel)
		} else if serr == nil && !info.IsDir() {
			c.change(in, "%s is no longer a folder", rel)
		} else if err != nil {
			c.change(in, "%s changed%s and no longer imports: %v", rel, pageChanges(folder, frozenPages[name]), c.relative(err))
		} else if td.BLAKE3 != sum || strconv.FormatInt(td.Bytes, 10) != size {
			c.change(in, "%s changed%s: BLAKE3 frozen %s, now %s (%s bytes frozen, %d now)", rel, pageChanges(folder, frozenPages[name]), sum, td.BLAKE3, size, td.Bytes)
		}
		if m == nil {
			continue
		}
		d, ok := m.Document(name)
		if !ok {
			c.change(in, "no longer in the corpus")
			continue
		}
		if _, isText := corpus.TextSource(d.Source); !isText || d.Status != corpus.StatusOK || strconv.FormatInt(d.Bytes, 10) != size || d.BLAKE3 != sum {
			c.change(in, "the corpus entry changed: frozen text %s bytes %s, now %s %s %d bytes %s", size, sum, d.Source, d.Status, d.Bytes, d.BLAKE3)
		}
	}
}

// relative names the file of an *ingest.ImportError relative to the
// lock's folder, as the lock names paths.
func (c *checker) relative(err error) error {
	var ie *ingest.ImportError
	if !errors.As(err, &ie) {
		return err
	}
	r, rerr := filepath.Rel(c.dir, ie.File)
	if rerr != nil {
		return err
	}
	cp := *ie
	cp.File = filepath.ToSlash(r)
	return &cp
}

// pageChanges names the page files of folder that differ from the frozen
// page hashes: changed, missing, or added after the last frozen page. It
// returns "" when none does (the fault is elsewhere: a stray file, say).
func pageChanges(folder string, frozen map[int]string) string {
	var out []string
	for page := 1; page <= len(frozen); page++ {
		name := ingest.TextPageName(page)
		b, err := readCapped(filepath.Join(folder, name), ingest.DefaultMaxPageBytes)
		switch {
		case errors.Is(err, os.ErrNotExist):
			out = append(out, name+" missing")
		case err != nil:
			out = append(out, name+" unreadable")
		case corpus.Hash(b) != frozen[page]:
			out = append(out, name+" changed")
		}
	}
	if entries, err := os.ReadDir(folder); err == nil {
		for _, e := range entries {
			if page, ok := ingest.ParseTextPageName(e.Name()); ok && page > len(frozen) {
				out = append(out, e.Name()+" added")
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

func (c *checker) reference() {
	rec, ok := c.l.one("reference")
	if !ok {
		return
	}
	rel, raw, canonical := rec.Fields[0], rec.Fields[1], rec.Fields[2]
	in := "reference " + rel
	frozenQ := map[string]string{}
	var order []string
	for _, r := range c.l.Find("question") {
		frozenQ[r.Fields[0]] = r.Fields[1]
		order = append(order, r.Fields[0])
	}
	data, err := readCapped(c.path(rel), spans.MaxReferenceBytes)
	if err != nil {
		c.change(in, "%v", err)
		return
	}
	rawNow := corpus.Hash(data)
	ref, err := spans.Decode(data, rel)
	if err != nil {
		c.change(in, "changed (BLAKE3 now %s) and no longer decodes: %s", rawNow, firstLine(err.Error()))
		return
	}
	canonNow := corpus.Hash(ref.Canonical())
	switch {
	case rawNow != raw && canonNow == canonical:
		c.change(in, "its bytes changed (BLAKE3 frozen %s, now %s) though its canonical content did not: only formatting was edited", raw, rawNow)
	case rawNow != raw:
		c.change(in, "its content changed: BLAKE3 frozen %s, now %s; canonical frozen %s, now %s", raw, rawNow, canonical, canonNow)
	}
	seen := map[string]bool{}
	for i := range ref.Questions {
		q := &ref.Questions[i]
		seen[q.ID] = true
		c.rep.Questions++
		want, ok := frozenQ[q.ID]
		if !ok {
			c.change("question "+q.ID, "added after freeze")
			continue
		}
		if got := corpus.Hash(spans.CanonicalQuestion(q)); got != want {
			c.change("question "+q.ID, "changed after freeze: %s", c.questionDiff(q))
		}
	}
	sort.Strings(order)
	for _, id := range order {
		if !seen[id] {
			c.change("question "+id, "removed after freeze")
		}
	}
}

// questionDiff names the parts of a question whose hashes differ from the
// frozen question.part records (the lock holds hashes, not content).
func (c *checker) questionDiff(q *spans.Question) string {
	frozen := map[string]string{}
	for _, r := range c.l.Find("question.part") {
		if r.Fields[0] == q.ID {
			frozen[r.Fields[1]] = r.Fields[2]
		}
	}
	now := map[string]string{}
	for part, b := range spans.QuestionParts(q) {
		if part != "id" {
			now[part] = corpus.Hash(b)
		}
	}
	var changed []string
	for _, part := range sortedKeys(frozen, now) {
		f, was := frozen[part]
		n, is := now[part]
		switch {
		case !was:
			changed = append(changed, part+" added")
		case !is:
			changed = append(changed, part+" removed")
		case f != n:
			changed = append(changed, part+" changed")
		}
	}
	if len(changed) == 0 {
		return "its canonical encoding no longer hashes as frozen"
	}
	return strings.Join(changed, ", ")
}

func (c *checker) plan() {
	rec, ok := c.l.one("plan")
	if !ok {
		return
	}
	rel, sum := rec.Fields[0], rec.Fields[1]
	in := "plan " + rel
	data, err := readCapped(c.path(rel), plan.MaxPlanBytes)
	if err != nil {
		c.change(in, "%v", err)
		return
	}
	if got := corpus.Hash(data); got != sum {
		c.change(in, "changed: BLAKE3 frozen %s, now %s", sum, got)
	}
	frozen := map[string]string{}
	for _, r := range c.l.Find("plan.order") {
		frozen[r.Fields[0]] = r.Fields[1]
	}
	p, err := plan.Decode(data, rel)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			c.change(in, "no longer valid: %s", line)
		}
		return
	}
	for _, o := range p.Orders {
		c.rep.Orders++
		rep := strconv.Itoa(o.Repetition)
		want, ok := frozen[rep]
		switch {
		case !ok:
			c.change("plan.order "+rep, "repetition %s added after freeze", rep)
		case orderHash(o) != want:
			c.change("plan.order "+rep, "the question order of repetition %s changed after freeze", rep)
		}
		delete(frozen, rep)
	}
	for _, rep := range sortedKeys(frozen, map[string]string(nil)) {
		c.change("plan.order "+rep, "repetition %s removed after freeze", rep)
	}
}

// toolchain compares the lock's toolchain records with tc: warnings only.
func (c *checker) toolchain(tc Toolchain) {
	key := func(r Record) string {
		if r.Kind == "module" || r.Kind == "unicode" {
			return r.Kind + " " + r.Fields[0]
		}
		return r.Kind
	}
	value := func(r Record) string { return r.Fields[len(r.Fields)-1] }
	frozen := map[string]string{}
	for _, r := range c.l.Records {
		if kinds[r.Kind].toolchain {
			frozen[key(r)] = value(r)
			if r.Kind == "tool" {
				frozen[key(r)] = strings.Join(r.Fields, " ")
			}
		}
	}
	now := map[string]string{}
	for _, r := range tc.records() {
		now[key(r)] = value(r)
		if r.Kind == "tool" {
			now[key(r)] = strings.Join(r.Fields, " ")
		}
	}
	for _, k := range sortedKeys(frozen, now) {
		f, wasFrozen := frozen[k]
		n, isNow := now[k]
		switch {
		case !wasFrozen:
			c.rep.Warnings = append(c.rep.Warnings, Change{k, fmt.Sprintf("not in the freezing toolchain; running %s", n)})
		case !isNow:
			c.rep.Warnings = append(c.rep.Warnings, Change{k, fmt.Sprintf("frozen with %s; not in the running toolchain", f)})
		case f != n:
			c.rep.Warnings = append(c.rep.Warnings, Change{k, fmt.Sprintf("frozen with %s, running %s", f, n)})
		}
	}
}

// sortedKeys returns the union of the keys of a and b, sorted.
func sortedKeys[V1, V2 any](a map[string]V1, b map[string]V2) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readCapped reads a file a lock names, of at most limit bytes. Only a
// regular file (or a link to one) is read: a lock edited to name a FIFO or
// a device would block the verification, which must report, never hang.
func readCapped(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return b, nil
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
