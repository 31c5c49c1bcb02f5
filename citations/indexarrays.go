package citations

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/zeebo/blake3"
)

// The arrays of an index file, below its sections (indexfile.go): the
// writer lays them out after the header and the table of arrays, the
// reader hands them out in the same order, checked against the table.

const (
	indexHeaderLen = 128
	indexEntryLen  = 24
	// Element kinds of the arrays: their size in bytes.
	kindBytes = 1
	kindInt24 = 3 // suffix arrays over at most 16 MiB
	kindInt32 = 4
	kindInt64 = 8
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
	// spilled holds the array's n elements, encoded, in pieces of a spill
	// file (BuildFile); nil for an array in memory.
	spilled *spillFile
	chunks  []chunk
	n       uint64
}

// count is the number of elements: b holds them encoded, i32 and i64
// decoded, a spill file n.
func (a *array) count() uint64 {
	return uint64(len(a.b)/int(a.kind)+len(a.i32)+len(a.i64)) + a.n
}

// encode passes a's elements, encoded, to emit, in pieces of at most
// len(buf) bytes beside b's (an array in memory).
func (a *array) encode(buf []byte, emit func([]byte)) {
	if len(a.b) > 0 {
		emit(a.b)
	}
	for v := a.i32; len(v) > 0; {
		chunk := v[:min(len(v), len(buf)/4)]
		n := 0
		for _, x := range chunk {
			binary.LittleEndian.PutUint32(buf[n:], uint32(x))
			n += int(a.kind) // 3: the top byte, zero, is overwritten
		}
		emit(buf[:n])
		v = v[len(chunk):]
	}
	for v := a.i64; len(v) > 0; {
		chunk := v[:min(len(v), len(buf)/8)]
		for i, x := range chunk {
			binary.LittleEndian.PutUint64(buf[8*i:], uint64(x))
		}
		emit(buf[:8*len(chunk)])
		v = v[len(chunk):]
	}
}

func (w *writer) bytes(b []byte)   { w.arrays = append(w.arrays, array{kind: kindBytes, b: b}) }
func (w *writer) int32s(v []int32) { w.arrays = append(w.arrays, array{kind: kindInt32, i32: v}) }
func (w *writer) int64s(v []int64) { w.arrays = append(w.arrays, array{kind: kindInt64, i64: v}) }

// writeRecords writes a table of records: T is a struct of int32 fields
// (or of strRefs), the file's record in field order.
func writeRecords[T any](w *writer, v []T) { w.int32s(int32sOf(v)) }

// int32sOf is the int32s v's records are made of, in place.
func int32sOf[T any](v []T) []int32 {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(v[0]))/4)
}

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

// header is the file's header and table of arrays.
func (fw *writer) header(profile string, sources [32]byte) []byte {
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
	return head
}

// write writes the file: header, arrays, block sums. It returns the
// digest of the block sums.
func (fw *writer) write(w io.Writer, profile string, sources [32]byte) (string, error) {
	head := fw.header(profile, sources)
	out := bufio.NewWriterSize(w, 1<<20)
	bw := &blockSummer{w: out, h: blake3.New()}
	var zeros [8]byte
	var buf [64 << 10]byte
	bw.Write(head)
	bw.Write(zeros[:pad8(uint64(len(head)))-uint64(len(head))])
	for _, a := range fw.arrays {
		if a.spilled != nil {
			if err := a.spilled.copyTo(bw, a.chunks); err != nil {
				return "", err
			}
		} else {
			a.encode(buf[:], func(b []byte) { bw.Write(b) })
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

// records reads a table of records of T (as writeRecords writes them),
// in place where int32s are.
func records[T any](r *reader) []T {
	var zero T
	width := int(unsafe.Sizeof(zero)) / 4
	v := r.int32s(width)
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&v[0])), len(v)/width)
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
