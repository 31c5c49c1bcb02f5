package citations

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"
	"github.com/zeebo/blake3"
)

// IndexFormat names the on-disk quote index (WriteIndex, OpenIndex); the
// layout is described in docs/formats.md#quote-index. Any change to what
// the index holds or to how textnorm normalizes a page under its profile
// changes this name: an index of another version is refused, not read.
const IndexFormat = "citecheck-quote-index/3"

// ErrIndexFormat reports bytes that are not a quote index of this version;
// ErrIndexStale an index built from other texts than the caller's;
// ErrIndexIntegrity an index whose bytes no longer hash as recorded.
var (
	ErrIndexFormat    = errors.New("not a " + IndexFormat + " quote index")
	ErrIndexStale     = errors.New("quote index built from other page texts")
	ErrIndexIntegrity = fmt.Errorf("quote index changed since it was written: %w", corpus.ErrIntegrity)
)

const (
	indexHeaderLen = 128
	indexEntryLen  = 24
	// Element kinds of the arrays: their size in bytes.
	kindBytes = 1
	kindInt24 = 3 // suffix arrays over at most 16 MiB
	kindInt32 = 4
	kindInt64 = 8
)

// Record widths, in int32s, of the tables (docs/formats.md#quote-index).
const (
	docWidth      = 11
	pageWidth     = 9
	segWidth      = 6
	jsegWidth     = 2
	unmappedWidth = 4
	altWidth      = 3
	orderWidth    = 6
	runWidth      = 3
	regionWidth   = 4
)

// writer lays out the arrays of an index file: a header, a table of
// arrays, then each array at an 8-byte-aligned offset.
// The arrays are kept by reference and encoded as they are written, so
// that writing costs no second copy of the suffix arrays.
type writer struct {
	arrays []array
}

type array struct {
	kind uint32
	b    []byte
	i32  []int32
	i64  []int64
}

// count is the number of elements: b holds them encoded, i32 and i64
// decoded.
func (a *array) count() uint64 { return uint64(len(a.b)/int(a.kind) + len(a.i32) + len(a.i64)) }

func (w *writer) bytes(b []byte)   { w.arrays = append(w.arrays, array{kind: kindBytes, b: b}) }
func (w *writer) int32s(v []int32) { w.arrays = append(w.arrays, array{kind: kindInt32, i32: v}) }
func (w *writer) int64s(v []int64) { w.arrays = append(w.arrays, array{kind: kindInt64, i64: v}) }

// suffixes writes x's array, in 24-bit entries when they fit, then its
// sampled keys (none for a small array).
func (w *writer) suffixes(x *suffixes) {
	kind := uint32(kindInt32)
	if x.sa == nil || len(x.data) <= maxSuffixes24 { // nil: opened from a file in 24 bits
		kind = kindInt24
	}
	w.suffixesAs(x, kind)
}

func (w *writer) suffixesAs(x *suffixes, kind uint32) {
	if x.sa == nil {
		w.arrays = append(w.arrays, array{kind: kind, b: x.sa24})
	} else {
		w.arrays = append(w.arrays, array{kind: kind, i32: x.sa})
	}
	var keys []int64
	if len(x.keys) > 0 {
		keys = unsafe.Slice((*int64)(unsafe.Pointer(&x.keys[0])), len(x.keys))
	}
	w.int64s(keys)
}

func pad8(n uint64) uint64 { return (n + 7) &^ 7 }

// strtab collects the strings of the tables in one byte array.
type strtab struct{ b []byte }

func (s *strtab) add(x string) (off, n int32) {
	off = int32(len(s.b))
	s.b = append(s.b, x...)
	return off, int32(len(x))
}

