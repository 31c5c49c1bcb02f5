package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Order is one of a page's reading orders: the page's glyphs read in
// another order than the page text's (package layout: as pdftotext and
// pdfminer order a page by its layout), with separators of its own. Map
// gives, for each code point of Text, its offset in the page text (code
// points), or -1 for a separator the order inserted, which is a space or a
// line feed. The page text and its offsets stay what they are: an order is
// a second reading that a match found in it reports in page-text offsets.
type Order struct {
	Name string
	Text string
	Map  []int32
}

// OrdersFormat names the format of a page's orders file,
// <page>.orders.txt, one per page that has orders:
//
//	citecheck-orders/1
//	<name> <code points> <runs>                  for each order, sorted by name
//	<offset> <length>                            a run copied from the page text at offset
//	- <length>                                   a run of separators the order inserted
//	<text>                                       exactly <code points> code points, then a line feed
//
// An order's runs cover its text in order, each of one or more code points:
// a run copied from the page text maps its code points to consecutive
// page-text offsets. Names are lower-case ASCII letters and digits. The
// manifest records the BLAKE3 of the file (Page.Orders).
const OrdersFormat = "citecheck-orders/1"

// MaxOrders bounds the orders of one page.
const MaxOrders = 4

// An OrdersError locates a fault in an orders file or in orders given to
// the store.
type OrdersError struct {
	Order string // the order's name, "" before the first
	Msg   string
}

func (e *OrdersError) Error() string {
	if e.Order == "" {
		return "orders: " + e.Msg
	}
	return fmt.Sprintf("order %q: %s", e.Order, e.Msg)
}

func validOrderName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ValidateOrders checks orders against the page text they read: at most
// MaxOrders, names valid, unique and sorted, each text valid UTF-8 without a
// form feed, one map entry per code point, every mapped code point the page
// text's code point at that offset and every offset mapped at most once,
// every separator a space or a line feed.
func ValidateOrders(orders []Order, text string) error {
	if len(orders) > MaxOrders {
		return &OrdersError{Msg: fmt.Sprintf("%d orders, at most %d", len(orders), MaxOrders)}
	}
	page := []rune(text)
	for k, o := range orders {
		fail := func(format string, args ...any) error {
			return &OrdersError{Order: o.Name, Msg: fmt.Sprintf(format, args...)}
		}
		switch {
		case !validOrderName(o.Name):
			return fail("not a valid name")
		case k > 0 && orders[k-1].Name >= o.Name:
			return fail("names not sorted and unique")
		case !utf8.ValidString(o.Text):
			return fail("invalid UTF-8")
		case strings.ContainsRune(o.Text, '\f'):
			return fail("a form feed")
		}
		seen := make([]bool, len(page))
		i := 0
		for _, r := range o.Text {
			if i >= len(o.Map) {
				return fail("%d map entries for a longer text", len(o.Map))
			}
			m := o.Map[i]
			switch {
			case m < 0:
				if m != -1 || r != ' ' && r != '\n' {
					return fail("code point %d: %q inserted, only a space or a line feed may be", i, r)
				}
			case int(m) >= len(page):
				return fail("code point %d maps to %d, past the page text's %d", i, m, len(page))
			case page[m] != r:
				return fail("code point %d is %q, the page text has %q at %d", i, r, page[m], m)
			case seen[m]:
				return fail("page offset %d mapped twice", m)
			default:
				seen[m] = true
			}
			i++
		}
		if i != len(o.Map) {
			return fail("%d map entries for %d code points", len(o.Map), i)
		}
	}
	return nil
}

