package citations

import (
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/textnorm"
)

// Options tunes index construction.
type Options struct {
	// Workers reading and normalizing pages in parallel; 0 means
	// GOMAXPROCS.
	Workers int
	// ShardChars is the stored page text, in code points, a piece of the
	// index aims at (0: shardChars): a piece is consecutive whole
	// documents, indexed as one shard of page texts and one of reading
	// orders. The tests set it small so that a small corpus makes many.
	ShardChars int
	// SpillDir is where BuildFile keeps the pieces it has built until it
	// writes them ("": os.TempDir): room for about the index's size.
	SpillDir string
}

func (o Options) shardChars() int {
	if o.ShardChars > 0 {
		return o.ShardChars
	}
	return shardChars
}

// ErrDuplicateDocument reports a corpus.Texts giving Build two documents
// with the same name, which no corpus.Texts of package corpus does.
var ErrDuplicateDocument = inputerr.New("two documents with the same name")

// CrossPageWindow is how far, in normalized code points, a quote may reach
// back from a page's end (and forward from the next page's start) when page
// furniture (a footer or page number) sits between the two: the length of
// the excerpts indexed around such page breaks.
const CrossPageWindow = 1000

// maxHits caps the occurrences one substring lookup returns. A pattern that
// occurs more often is a short, common string: the cited document is then
// scanned directly, and the quote counts as frequent for the short-quote
// rule.
const maxHits = 2048

// Index answers quote lookups over every page of a corpus. Build it once;
// it is immutable and safe for concurrent use.
type Index struct {
	profile *textnorm.Profile
	docs    []docEntry // sorted by name
	byHash  map[string]int
	pages   []pageEntry

	// The documents are indexed in shards of about shardChars of text,
	// each with its own suffix arrays: a suffix array much larger than the
	// processor's caches builds several times slower per byte, and shards
	// build in parallel.
	shards []shard

	// unmapped indexes the pages holding unmapped glyphs (unmapped.go);
	// nil when none does.
	unmapped *unmappedIndex
	// alts indexes the pages' alternative texts (glyphcodes.go); nil when
	// no page has any.
	alts *altIndex
	// orders indexes the pages' reading orders (orders.go); nil when no
	// page has any.
	orders *orderIndex
	// asciiSkels keeps the documents' ASCII skeletons (asciiscan.go).
	asciiSkels asciiDocs
	// lost keeps where skeletons hold characters an ASCII-only copy may
	// lose (asciipure.go).
	lost lostChars
	// altSkelCache keeps the documents' alternative texts' skeletons
	// (altsymbols.go).
	altSkelCache altSkelDocs

	// texts holds each page's normalized text: every page's in a built
	// index, only those a lookup touched in an opened one, which
	// normalizes rawText(p) on demand (indexfile.go).
	texts   []atomic.Pointer[textnorm.Text]
	rawText func(p int) string
	kept    []atomic.Int32 // pages kept, +1 (0: none), a ring
	keepAt  atomic.Uint64
	// fullSeg is, per page of an opened index, shard<<32 | segment+1 of
	// the segment holding its whole normalized string (0: none, an empty
	// page), which normString reads instead of normalizing the page.
	fullSeg []uint64

	// blocks verifies an opened index file's bytes as they are read
	// (blocks.go); nil for a built index or one opened without a digest.
	blocks *blockCheck
	// pageFault is the fault of the lowest page whose stored files, read
	// when a lookup first normalizes the page, no longer check (OpenStored).
	faultMu   sync.Mutex
	pageFault error
	faultPage int
}

// Err reports whether what lookups read so far was as written: nil, or a
// fault wrapping corpus.ErrIntegrity, an index block or a stored page text
// changed since (OpenStored, OpenIndex with a digest). A result located
// while Err is not nil may come from changed bytes and must not be used;
// the fault stays. A built index never has one.
func (ix *Index) Err() error {
	if err := ix.blocks.err(); err != nil {
		return err
	}
	ix.faultMu.Lock()
	defer ix.faultMu.Unlock()
	return ix.pageFault
}

// notePageFault keeps err when page p is the lowest page found at fault.
func (ix *Index) notePageFault(p int, err error) {
	ix.faultMu.Lock()
	defer ix.faultMu.Unlock()
	if ix.pageFault == nil || p < ix.faultPage {
		ix.pageFault, ix.faultPage = err, p
	}
}

// normString returns page p's normalized string: in an opened index, the
// bytes its shard holds for it, so that a test of what the page contains
// costs no normalization (and keeps no normalized page).
func (ix *Index) normString(p int) string {
	if ix.fullSeg == nil {
		return ix.text(p).String()
	}
	v := ix.fullSeg[p]
	if v == 0 {
		return ""
	}
	sh := &ix.shards[v>>32]
	k := int(v&(1<<32-1)) - 1
	// Every segment is followed by one separator byte (a space or \f).
	end := len(sh.data) - 1
	if k+1 < len(sh.segs) {
		end = int(sh.segs[k+1].at) - 1
	}
	if at := int(sh.segs[k].at); at <= end && end <= len(sh.data) {
		ix.blocks.bytes(sh.data[at:end])
		return unsafe.String(unsafe.SliceData(sh.data[at:]), end-at)
	}
	return ix.text(p).String() // a damaged file: what its page text says
}

