package citations

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listingHash is listing.pdf's identity in richDocuments.
var listingHash = corpus.Hash([]byte("listing.pdf"))

// richDocuments are the test documents with what the persisted index keeps
// beside page texts: reading orders, alternative texts and unmapped glyphs
// on some pages, and documents without text.
func richDocuments() []corpus.MemoryDocument {
	srcs := testDocuments()
	for d := range srcs {
		for p := range srcs[d].Pages {
			sp := &srcs[d].Pages[p]
			if (d+p)%2 == 0 {
				sp.Orders = fuzzOrders(sp.Text)
			}
		}
	}
	page := "Sei x \u2208 U mit x \u0338= 0 und f(x, y) = 1.\n\u25b6 Dann ist U offen."
	srcs = append(srcs,
		corpus.MemoryDocument{Name: "topo.pdf", Pages: []corpus.PageText{{Text: "Kapitel 1"}, {Text: page, Alts: fuzzAlts(page), Orders: fuzzOrders(page)}}},
		corpus.MemoryDocument{Name: "listing.pdf", BLAKE3: listingHash, Pages: []corpus.PageText{
			{Text: "ctx, err \uFFFD\uFFFD NewContext(rs) returns the context\nand an error when 1\uFFFD2 fails"},
			{Text: "Nothing to see on this page\n7"},
		}})
	return srcs
}

func roundTrip(t *testing.T, ix *Index, key [32]byte) (*Index, []byte) {
	t.Helper()
	var buf bytes.Buffer
	blocks, err := WriteIndex(&buf, ix, key)
	require.NoError(t, err)
	b := buf.Bytes()
	fromFile, err := IndexBlocks(b)
	require.NoError(t, err)
	require.Equal(t, blocks, fromFile, "the digest WriteIndex returns is the one of the file's table")
	op, err := OpenIndex(b, key, blocks)
	require.NoError(t, err)
	return op, b
}