// EncodeOrders writes orders in OrdersFormat. They must be valid
// (ValidateOrders).
func EncodeOrders(orders []Order) []byte {
	size := len(OrdersFormat) + 1
	for _, o := range orders {
		size += len(o.Name) + 24 + len(o.Text) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, OrdersFormat+"\n"...)
	type run struct{ from, n int32 }
	var runs []run
	for _, o := range orders {
		runs = runs[:0]
		for i, m := range o.Map {
			if k := len(runs) - 1; k >= 0 && i > 0 {
				prev := o.Map[i-1]
				if (m < 0 && prev < 0) || (m >= 0 && prev >= 0 && m == prev+1) {
					runs[k].n++
					continue
				}
			}
			runs = append(runs, run{m, 1})
		}
		// strconv rather than fmt: extraction encodes every page's
		// orders twice (worker and store).
		b = append(b, o.Name...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(o.Map)), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(runs)), 10)
		b = append(b, '\n')
		for _, r := range runs {
			if r.from < 0 {
				b = append(b, '-')
			} else {
				b = strconv.AppendInt(b, int64(r.from), 10)
			}
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(r.n), 10)
			b = append(b, '\n')
		}
		b = append(b, o.Text...)
		b = append(b, '\n')
	}
	return b
}

var errOrdersSyntax = errors.New("not in the citecheck-orders/1 format")

// DecodeOrders reads an orders file and checks it against the page text
// (ValidateOrders).
func DecodeOrders(data []byte, text string) ([]Order, error) {
	header := OrdersFormat + "\n"
	if !bytes.HasPrefix(data, []byte(header)) {
		return nil, &OrdersError{Msg: fmt.Sprintf("want the header %q", OrdersFormat)}
	}
	data = data[len(header):]
	pageLen := utf8.RuneCountInString(text)
	line := func() (string, bool) {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return "", false
		}
		l := string(data[:i])
		data = data[i+1:]
		return l, true
	}
	num := func(s string, max int) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > max || strconv.Itoa(n) != s {
			return 0, false
		}
		return n, true
	}
	var out []Order
	for len(data) > 0 {
		if len(out) == MaxOrders {
			return nil, &OrdersError{Msg: fmt.Sprintf("more than %d orders", MaxOrders)}
		}
		l, ok := line()
		f := strings.Fields(l)
		if !ok || len(f) != 3 || strings.Join(f, " ") != l {
			return nil, &OrdersError{Msg: fmt.Sprintf("order header %q: %v", l, errOrdersSyntax)}
		}
		o := Order{Name: f[0]}
		// An order holds each page code point once, and each separator
		// stands between two of them, a blank line at most: three times the
		// page's length at most.
		n, ok1 := num(f[1], 3*pageLen+3)
		nruns, ok2 := num(f[2], n)
		if !ok1 || !ok2 {
			return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("header %q: bad lengths", l)}
		}
		o.Map = make([]int32, 0, n)
		for range nruns {
			if from, k, rest, ok := runLine(data); ok && k > 0 && k <= n-len(o.Map) && from <= pageLen-k {
				// A well-formed run within bounds, read without allocating
				// (extraction decodes every page's orders from its
				// workers); any other line takes the path below, which
				// says what is wrong with it.
				data = rest
				for j := range k {
					if from < 0 {
						o.Map = append(o.Map, -1)
					} else {
						o.Map = append(o.Map, int32(from+j))
					}
				}
				continue
			}
			l, ok := line()
			f := strings.Fields(l)
			if !ok || len(f) != 2 || strings.Join(f, " ") != l {
				return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("run %q: %v", l, errOrdersSyntax)}
			}
			k, ok := num(f[1], n-len(o.Map))
			if !ok || k == 0 {
				return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("run %q: bad length", l)}
			}
			if f[0] == "-" {
				for range k {
					o.Map = append(o.Map, -1)
				}
				continue
			}
			from, ok := num(f[0], pageLen-k)
			if !ok {
				return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("run %q: past the page text", l)}
			}
			for j := range k {
				o.Map = append(o.Map, int32(from+j))
			}
		}
		if len(o.Map) != n {
			return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("runs cover %d of %d code points", len(o.Map), n)}
		}
		// The text: n code points, then a line feed.
		end, cps := 0, 0
		for cps < n && end < len(data) {
			_, w := utf8.DecodeRune(data[end:])
			end += w
			cps++
		}
		if cps != n || end >= len(data) || data[end] != '\n' {
			return nil, &OrdersError{Order: o.Name, Msg: fmt.Sprintf("the text is not %d code points and a line feed", n)}
		}
		o.Text = string(data[:end])
		data = data[end+1:]
		out = append(out, o)
	}
	if err := ValidateOrders(out, text); err != nil {
		return nil, err
	}
	return out, nil
}

