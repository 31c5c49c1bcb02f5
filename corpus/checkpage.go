package corpus

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeebo/blake3"
)

// CheckPage reads one page's stored text, alternative texts and reading
// orders and checks each against the manifest's hash, as Text, AltText
// and CheckOrders do, then calls each, when not nil, with its text. Its
// faults are worded as theirs. A reader that checks only the pages it
// reads calls it once per page (citations.OpenStored), so it reads each
// file into one buffer with as few system calls as the platform allows; a
// file that fails the check is read again the ordinary way to report it.
func (s *Store) CheckPage(d *Document, page int, each func(text []byte) error) error {
	if page < 1 || page > len(d.Pages) {
		return fmt.Errorf("%s: no page %d", d.Name, page)
	}
	c := checker{dir: s.dir}
	return c.page(s, d, page, each)
}

// checker holds the path and file buffers a page's files are read into.
type checker struct {
	dir    string
	path   []byte
	prefix int // bytes of path common to a page's files
	buf    []byte
}

// page checks the stored files of one page, then calls each on its text.
func (c *checker) page(s *Store, d *Document, page int, each func([]byte) error) error {
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
	if each != nil {
		if err := each(text); err != nil {
			return err
		}
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
	want, ok := ParseHash(recorded)
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