// WriteIndex writes ix in the IndexFormat, bound to sources: a digest of
// the texts it was built from, which OpenIndex must be given again. The
// bytes depend only on the index and sources (no time, no paths). blocks
// is the digest of the file's table of block sums ("blake3:<hex>"), which
// OpenIndex verifies the file by.
func WriteIndex(w io.Writer, ix *Index, sources [32]byte) (blocks string, err error) {
	var fw writer
	var st strtab
	orderPages, orderShards := 0, 0
	if ix.orders != nil {
		orderPages, orderShards = len(ix.orders.pages), len(ix.orders.shards)
	}
	nUnmapped, nAlts := 0, 0
	if ix.unmapped != nil {
		nUnmapped = len(ix.unmapped.pages)
	}
	if ix.alts != nil {
		nAlts = len(ix.alts.alts)
	}
	fw.int32s([]int32{int32(len(ix.docs)), int32(len(ix.pages)), int32(len(ix.shards)), int32(nUnmapped), int32(nAlts), int32(orderPages), int32(orderShards)})
	docs := make([]int32, 0, docWidth*len(ix.docs))
	for _, d := range ix.docs {
		no, nl := st.add(d.name)
		ho, hl := st.add(d.hash)
		so, sl := st.add(string(d.status))
		docs = append(docs, no, nl, ho, hl, so, sl, int32(d.first), int32(d.n), int32(d.shard), int32(d.regFrom), int32(d.regTo))
	}
	pages := make([]int32, 0, pageWidth*len(ix.pages))
	rawOffs := make([]int64, 1, len(ix.pages)+1)
	var raw []byte
	for p, pe := range ix.pages {
		lo, ll := st.add(pe.label)
		fo, fl := st.add(strings.Join(pe.flags, "\n"))
		pages = append(pages, int32(pe.doc), int32(pe.num), lo, ll, fo, fl, int32(pe.docPos), int32(pe.contentFrom), int32(pe.contentTo))
		raw = append(raw, ix.text(p).Raw()...)
		rawOffs = append(rawOffs, int64(len(raw)))
	}
	var orders []int32
	var runs []int32
	var orderRaw []byte
	orderOffs := []int64{0}
	if ix.orders != nil {
		for _, op := range ix.orders.pages {
			no, nl := st.add(op.name)
			orders = append(orders, op.page, op.fb, no, nl, int32(len(runs)/runWidth), int32(len(runs)/runWidth+len(op.runs)))
			for _, r := range op.runs {
				runs = append(runs, r.at, r.from, r.n)
			}
			orderRaw = append(orderRaw, op.raw...)
			orderOffs = append(orderOffs, int64(len(orderRaw)))
		}
	}
	fw.bytes(st.b)
	fw.int32s(docs)
	fw.int32s(pages)
	fw.int64s(rawOffs)
	fw.bytes(raw)
	for i := range ix.shards {
		sh := &ix.shards[i]
		segs := make([]int32, 0, segWidth*len(sh.segs))
		for _, s := range sh.segs {
			segs = append(segs, s.at, s.page, s.from, s.to, s.fromByte, s.next)
		}
		jsegs := make([]int32, 0, jsegWidth*len(sh.jsegs))
		for _, s := range sh.jsegs {
			jsegs = append(jsegs, s.at, s.page)
		}
		fw.bytes(sh.data)
		fw.suffixes(&sh.sa)
		fw.int32s(segs)
		fw.bytes(sh.jdata)
		fw.suffixes(&sh.jsa)
		fw.int32s(jsegs)
	}
	if um := ix.unmapped; um != nil {
		var recs, idx []int32
		for _, up := range um.pages {
			recs = append(recs, up.at, up.page, int32(len(idx)), int32(len(idx)+len(up.idx)))
			idx = append(idx, up.idx...)
		}
		fw.bytes(um.data)
		fw.suffixes(&um.sa)
		fw.int32s(recs)
		fw.int32s(idx)
	}
	if ai := ix.alts; ai != nil {
		var recs []int32
		var araw []byte
		offs := []int64{0}
		for k, a := range ai.alts {
			recs = append(recs, a.at, a.jat, a.page)
			t, _ := ix.altForms(k)
			araw = append(araw, t.Raw()...)
			offs = append(offs, int64(len(araw)))
		}
		fw.int32s(recs)
		fw.int64s(offs)
		fw.bytes(araw)
		fw.bytes(ai.data)
		fw.suffixes(&ai.sa)
		fw.bytes(ai.jdata)
		fw.suffixes(&ai.jsa)
	}
	if oi := ix.orders; oi != nil {
		fw.int32s(orders)
		fw.int32s(runs)
		fw.int64s(orderOffs)
		fw.bytes(orderRaw)
		for i := range oi.shards {
			sh := &oi.shards[i]
			ps := make([]int32, len(sh.pages))
			for k, p := range sh.pages {
				ps[k] = int32(p)
			}
			fw.bytes(sh.data)
			fw.suffixes(&sh.sa)
			fw.int32s(ps)
		}
		docs := make([]int, 0, len(oi.byDoc))
		for d := range oi.byDoc {
			docs = append(docs, d)
		}
		sort.Ints(docs)
		var regions []int32
		for _, d := range docs {
			r := oi.byDoc[d]
			regions = append(regions, int32(d), int32(r.shard), int32(r.from), int32(r.to))
		}
		fw.int32s(regions)
	}
	return fw.write(w, ix.profile.Name(), sources)
}

