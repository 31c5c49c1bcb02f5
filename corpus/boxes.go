package corpus

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/internal/inputerr"
)

// GlyphBox places the text [Start, End) of a page on the page: Start and
// End are code-point offsets into the stored page text, and the rectangle is
// in the page's default user space (PDF points, y up, the coordinates of
// its MediaBox; /Rotate is not applied). A glyph whose text is several code
// points (a ligature) has one box for all of them; separators the extractor
// inserted (spaces and line breaks between glyphs) have none.
type GlyphBox struct {
	Start int     `json:"start"`
	End   int     `json:"end"`
	X0    float64 `json:"x0"`
	Y0    float64 `json:"y0"`
	X1    float64 `json:"x1"`
	Y1    float64 `json:"y1"`
}

// BoxesFormat names the format of a page's glyph boxes:
//
//	citecheck-boxes/1
//	<gap> <len> <dx0> <dy0> <width> <height>     one line per box, by start
//
// Each box is written relative to the one before it (the first to zeros):
// gap = Start - previous End, len = End - Start, dx0 = X0 - previous X1,
// dy0 = Y0 - previous Y0, width = X1 - X0 and height = Y1 - Y0, lengths in
// code points and coordinates as integers in hundredths of a point. Boxes
// are sorted by Start and do not overlap; gap >= 0, len >= 1, width >= 0,
// height >= 0. Text lines of one font differ only in dx0 and width, so the
// store's gzip compression takes them to about 1.5 bytes per glyph. The
// corpus stores this text gzip-compressed in <page>.boxes.gz and records the
// BLAKE3 of the uncompressed text, so the hash does not depend on the
// compressor.
const BoxesFormat = "citecheck-boxes/1"

// ErrNoBoxes reports a page stored without glyph boxes (by an extractor that
// did not record them).
var ErrNoBoxes = inputerr.New("no glyph boxes stored for this page")

// EncodeBoxes writes boxes in BoxesFormat, uncompressed.
func EncodeBoxes(boxes []GlyphBox) []byte {
	return AppendBoxes(make([]byte, 0, len(BoxesFormat)+1+len(boxes)*24), boxes)
}

// AppendBoxes appends EncodeBoxes(boxes) to b.
func AppendBoxes(b []byte, boxes []GlyphBox) []byte {
	b = append(b, BoxesFormat+"\n"...)
	prevEnd, prevX1, prevY0 := 0, int64(0), int64(0)
	for _, g := range boxes {
		x0, y0, x1, y1 := centi(g.X0), centi(g.Y0), centi(g.X1), centi(g.Y1)
		b = appendBoxInt(b, int64(g.Start-prevEnd))
		b = append(b, ' ')
		b = appendBoxInt(b, int64(g.End-g.Start))
		b = append(b, ' ')
		b = appendBoxInt(b, x0-prevX1)
		b = append(b, ' ')
		b = appendBoxInt(b, y0-prevY0)
		b = append(b, ' ')
		b = appendBoxInt(b, x1-x0)
		b = append(b, ' ')
		b = appendBoxInt(b, y1-y0)
		b = append(b, '\n')
		prevEnd, prevX1, prevY0 = g.End, x1, y0
	}
	return b
}

