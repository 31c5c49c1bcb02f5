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
	entries := map[int]xrefEntry{}
	type found struct{ num, start, end int }
	var objs []found
	for _, m := range objHeaderRE.FindAllSubmatchIndex(data, -1) {
		num, err := strconv.Atoi(string(data[m[2]:m[3]]))
		if err != nil || num <= 0 || num > lim.MaxObjectNum {
			continue
		}
		objs = append(objs, found{num: num, start: m[2]})
	}
	if len(objs) == 0 {
		return nil, errors.New("no objects found")
	}
	for i := range objs {
		objs[i].end = len(data)
		if i+1 < len(objs) {
			objs[i].end = objs[i+1].start
		}
		entries[objs[i].num] = xrefEntry{offset: objs[i].start}
	}
	body := func(f found) []byte { return data[f.start:f.end] }

	// Objects inside object streams, unless also defined plainly later.
	var decoded int64
	for _, f := range objs {
		if entries[f.num].offset != f.start || !objStmRE.Match(headOf(body(f))) {
			continue
		}
		nums, n := objStmIndex(body(f), lim.MaxDecoded-decoded)
		decoded += n
		for i, num := range nums {
			if _, plain := entries[num]; !plain && num > 0 && num <= lim.MaxObjectNum {
				entries[num] = xrefEntry{inStream: f.num, offset: i}
			}
		}
	}

	root := 0
	var trailerExtra []byte
	if m := rootRefRE.FindAllSubmatch(data, -1); len(m) > 0 {
		if n, err := strconv.Atoi(string(m[len(m)-1][1])); err == nil && isCatalog(data, entries, n) {
			root = n
		}
	}
	if root == 0 {
		for i := len(objs) - 1; i >= 0 && root == 0; i-- {
			if entries[objs[i].num].offset == objs[i].start && catalogRE.Match(headOf(body(objs[i]))) {
				root = objs[i].num
			}
		}
	}
	maxNum := 0
	for n := range entries {
		maxNum = max(maxNum, n)
	}
	var extra bytes.Buffer
	extra.WriteString("\n")
	if root == 0 {
		// No catalog: make one whose page tree lists every page object.
		var kids []int
		for _, f := range objs {
			if entries[f.num].offset == f.start && pageTypeRE.Match(headOf(body(f))) {
				kids = append(kids, f.num)
			}
		}
		if len(kids) == 0 {
			return nil, errors.New("no catalog and no page objects found")
		}
		root, tree := maxNum+1, maxNum+2
		maxNum += 2
		entries[root] = xrefEntry{offset: len(data) + extra.Len()}
		fmt.Fprintf(&extra, "%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n", root, tree)
		entries[tree] = xrefEntry{offset: len(data) + extra.Len()}
		fmt.Fprintf(&extra, "%d 0 obj\n<< /Type /Pages /Count %d /Kids [", tree, len(kids))
		for _, k := range kids {
			fmt.Fprintf(&extra, " %d 0 R", k)
		}
		extra.WriteString(" ] >>\nendobj\n")
		trailerExtra = fmt.Appendf(nil, " /Root %d 0 R", root)
	} else {
		trailerExtra = fmt.Appendf(nil, " /Root %d 0 R", root)
	}
	if m := encryptRefRE.FindAllSubmatch(data, -1); len(m) > 0 {
		trailerExtra = fmt.Appendf(trailerExtra, " /Encrypt %s %s R", m[len(m)-1][1], m[len(m)-1][2])
	}
	if i := bytes.LastIndex(data, []byte("/ID")); i >= 0 {
		l := &lexer{data: data, pos: i + 3}
		if tok, v, _ := l.next(); tok == tOperand && v.kind == kArray && len(v.arr) == 2 {
			trailerExtra = append(trailerExtra, " /ID ["...)
			for _, s := range v.arr {
				trailerExtra = fmt.Appendf(trailerExtra, "<%x>", s.bytes)
			}
			trailerExtra = append(trailerExtra, ']')
		}
	}

	// The cross-reference stream itself, uncompressed: W [1 4 4].
	xrefNum := maxNum + 1
	xrefOff := len(data) + extra.Len()
	entries[xrefNum] = xrefEntry{offset: xrefOff}
	size := xrefNum + 1
	table := make([]byte, 0, size*9)
	for n := range size {
		e, ok := entries[n]
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
	fmt.Fprintf(&extra, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 4] /Index [0 %d]%s /Length %d >>\nstream\n",
		xrefNum, size, size, trailerExtra, len(table))
	extra.Write(table)
	fmt.Fprintf(&extra, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefOff)
	out := make([]byte, 0, len(data)+extra.Len())
	out = append(out, data...)
	return append(out, extra.Bytes()...), nil
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
