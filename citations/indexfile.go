package citations

// The quote index file, format IndexFormat, as WriteIndex writes it and
// OpenIndex maps it; docs/formats.md#quote-index states the same for
// users (TestIndexFormatDocumented holds its list of sections to
// indexSections). All integers are little-endian.
//
//	offset  bytes  field
//	0       32     IndexFormat and a line feed, then zero bytes
//	32      32     the sources digest the writer was given
//	64      16     the normalization profile's name, then zero bytes
//	80      4      uint32 N, the number of arrays
//	84      4      uint32 B, log2 of the block size (indexBlockShift)
//	88      8      uint64 S, where the table of block sums starts
//	96      32     zero
//	128     24*N   the table of arrays, per array: uint32 element size
//	               (kindBytes, kindInt24, kindInt32, kindInt64), uint32
//	               zero, uint64 offset, uint64 number of elements
//	               the arrays, each at an offset that is a multiple of 8,
//	               zero bytes between them
//	S       32*k   the BLAKE3 of each block of 2^B bytes before S (the
//	               last one shorter), in order; nothing after them
//
// The arrays are the sections of indexSections, in its order. Within
// them, three shapes recur:
//   - a table of records: an int32 array holding a record struct's
//     fields in order (docRecord, pageRecord, segment, ...), where a
//     strRef is an offset and a length in the strings section;
//   - a suffix array over a text: 24-bit entries when the text is at most
//     16 MiB (maxSuffixes24), else int32, then its sampled keys (uint64:
//     the first 8 bytes of every keyStep-th suffix, big-endian, zero past
//     the text's end; none for fewer than prefixMinSuffixes entries);
//   - texts: an int64 array of their n+1 offsets, then their bytes.
//
// The indexed texts end each fragment with a form feed, which no
// normalized text contains. A page's normalization is not stored: it is
// recomputed from its stored text when a lookup first lands on the page.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/citecheck/citecheck/corpus"
)

// IndexFormat names the on-disk quote index (WriteIndex, OpenIndex); the
// layout is described in docs/formats.md#quote-index. Any change to what
// the index holds or to how textnorm normalizes a page under its profile
// changes this name: an index of another version is refused, not read.
const IndexFormat = "citecheck-quote-index/4"

// ErrIndexFormat reports bytes that are not a quote index of this version;
// ErrIndexStale an index built from other texts than the caller's;
// ErrIndexIntegrity an index whose bytes no longer hash as recorded.
var (
	ErrIndexFormat    = errors.New("not a " + IndexFormat + " quote index")
	ErrIndexStale     = errors.New("quote index built from other page texts")
	ErrIndexIntegrity = fmt.Errorf("quote index changed since it was written: %w", corpus.ErrIntegrity)
)

// indexSection is one run of arrays of the file with the functions that
// write and read it (indexsections.go), side by side so that the two
// cannot drift apart.
type indexSection struct {
	name   string
	encode func(*encoder)
	decode func(*decoder)
	// present says whether a file of these counts holds the section: the
	// optional ones are left out when they would be empty.
	present func(indexCounts) bool
}

// indexSections is the order of the file's sections, stated once for the
// writer and the reader.
var indexSections = [...]indexSection{
	{"counts", encodeCounts, decodeCounts, always},
	{"strings", encodeStrings, decodeStrings, always},
	{"documents", encodeDocs, decodeDocs, always},
	{"pages", encodePages, decodePages, always},
	{"page texts", encodePageTexts, decodePageTexts, always},
	{"shards", encodeShards, decodeShards, always},
	{"unmapped glyphs", encodeUnmapped, decodeUnmapped, func(n indexCounts) bool { return n.unmapped > 0 }},
	{"alternative texts", encodeAlts, decodeAlts, func(n indexCounts) bool { return n.alts > 0 }},
	{"reading orders", encodeOrders, decodeOrders, hasOrders},
	{"order shards", encodeOrderShards, decodeOrderShards, hasOrders},
	{"order regions", encodeOrderRegions, decodeOrderRegions, hasOrders},
}

func always(indexCounts) bool      { return true }
func hasOrders(n indexCounts) bool { return n.orders > 0 }

// encoder collects the arrays of an index's sections.
type encoder struct {
	writer
	ix *Index
	n  indexCounts
	// strs collects the strings of the records; the strings array, at
	// strsAt, is written before the records that add to it, so it is
	// filled in once every section is encoded.
	strs   []byte
	strsAt int
	// sf holds the sections BuildFile wrote to its spill file; nil for
	// WriteIndex.
	sf *spilled
}

// str adds s to the strings array.
func (e *encoder) str(s string) strRef {
	ref := strRef{off: int32(len(e.strs)), n: int32(len(s))}
	e.strs = append(e.strs, s...)
	return ref
}

// WriteIndex writes ix in the IndexFormat, bound to sources: a digest of
// the texts it was built from, which OpenIndex must be given again. The
// bytes depend only on the index and sources (no time, no paths). blocks
// is the digest of the file's table of block sums ("blake3:<hex>"), which
// OpenIndex verifies the file by.
func WriteIndex(w io.Writer, ix *Index, sources [32]byte) (blocks string, err error) {
	return writeIndex(w, &encoder{ix: ix, n: countsOf(ix)}, sources)
}

func writeIndex(w io.Writer, e *encoder, sources [32]byte) (blocks string, err error) {
	ix := e.ix
	for _, s := range indexSections {
		if s.present(e.n) {
			s.encode(e)
		}
	}
	e.arrays[e.strsAt].b = e.strs
	return e.write(w, ix.profile.Name(), sources)
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

// decoder reads the sections of an index file into an Index, checking
// every reference of its records before it is used.
type decoder struct {
	*reader
	ix      *Index
	profile string // the header's
	n       indexCounts
	strs    []byte
}

// str is the string ref names, "" (and a failure) when out of range.
func (d *decoder) str(ref strRef) string {
	if ref.off < 0 || ref.n < 0 || int64(ref.off)+int64(ref.n) > int64(len(d.strs)) {
		d.fail("string at %d+%d out of %d bytes", ref.off, ref.n, len(d.strs))
		return ""
	}
	return string(d.strs[ref.off : ref.off+ref.n])
}

// decodeIndex decodes b, an index file up to its block sums, and returns
// the arrays OpenIndex verifies now (the header, the table and the
// records) also when it fails, which the blocks may explain.
func decodeIndex(b []byte, info IndexInfo, chk *blockCheck) (*Index, [][]byte, error) {
	r, err := newReader(b, chk)
	if err != nil {
		return nil, nil, err
	}
	d := &decoder{reader: r, ix: &Index{byHash: map[string]int{}}, profile: info.Profile}
	for _, s := range indexSections {
		if d.err != nil {
			break
		}
		if s.present(d.n) {
			s.decode(d)
		}
	}
	if d.err == nil && d.next != d.narray {
		d.fail("%d arrays, %d read", d.narray, d.next)
	}
	if d.err != nil {
		return nil, d.eager, d.err
	}
	return d.ix, d.eager, nil
}
