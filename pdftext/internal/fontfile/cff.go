package fontfile

import (
	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
)

// cff reads a bare CFF program (Adobe TN 5176) as far as its encoding.
type cff struct {
	data    []byte
	strings [][]byte
}

// CFFEncoding returns the builtin encoding of a CFF font program: codes
// mapped through its Encoding to glyph indices and through its charset to
// glyph names. CID-keyed programs have no encoding and return ok=false.
func CFFEncoding(program []byte) (*fontenc.Encoding, bool) {
	c := &cff{data: program}
	if len(program) < 4 || program[0] != 1 {
		return nil, false
	}
	pos := int(program[2])
	_, pos, ok := c.index(pos) // Name INDEX
	if !ok {
		return nil, false
	}
	top, pos, ok := c.index(pos)
	if !ok || len(top) == 0 {
		return nil, false
	}
	c.strings, _, ok = c.index(pos)
	if !ok {
		return nil, false
	}
	dict := parseDict(top[0])
	if _, cid := dict[0x0c1e]; cid { // ROS: CID-keyed
		return nil, false
	}
	charsetOff, encodingOff, charStringsOff := dict.int(15, 0), dict.int(16, 0), dict.int(17, -1)
	switch encodingOff {
	case 0:
		return fontenc.BaseEncoding("StandardEncoding")
	case 1:
		return nil, false // Expert encoding: not used by text fonts
	}
	glyphs, _, ok := c.index(charStringsOff)
	if !ok {
		return nil, false
	}
	names, ok := c.charset(charsetOff, len(glyphs))
	if !ok {
		return nil, false
	}
	return c.encoding(encodingOff, names)
}

// index reads an INDEX at pos, returning its items and the position after
// it. Items alias the data.
func (c *cff) index(pos int) (items [][]byte, next int, ok bool) {
	d := c.data
	if pos < 0 || pos+2 > len(d) {
		return nil, 0, false
	}
	count := int(d[pos])<<8 | int(d[pos+1])
	if count == 0 {
		return nil, pos + 2, true
	}
	if pos+3 > len(d) {
		return nil, 0, false
	}
	offSize := int(d[pos+2])
	if offSize < 1 || offSize > 4 {
		return nil, 0, false
	}
	offs := pos + 3
	if count > (len(d)-offs)/offSize-1 {
		return nil, 0, false
	}
	base := offs + (count+1)*offSize - 1
	off := func(i int) int {
		v := 0
		for k := range offSize {
			v = v<<8 | int(d[offs+i*offSize+k])
		}
		return base + v
	}
	items = make([][]byte, count)
	prev := off(0)
	for i := range count {
		end := off(i + 1)
		if prev < base+1 || end < prev || end > len(d) {
			return nil, 0, false
		}
		items[i] = d[prev:end]
		prev = end
	}
	return items, prev, true
}

func (c *cff) name(sid int) string {
	if sid < len(standardStrings) {
		return standardStrings[sid]
	}
	if i := sid - len(standardStrings); i < len(c.strings) {
		return string(c.strings[i])
	}
	return ""
}

// charset returns the glyph name of every glyph index.
func (c *cff) charset(off, n int) ([]string, bool) {
	names := make([]string, n)
	if n > 0 {
		names[0] = ".notdef"
	}
	d := c.data
	switch off {
	case 0: // ISOAdobe: SIDs 1..228 in order
		for g := 1; g < n && g <= 228; g++ {
			names[g] = standardStrings[g]
		}
		return names, true
	case 1, 2: // Expert and ExpertSubset: glyphs no text font needs
		return nil, false
	}
	if off < 0 || off >= len(d) {
		return nil, false
	}
	format, p := d[off], off+1
	card16 := func() (int, bool) {
		if p+2 > len(d) {
			return 0, false
		}
		v := int(d[p])<<8 | int(d[p+1])
		p += 2
		return v, true
	}
	g := 1
	switch format {
	case 0:
		for ; g < n; g++ {
			sid, ok := card16()
			if !ok {
				return nil, false
			}
			names[g] = c.name(sid)
		}
	case 1, 2:
		for g < n {
			first, ok := card16()
			if !ok {
				return nil, false
			}
			var left int
			if format == 1 {
				if p >= len(d) {
					return nil, false
				}
				left, p = int(d[p]), p+1
			} else if left, ok = card16(); !ok {
				return nil, false
			}
			for k := 0; k <= left && g < n; k++ {
				names[g] = c.name(first + k)
				g++
			}
		}
	default:
		return nil, false
	}
	return names, true
}

