package fontfile

import (
	"bytes"
	"strconv"

	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
)

// maxCleartext bounds the search for the encoding in a Type 1 program whose
// eexec marker is missing.
const maxCleartext = 1 << 20

// Type1Encoding returns the builtin encoding of a Type 1 font program: the
// standard encoding when the program says "/Encoding StandardEncoding def",
// else the codes its "dup <code> /<name> put" entries assign.
func Type1Encoding(program []byte) (*fontenc.Encoding, bool) {
	clear := program
	// PFB segment header: 0x80, type 1 (ASCII), 4-byte little-endian length.
	if len(clear) >= 6 && clear[0] == 0x80 && clear[1] == 1 {
		n := int(clear[2]) | int(clear[3])<<8 | int(clear[4])<<16 | int(clear[5])<<24
		clear = clear[6:]
		if n >= 0 && n < len(clear) {
			clear = clear[:n]
		}
	}
	if i := bytes.Index(clear, []byte("eexec")); i >= 0 {
		clear = clear[:i]
	} else if len(clear) > maxCleartext {
		clear = clear[:maxCleartext]
	}
	i := bytes.Index(clear, []byte("/Encoding"))
	if i < 0 {
		return nil, false
	}
	rest := clear[i+len("/Encoding"):]
	tok, rest := nextToken(rest)
	if string(tok) == "StandardEncoding" {
		return fontenc.BaseEncoding("StandardEncoding")
	}
	var enc fontenc.Encoding
	found := false
	// "dup <code> /<name> put", until "def" or "readonly".
	var window [4][]byte
	for len(rest) > 0 {
		tok, rest = nextToken(rest)
		if tok == nil {
			break
		}
		if s := string(tok); s == "def" || s == "readonly" {
			break
		}
		window[0], window[1], window[2], window[3] = window[1], window[2], window[3], tok
		if string(window[0]) == "dup" && string(window[3]) == "put" && len(window[2]) > 1 && window[2][0] == '/' {
			code, err := strconv.Atoi(string(window[1]))
			if err == nil && code >= 0 && code < 256 {
				enc[code] = string(window[2][1:])
				found = true
			}
		}
	}
	if !found {
		return nil, false
	}
	return &enc, true
}

// nextToken returns the next white-space delimited token and the rest. A
// name token ends at a delimiter too, so "/a/b" gives "/a" then "/b".
func nextToken(b []byte) (tok, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i == len(b) {
		return nil, nil
	}
	j := i + 1
	for j < len(b) && !isSpace(b[j]) && !isDelim(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '/', '[', ']', '{', '}', '(', ')', '<', '>', '%':
		return true
	}
	return false
}
