package pdftext

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
)

// A response travels from worker to parent in a compact binary form, so
// that the megabytes of page text and glyph boxes a document can hold are
// neither escaped by the worker nor unescaped by the parent:
//
//	response = "R2" status error uvarint(grown) list(warnings) uvarint(#pages) page*
//	page     = text boxes list(alts) orders label list(flags) list(warnings)
//	list(x)  = uvarint(#x) string*
//	string   = uvarint(length) bytes
//
// The parent decodes it strictly: every length is checked against what is
// left, a count can ask for no more elements than there are bytes left,
// and nothing may follow the last page. It trusts none of the content:
// statuses, texts, boxes and alternative texts are checked as before.

const wireMagic = "R2"

// errWire reports a response that does not decode.
var errWire = errors.New("malformed response")

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendList(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// encode appends resp in the binary form to b.
func (resp *response) encode(b []byte) []byte {
	b = resp.encodeHead(b, len(resp.Pages))
	for i := range resp.Pages {
		b = resp.Pages[i].encode(b)
	}
	return b
}

// encodeHead appends what precedes the pages, for a response of n pages.
func (resp *response) encodeHead(b []byte, n int) []byte {
	b = append(b, wireMagic...)
	b = appendString(b, string(resp.Status))
	b = appendString(b, resp.Error)
	b = binary.AppendUvarint(b, uint64(max(resp.Grown, 0)))
	b = appendList(b, resp.Warnings)
	return binary.AppendUvarint(b, uint64(n))
}

// encode appends one page in the binary form to b.
func (p *wirePage) encode(b []byte) []byte {
	b = appendString(b, p.Text)
	b = binary.AppendUvarint(b, uint64(len(p.Boxes)))
	b = append(b, p.Boxes...)
	b = appendList(b, p.Alts)
	b = binary.AppendUvarint(b, uint64(len(p.Orders)))
	b = append(b, p.Orders...)
	b = appendString(b, p.Label)
	b = appendList(b, p.Flags)
	return appendList(b, p.Warnings)
}

// encodedSize is a close upper bound of len(resp.encode(nil)), so that
// the frame is allocated once.
func (resp *response) encodedSize() int {
	n := 64 + len(resp.Error) + listSize(resp.Warnings)
	for i := range resp.Pages {
		p := &resp.Pages[i]
		n += 70 + len(p.Text) + len(p.Boxes) + len(p.Orders) + len(p.Label) + listSize(p.Alts) + listSize(p.Flags) + listSize(p.Warnings)
	}
	return n
}

func listSize(ss []string) int {
	n := 10
	for _, s := range ss {
		n += 10 + len(s)
	}
	return n
}

// wireReader decodes the binary form, remembering the first fault.
type wireReader struct {
	b   []byte
	err error
}

func (r *wireReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at %d bytes from the end", errWire, what, len(r.b))
	}
}

func (r *wireReader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what + ": bad length")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes returns the next string's bytes, which alias the frame; nil for
// none.
func (r *wireReader) bytes(what string) []byte {
	n := r.uvarint(what)
	if r.err != nil || n == 0 {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail(fmt.Sprintf("%s: %d bytes announced", what, n))
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

// string returns the next string. Invalid UTF-8 becomes U+FFFD, one for
// each byte that does not decode, as it did when the answer was JSON
// (encoding/json's rule): a font name in a legacy encoding, quoted in a
// warning, is stored as it always was.
func (r *wireReader) string(what string) string { return jsonString(r.bytes(what)) }

func jsonString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b))) // a rune for each byte that does not decode
}

// count reads a number of elements, each at least one byte long.
func (r *wireReader) count(what string) int {
	n := r.uvarint(what)
	if n > uint64(len(r.b)) {
		r.fail(fmt.Sprintf("%s: %d elements announced", what, n))
		return 0
	}
	return int(n)
}

func (r *wireReader) list(what string) []string {
	n := r.count(what)
	if n == 0 {
		return nil
	}
	ss := make([]string, 0, n)
	for range n {
		ss = append(ss, r.string(what))
	}
	return ss
}

// decodeResponse reads a response in the binary form. Page boxes alias b.
func decodeResponse(b []byte) (response, error) {
	if len(b) < len(wireMagic) || string(b[:len(wireMagic)]) != wireMagic {
		return response{}, fmt.Errorf("%w: it does not start with %q", errWire, wireMagic)
	}
	r := &wireReader{b: b[len(wireMagic):]}
	var resp response
	resp.Status = corpus.Status(r.string("status"))
	resp.Error = r.string("error")
	resp.Grown = int64(min(r.uvarint("growth"), 1<<62))
	resp.Warnings = r.list("warnings")
	if n := r.count("pages"); n > 0 {
		resp.Pages = make([]wirePage, n)
		for i := range resp.Pages {
			p := &resp.Pages[i]
			p.Text = r.string("text")
			if p.Boxes = r.bytes("boxes"); !utf8.Valid(p.Boxes) {
				p.Boxes = []byte(jsonString(p.Boxes))
			}
			p.Alts = r.list("alternative texts")
			p.Orders = r.bytes("reading orders")
			p.Label = r.string("label")
			p.Flags = r.list("flags")
			p.Warnings = r.list("page warnings")
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.fail("data after the last page")
	}
	return resp, r.err
}
