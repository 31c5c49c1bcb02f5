package pdftext

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// errBudget reports that the document's decoded-bytes budget is spent.
var errBudget = fmt.Errorf("%w: decoded bytes", ErrResourceLimit)

// inflate decompresses zlib or raw deflate data, keeping whatever decoded
// before an error: a damaged stream loses only its tail. It stops at limit
// bytes. err is nil when the data ended cleanly.
func inflate(raw []byte, limit int64) ([]byte, error) {
	// Room for a typical content stream, which deflate shrinks about
	// fourfold, and no more than a megabyte ahead of the data.
	return inflateInto(make([]byte, 0, min(int64(len(raw))*4+512, 1<<20, limit+1)), raw, limit)
}

// inflateInto is inflate appending to dst[:0], which it may outgrow.
func inflateInto(dst, raw []byte, limit int64) ([]byte, error) {
	body := raw
	// A zlib header is two bytes whose big-endian value is a multiple of 31
	// with compression method 8; some writers omit it and store raw deflate.
	if len(raw) >= 2 && raw[0]&0x0F == 8 && (uint16(raw[0])<<8|uint16(raw[1]))%31 == 0 {
		body = raw[2:]
	}
	r := newInflater(bytes.NewReader(body))
	defer inflaters.Put(r)
	out := bytes.NewBuffer(dst[:0])
	n, err := io.Copy(out, io.LimitReader(r, limit+1))
	if n > limit {
		return out.Bytes()[:limit], errBudget
	}
	if err != nil {
		return out.Bytes(), fmt.Errorf("corrupt Flate data after %d bytes: %v", n, err)
	}
	return out.Bytes(), nil
}

// inflaters keeps flate decompressors for reuse: each holds a 32 KiB
// window, and a document can have thousands of streams. A reset
// decompressor reads as a new one does.
var inflaters sync.Pool

func newInflater(r io.Reader) io.ReadCloser {
	if z, ok := inflaters.Get().(io.ReadCloser); ok {
		z.(flate.Resetter).Reset(r, nil)
		return z
	}
	return flate.NewReader(r)
}

// decoder decodes streams within one document's budget and caches results
// by object number, since fonts and forms are shared between pages.
type decoder struct {
	budget int64 // bytes left
	cache  map[int][]byte
	// inflated is what Flate data is decoded into before it is copied out
	// at its size: decoding into a buffer that doubles as it fills cost
	// each stream two to three times its size in garbage.
	inflated []byte
}

// decode returns the decoded bytes of a stream. A damaged stream yields what
// could be decoded and a warning; only a spent budget is an error.
func (d *decoder) decode(sd *types.StreamDict, num int) ([]byte, string, error) {
	if num > 0 {
		if b, ok := d.cache[num]; ok {
			return b, "", nil
		}
	}
	data := sd.Raw
	var warning string
	for i, f := range sd.FilterPipeline {
		if d.budget <= 0 {
			return nil, "", errBudget
		}
		var out []byte
		var err error
		switch {
		case f.Name == filter.Flate && predictor(f.DecodeParms) <= 1:
			d.inflated, err = inflateInto(d.inflated, data, d.budget)
			out = append(make([]byte, 0, len(d.inflated)), d.inflated...)
		case f.Name == filter.ASCIIHex:
			out, err = asciiHex(data)
		case f.Name == filter.DCT || f.Name == filter.JPX || f.Name == filter.CCITTFax || f.Name == filter.JBIG2:
			return nil, "", nil // image data: no text in it
		default:
			out, err = decodeWith(f, data, d.budget)
		}
		d.budget -= int64(len(out))
		if errors.Is(err, ErrResourceLimit) {
			return nil, "", err
		}
		if err != nil {
			warning = fmt.Sprintf("stream %d filter %d (%s): %v", num, i, f.Name, err)
			if len(out) == 0 {
				return nil, warning, nil
			}
		}
		data = out
	}
	if len(sd.FilterPipeline) == 0 {
		d.budget -= int64(len(data))
	}
	if num > 0 {
		if d.cache == nil {
			d.cache = map[int][]byte{}
		}
		d.cache[num] = data
	}
	return data, warning, nil
}

// asciiHex decodes ASCIIHexDecode data as poppler does: white space and
// any other non-hex byte are skipped (with a warning), ">" ends the data and
// an odd final digit is followed by 0.
func asciiHex(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data)/2)
	bad := 0
	var hi byte
	half := false
loop:
	for _, c := range data {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		case c == '>':
			break loop
		default:
			if !isWhite(c) {
				bad++
			}
			continue
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	if bad > 0 {
		return out, fmt.Errorf("%d bytes that are not hex digits skipped", bad)
	}
	return out, nil
}

func predictor(parms types.Dict) int {
	if parms == nil {
		return 0
	}
	if p, ok := parms["Predictor"].(types.Integer); ok {
		return int(p)
	}
	return 0
}

// decodeWith runs one of pdfcpu's filters.
func decodeWith(f types.PDFFilter, data []byte, limit int64) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("filter failed: %v", r)
		}
	}()
	parms := map[string]int{}
	for k, v := range f.DecodeParms {
		switch v := v.(type) {
		case types.Integer:
			parms[k] = int(v)
		case types.Boolean:
			if v {
				parms[k] = 1
			} else {
				parms[k] = 0
			}
		}
	}
	fi, err := filter.NewFilter(f.Name, parms, limit)
	if err != nil {
		return nil, err
	}
	r, err := fi.Decode(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, filter.ErrDecodeLimitExceeded) {
			return nil, errBudget
		}
		return nil, err
	}
	return io.ReadAll(io.LimitReader(r, limit))
}