// appendBoxInt is strconv.AppendInt in base 10, written out for the
// numbers of under five digits that make nearly every box line: six per
// glyph, millions per corpus.
func appendBoxInt(b []byte, v int64) []byte {
	if v < 0 {
		if v <= -10000 {
			return strconv.AppendInt(b, v, 10)
		}
		b = append(b, '-')
		v = -v
	} else if v >= 10000 {
		return strconv.AppendInt(b, v, 10)
	}
	switch {
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	case v < 1000:
		return append(b, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	}
	return append(b, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

// centi rounds a coordinate to hundredths of a point, clamped to what a
// PDF page can hold.
func centi(v float64) int64 {
	const lim = 1 << 40
	if math.IsNaN(v) {
		return 0
	}
	x := v * 100
	// As math.Max(-lim, math.Min(lim, x)), without the calls: x is no NaN.
	if x > lim {
		x = lim
	} else if x < -lim {
		x = -lim
	}
	return int64(math.Round(x))
}

// A BoxesError locates a fault in glyph-box data.
type BoxesError struct {
	Line int
	Msg  string
}

func (e *BoxesError) Error() string { return fmt.Sprintf("glyph boxes line %d: %s", e.Line, e.Msg) }

// maxBoxDelta bounds every number of a box line, so sums cannot overflow.
const maxBoxDelta = 1 << 50

// DecodeBoxes reads uncompressed BoxesFormat data for a page text of
// textLen code points, checking every invariant.
func DecodeBoxes(data []byte, textLen int) ([]GlyphBox, error) {
	var out []GlyphBox
	err := scanBoxes(data, textLen, func(g GlyphBox) { out = append(out, g) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ValidateBoxes checks BoxesFormat data as DecodeBoxes does, without
// keeping the boxes.
func ValidateBoxes(data []byte, textLen int) error {
	return scanBoxes(data, textLen, nil)
}

// scanBoxes parses BoxesFormat data line by line, calling fn, unless it
// is nil, for each box. It is written out by hand because the store
// validates every box of a corpus a child process sends; without fn no box
// is made (four divisions per glyph).
func scanBoxes(data []byte, textLen int, fn func(GlyphBox)) error {
	header := BoxesFormat + "\n"
	if !bytes.HasPrefix(data, []byte(header)) {
		return &BoxesError{1, fmt.Sprintf("want the header %q", BoxesFormat)}
	}
	data = data[len(header):]
	prevEnd, prevX1, prevY0 := int64(0), int64(0), int64(0)
	for n := 2; len(data) > 0; n++ {
		v, k, ok := boxLineFast(data)
		if ok {
			data = data[min(k+1, len(data)):]
		} else {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			var err *BoxesError
			if v, err = boxLine(line, n); err != nil {
				return err
			}
		}
		gap, length, dx0, dy0, w, h := v[0], v[1], v[2], v[3], v[4], v[5]
		start := prevEnd + gap
		end := start + length
		switch {
		case gap < 0 || length < 1:
			return &BoxesError{n, "a box overlaps the previous one or is empty"}
		case end > int64(textLen):
			return &BoxesError{n, fmt.Sprintf("box ends at %d, past the text's %d code points", end, textLen)}
		case w < 0 || h < 0:
			return &BoxesError{n, "negative width or height"}
		}
		x0, y0 := prevX1+dx0, prevY0+dy0
		if x0 > maxBoxDelta || x0 < -maxBoxDelta || y0 > maxBoxDelta || y0 < -maxBoxDelta {
			return &BoxesError{n, "coordinate out of range"}
		}
		if fn != nil {
			fn(GlyphBox{Start: int(start), End: int(end),
				X0: float64(x0) / 100, Y0: float64(y0) / 100, X1: float64(x0+w) / 100, Y1: float64(y0+h) / 100})
		}
		prevEnd, prevX1, prevY0 = end, x0+w, y0
	}
	return nil
}

// boxLine reads the six fields of a box line, separated by any white
// space.
func boxLine(line []byte, n int) ([6]int64, *BoxesError) {
	var v [6]int64
	k := 0
	for f := range bytes.FieldsSeq(line) {
		if k == 6 {
			return v, &BoxesError{n, "more than 6 fields"}
		}
		x, ok := parseBoxInt(f)
		if !ok {
			return v, &BoxesError{n, fmt.Sprintf("field %d: %q is not an integer in range", k+1, f)}
		}
		v[k] = x
		k++
	}
	if k != 6 {
		return v, &BoxesError{n, fmt.Sprintf("want 6 fields, got %d", k)}
	}
	return v, nil
}

// boxLineFast reads a box line as EncodeBoxes writes it, six integers
// parseBoxInt accepts separated by single spaces, in one pass; for any
// other line it returns false and boxLine decides. The parent validates
// every box a worker sends with it, megabytes per corpus.
//
// It reads from the start of data and stops at the line's end: a line feed
// or the end of data, at k.
func boxLineFast(line []byte) (v [6]int64, k int, ok bool) {
	i := 0
	for f := range v {
		if f > 0 {
			if i >= len(line) || line[i] != ' ' {
				return v, 0, false
			}
			i++
		}
		neg := false
		if i < len(line) && (line[i] == '-' || line[i] == '+') {
			neg = line[i] == '-'
			i++
		}
		start := i
		var x int64
		for ; i < len(line); i++ {
			d := line[i] - '0'
			if d > 9 {
				break
			}
			x = x*10 + int64(d) // past 16 digits it may wrap: refused below
		}
		if i == start || i-start > 16 || x > maxBoxDelta {
			return v, 0, false
		}
		if neg {
			x = -x
		}
		v[f] = x
	}
	return v, i, i == len(line) || line[i] == '\n'
}

// parseBoxInt reads an optionally signed decimal integer within
// ±maxBoxDelta.
func parseBoxInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, b = b[0] == '-', b[1:]
	}
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if v > maxBoxDelta {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// compressBoxes gzips encoded boxes deterministically (no name, no time).
// Writers are reused: a reset writer writes what a new one would, and a
// new one costs a megabyte of fresh memory per page.
func compressBoxes(data []byte) []byte {
	b := bytes.NewBuffer(make([]byte, 0, len(data)/4+64))
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(b)
	zw.Write(data)
	zw.Close()
	gzipWriters.Put(zw)
	return b.Bytes()
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

// maxBoxesBytes caps a decompressed boxes file.
const maxBoxesBytes = 1 << 30

func decompressBoxes(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(zr, maxBoxesBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBoxesBytes {
		return nil, fmt.Errorf("glyph boxes larger than %d bytes", maxBoxesBytes)
	}
	return b, nil
}

func boxesFile(docHash string, page int) (string, error) {
	rel, err := pageFile(docHash, page)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(rel, ".txt") + ".boxes.gz", nil
}

// Boxes returns the glyph boxes of a page (1-based) of doc, checked against
// the manifest's hash, or ErrNoBoxes. A boxes file that is missing, does
// not decompress, decompresses to other bytes than the manifest records or
// does not fit the page's length is an *IntegrityError (ErrIntegrity).
func (s *Store) Boxes(doc *Document, page int) ([]GlyphBox, error) {
	if page < 1 || page > len(doc.Pages) {
		return nil, fmt.Errorf("%s: page %d out of range 1..%d", doc.Name, page, len(doc.Pages))
	}
	p := doc.Pages[page-1]
	if p.Boxes == "" {
		return nil, fmt.Errorf("%s page %d: %w", doc.Name, page, ErrNoBoxes)
	}
	rel, err := boxesFile(doc.BLAKE3, page)
	if err != nil {
		return nil, err
	}
	b, err := s.readStored(doc, page, rel, p.Boxes, true)
	if err != nil {
		return nil, err
	}
	boxes, err := DecodeBoxes(b, p.Chars)
	if err != nil {
		// It hashes as recorded, so the manifest's length no longer fits it.
		return nil, &IntegrityError{Doc: doc.Name, Page: page, File: rel, Recorded: p.Boxes, Stored: p.Boxes, Err: err}
	}
	return boxes, nil
}
