package pdftext

import (
	"bytes"
	"fmt"
	"regexp"
)

// Two defects that pdfcpu does not read past, though poppler, MuPDF and
// pdf.js do: an object whose "endobj" is missing (the next object or the
// cross-reference table follows directly), and a stream whose dictionary
// has no /Length. Either makes the object unreadable, and a page whose
// contents or font is such an object comes back empty.
var lengthKeyRE = regexp.MustCompile(`/Length[\s/\d(<\[]`)

// mendObjects returns data with those two defects repaired, what it did,
// and whether it changed anything: a missing "endobj" is added where the
// object's body ends; a stream without /Length gets one, measured to its
// "endstream". Offsets move, so the caller rebuilds the cross-reference
// data (rebuildXRef). Objects inside object streams are not looked at.
func mendObjects(data []byte, lim Limits) ([]byte, []string, bool) {
	type insert struct {
		at   int
		text string
	}
	var inserts []insert
	var notes []string
	headers := objectHeaders(data, lim.MaxObjectNum+1)
	if len(headers) > lim.MaxObjectNum {
		return nil, nil, false
	}
	for i, h := range headers {
		start, end := h.start, len(data)
		if i+1 < len(headers) {
			end = headers[i+1].start
		}
		body := data[start:end]
		body = body[:bodyEnd(body)]
		num := string(data[h.start:h.numEnd])
		// Where the stream keyword is, its dictionary ends.
		dictEnd, dataStart, ok := streamKeyword(body)
		if ok && !lengthKeyRE.Match(body[:dictEnd]) {
			if e := bytes.Index(body[dataStart:], []byte("endstream")); e >= 0 {
				n := e
				// The end-of-line before endstream is not data.
				if n > 0 && body[dataStart+n-1] == '\n' {
					n--
				}
				if n > 0 && body[dataStart+n-1] == '\r' {
					n--
				}
				inserts = append(inserts, insert{start + dictEnd, fmt.Sprintf(" /Length %d", n)})
				notes = append(notes, fmt.Sprintf("object %s: stream without /Length measured to its endstream (%d bytes)", num, n))
			}
		}
		if !bytes.Contains(body, []byte("endobj")) {
			inserts = append(inserts, insert{start + len(body), "\nendobj\n"})
			notes = append(notes, fmt.Sprintf("object %s: missing endobj added", num))
		}
	}
	if len(inserts) == 0 {
		return nil, nil, false
	}
	var b bytes.Buffer
	b.Grow(len(data) + 32*len(inserts))
	prev := 0
	for _, in := range inserts { // in file order: headers are, and each object's inserts are
		b.Write(data[prev:in.at])
		b.WriteString(in.text)
		prev = in.at
	}
	b.Write(data[prev:])
	return b.Bytes(), notes, true
}

// header is one "N G obj" header: the object number's byte range.
type header struct{ start, numEnd int }

// objectHeaders finds the "N G obj" headers of data, as objHeaderRE would
// (the number preceded by white space or the file's start), but with
// bytes.Index: the regular expression takes seconds on a corpus of binary
// streams. It stops after max headers.
func objectHeaders(data []byte, max int) []header {
	var out []header
	for i := 0; len(out) < max; {
		k := bytes.Index(data[i:], []byte("obj"))
		if k < 0 {
			break
		}
		p := i + k
		i = p + 3
		if p+3 < len(data) && !isWhite(data[p+3]) && !isDelim(data[p+3]) {
			continue // "object", "objects"
		}
		j := p
		if j == 0 || !isWhite(data[j-1]) {
			continue // "endobj" and the like
		}
		for j > 0 && isWhite(data[j-1]) {
			j--
		}
		genEnd := j
		for j > 0 && isDigit(data[j-1]) && genEnd-j < 5 {
			j--
		}
		if j == genEnd || j == 0 || !isWhite(data[j-1]) {
			continue
		}
		for j > 0 && isWhite(data[j-1]) {
			j--
		}
		numEnd := j
		for j > 0 && isDigit(data[j-1]) && numEnd-j < 10 {
			j--
		}
		if j == numEnd || (j > 0 && !isWhite(data[j-1])) {
			continue
		}
		out = append(out, header{start: j, numEnd: numEnd})
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// bodyEnd cuts an object's body at a cross-reference section or trailer
// that starts a line after it.
func bodyEnd(body []byte) int {
	end := len(body)
	for _, kw := range []string{"xref", "trailer"} {
		for off := 0; off < end; {
			k := bytes.Index(body[off:end], []byte(kw))
			if k < 0 {
				break
			}
			at := off + k
			off = at + len(kw)
			// At a line's start (after spaces), and not "startxref".
			j := at
			for j > 0 && (body[j-1] == ' ' || body[j-1] == '\t') {
				j--
			}
			if j > 0 && body[j-1] != '\n' && body[j-1] != '\r' {
				continue
			}
			end = j
			break
		}
	}
	return end
}

// streamKeyword finds ">> stream" followed by an end of line: where the
// stream's dictionary ends (after ">>") and where its data starts.
func streamKeyword(body []byte) (dictEnd, dataStart int, ok bool) {
	for off := 0; ; {
		k := bytes.Index(body[off:], []byte("stream"))
		if k < 0 {
			return 0, 0, false
		}
		at := off + k
		off = at + 6
		j := at
		for j > 0 && isWhite(body[j-1]) {
			j--
		}
		if j < 2 || body[j-1] != '>' || body[j-2] != '>' {
			continue
		}
		d := at + 6
		switch {
		case d+1 < len(body) && body[d] == '\r' && body[d+1] == '\n':
			return j - 2, d + 2, true
		case d < len(body) && (body[d] == '\n' || body[d] == '\r'):
			return j - 2, d + 1, true
		}
	}
}