// text returns page p's normalized text.
func (ix *Index) text(p int) *textnorm.Text {
	if t := ix.texts[p].Load(); t != nil {
		return t
	}
	// Two goroutines may normalize one page at once; both get equal
	// texts, and one is kept.
	t := ix.profile.Normalize(ix.rawText(p))
	if ix.texts[p].CompareAndSwap(nil, t) {
		ix.keep(p)
	}
	return t
}

// textCache is how many normalized pages an opened index keeps (about 11
// bytes per code point each): beyond it, each page normalized drops the
// one kept longest, so memory does not grow with the pages lookups visit.
var textCache = 4096 // a variable for the tests

// keep records page p as kept, dropping the page kept longest when the
// cache is full (an opened index only).
func (ix *Index) keep(p int) {
	if len(ix.kept) == 0 {
		return
	}
	slot := (ix.keepAt.Add(1) - 1) % uint64(len(ix.kept))
	if old := ix.kept[slot].Swap(int32(p) + 1); old > 0 && int(old-1) != p {
		ix.texts[old-1].Store(nil) // a lookup holding it keeps its copy
	}
}

// shardChars is the text a piece aims at by default (Options.ShardChars):
// suffix arrays of a few MiB build two to three times faster per byte
// than one of 8 MiB (docs/benchmarks.md), and a piece's working memory is
// about 40 bytes per code point (BuildFile).
const shardChars = 2 << 20

// shard is one group of consecutive documents.
type shard struct {
	// data is the normalized text of its documents: each document's pages
	// joined by one space (a page break reads as a line break, which
	// normalizes to a space), then excerpts joined across page furniture,
	// each fragment ended by a form feed, which no normalized text
	// contains.
	data []byte
	sa   suffixes
	segs []segment // sorted by at

	// jdata is the Joined form of every page, each ended by a form feed.
	jdata []byte
	jsa   suffixes
	jsegs []jsegment

	// sk holds every page's skeleton (skeleton.go).
	sk skelIndex
}

type docEntry struct {
	name, hash     string
	status         corpus.Status
	first, n       int // pages[first : first+n]
	shard          int
	regFrom, regTo int // byte range of this document's fragments in its shard's data
}

type pageEntry struct {
	doc    int
	num    int // 1-based
	label  string
	flags  []string
	docPos int // normalized offset of the page's start in its document's full fragment
	// The page's content without leading and trailing furniture, in
	// normalized code points.
	contentFrom, contentTo int
}

// segment is a run of one page's normalized text inside data. Its fields
// are the index file's segment record, in order (indexsections.go).
type segment struct {
	at       int32 // byte offset in data
	page     int32
	from, to int32 // normalized code points in the page
	fromByte int32 // byte offset of from in the page's normalized string
	next     int32 // the segment that follows after one space, or -1
}

// jsegment is a page's start in jdata, and the index file's joined-segment
// record.
type jsegment struct {
	at   int32
	page int32
}

// NewIndex is Build(store, opts): it reads every page of store, each
// checked against the manifest's hash (corpus.ErrIntegrity otherwise: an
// index over altered text would report false offsets).
func NewIndex(store *corpus.Store, opts Options) (*Index, error) {
	return Build(store, opts)
}

