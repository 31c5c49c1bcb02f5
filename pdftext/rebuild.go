package pdftext

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

var (
	catalogRE    = regexp.MustCompile(`/Type\s*/Catalog\b`)
	pageTypeRE   = regexp.MustCompile(`/Type\s*/Page\b`)
	objStmRE     = regexp.MustCompile(`/Type\s*/ObjStm\b`)
	encryptRefRE = regexp.MustCompile(`/Encrypt\s+(\d+)\s+(\d+)\s+R`)
)

// xrefEntry locates one object for a rebuilt cross-reference stream.
type xrefEntry struct {
	inStream int // object stream number, 0 for a plain object
	offset   int // byte offset, or index within the object stream
}

// rebuildXRef makes a readable file out of one whose cross-reference data is
// wrong: it scans for "N G obj" headers (the last definition of a number
// wins, as in an incremental update), lists the objects inside object
// streams, finds or synthesises the catalog, and appends a cross-reference
// stream and trailer that describe what was found. Poppler and MuPDF repair
// files the same way.
func rebuildXRef(data []byte, lim Limits) ([]byte, error) {
	r := &rebuild{data: data, entries: map[int]xrefEntry{}}
	if err := r.scan(lim); err != nil {
		return nil, err
	}
	root := r.findRoot()
	maxNum := 0
	for n := range r.entries {
		maxNum = max(maxNum, n)
	}
	r.extra.WriteString("\n")
	if root == 0 {
		if !r.addCatalog(maxNum+1, maxNum+2) {
			return nil, errors.New("no catalog and no page objects found")
		}
		root = maxNum + 1
		maxNum += 2
	}
	r.addXRefStream(maxNum+1, r.trailer(root))
	out := make([]byte, 0, len(data)+r.extra.Len())
	out = append(out, data...)
	return append(out, r.extra.Bytes()...), nil
}

// rebuild is a file being given new cross-reference data: the objects
// found in it, where each one is, and what is appended to it.
type rebuild struct {
	data    []byte
	objs    []foundObj        // in file order
	entries map[int]xrefEntry // by object number
	extra   bytes.Buffer      // appended to data
}

// foundObj is one "N G obj" header found, and the bytes up to the next.
type foundObj struct{ num, start, end int }

func (r *rebuild) body(f foundObj) []byte { return r.data[f.start:f.end] }

// current reports whether f is its number's last definition, the one the
// rebuilt cross-reference data points to.
func (r *rebuild) current(f foundObj) bool { return r.entries[f.num].offset == f.start }

// scan finds every object header and every object inside an object stream
// that is not also defined plainly.
func (r *rebuild) scan(lim Limits) error {
	for _, m := range objHeaderRE.FindAllSubmatchIndex(r.data, -1) {
		num, err := strconv.Atoi(string(r.data[m[2]:m[3]]))
		if err != nil || num <= 0 || num > lim.MaxObjectNum {
			continue
		}
		r.objs = append(r.objs, foundObj{num: num, start: m[2]})
	}
	if len(r.objs) == 0 {
		return errors.New("no objects found")
	}
	for i := range r.objs {
		r.objs[i].end = len(r.data)
		if i+1 < len(r.objs) {
			r.objs[i].end = r.objs[i+1].start
		}
		r.entries[r.objs[i].num] = xrefEntry{offset: r.objs[i].start}
	}
	var decoded int64
	for _, f := range r.objs {
		if !r.current(f) || !objStmRE.Match(headOf(r.body(f))) {
			continue
		}
		nums, n := objStmIndex(r.body(f), lim.MaxDecoded-decoded)
		decoded += n
		for i, num := range nums {
			if _, plain := r.entries[num]; !plain && num > 0 && num <= lim.MaxObjectNum {
				r.entries[num] = xrefEntry{inStream: f.num, offset: i}
			}
		}
	}
	return nil
}

// findRoot returns the catalog: the last /Root reference, when it names
// one, else the last current object typed /Catalog; 0 for none.
func (r *rebuild) findRoot() int {
	if m := rootRefRE.FindAllSubmatch(r.data, -1); len(m) > 0 {
		if n, err := strconv.Atoi(string(m[len(m)-1][1])); err == nil && isCatalog(r.data, r.entries, n) {
			return n
		}
	}
	for i := len(r.objs) - 1; i >= 0; i-- {
		if r.current(r.objs[i]) && catalogRE.Match(headOf(r.body(r.objs[i]))) {
			return r.objs[i].num
		}
	}
	return 0
}

