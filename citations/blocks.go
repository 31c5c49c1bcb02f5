package citations

import (
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/zeebo/blake3"
)

// indexBlockShift is log2 of the block an opened index file is verified
// by: 16 KiB, so that the first lookup of a quote hashes about a megabyte
// (the blocks its suffix-array search touches) instead of the whole file,
// and the table of sums stays 1/512 of the file.
const indexBlockShift = 14

// blockCheck verifies the bytes of an opened index file a block at a
// time, the first time a lookup reads them, against the file's table of
// block sums, itself checked at opening against the digest the manifest
// records. The tables the opening decodes are verified then (OpenIndex);
// the texts and suffix arrays, most of the file, when a lookup reads
// them: a changed byte is a fault as soon as something reads it, and a
// byte nothing reads costs nothing.
type blockCheck struct {
	file  []byte // the file without its table of sums
	base  uintptr
	shift uint
	sums  []byte // 32 bytes per block
	done  []atomic.Uint64

	name string // the file's, for faults

	mu    sync.Mutex
	fault error // the lowest changed block's
	bad   int
}

func newBlockCheck(file, sums []byte, shift uint) *blockCheck {
	n := len(sums) / 32
	return &blockCheck{file: file, base: uintptr(unsafe.Pointer(unsafe.SliceData(file))), shift: shift, sums: sums, done: make([]atomic.Uint64, (n+63)/64), bad: -1}
}

// span verifies the blocks holding the n bytes at p, when they lie in the
// file (a built index's memory does not).
func (c *blockCheck) span(p unsafe.Pointer, n int) {
	if c == nil || n <= 0 {
		return
	}
	off := uintptr(p) - c.base
	if off >= uintptr(len(c.file)) {
		return
	}
	end := min(off+uintptr(n), uintptr(len(c.file)))
	for k := off >> c.shift; k <= (end-1)>>c.shift; k++ {
		if c.done[k/64].Load()&(1<<(k%64)) == 0 {
			c.verify(int(k))
		}
	}
}

// bytes verifies b's blocks.
func (c *blockCheck) bytes(b []byte) {
	if c != nil && len(b) > 0 {
		c.span(unsafe.Pointer(unsafe.SliceData(b)), len(b))
	}
}

// string verifies s's blocks.
func (c *blockCheck) string(s string) {
	if c != nil && len(s) > 0 {
		c.span(unsafe.Pointer(unsafe.StringData(s)), len(s))
	}
}

// int32s verifies v's blocks.
func (c *blockCheck) int32s(v []int32) {
	if c != nil && len(v) > 0 {
		c.span(unsafe.Pointer(unsafe.SliceData(v)), 4*len(v))
	}
}

// uint64s verifies v's blocks.
func (c *blockCheck) uint64s(v []uint64) {
	if c != nil && len(v) > 0 {
		c.span(unsafe.Pointer(unsafe.SliceData(v)), 8*len(v))
	}
}

// verify hashes block k. Two goroutines may hash one block at once; both
// find the same.
func (c *blockCheck) verify(k int) {
	from := k << c.shift
	to := min(from+1<<c.shift, len(c.file))
	sum := blake3.Sum256(c.file[from:to])
	if string(sum[:]) != string(c.sums[32*k:32*k+32]) {
		c.mu.Lock()
		if c.bad < 0 || k < c.bad {
			c.bad = k
			c.fault = fmt.Errorf("%w: block %d (bytes %d-%d): it hashes to blake3:%s, the file's table of sums records blake3:%s",
				ErrIndexIntegrity, k, from, to, hex.EncodeToString(sum[:]), hex.EncodeToString(c.sums[32*k:32*k+32]))
			if c.name != "" {
				c.fault = fmt.Errorf("%s: %w: %w", c.name, corpus.ErrQuoteIndex, c.fault)
			}
		}
		c.mu.Unlock()
	}
	// A changed block is marked too: the fault is kept, and its bytes are
	// not hashed again on every read.
	c.done[k/64].Or(1 << (k % 64))
}

// err is the fault of the lowest changed block read so far, or nil.
func (c *blockCheck) err() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fault
}