// TestIndexFileSameAnswers: an index written and opened again answers
// every query exactly as the index it was written from, at every stage
// (page texts, orders, alternatives, unmapped glyphs, elisions, columns),
// and writes the same bytes again.
func TestIndexFileSameAnswers(t *testing.T) {
	srcs := richDocuments()
	built, err := Build(testcorpus.Memory(t, srcs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if built.orders == nil || built.alts == nil || built.unmapped == nil {
		t.Fatal("the documents do not exercise orders, alternatives and unmapped glyphs")
	}
	key := [32]byte{1, 2, 3}
	opened, b := roundTrip(t, built, key)
	qs := append(queriesOf(srcs), Query{Document: "listing.pdf", Quote: "ctx, err NewContext(rs) returns the context"},
		Query{Document: listingHash, Quote: "returns the context and an error"})
	want := built.LocateAll(qs, 0)
	got := opened.LocateAll(qs, 0)
	levels := map[Level]bool{}
	for i := range qs {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("query %d %+v:\n opened %+v\n  built %+v", i, qs[i], got[i], want[i])
		}
		if got[i].Found() {
			levels[got[i].Level] = true
		}
	}
	for _, l := range []Level{Level(0), JoinedWords, UnmappedGlyphs, GlyphCodes} {
		if !levels[l] {
			t.Errorf("no query found at level %s: the test misses a part of the index", l)
		}
	}
	if !reflect.DeepEqual(opened.Documents(), built.Documents()) {
		t.Error("documents differ")
	}
	for _, d := range built.Documents() {
		for p := 1; p <= built.PageCount(d); p++ {
			a, _ := built.PageText(d, p)
			b, _ := opened.PageText(d, p)
			if a != b || opened.PageCount(d) != built.PageCount(d) {
				t.Errorf("%s page %d differs", d, p)
			}
		}
	}
	// The opened index reads a page's normalized string from its shard
	// (normString) instead of normalizing the page: the same string.
	for p := range built.pages {
		if got, want := opened.normString(p), built.text(p).String(); got != want {
			t.Errorf("page %d: normalized string from the shard %q, normalized %q", p, got, want)
		}
	}
	// With a cache of three pages, pages are dropped and normalized again
	// all the time, by several goroutines at once: the answers stay.
	defer func(n int) { textCache = n }(textCache)
	textCache = 3
	small, err := OpenIndex(b, key, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := small.LocateAll(qs, 4); !reflect.DeepEqual(got, want) {
		t.Error("an index keeping three normalized pages answers otherwise")
	}
	require.NoError(t, opened.Err())
	var again bytes.Buffer
	if _, err := WriteIndex(&again, opened, key); err != nil || !bytes.Equal(again.Bytes(), b) {
		t.Errorf("the opened index writes other bytes (err %v)", err)
	}
	var twice bytes.Buffer
	if _, err := WriteIndex(&twice, built, key); err != nil || !bytes.Equal(twice.Bytes(), b) {
		t.Errorf("writing twice gives other bytes (err %v)", err)
	}
}

// TestIndexFileRefused: an index of other texts, of another version or
// changed since it was written is refused with the error naming why.
func TestIndexFileRefused(t *testing.T) {
	ix := testIndex(t)
	key := [32]byte{9}
	var buf bytes.Buffer
	blocks, err := WriteIndex(&buf, ix, key)
	require.NoError(t, err)
	b := buf.Bytes()
	if _, err := OpenIndex(b, [32]byte{8}, blocks); !errors.Is(err, ErrIndexStale) {
		t.Errorf("other sources: %v", err)
	}
	changed := bytes.Clone(b)
	changed[len(changed)-3] ^= 1
	if _, err := OpenIndex(changed, key, blocks); !errors.Is(err, ErrIndexIntegrity) {
		t.Errorf("a changed byte in the table of block sums: %v", err)
	}
	changed = bytes.Clone(b)
	changed[indexHeaderLen+indexEntryLen+5] ^= 1 // the table of arrays
	if _, err := OpenIndex(changed, key, blocks); !errors.Is(err, ErrIndexIntegrity) {
		t.Errorf("a changed byte in the table of arrays: %v", err)
	}
	v3 := bytes.Clone(b)
	copy(v3, "citecheck-quote-index/4\n")
	if _, err := OpenIndex(v3, key, ""); !errors.Is(err, ErrIndexFormat) {
		t.Errorf("another version: %v", err)
	}
	for _, n := range []int{0, 10, indexHeaderLen, indexHeaderLen + 30, len(b) / 2, len(b) - 1} {
		if _, err := OpenIndex(b[:n], key, ""); !errors.Is(err, ErrIndexFormat) {
			t.Errorf("cut at %d bytes: %v", n, err)
		}
	}
}

// TestIndexBlocksVerifiedWhenRead: an index opened with its digest
// verifies its texts and suffix arrays a block at a time when a lookup
// reads them: a lookup reading a changed block gets a fault (Err), one
// that reads none of it answers as before, with no fault.
func TestIndexBlocksVerifiedWhenRead(t *testing.T) {
	// Two documents of distinct words, each page text larger than a
	// block, so that the last page's stored text lies in blocks nothing
	// else is verified with.
	page := func(doc string, p int) string {
		var sb strings.Builder
		for w := range 3000 {
			fmt.Fprintf(&sb, "%s%dw%04d ", doc, p, w)
		}
		return sb.String()
	}
	srcs := []corpus.MemoryDocument{
		{Name: "a.pdf", Pages: []corpus.PageText{{Text: page("alpha", 1)}, {Text: page("alpha", 2)}}},
		{Name: "b.pdf", Pages: []corpus.PageText{{Text: page("beta", 1)}, {Text: page("beta", 2)}}},
	}
	built, err := Build(testcorpus.Memory(t, srcs), Options{})
	require.NoError(t, err)
	key := [32]byte{4}
	var buf bytes.Buffer
	blocks, err := WriteIndex(&buf, built, key)
	require.NoError(t, err)
	b := buf.Bytes()
	// The stored page texts are array 5 (docs/formats.md#quote-index);
	// change a byte in the middle of b.pdf's page 2, the last page.
	e := b[indexHeaderLen+5*indexEntryLen:]
	off, n := binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
	changed := bytes.Clone(b)
	changed[off+n-uint64(len(srcs[1].Pages[1].Text))/2] ^= 0x01

	inA := Query{Document: "a.pdf", Quote: "alpha1w0100 alpha1w0101 alpha1w0102"}
	inB := Query{Document: "b.pdf", Quote: "beta2w1500 beta2w1501 beta2w1502"}
	ix, err := OpenIndex(changed, key, blocks)
	require.NoError(t, err, "opening reads only the tables")
	require.Equal(t, built.Locate(inA), ix.Locate(inA), "a lookup not reading the changed block answers as before")
	require.NoError(t, ix.Err())
	ix.Locate(inB)
	require.ErrorIs(t, ix.Err(), ErrIndexIntegrity, "a lookup reading the changed block is a fault")
	require.ErrorIs(t, ix.Err(), corpus.ErrIntegrity)
	require.ErrorIs(t, ix.Err(), ErrIndexIntegrity, "the fault stays")

	// Without the digest, the same file opens and reads unverified.
	ix, err = OpenIndex(changed, key, "")
	require.NoError(t, err)
	ix.Locate(inB)
	require.NoError(t, ix.Err())
}

// FuzzOpenIndex: the index reader, given any bytes, returns an error or an
// index whose documents and page texts can be read; it never panics nor
// reads outside the bytes. (A structurally valid but changed index is
// caught by its hash, which OpenIndex checks before reading.)
func FuzzOpenIndex(f *testing.F) {
	ix, err := Build(testcorpus.Memory(f, richDocuments()[len(richDocuments())-2:]), Options{})
	if err != nil {
		f.Fatal(err)
	}
	key := [32]byte{7}
	var buf bytes.Buffer
	if _, err := WriteIndex(&buf, ix, key); err != nil {
		f.Fatal(err)
	}
	b := buf.Bytes()
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add(b[:indexHeaderLen+indexEntryLen*3])
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 64 {
			b = bytes.Clone(b)
			copy(b[32:64], key[:]) // past the binding check
		}
		ix, err := OpenIndex(b, key, "")
		if err != nil {
			if !errors.Is(err, ErrIndexFormat) && !errors.Is(err, ErrIndexStale) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		for _, d := range ix.Documents() {
			for p := 1; p <= ix.PageCount(d); p++ {
				ix.PageText(d, p)
			}
		}
		ix.Size()
		// Verified by the file's own table of sums: a changed block is a
		// fault when read, never a panic.
		blocks, err := IndexBlocks(b)
		require.NoError(t, err)
		ix, err = OpenIndex(b, key, blocks)
		if err != nil {
			require.ErrorIs(t, err, ErrIndexIntegrity)
			return
		}
		for _, d := range ix.Documents() {
			ix.Locate(Query{Document: d, Quote: "Dann ist U offen"})
		}
		if err := ix.Err(); err != nil {
			require.ErrorIs(t, err, ErrIndexIntegrity)
		}
	})
}

// goldenDocuments are richDocuments and a document long enough that its
// shard's suffix arrays carry sampled keys: every section of the file.
func goldenDocuments() []corpus.MemoryDocument {
	pages := make([]corpus.PageText, 40)
	for p := range pages {
		var sb strings.Builder
		for w := range 300 {
			// Arithmetic, not math/rand: the words must not change with Go.
			fmt.Fprintf(&sb, "w%d ", (p*300+w)*7919%10007)
			if w%12 == 11 {
				sb.WriteString("\n")
			}
		}
		pages[p] = corpus.PageText{Text: sb.String()}
	}
	return append(richDocuments(), corpus.MemoryDocument{Name: "long.pdf", Pages: pages})
}

// goldenIndexHash is the BLAKE3 of goldenDocuments' index file. It pins
// the file's bytes: a change to it is a new IndexFormat (older stores are
// refused by name, not misread), never a refactoring.
const goldenIndexHash = "blake3:20fa23be877e76c6fc09d237b188b1d306f8607a1c063df0ee6a421fa7cef831"

// TestIndexFileGolden: the index file of a fixed corpus has the bytes it
// always had.
func TestIndexFileGolden(t *testing.T) {
	ix, err := Build(testcorpus.Memory(t, goldenDocuments()), Options{})
	require.NoError(t, err)
	require.True(t, ix.orders != nil && ix.alts != nil && ix.unmapped != nil, "the corpus misses a section")
	require.NotEmpty(t, ix.shards[len(ix.shards)-1].sa.keys, "no sampled keys")
	var buf bytes.Buffer
	_, err = WriteIndex(&buf, ix, [32]byte{'g', 'o', 'l', 'd'})
	require.NoError(t, err)
	require.Equal(t, goldenIndexHash, corpus.Hash(buf.Bytes()),
		"the index file's bytes changed: that is a new IndexFormat, with this hash updated")
}

// TestIndexFormatDocumented: docs/formats.md lists the index file's
// sections in the order indexSections writes and reads them.
func TestIndexFormatDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "formats.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n## Quote index\n")
	require.True(t, ok, "no quote index section")
	section, _, _ = strings.Cut(section, "\n## ")
	var documented, written []string
	for i, m := range regexp.MustCompile(`(?m)^(\d+)\. ([^:\n]+):`).FindAllStringSubmatch(section, -1) {
		require.Equal(t, fmt.Sprint(i+1), m[1], "section %q", m[2])
		documented = append(documented, m[2])
	}
	for _, s := range indexSections {
		written = append(written, s.name)
	}
	require.Equal(t, written, documented)
}