// addCatalog appends, as objects root and tree, a catalog whose page tree
// lists every current object typed /Page; false when there is none.
func (r *rebuild) addCatalog(root, tree int) bool {
	var kids []int
	for _, f := range r.objs {
		if r.current(f) && pageTypeRE.Match(headOf(r.body(f))) {
			kids = append(kids, f.num)
		}
	}
	if len(kids) == 0 {
		return false
	}
	r.entries[root] = xrefEntry{offset: len(r.data) + r.extra.Len()}
	fmt.Fprintf(&r.extra, "%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n", root, tree)
	r.entries[tree] = xrefEntry{offset: len(r.data) + r.extra.Len()}
	fmt.Fprintf(&r.extra, "%d 0 obj\n<< /Type /Pages /Count %d /Kids [", tree, len(kids))
	for _, k := range kids {
		fmt.Fprintf(&r.extra, " %d 0 R", k)
	}
	r.extra.WriteString(" ] >>\nendobj\n")
	return true
}

// trailer returns the trailer's entries: /Root, and the last /Encrypt
// reference and /ID array of the file, when it has them.
func (r *rebuild) trailer(root int) []byte {
	t := fmt.Appendf(nil, " /Root %d 0 R", root)
	if m := encryptRefRE.FindAllSubmatch(r.data, -1); len(m) > 0 {
		t = fmt.Appendf(t, " /Encrypt %s %s R", m[len(m)-1][1], m[len(m)-1][2])
	}
	if i := bytes.LastIndex(r.data, []byte("/ID")); i >= 0 {
		l := &lexer{data: r.data, pos: i + 3}
		if tok, v, _ := l.next(); tok == tOperand && v.kind == kArray && len(v.arr) == 2 {
			t = append(t, " /ID ["...)
			for _, s := range v.arr {
				t = fmt.Appendf(t, "<%x>", s.bytes)
			}
			t = append(t, ']')
		}
	}
	return t
}

// addXRefStream appends the cross-reference stream, object xrefNum,
// uncompressed with W [1 4 4], whose dictionary ends with trailer, then
// startxref.
func (r *rebuild) addXRefStream(xrefNum int, trailer []byte) {
	xrefOff := len(r.data) + r.extra.Len()
	r.entries[xrefNum] = xrefEntry{offset: xrefOff}
	size := xrefNum + 1
	table := make([]byte, 0, size*9)
	for n := range size {
		e, ok := r.entries[n]
		switch {
		case n == 0 || !ok:
			table = append(table, 0)
			table = binary.BigEndian.AppendUint32(table, 0)
			table = binary.BigEndian.AppendUint32(table, 0)
		case e.inStream > 0:
			table = append(table, 2)
			table = binary.BigEndian.AppendUint32(table, uint32(e.inStream))
			table = binary.BigEndian.AppendUint32(table, uint32(e.offset))
		default:
			table = append(table, 1)
			table = binary.BigEndian.AppendUint32(table, uint32(e.offset))
			table = binary.BigEndian.AppendUint32(table, 0)
		}
	}
	fmt.Fprintf(&r.extra, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 4] /Index [0 %d]%s /Length %d >>\nstream\n",
		xrefNum, size, size, trailer, len(table))
	r.extra.Write(table)
	fmt.Fprintf(&r.extra, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefOff)
}

// headOf returns the start of an object, enough to see its dictionary's
// type without scanning a stream's binary data.
func headOf(obj []byte) []byte {
	if i := bytes.Index(obj, []byte("stream")); i >= 0 {
		return obj[:i]
	}
	return obj[:min(len(obj), 4096)]
}

func isCatalog(data []byte, entries map[int]xrefEntry, num int) bool {
	e, ok := entries[num]
	if !ok || e.inStream > 0 {
		return ok // inside an object stream: trust the trailer
	}
	end := min(len(data), e.offset+4096)
	return catalogRE.Match(headOf(data[e.offset:end]))
}

// objStmIndex returns the object numbers an object stream holds, in order,
// and the bytes it decoded.
func objStmIndex(obj []byte, budget int64) ([]int, int64) {
	head := headOf(obj)
	i := bytes.Index(obj, []byte("stream"))
	if i < 0 || budget <= 0 {
		return nil, 0
	}
	raw := obj[i+len("stream"):]
	raw = bytes.TrimLeft(raw, "\r\n")
	if j := bytes.LastIndex(raw, []byte("endstream")); j >= 0 {
		raw = raw[:j]
	}
	if !bytes.Contains(head, []byte("/FlateDecode")) {
		return nil, 0
	}
	content, _ := inflate(raw, budget)
	firstM := regexp.MustCompile(`/First\s+(\d+)`).FindSubmatch(head)
	if firstM == nil {
		return nil, int64(len(content))
	}
	first, _ := strconv.Atoi(string(firstM[1]))
	if first > len(content) {
		first = len(content)
	}
	l := &lexer{data: content[:first]}
	var nums []int
	for k := 0; ; k++ {
		tok, v, _ := l.next()
		if tok != tOperand || v.kind != kNumber {
			break
		}
		if k%2 == 0 {
			nums = append(nums, int(v.num))
		}
	}
	return slices.Clip(nums), int64(len(content))
}