func (fw *writer) write(w io.Writer, profile string, sources [32]byte) (string, error) {
	head := make([]byte, indexHeaderLen, indexHeaderLen+indexEntryLen*len(fw.arrays))
	copy(head, IndexFormat+"\n")
	copy(head[32:64], sources[:])
	copy(head[64:80], profile)
	binary.LittleEndian.PutUint32(head[80:], uint32(len(fw.arrays)))
	off := pad8(uint64(indexHeaderLen + indexEntryLen*len(fw.arrays)))
	for _, a := range fw.arrays {
		head = binary.LittleEndian.AppendUint32(head, a.kind)
		head = binary.LittleEndian.AppendUint32(head, 0)
		head = binary.LittleEndian.AppendUint64(head, off)
		head = binary.LittleEndian.AppendUint64(head, a.count())
		off = pad8(off + a.count()*uint64(a.kind))
	}
	binary.LittleEndian.PutUint32(head[84:], indexBlockShift)
	binary.LittleEndian.PutUint64(head[88:], off) // where the block sums start
	out := bufio.NewWriterSize(w, 1<<20)
	bw := &blockSummer{w: out, h: blake3.New()}
	var zeros [8]byte
	var buf [64 << 10]byte
	bw.Write(head)
	bw.Write(zeros[:pad8(uint64(len(head)))-uint64(len(head))])
	for _, a := range fw.arrays {
		bw.Write(a.b)
		for v := a.i32; len(v) > 0; {
			chunk := v[:min(len(v), len(buf)/4)]
			n := 0
			for _, x := range chunk {
				binary.LittleEndian.PutUint32(buf[n:], uint32(x))
				n += int(a.kind) // 3: the top byte, zero, is overwritten
			}
			bw.Write(buf[:n])
			v = v[len(chunk):]
		}
		for _, x := range a.i64 {
			binary.LittleEndian.PutUint64(buf[:], uint64(x))
			bw.Write(buf[:8])
		}
		n := a.count() * uint64(a.kind)
		bw.Write(zeros[:pad8(n)-n])
	}
	sums := bw.finish()
	out.Write(sums)
	return corpus.Hash(sums), out.Flush()
}

// blockSummer passes bytes on, summing each block of 1<<indexBlockShift.
type blockSummer struct {
	w    io.Writer
	h    *blake3.Hasher
	fill int
	sums []byte
}

func (b *blockSummer) Write(p []byte) (int, error) {
	n, err := b.w.Write(p)
	for p := p[:n]; len(p) > 0; {
		k := min(len(p), 1<<indexBlockShift-b.fill)
		b.h.Write(p[:k])
		b.fill += k
		p = p[k:]
		if b.fill == 1<<indexBlockShift {
			b.sums = b.h.Sum(b.sums)
			b.h.Reset()
			b.fill = 0
		}
	}
	return n, err
}

// finish sums the last, partial block and returns the table of sums.
func (b *blockSummer) finish() []byte {
	if b.fill > 0 {
		b.sums = b.h.Sum(b.sums)
	}
	return b.sums
}

// IndexInfo is what an index file's header says.
type IndexInfo struct {
	Format  string
	Profile string
	Sources [32]byte
	// Blocks is where the table of block sums starts: the bytes before it
	// are summed in blocks of 1<<BlockShift bytes, 32 bytes per block.
	Blocks     int64
	BlockShift uint
}