// TestIndexRecordsAreInt32s: every record type read and written in place
// of an int32 array (records, writeRecords) is made of int32s alone.
func TestIndexRecordsAreInt32s(t *testing.T) {
	var int32s func(reflect.Type) bool
	int32s = func(rt reflect.Type) bool {
		if rt.Kind() == reflect.Int32 {
			return true
		}
		if rt.Kind() != reflect.Struct {
			return false
		}
		for i := range rt.NumField() {
			if !int32s(rt.Field(i).Type) {
				return false
			}
		}
		return true
	}
	for _, v := range []any{indexCounts{}, docRecord{}, pageRecord{}, segment{}, jsegment{}, unmappedRecord{}, altText{}, orderRecord{}, orderRun{}, regionRecord{}} {
		assert.True(t, int32s(reflect.TypeOf(v)), "%T", v)
	}
}

// TestOpenIndexReadsInPlace: an opened index's texts, suffix arrays,
// sampled keys and stored texts are views of the file's bytes, not
// copies: opening costs no more than the tables, whatever the corpus.
func TestOpenIndexReadsInPlace(t *testing.T) {
	ix, err := Build(testcorpus.Memory(t, goldenDocuments()), Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = WriteIndex(&buf, ix, [32]byte{})
	require.NoError(t, err)
	// Mapped files are page-aligned: so are these bytes, 8-aligned at least.
	words := make([]uint64, (buf.Len()+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), buf.Len())
	copy(b, buf.Bytes())
	op, err := OpenIndex(b, [32]byte{}, "")
	require.NoError(t, err)
	inFile := func(what string, p unsafe.Pointer) {
		t.Helper()
		at := uintptr(p) - uintptr(unsafe.Pointer(&b[0]))
		assert.Less(t, at, uintptr(len(b)), "%s is a copy", what)
	}
	sh := &op.shards[0]
	inFile("a shard's text", unsafe.Pointer(unsafe.SliceData(sh.data)))
	inFile("its suffix array", unsafe.Pointer(unsafe.SliceData(sh.sa.sa24)))
	inFile("its sampled keys", unsafe.Pointer(unsafe.SliceData(sh.sa.keys)))
	inFile("its joined text", unsafe.Pointer(unsafe.SliceData(sh.jdata)))
	inFile("a stored page text", unsafe.Pointer(unsafe.StringData(op.rawText(0))))
	inFile("the unmapped glyphs' positions", unsafe.Pointer(unsafe.SliceData(op.unmapped.pages[0].idx)))
	inFile("an alternative's stored text", unsafe.Pointer(unsafe.StringData(op.alts.raw(0))))
	inFile("the orders' text", unsafe.Pointer(unsafe.SliceData(op.orders.shards[0].data)))
	inFile("an order's stored text", unsafe.Pointer(unsafe.StringData(op.orders.pages[0].raw)))
}
