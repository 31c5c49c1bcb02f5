package citations

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/citecheck/citecheck/corpus"
)

// BuildFile builds the index of texts as Build does and writes it to w as
// WriteIndex writes the index Build returns, byte for byte, bound to
// sources, and returns the digest of its table of block sums. It holds
// one piece of the index at a time (Options.ShardChars): each piece's
// shard and order shard, its pages' stored texts and its reading orders'
// texts and runs go to a spill as soon as they are built, and are copied
// into w at the end; the spill is kept in memory up to 128 MiB, beyond in
// a file of opts.SpillDir (deleted). Its memory is thus a piece's working
// set, some 40 bytes per code point of its page texts and reading orders,
// and the spill's 128 MiB, plus what grows with the corpus: about 150
// bytes per page and 30 per reading order, and the pages holding unmapped
// glyphs and alternative texts, which are indexed whole (few pages hold
// any).
//
// A corpus of at most wholeChars code points of page text, whose index
// holds in a few hundred MiB, is built whole and written as WriteIndex
// writes it: the same bytes, without copying them into the spill (on the
// twelve filings, the spill cost 0.3-0.4 s of system time in page faults).
func BuildFile(w io.Writer, texts corpus.Texts, opts Options, sources [32]byte) (blocks string, err error) {
	if pageChars(texts) <= wholeChars {
		ix, err := Build(texts, opts)
		if err != nil {
			return "", err
		}
		return WriteIndex(w, ix, sources)
	}
	b, err := newBuilder(texts, opts)
	if err != nil {
		return "", err
	}
	sp, err := newSpillFile(opts.SpillDir)
	if err != nil {
		return "", err
	}
	defer sp.close()
	sf := &spilled{sp: sp, pageOffs: []int64{0}, orderOffs: []int64{0},
		pageBytes: sp.array(kindBytes), orderBytes: sp.array(kindBytes), orderRuns: sp.array(kindInt32)}
	b.done = sf.piece(b.ix)
	if err := b.run(); err != nil {
		return "", err
	}
	if err := sp.flush(); err != nil {
		return "", err
	}
	return writeIndex(w, &encoder{ix: b.ix, n: countsOf(b.ix), sf: sf}, sources)
}

// wholeChars is the most page text BuildFile indexes whole (a variable
// for the tests): Build's memory is about 60 bytes per code point, some
// 380 MiB at 6 Mi code points.
var wholeChars = 6 << 20

// pageChars is the code points of texts' page texts, as its documents
// describe them.
func pageChars(texts corpus.Texts) int {
	n := 0
	for _, d := range texts.Documents() {
		if d.Status != corpus.StatusOK {
			continue
		}
		for _, p := range d.Pages {
			n += p.Chars
		}
	}
	return n
}

// spilled is what BuildFile wrote to its spill file: the arrays of the
// page texts, shards, reading orders and order shards sections, and what
// their records need in memory.
type spilled struct {
	sp                    *spillFile
	pageOffs, orderOffs   []int64 // the texts' offsets, as writer.texts writes them
	pageBytes, orderBytes array
	orderRuns             array
	runCounts             []int32 // by reading order
	shards, orderShards   []array
	firstOrder            int // the first reading order not yet spilled
}

// piece returns the builder's done: it spills a piece and forgets it.
func (sf *spilled) piece(ix *Index) func(sh *shard, osh *orderShard, p0, p1 int) error {
	return func(sh *shard, osh *orderShard, p0, p1 int) error {
		var w, ow writer
		encodeShard(&w, sh)
		if osh != nil {
			encodeOrderShard(&ow, osh)
		}
		for _, a := range w.arrays {
			sf.shards = append(sf.shards, sf.sp.put(a))
		}
		for _, a := range ow.arrays {
			sf.orderShards = append(sf.orderShards, sf.sp.put(a))
		}
		for p := p0; p < p1; p++ {
			raw := ix.text(p).Raw()
			sf.sp.appendTo(&sf.pageBytes, []byte(raw))
			sf.pageOffs = append(sf.pageOffs, sf.pageOffs[len(sf.pageOffs)-1]+int64(len(raw)))
			ix.texts[p].Store(nil)
		}
		if ix.orders != nil {
			for k := sf.firstOrder; k < len(ix.orders.pages); k++ {
				op := &ix.orders.pages[k]
				sf.sp.appendTo(&sf.orderBytes, []byte(op.raw))
				sf.orderOffs = append(sf.orderOffs, sf.orderOffs[len(sf.orderOffs)-1]+int64(len(op.raw)))
				sf.sp.appendTo(&sf.orderRuns, int32sBytes(int32sOf(op.runs)))
				sf.runCounts = append(sf.runCounts, int32(len(op.runs)))
				op.raw, op.runs = "", nil
			}
			sf.firstOrder = len(ix.orders.pages)
		}
		*sh = shard{}
		if osh != nil {
			*osh = orderShard{}
		}
		return sf.sp.err
	}
}