// encoding maps codes to glyph names through a custom Encoding at off.
func (c *cff) encoding(off int, names []string) (*fontenc.Encoding, bool) {
	d := c.data
	if off < 0 || off+2 > len(d) {
		return nil, false
	}
	var enc fontenc.Encoding
	format, p := d[off], off+1
	glyph := func(g int) string {
		if g < len(names) {
			return names[g]
		}
		return ""
	}
	switch format & 0x7f {
	case 0:
		n := int(d[p])
		p++
		if p+n > len(d) {
			return nil, false
		}
		for i := range n {
			enc[d[p+i]] = glyph(i + 1)
		}
		p += n
	case 1:
		n := int(d[p])
		p++
		if p+2*n > len(d) {
			return nil, false
		}
		g := 1
		for i := range n {
			first, left := int(d[p+2*i]), int(d[p+2*i+1])
			for k := 0; k <= left && first+k < 256; k++ {
				enc[first+k] = glyph(g)
				g++
			}
		}
		p += 2 * n
	default:
		return nil, false
	}
	if format&0x80 != 0 && p < len(d) {
		n := int(d[p])
		p++
		for i := 0; i < n && p+3 <= len(d); i++ {
			code, sid := d[p], int(d[p+1])<<8|int(d[p+2])
			enc[code] = c.name(sid)
			p += 3
		}
	}
	return &enc, true
}

// dict is a parsed CFF DICT: operator (escaped ones as 0x0c00|b1) to its
// operands.
type dict map[int][]float64

func (d dict) int(op, def int) int {
	if v, ok := d[op]; ok && len(v) > 0 && v[0] >= 0 && v[0] < 1<<30 {
		return int(v[0])
	}
	return def
}

func parseDict(b []byte) dict {
	d := dict{}
	var operands []float64
	for i := 0; i < len(b); {
		b0 := b[i]
		switch {
		case b0 <= 21:
			op := int(b0)
			i++
			if b0 == 12 {
				if i >= len(b) {
					return d
				}
				op = 0x0c00 | int(b[i])
				i++
			}
			d[op] = operands
			operands = nil
		case b0 == 28:
			if i+3 > len(b) {
				return d
			}
			operands = append(operands, float64(int16(uint16(b[i+1])<<8|uint16(b[i+2]))))
			i += 3
		case b0 == 29:
			if i+5 > len(b) {
				return d
			}
			operands = append(operands, float64(int32(uint32(b[i+1])<<24|uint32(b[i+2])<<16|uint32(b[i+3])<<8|uint32(b[i+4]))))
			i += 5
		case b0 == 30: // real: skip its nibbles; no operator here needs its value
			i++
			for i < len(b) {
				lo := b[i] & 0x0f
				i++
				if lo == 0x0f || b[i-1]>>4 == 0x0f {
					break
				}
			}
			operands = append(operands, 0)
		case b0 >= 32 && b0 <= 246:
			operands = append(operands, float64(int(b0)-139))
			i++
		case b0 >= 247 && b0 <= 250:
			if i+2 > len(b) {
				return d
			}
			operands = append(operands, float64((int(b0)-247)*256+int(b[i+1])+108))
			i += 2
		case b0 >= 251 && b0 <= 254:
			if i+2 > len(b) {
				return d
			}
			operands = append(operands, float64(-(int(b0)-251)*256-int(b[i+1])-108))
			i += 2
		default:
			i++
		}
		if len(operands) > 48 {
			operands = operands[:0] // the spec's stack limit; hostile input
		}
	}
	return d
}
