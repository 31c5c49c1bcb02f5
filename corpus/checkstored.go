package corpus

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/zeebo/blake3"
)

// CheckStored reads every stored page text, alternative text and
// reading-orders file of the corpus's extracted documents and checks each
// against the manifest's hash, as Text, AltText and CheckOrders do, on
// GOMAXPROCS goroutines. each is called with every page text once it is
// checked; the bytes are valid only during the call, and calls run
// concurrently. The first fault in document and page order is returned,
// worded as Text, AltText, CheckOrders or each word it.
//
// It is the check a stored quote index needs on every run (a changed page
// text must still be refused), so it reads each file into a reused buffer
// with as few system calls as the platform allows, and allocates nothing
// per file; a file that fails the check is read again the ordinary way to
// report it.
func (s *Store) CheckStored(each func(doc *Document, page int, text []byte) error) error {
	type pageRef struct{ doc, page int32 }
	var pages []pageRef
	docs := s.manifest.Documents
	for d := range docs {
		if docs[d].Status == StatusOK {
			for p := range docs[d].Pages {
				pages = append(pages, pageRef{int32(d), int32(p + 1)})
			}
		}
	}
	errs := make([]error, len(pages))
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(pages), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := checker{dir: s.dir}
			// Pages are claimed a few at a time: fewer contended atomics.
			const claim = 8
			for {
				at := int(next.Add(claim)) - claim
				if at >= len(pages) {
					return
				}
				for i := at; i < min(at+claim, len(pages)); i++ {
					d := &docs[pages[i].doc]
					if err := c.page(s, d, int(pages[i].page), each); err != nil {
						errs[i] = err
						failed.Store(true)
					}
				}
			}
		}()
	}
	wg.Wait()
	if !failed.Load() {
		return nil
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// CheckPage checks one page's stored files as CheckStored checks every
// page's, calling each, when not nil, with its text.
func (s *Store) CheckPage(d *Document, page int, each func(text []byte) error) error {
	if page < 1 || page > len(d.Pages) {
		return fmt.Errorf("%s: no page %d", d.Name, page)
	}
	c := checker{dir: s.dir}
	return c.page(s, d, page, func(_ *Document, _ int, text []byte) error {
		if each == nil {
			return nil
		}
		return each(text)
	})
}

// checker is one goroutine's reused path and file buffers.
type checker struct {
	dir    string
	path   []byte
	prefix int // bytes of path common to a page's files
	buf    []byte
}

// page checks the stored files of one page, then calls each on its text.
func (c *checker) page(s *Store, d *Document, page int, each func(*Document, int, []byte) error) error {
	p := &d.Pages[page-1]
	c.pagePath(d, page)
	text, ok := c.read(p.BLAKE3, 0, ".txt")
	if !ok {
		t, err := s.Text(d, page)
		if err != nil {
			return err
		}
		text = []byte(t) // changed between the two reads; the second holds
	}
	if err := each(d, page, text); err != nil {
		return err
	}
	for k := range p.Alts {
		b, ok := c.read(p.Alts[k], k+1, ".txt")
		if !ok || !utf8.Valid(b) || utf8.RuneCount(b) != p.Chars {
			if _, err := s.AltText(d, page, k+1); err != nil {
				return err
			}
		}
	}
	if p.Orders != "" {
		if _, ok := c.read(p.Orders, 0, ".orders.txt"); !ok {
			return s.CheckOrders(d, page)
		}
	}
	return nil
}

// pagePath sets c.path to the stored files' common prefix,
// <dir>/text/<document hash>/<page as %04d>, as pageFile names them.
func (c *checker) pagePath(d *Document, page int) {
	c.path = append(c.path[:0], c.dir...)
	c.path = append(c.path, "/text/"...)
	c.path = append(c.path, strings.TrimPrefix(d.BLAKE3, "blake3:")...)
	c.path = append(c.path, '/')
	for n := page; n < 1000; n *= 10 {
		c.path = append(c.path, '0')
	}
	c.path = strconv.AppendInt(c.path, int64(page), 10)
	c.prefix = len(c.path)
}

// read reads the page's file <prefix>[.alt<alt>]<suffix> into c.buf and
// reports whether it hashes to recorded. The bytes are valid until the
// next read.
func (c *checker) read(recorded string, alt int, suffix string) ([]byte, bool) {
	want, ok := digestBytes(recorded)
	if !ok {
		return nil, false
	}
	c.path = c.path[:c.prefix]
	if alt > 0 {
		c.path = strconv.AppendInt(append(c.path, ".alt"...), int64(alt), 10)
	}
	c.path = append(c.path, suffix...)
	c.path = append(c.path, 0)
	b, err := readInto(c.path, c.buf[:0])
	if cap(b) > cap(c.buf) {
		c.buf = b[:0]
	}
	if err != nil {
		return nil, false
	}
	return b, blake3.Sum256(b) == want
}

// digestBytes decodes a "blake3:<64 lower-case hex digits>" digest without
// allocating.
func digestBytes(digest string) (sum [32]byte, ok bool) {
	h, ok := strings.CutPrefix(digest, "blake3:")
	if !ok || len(h) != 64 {
		return sum, false
	}
	for i := range sum {
		hi, ok1 := fromHex(h[2*i])
		lo, ok2 := fromHex(h[2*i+1])
		if !ok1 || !ok2 {
			return sum, false
		}
		sum[i] = hi<<4 | lo
	}
	return sum, true
}

func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
