package fontfile

import "encoding/binary"

// maxCmapCodes bounds the code points a hostile cmap table can make us
// visit: all of Unicode, once.
const maxCmapCodes = 0x110000

// TrueTypeGlyphText maps glyph indices of a TrueType or OpenType program to
// the Unicode text its cmap table assigns them: the inverse of the Unicode
// subtable (platform 3 encoding 10 or 1, else platform 0), lowest code
// point first when several share a glyph. It is how a CID font with
// Identity ordering and no ToUnicode CMap can still be read: poppler and
// pdf.js do the same. It returns nil when the program has no usable
// Unicode cmap (formats 4 and 12 are read).
func TrueTypeGlyphText(program []byte) map[uint16]rune {
	cmap, ok := ttTable(program, "cmap")
	if !ok || len(cmap) < 4 {
		return nil
	}
	n := int(be16(cmap, 2))
	best, bestRank := -1, 0
	for i := range n {
		rec := 4 + 8*i
		if rec+8 > len(cmap) {
			break
		}
		platform, encoding, off := be16(cmap, rec), be16(cmap, rec+2), int(be32(cmap, rec+4))
		rank := 0
		switch {
		case platform == 3 && encoding == 10:
			rank = 3
		case platform == 3 && encoding == 1:
			rank = 2
		case platform == 0:
			rank = 1
		}
		if rank > bestRank && off >= 0 && off < len(cmap) {
			best, bestRank = off, rank
		}
	}
	if best < 0 {
		return nil
	}
	sub := cmap[best:]
	if len(sub) < 2 {
		return nil
	}
	out := map[uint16]rune{}
	add := func(r rune, gid uint32) {
		if gid == 0 || gid > 0xFFFF {
			return
		}
		if old, ok := out[uint16(gid)]; !ok || r < old {
			out[uint16(gid)] = r
		}
	}
	switch be16(sub, 0) {
	case 4:
		if len(sub) < 14 {
			return nil
		}
		segs := int(be16(sub, 6)) / 2
		ends, starts := 14, 14+2*segs+2
		deltas, ranges := starts+2*segs, starts+4*segs
		if ranges+2*segs > len(sub) {
			return nil
		}
		budget := maxCmapCodes
		for s := 0; s < segs && budget > 0; s++ {
			end, start := rune(be16(sub, ends+2*s)), rune(be16(sub, starts+2*s))
			delta, ro := be16(sub, deltas+2*s), int(be16(sub, ranges+2*s))
			for c := start; c <= end && c != 0xFFFF && budget > 0; c++ {
				budget--
				var gid uint32
				if ro == 0 {
					gid = uint32(uint16(c) + delta)
				} else {
					at := ranges + 2*s + ro + 2*int(c-start)
					if at+2 > len(sub) {
						break
					}
					if g := be16(sub, at); g != 0 {
						gid = uint32(g + delta)
					}
				}
				add(c, gid)
			}
		}
	case 12:
		if len(sub) < 16 {
			return nil
		}
		groups := int(be32(sub, 12))
		budget := maxCmapCodes
		for g := 0; g < groups && 16+12*g+12 <= len(sub); g++ {
			at := 16 + 12*g
			start, end, gid := be32(sub, at), be32(sub, at+4), be32(sub, at+8)
			for c := start; c <= end && c < maxCmapCodes && budget > 0; c++ {
				add(rune(c), gid+(c-start))
				budget--
			}
		}
	default:
		return nil
	}
	return out
}

// ttTable returns the named table of an sfnt program.
func ttTable(b []byte, tag string) ([]byte, bool) {
	if len(b) < 12 {
		return nil, false
	}
	n := int(be16(b, 4))
	for i := range n {
		rec := 12 + 16*i
		if rec+16 > len(b) {
			return nil, false
		}
		if string(b[rec:rec+4]) != tag {
			continue
		}
		off, length := int(be32(b, rec+8)), int(be32(b, rec+12))
		if off < 0 || length < 0 || off > len(b) || length > len(b)-off {
			return nil, false
		}
		return b[off : off+length], true
	}
	return nil, false
}

func be16(b []byte, at int) uint16 {
	if at < 0 || at+2 > len(b) {
		return 0
	}
	return binary.BigEndian.Uint16(b[at:])
}

func be32(b []byte, at int) uint32 {
	if at < 0 || at+4 > len(b) {
		return 0
	}
	return binary.BigEndian.Uint32(b[at:])
}