// reader hands out the arrays of an index file in order.
type reader struct {
	b      []byte
	table  []byte
	next   int
	err    error
	narray int
	// eager lists the arrays OpenIndex verifies on opening: all but the
	// ones read lazily (texts and suffix arrays), whose blocks are
	// verified when a lookup reads them.
	eager [][]byte
	lazy  bool
	chk   *blockCheck
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrIndexFormat, fmt.Sprintf(format, args...))
	}
}

func (r *reader) array(kind uint32) []byte {
	if r.err != nil {
		return nil
	}
	if r.next >= r.narray {
		r.fail("array %d: the table lists %d", r.next, r.narray)
		return nil
	}
	e := r.table[r.next*indexEntryLen:]
	r.next++
	k, off, n := binary.LittleEndian.Uint32(e), binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
	if k != kind {
		r.fail("array %d: element size %d, want %d", r.next-1, k, kind)
		return nil
	}
	if off%8 != 0 || n > uint64(len(r.b)) || off > uint64(len(r.b)) || n*uint64(k) > uint64(len(r.b))-off {
		r.fail("array %d: %d elements at %d out of the file's %d bytes", r.next-1, n, off, len(r.b))
		return nil
	}
	b := r.b[off : off+n*uint64(k)]
	if !r.lazy {
		r.eager = append(r.eager, b)
	}
	return b
}

func (r *reader) bytes() []byte { return r.array(kindBytes) }

// lazyBytes hands out an array verified when read.
func (r *reader) lazyBytes() []byte {
	r.lazy = true
	defer func() { r.lazy = false }()
	return r.bytes()
}

// suffixes hands out the suffix array over data, of 24- or 32-bit
// entries, and its sampled keys, verified when read; it must have one
// entry per byte and, if any, one key per keyStep entries. Its entries
// are checked by Lookup, not here: reading every entry would cost the
// time an index file saves.
func (r *reader) suffixes(data []byte) suffixes {
	r.lazy = true
	defer func() { r.lazy = false }()
	var x suffixes
	if r.err == nil && r.next < r.narray && binary.LittleEndian.Uint32(r.table[r.next*indexEntryLen:]) == kindInt24 {
		x = mkSuffixes(data, nil, r.array(kindInt24), nil)
		if x.sa24 == nil {
			x.sa24 = []byte{} // empty, not 32-bit
		}
	} else {
		x = mkSuffixes(data, r.int32s(1), nil, nil)
	}
	x.keys = r.uint64s()
	x.chk = r.chk
	if r.err == nil && x.len() != len(data) {
		r.fail("a suffix array of %d entries for %d bytes", x.len(), len(data))
	}
	if r.err == nil && len(x.keys) > 0 && len(x.keys) != (x.len()+keyStep-1)/keyStep {
		r.fail("%d sampled keys for a suffix array of %d entries", len(x.keys), x.len())
	}
	if len(x.keys) == 0 {
		x.keys = nil
	}
	return x
}

// uint64s returns an int64 array as uint64s (decoded as int32s are).
func (r *reader) uint64s() []uint64 { return decoded[uint64](r, r.array(kindInt64)) }

// int32s returns an int32 array of records of width values.
func (r *reader) int32s(width int) []int32 {
	b := r.array(kindInt32)
	if len(b)/4%width != 0 {
		r.fail("array %d: %d values, not records of %d", r.next-1, len(b)/4, width)
		return nil
	}
	return decoded[int32](r, b)
}