// parallel runs f(0..n-1) on workers goroutines (0: GOMAXPROCS).
func parallel(n, workers int, f func(int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// readPage reads page i of doc from texts (its text, alternative texts
// and reading orders), checks them and normalizes the text.
func (ix *Index) readPage(texts corpus.Texts, doc *corpus.Document, i int, names []string) ([]string, []corpus.Order, error) {
	pe := &ix.pages[i]
	raw, err := texts.Text(doc, pe.num)
	var alts []string
	if err == nil {
		alts, err = texts.AltTexts(doc, pe.num)
	}
	var orders []corpus.Order
	if err == nil {
		orders, err = texts.OrdersOf(doc, pe.num, raw)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("citations: read corpus: %w", err)
	}
	if err := checkAlts(doc.Name, pe.num, alts, raw); err != nil {
		return nil, nil, err
	}
	if err := checkOrders(doc.Name, pe.num, orders, raw); err != nil {
		return nil, nil, err
	}
	t := ix.profile.Normalize(raw)
	ix.texts[i].Store(t)
	pe.contentFrom, pe.contentTo = furniture(t, names)
	return alts, orders, nil
}

// segAt returns the segment holding byte offset b of the shard's data.
func (sh *shard) segAt(b int) int {
	return sort.Search(len(sh.segs), func(i int) bool { return int(sh.segs[i].at) > b }) - 1
}

func (sh *shard) jsegAt(b int) int {
	return sort.Search(len(sh.jsegs), func(i int) bool { return int(sh.jsegs[i].at) > b }) - 1
}

// Profile returns the normalization profile the index applies to page texts
// and quotes (quote/v1 with every corpus file name as a footer name).
func (ix *Index) Profile() *textnorm.Profile { return ix.profile }

// Documents returns the indexed document names, sorted.
func (ix *Index) Documents() []string {
	out := make([]string, len(ix.docs))
	for i, d := range ix.docs {
		out[i] = d.name
	}
	return out
}

// PageCount is the number of pages of a document (0 when it is unknown or
// has no text).
func (ix *Index) PageCount(doc string) int {
	if d, ok := ix.docIndex(doc); ok {
		return ix.docs[d].n
	}
	return 0
}

// PageText returns the stored (raw) text of a page, 1-based.
func (ix *Index) PageText(doc string, page int) (string, bool) {
	d, ok := ix.docIndex(doc)
	if !ok || page < 1 || page > ix.docs[d].n {
		return "", false
	}
	p := ix.docs[d].first + page - 1
	if ix.rawText != nil {
		return ix.rawText(p), true // an opened index: no need to normalize
	}
	return ix.text(p).Raw(), true
}

// Size reports the bytes of normalized text indexed (data) and of its
// joined form, for benchmarks.
func (ix *Index) Size() (text, joined int) {
	for i := range ix.shards {
		text += len(ix.shards[i].data)
		joined += len(ix.shards[i].jdata)
	}
	return text, joined
}

// SkeletonSize reports the bytes of skeletons indexed (skeleton.go), of
// the page texts and of the reading orders, for benchmarks.
func (ix *Index) SkeletonSize() (pages, orders int) {
	for i := range ix.shards {
		pages += len(ix.shards[i].sk.data)
	}
	if ix.orders != nil {
		for i := range ix.orders.shards {
			orders += len(ix.orders.shards[i].sk.data)
		}
	}
	return pages, orders
}

func (ix *Index) docIndex(name string) (int, bool) {
	i := sort.Search(len(ix.docs), func(i int) bool { return ix.docs[i].name >= name })
	if i < len(ix.docs) && ix.docs[i].name == name {
		return i, true
	}
	if d, ok := ix.byHash[name]; ok {
		return d, true
	}
	return 0, false
}

// Page furniture: a last or first line that is only a page number, or the
// "<file name> Page <N>" footer of the scoring policy. Only these are
// skipped when a quote crosses a page break; running heads with words are
// not recognised (see BUG in doc.go).
var pageNumberLine = regexp.MustCompile(`^(?i)[\s\-–—\[(]*(page|p\.|pg\.?|seite|pagina|página)?\s*(\d{1,4}|[ivxlcdm]{1,7})(\s*(of|/|von|de)\s*\d{1,4})?[\s\-–—\])]*$`)

var footerTail = regexp.MustCompile(` Page \d+$`)

func isFurniture(line string, names []string) bool {
	line = strings.TrimSpace(line)
	if line == "" || utf8.RuneCountInString(line) > 80 {
		return false
	}
	if pageNumberLine.MatchString(line) {
		return true
	}
	if loc := footerTail.FindStringIndex(line); loc != nil {
		name := strings.TrimSpace(line[:loc[0]])
		i := sort.SearchStrings(names, name)
		return i < len(names) && names[i] == name
	}
	return false
}

// furniture returns the normalized range of a page's content: without up
// to two furniture lines at its end and at its start.
func furniture(t *textnorm.Text, names []string) (from, to int) {
	from, to = 0, t.Len()
	raw := t.Raw()
	if to == 0 {
		return
	}
	type line struct{ start, end int } // raw code points
	var lines []line
	cp, start := 0, 0
	for _, r := range raw {
		if r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0x85 || r == 0x2028 || r == 0x2029 {
			lines = append(lines, line{start, cp})
			start = cp + 1
		}
		cp++
	}
	lines = append(lines, line{start, cp})
	nonBlank := func(l line) bool { return strings.TrimSpace(t.RawSlice(l.start, l.end)) != "" }
	var content []line
	for _, l := range lines {
		if nonBlank(l) {
			content = append(content, l)
		}
	}
	if len(content) < 2 {
		return
	}
	// Trailing furniture.
	k := len(content)
	for k > len(content)-2 && k > 1 && isFurniture(t.RawSlice(content[k-1].start, content[k-1].end), names) {
		k--
	}
	if k < len(content) {
		to = normAtRaw(t, content[k].start)
		for to > 0 && t.Slice(to-1, to) == " " {
			to--
		}
	}
	// Leading furniture.
	h := 0
	for h < 2 && h < k-1 && isFurniture(t.RawSlice(content[h].start, content[h].end), names) {
		h++
	}
	if h > 0 {
		from = normAtRaw(t, content[h].start)
	}
	if from > to {
		from = to
	}
	return
}

// normAtRaw is the first normalized position whose raw span starts at or
// after raw code point r.
func normAtRaw(t *textnorm.Text, r int) int {
	return sort.Search(t.Len(), func(n int) bool {
		a, _ := t.RawSpan(n, n+1)
		return a >= r
	})
}
