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
var (
	streamKeywordRE = regexp.MustCompile(`>>\s*stream(?:\r\n|\n|\r)`)
	lengthKeyRE     = regexp.MustCompile(`/Length[\s/\d(<\[]`)
	bodyEndRE       = regexp.MustCompile(`(?m)^\s*(?:xref|trailer|startxref)\b`)
)

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
	headers := objHeaderRE.FindAllSubmatchIndex(data, -1)
	if len(headers) > lim.MaxObjectNum {
		return nil, nil, false
	}
	for i, h := range headers {
		start, end := h[2], len(data)
		if i+1 < len(headers) {
			end = headers[i+1][2]
		}
		body := data[start:end]
		if m := bodyEndRE.FindIndex(body); m != nil {
			body = body[:m[0]]
		}
		num := string(data[h[2]:h[3]])
		// Where the stream keyword is, its dictionary ends.
		sm := streamKeywordRE.FindIndex(body)
		if sm != nil && !lengthKeyRE.Match(body[:sm[0]]) {
			dataStart := sm[1]
			if e := bytes.Index(body[dataStart:], []byte("endstream")); e >= 0 {
				n := e
				// The end-of-line before endstream is not data.
				if n > 0 && body[dataStart+n-1] == '\n' {
					n--
				}
				if n > 0 && body[dataStart+n-1] == '\r' {
					n--
				}
				inserts = append(inserts, insert{start + sm[0], fmt.Sprintf(" /Length %d", n)})
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
