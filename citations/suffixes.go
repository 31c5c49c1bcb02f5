package citations

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"index/suffixarray"
	"sort"
)

// suffixes is a suffix array with 32-bit entries over data. Its Lookup is
// index/suffixarray's (the same binary searches over the same order), but
// the array is a plain []int32 that a persisted index can map from a file
// instead of building (indexfile.go).
type suffixes struct {
	data []byte
	sa   []int32
}

// newSuffixes builds the suffix array of data with index/suffixarray (SA-IS)
// and takes its entries from the serialization Index.Write documents and
// Index.Read reads back: a length, the data, then chunks of unsigned
// varints, each chunk led by its byte size as a 10-byte varint.
func newSuffixes(data []byte) suffixes {
	if len(data) >= 1<<31-1 {
		panic("citations: suffix array over 2 GiB") // layout refuses such shards first
	}
	var buf bytes.Buffer
	if err := suffixarray.New(data).Write(&buf); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	sa, err := decodeSuffixArray(buf.Bytes(), len(data))
	if err != nil {
		panic(fmt.Sprintf("citations: index/suffixarray wrote what it cannot have: %v", err))
	}
	return suffixes{data: data, sa: sa}
}

func decodeSuffixArray(b []byte, n int) ([]int32, error) {
	const head = binary.MaxVarintLen64
	if len(b) < head {
		return nil, fmt.Errorf("short")
	}
	if l, k := binary.Varint(b[:head]); k <= 0 || l != int64(n) {
		return nil, fmt.Errorf("length %d, want %d", l, n)
	}
	b = b[head+n:]
	sa := make([]int32, 0, n)
	for len(b) > 0 {
		if len(b) < head {
			return nil, fmt.Errorf("short chunk")
		}
		size, k := binary.Varint(b[:head])
		if k <= 0 || size < head || size > int64(len(b)) {
			return nil, fmt.Errorf("chunk size %d", size)
		}
		chunk := b[head:size]
		for len(chunk) > 0 {
			v, k := binary.Uvarint(chunk)
			if k <= 0 || v >= uint64(n) {
				return nil, fmt.Errorf("entry %d", v)
			}
			sa = append(sa, int32(v))
			chunk = chunk[k:]
		}
		b = b[size:]
	}
	if len(sa) != n {
		return nil, fmt.Errorf("%d entries for %d bytes", len(sa), n)
	}
	return sa, nil
}

// at is the suffix at rank i. An entry past the data (only a damaged
// index file holds one) reads as the empty suffix.
func (x *suffixes) at(i int) []byte {
	v := x.sa[i]
	if v < 0 || int(v) > len(x.data) {
		return nil
	}
	return x.data[v:]
}

// Lookup returns at most n (all, if n < 0) offsets where s occurs in data,
// in suffix order, as suffixarray.Index.Lookup does.
func (x *suffixes) Lookup(s []byte, n int) []int {
	if len(s) == 0 || n == 0 {
		return nil
	}
	i := sort.Search(len(x.sa), func(i int) bool { return bytes.Compare(x.at(i), s) >= 0 })
	j := i + sort.Search(len(x.sa)-i, func(j int) bool { return !bytes.HasPrefix(x.at(j+i), s) })
	if n < 0 || j-i < n {
		n = j - i
	}
	if n == 0 {
		return nil
	}
	out := make([]int, n)
	for k := range out {
		out[k] = min(max(int(x.sa[i+k]), 0), len(x.data)) // in range, damaged or not
	}
	return out
}