// runLine reads a run line in its canonical form, "FROM N" or "- N" with
// decimal numbers of at most 9 digits without leading zeros, and returns
// FROM (-1 for "-", whose run maps to nothing), N and what follows the
// line; ok is false for any other line.
func runLine(data []byte) (from, n int, rest []byte, ok bool) {
	num := func(b []byte) (int, int, bool) {
		v, i := 0, 0
		for i < len(b) && i < 10 && b[i] >= '0' && b[i] <= '9' {
			v = 10*v + int(b[i]-'0')
			i++
		}
		if i == 0 || i == 10 || (i > 1 && b[0] == '0') {
			return 0, 0, false
		}
		return v, i, true
	}
	i := 0
	if len(data) > 0 && data[0] == '-' {
		from, i = -1, 1
	} else {
		var ok bool
		if from, i, ok = num(data); !ok {
			return 0, 0, nil, false
		}
	}
	if i >= len(data) || data[i] != ' ' {
		return 0, 0, nil, false
	}
	data = data[i+1:]
	n, i, ok = num(data)
	if !ok || i >= len(data) || data[i] != '\n' {
		return 0, 0, nil, false
	}
	return from, n, data[i+1:], true
}

func ordersFile(docHash string, page int) (string, error) {
	rel, err := pageFile(docHash, page)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(rel, ".txt") + ".orders.txt", nil
}

// Orders returns the reading orders of a page (1-based) of doc, nil when
// it has none. The orders file is checked against the manifest's hash and
// against the page text (read and checked too); a missing file, another
// hash or orders that do not fit the page text are an *IntegrityError
// (ErrIntegrity).
func (s *Store) Orders(doc *Document, page int) ([]Order, error) {
	if page < 1 || page > len(doc.Pages) {
		return nil, fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	if doc.Pages[page-1].Orders == "" {
		return nil, nil
	}
	text, err := s.Text(doc, page)
	if err != nil {
		return nil, err
	}
	return s.OrdersOf(doc, page, text)
}

// CheckOrders checks a page's stored reading orders against the
// manifest's hash (an *IntegrityError otherwise) without decoding them:
// what a reader of an index built from them needs, at a fraction of the
// cost (a file hashing as recorded decodes as it did).
func (s *Store) CheckOrders(doc *Document, page int) error {
	if page < 1 || page > len(doc.Pages) {
		return fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	p := doc.Pages[page-1]
	if p.Orders == "" {
		return nil
	}
	rel, err := ordersFile(doc.BLAKE3, page)
	if err != nil {
		return err
	}
	_, err = s.readStored(doc, page, rel, p.Orders, false)
	return err
}

// OrdersOf is Orders for a caller that has read the page text (Store.Text)
// already.
func (s *Store) OrdersOf(doc *Document, page int, text string) ([]Order, error) {
	if page < 1 || page > len(doc.Pages) {
		return nil, fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	p := doc.Pages[page-1]
	if p.Orders == "" {
		return nil, nil
	}
	rel, err := ordersFile(doc.BLAKE3, page)
	if err != nil {
		return nil, err
	}
	b, err := s.readStored(doc, page, rel, p.Orders, false)
	if err != nil {
		return nil, err
	}
	orders, err := DecodeOrders(b, text)
	if err != nil {
		return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: p.Orders, Stored: p.Orders, Err: err}
	}
	return orders, nil
}