// int32sBytes is v encoded little-endian.
func int32sBytes(v []int32) []byte {
	a := array{kind: kindInt32, i32: v}
	out := make([]byte, 0, 4*len(v))
	var buf [4096]byte
	a.encode(buf[:], func(b []byte) { out = append(out, b...) })
	return out
}

// spillFile holds arrays BuildFile has built until it writes them: in
// memory up to spillMemory bytes, in a file beyond, so that a small index
// (the twelve filings' is 110 MB) costs no file written and read back.
type spillFile struct {
	dir     string
	f       *os.File // nil while the bytes fit in mem
	w       *bufio.Writer
	removed bool     // f's name, already
	mem     [][]byte // blocks of spillBlock bytes, the last one filling
	off     int64
	err     error
	buf     [64 << 10]byte
}

// spillMemory is what a spill keeps in memory before it moves to a file
// (a variable for the tests); spillBlock the size of its blocks there.
var spillMemory int64 = 128 << 20

const spillBlock = 1 << 20

// chunk is a run of a spill file's bytes.
type chunk struct{ off, n int64 }

func newSpillFile(dir string) (*spillFile, error) { return &spillFile{dir: dir}, nil }

// toFile moves the spill to a file in dir ("": os.TempDir) and, where
// the system allows it, removes its name at once, so that nothing is left
// behind whatever happens to the process.
func (s *spillFile) toFile() error {
	f, err := os.CreateTemp(s.dir, ".citecheck-index-*.spill")
	if err != nil {
		return fmt.Errorf("citations: spill file: %w", err)
	}
	s.f, s.w = f, bufio.NewWriterSize(f, 1<<20)
	s.removed = os.Remove(f.Name()) == nil
	for _, b := range s.mem {
		if _, err := s.w.Write(b); err != nil {
			return fmt.Errorf("citations: spill file: %w", err)
		}
	}
	s.mem = nil
	return nil
}

func (s *spillFile) close() {
	if s.f == nil {
		return
	}
	s.f.Close()
	if !s.removed {
		os.Remove(s.f.Name())
	}
}

// write appends b to the spill and returns where it went.
func (s *spillFile) write(b []byte) chunk {
	c := chunk{s.off, int64(len(b))}
	s.off += int64(len(b))
	if s.err != nil {
		return c
	}
	if s.f == nil && s.off > spillMemory {
		s.err = s.toFile()
	}
	if s.f != nil {
		if _, err := s.w.Write(b); err != nil && s.err == nil {
			s.err = fmt.Errorf("citations: spill file: %w", err)
		}
		return c
	}
	for len(b) > 0 {
		if k := len(s.mem) - 1; k < 0 || len(s.mem[k]) == spillBlock {
			s.mem = append(s.mem, make([]byte, 0, spillBlock))
		}
		last := &s.mem[len(s.mem)-1]
		n := min(len(b), spillBlock-len(*last))
		*last = append(*last, b[:n]...)
		b = b[n:]
	}
	return c
}

// array is an empty spilled array of elements of kind.
func (s *spillFile) array(kind uint32) array { return array{kind: kind, spilled: s} }

// put spills a, an array in memory, and returns it spilled.
func (s *spillFile) put(a array) array {
	out := array{kind: a.kind, spilled: s, n: a.count()}
	start := s.off
	a.encode(s.buf[:], func(b []byte) { s.write(b) })
	if s.off > start {
		out.chunks = []chunk{{start, s.off - start}}
	}
	return out
}

// appendTo appends encoded elements to a spilled array.
func (s *spillFile) appendTo(a *array, b []byte) {
	if len(b) == 0 {
		return
	}
	c := s.write(b)
	if k := len(a.chunks) - 1; k >= 0 && a.chunks[k].off+a.chunks[k].n == c.off {
		a.chunks[k].n += c.n
	} else {
		a.chunks = append(a.chunks, c)
	}
	a.n += uint64(len(b)) / uint64(a.kind)
}

func (s *spillFile) flush() error {
	if s.f != nil && s.err == nil {
		if err := s.w.Flush(); err != nil {
			s.err = fmt.Errorf("citations: spill file: %w", err)
		}
	}
	return s.err
}

// copyTo writes the chunks to w.
func (s *spillFile) copyTo(w io.Writer, chunks []chunk) error {
	for _, c := range chunks {
		if s.f == nil {
			for off := c.off; off < c.off+c.n; {
				b := s.mem[off/spillBlock][off%spillBlock:]
				b = b[:min(int64(len(b)), c.off+c.n-off)]
				w.Write(b)
				off += int64(len(b))
			}
			continue
		}
		if _, err := io.CopyBuffer(w, io.NewSectionReader(s.f, c.off, c.n), s.buf[:]); err != nil {
			return fmt.Errorf("citations: spill file: %w", err)
		}
	}
	return nil
}