// decoded returns the little-endian values of b in place when the
// machine is little-endian and b aligned (a mapped file always is), else
// a decoded copy.
func decoded[T int32 | uint64](r *reader, b []byte) []T {
	size := int(unsafe.Sizeof(T(0)))
	if len(b) == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%uintptr(size) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
	}
	if r.lazy { // a copy leaves the file's bytes unread: verify them now
		r.eager = append(r.eager, b)
	}
	v := make([]T, len(b)/size)
	for i := range v {
		if size == 4 {
			v[i] = T(binary.LittleEndian.Uint32(b[4*i:]))
		} else {
			v[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	return v
}

func (r *reader) int64s() []int64 {
	b := r.array(kindInt64)
	v := make([]int64, len(b)/8)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// ReadIndexInfo reads the header of an index file.
func ReadIndexInfo(b []byte) (IndexInfo, error) {
	if len(b) < indexHeaderLen || string(b[:len(IndexFormat)+1]) != IndexFormat+"\n" {
		if i := bytes.IndexByte(b[:min(len(b), 32)], '\n'); i > 0 && strings.HasPrefix(string(b), "citecheck-quote-index/") {
			return IndexInfo{}, fmt.Errorf("%w: format %q", ErrIndexFormat, b[:i])
		}
		return IndexInfo{}, ErrIndexFormat
	}
	info := IndexInfo{Format: IndexFormat, Profile: strings.TrimRight(string(b[64:80]), "\x00"),
		BlockShift: uint(binary.LittleEndian.Uint32(b[84:])), Blocks: int64(binary.LittleEndian.Uint64(b[88:]))}
	copy(info.Sources[:], b[32:64])
	if info.BlockShift < 10 || info.BlockShift > 30 || info.Blocks < indexHeaderLen || info.Blocks > int64(len(b)) ||
		int64(len(b))-info.Blocks != 32*((info.Blocks+1<<info.BlockShift-1)>>info.BlockShift) {
		return IndexInfo{}, fmt.Errorf("%w: block sums at %d, blocks of 2^%d bytes, in %d bytes", ErrIndexFormat, info.Blocks, info.BlockShift, len(b))
	}
	return info, nil
}

// IndexBlocks is the digest of an index file's table of block sums, as
// WriteIndex returns it, computed from the file's bytes.
func IndexBlocks(b []byte) (string, error) {
	info, err := ReadIndexInfo(b)
	if err != nil {
		return "", err
	}
	return corpus.Hash(b[info.Blocks:]), nil
}

// OpenIndex reads an index file's bytes (usually mapped: MapFile) without
// copying its texts and suffix arrays, which stay in b: b must not change
// while the Index is in use. sources must be the digest the index was
// written with (ErrIndexStale otherwise).
//
// With blocks, the digest WriteIndex returned, the file's table of block
// sums is checked against it, the tables decoded here are verified block
// by block, and the texts and suffix arrays a block at a time when a
// lookup first reads them: a changed block read is a fault, reported by
// Err and wrapping ErrIndexIntegrity. Without blocks, only the file's
// structure is checked, which keeps OpenIndex and lookups from failing in
// any other way than an error, but not a changed text or array from
// giving wrong answers. Page texts are normalized when a lookup first
// touches them.
func OpenIndex(b []byte, sources [32]byte, blocks string) (*Index, error) {
	info, err := ReadIndexInfo(b)
	if err != nil {
		return nil, err
	}
	if info.Sources != sources {
		return nil, ErrIndexStale
	}
	body := b[:info.Blocks]
	var chk *blockCheck
	if blocks != "" {
		if got := corpus.Hash(b[info.Blocks:]); got != blocks {
			return nil, fmt.Errorf("%w: its table of block sums hashes to %s, the manifest records %s", ErrIndexIntegrity, got, blocks)
		}
		chk = newBlockCheck(body, b[info.Blocks:], info.BlockShift)
	}
	ix, eager, err := decodeIndex(body, info, chk)
	for _, e := range eager {
		chk.bytes(e)
	}
	// A file that fails to decode may have been changed: say so rather
	// than that it is malformed, when its blocks show it.
	if ferr := chk.err(); ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, err
	}
	ix.blocks = chk
	return ix, nil
}

// newReader reads the table of arrays of b, an index file up to its
// block sums (ReadIndexInfo checked its header).
func newReader(b []byte, chk *blockCheck) (*reader, error) {
	n := uint64(binary.LittleEndian.Uint32(b[80:]))
	if n > (uint64(len(b))-indexHeaderLen)/indexEntryLen {
		return nil, fmt.Errorf("%w: %d arrays in %d bytes", ErrIndexFormat, n, len(b))
	}
	r := &reader{b: b, table: b[indexHeaderLen : indexHeaderLen+n*indexEntryLen], narray: int(n), chk: chk}
	r.eager = append(r.eager, b[:indexHeaderLen+n*indexEntryLen])
	return r, nil
}

func decodeIndex(b []byte, info IndexInfo, chk *blockCheck) (*Index, [][]byte, error) {
	r, err := newReader(b, chk)
	if err != nil {
		return nil, nil, err
	}
	counts := r.int32s(7)
	if r.err != nil || len(counts) != 7 {
		r.fail("no counts")
		return nil, r.eager, r.err
	}
	for _, c := range counts {
		if c < 0 || int64(c) > int64(len(b)) {
			r.fail("count %d", c)
			return nil, r.eager, r.err
		}
	}
	nDocs, nPages, nShards, nUnmapped, nAlts, nOrders, nOrderShards := int(counts[0]), int(counts[1]), int(counts[2]), int(counts[3]), int(counts[4]), int(counts[5]), int(counts[6])
	strs := r.bytes()
	str := func(off, l int32) string {
		if off < 0 || l < 0 || int64(off)+int64(l) > int64(len(strs)) {
			r.fail("string at %d+%d out of %d bytes", off, l, len(strs))
			return ""
		}
		return string(strs[off : off+l])
	}
	ix := &Index{byHash: map[string]int{}}
	docs := r.int32s(docWidth)
	if r.err == nil && len(docs) != nDocs*docWidth {
		r.fail("%d document records for %d documents", len(docs)/docWidth, nDocs)
	}
	names := make([]string, 0, nDocs)
	for d := 0; r.err == nil && d < nDocs; d++ {
		v := docs[d*docWidth:]
		e := docEntry{name: str(v[0], v[1]), hash: str(v[2], v[3]), status: corpus.Status(str(v[4], v[5])),
			first: int(v[6]), n: int(v[7]), shard: int(v[8]), regFrom: int(v[9]), regTo: int(v[10])}
		if e.name == "" || d > 0 && e.name <= names[d-1] {
			r.fail("document %d: no name, or %q not after the one before", d, e.name)
		}
		if e.first < 0 || e.n < 0 || e.first > nPages || e.n > nPages-e.first || e.shard < 0 || e.shard >= max(nShards, 1) || e.regFrom < 0 || e.regFrom > e.regTo {
			r.fail("document %d: pages %d+%d of %d, shard %d of %d, region %d-%d", d, e.first, e.n, nPages, e.shard, nShards, e.regFrom, e.regTo)
		}
		names = append(names, e.name)
		if e.hash != "" {
			ix.byHash[e.hash] = d
		}
		ix.docs = append(ix.docs, e)
	}
	if r.err != nil {
		return nil, r.eager, r.err
	}
	ix.profile = textnorm.QuoteV2(textnorm.Options{FooterNames: names})
	if ix.profile.Name() != info.Profile {
		return nil, r.eager, fmt.Errorf("%w: profile %q, this citecheck normalizes with %q", ErrIndexStale, info.Profile, ix.profile.Name())
	}
	pages := r.int32s(pageWidth)
	if r.err == nil && len(pages) != nPages*pageWidth {
		r.fail("%d page records for %d pages", len(pages)/pageWidth, nPages)
	}
	flagSets := map[string][]string{"": nil}
	ix.pages = make([]pageEntry, 0, nPages)
	for p := 0; r.err == nil && p < nPages; p++ {
		v := pages[p*pageWidth:]
		if v[0] < 0 || int(v[0]) >= nDocs {
			r.fail("page %d: document %d of %d", p, v[0], nDocs)
			break
		}
		fs := str(v[4], v[5])
		flags, ok := flagSets[fs]
		if !ok {
			flags = strings.Split(fs, "\n")
			flagSets[fs] = flags
		}
		ix.pages = append(ix.pages, pageEntry{doc: int(v[0]), num: int(v[1]), label: str(v[2], v[3]), flags: flags,
			docPos: int(v[6]), contentFrom: int(v[7]), contentTo: int(v[8])})
	}
	rawOffs, raw := r.int64s(), r.lazyBytes()
	r.checkOffsets("page texts", rawOffs, nPages, len(raw))
	ix.texts = make([]atomic.Pointer[textnorm.Text], nPages)
	ix.kept = make([]atomic.Int32, min(nPages, textCache))
	ix.rawText = func(p int) string {
		s := unsafe.String(unsafe.SliceData(raw[rawOffs[p]:]), rawOffs[p+1]-rawOffs[p])
		chk.string(s)
		return s
	}
	for s := 0; r.err == nil && s < nShards; s++ {
		var sh shard
		sh.data = r.lazyBytes()
		sh.sa = r.suffixes(sh.data)
		segs := r.int32s(segWidth)
		sh.jdata = r.lazyBytes()
		sh.jsa = r.suffixes(sh.jdata)
		jsegs := r.int32s(jsegWidth)
		sh.segs = make([]segment, 0, len(segs)/segWidth)
		sh.jsegs = make([]jsegment, 0, len(jsegs)/jsegWidth)
		for k := 0; r.err == nil && k < len(segs); k += segWidth {
			g := segment{at: segs[k], page: segs[k+1], from: segs[k+2], to: segs[k+3], fromByte: segs[k+4], next: segs[k+5]}
			if g.at < 0 || int(g.at) > len(sh.data) || k > 0 && g.at < segs[k-segWidth] || g.page < 0 || int(g.page) >= nPages ||
				g.from < 0 || g.from > g.to || g.fromByte < 0 || g.next < -1 || int(g.next) >= len(segs)/segWidth {
				r.fail("shard %d: segment %d", s, k/segWidth)
			}
			sh.segs = append(sh.segs, g)
		}
		for k := 0; r.err == nil && k < len(jsegs); k += jsegWidth {
			g := jsegment{at: jsegs[k], page: jsegs[k+1]}
			if g.at < 0 || int(g.at) > len(sh.jdata) || k > 0 && g.at < jsegs[k-jsegWidth] || g.page < 0 || int(g.page) >= nPages {
				r.fail("shard %d: joined segment %d", s, k/jsegWidth)
			}
			sh.jsegs = append(sh.jsegs, g)
		}
		ix.shards = append(ix.shards, sh)
	}
	// A page's first segment is its whole text, the full fragment written
	// before the excerpts across page breaks (Index.layout).
	ix.fullSeg = make([]uint64, nPages)
	for s := 0; r.err == nil && s < len(ix.shards); s++ {
		for k, g := range ix.shards[s].segs {
			if ix.fullSeg[g.page] == 0 && g.from == 0 {
				ix.fullSeg[g.page] = uint64(s)<<32 | uint64(k+1)
			}
		}
	}
	for d := 0; r.err == nil && d < nDocs; d++ {
		if e := &ix.docs[d]; nShards > 0 && e.regTo > len(ix.shards[e.shard].data) {
			r.fail("document %d: region past its shard", d)
		}
	}
	if r.err == nil && nUnmapped > 0 {
		um := &unmappedIndex{data: r.lazyBytes()}
		um.sa = r.suffixes(um.data)
		recs, idx := r.int32s(unmappedWidth), r.int32s(1)
		if r.err == nil && len(recs) != nUnmapped*unmappedWidth {
			r.fail("%d unmapped-glyph pages for %d", len(recs)/unmappedWidth, nUnmapped)
		}
		for k := 0; r.err == nil && k < len(recs); k += unmappedWidth {
			v := recs[k:]
			if v[0] < 0 || int(v[0]) > len(um.data) || k > 0 && v[0] < recs[k-unmappedWidth] || v[1] < 0 || int(v[1]) >= nPages || v[2] < 0 || v[2] > v[3] || int(v[3]) > len(idx) {
				r.fail("unmapped-glyph page %d", k/unmappedWidth)
				break
			}
			um.pages = append(um.pages, unmappedPage{at: v[0], page: v[1], idx: idx[v[2]:v[3]:v[3]]})
		}
		ix.unmapped = um
	}
	if r.err == nil && nAlts > 0 {
		ai := &altIndex{}
		recs, offs, araw := r.int32s(altWidth), r.int64s(), r.lazyBytes()
		ai.data = r.lazyBytes()
		ai.sa = r.suffixes(ai.data)
		ai.jdata = r.lazyBytes()
		ai.jsa = r.suffixes(ai.jdata)
		r.checkOffsets("alternative texts", offs, nAlts, len(araw))
		if r.err == nil && len(recs) != nAlts*altWidth {
			r.fail("%d alternative records for %d", len(recs)/altWidth, nAlts)
		}
		for k := 0; r.err == nil && k < len(recs); k += altWidth {
			v := recs[k:]
			if v[0] < 0 || int(v[0]) > len(ai.data) || v[1] < 0 || int(v[1]) > len(ai.jdata) || k > 0 && (v[0] < recs[k-altWidth] || v[1] < recs[k-altWidth+1]) || v[2] < 0 || int(v[2]) >= nPages {
				r.fail("alternative text %d", k/altWidth)
			}
			ai.alts = append(ai.alts, altText{at: v[0], jat: v[1], page: v[2]})
		}
		ai.norm = make([]atomic.Pointer[altForms], nAlts)
		ai.raw = func(k int) string {
			s := unsafe.String(unsafe.SliceData(araw[offs[k]:]), offs[k+1]-offs[k])
			chk.string(s)
			return s
		}
		ix.alts = ai
	}
	if r.err == nil && nOrders > 0 {
		oi := &orderIndex{byDoc: map[int]orderRegion{}}
		recs, runs, offs, oraw := r.int32s(orderWidth), r.int32s(runWidth), r.int64s(), r.lazyBytes()
		r.checkOffsets("reading orders", offs, nOrders, len(oraw))
		if r.err == nil && len(recs) != nOrders*orderWidth {
			r.fail("%d order records for %d", len(recs)/orderWidth, nOrders)
		}
		// The runs are converted once, each page's a slice of them: one
		// allocation instead of one per page.
		allRuns := make([]orderRun, len(runs)/runWidth)
		for j := range allRuns {
			allRuns[j] = orderRun{at: runs[runWidth*j], from: runs[runWidth*j+1], n: runs[runWidth*j+2]}
		}
		oi.pages = make([]orderPage, 0, nOrders)
		for k := 0; r.err == nil && k < nOrders; k++ {
			v := recs[k*orderWidth:]
			if v[0] < 0 || int(v[0]) >= nPages || v[1] < 0 || v[4] < 0 || v[4] > v[5] || int(v[5]) > len(runs)/runWidth {
				r.fail("reading order %d", k)
				break
			}
			op := orderPage{page: v[0], fb: v[1], name: str(v[2], v[3]), raw: unsafe.String(unsafe.SliceData(oraw[offs[k]:]), offs[k+1]-offs[k]),
				runs: allRuns[v[4]:v[5]:v[5]]}
			oi.pages = append(oi.pages, op)
		}
		for s := 0; r.err == nil && s < nOrderShards; s++ {
			var sh orderShard
			sh.data = r.lazyBytes()
			sh.sa = r.suffixes(sh.data)
			for k, p := range r.int32s(1) {
				if p < 0 || int(p) >= nOrders || k > 0 && oi.pages[p].fb < oi.pages[sh.pages[k-1]].fb {
					r.fail("order shard %d: page %d", s, k)
					break
				}
				sh.pages = append(sh.pages, int(p))
			}
			oi.shards = append(oi.shards, sh)
		}
		regions := r.int32s(regionWidth)
		for k := 0; r.err == nil && k < len(regions); k += regionWidth {
			v := regions[k:]
			if v[0] < 0 || int(v[0]) >= nDocs || v[1] < 0 || int(v[1]) >= nOrderShards || v[2] < 0 || v[2] > v[3] || int(v[3]) > len(oi.shards[v[1]].data) {
				r.fail("order region %d", k/regionWidth)
				break
			}
			oi.byDoc[int(v[0])] = orderRegion{shard: int(v[1]), from: int(v[2]), to: int(v[3])}
		}
		ix.orders = oi
	}
	if r.err == nil && r.next != r.narray {
		r.fail("%d arrays, %d read", r.narray, r.next)
	}
	if r.err != nil {
		return nil, r.eager, r.err
	}
	return ix, r.eager, nil
}

// checkOffsets checks the n+1 offsets of n texts in a blob of size bytes.
func (r *reader) checkOffsets(what string, offs []int64, n, size int) {
	if r.err != nil {
		return
	}
	if len(offs) != n+1 || offs[0] != 0 || offs[n] != int64(size) {
		r.fail("%s: %d offsets for %d texts", what, len(offs), n)
		return
	}
	for i := 1; i <= n; i++ {
		if offs[i] < offs[i-1] {
			r.fail("%s: offset %d decreases", what, i)
			return
		}
	}
}
