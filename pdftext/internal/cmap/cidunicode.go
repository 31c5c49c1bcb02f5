package cmap

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"sync"
)

// The ucs2 folder holds Adobe's CID-to-UCS2 CMaps for the four CJK
// character collections, gzip-compressed and otherwise as published in
// Adobe's cmap-resources (BSD-3-Clause; the notice is inside each file).
//
//go:embed ucs2/*.gz
var ucs2Files embed.FS

var (
	cidUniMu sync.Mutex
	cidUni   = map[string]*CMap{}
)

// CIDUnicode returns the map from CIDs (as 2-byte codes) to Unicode of the
// character collection Adobe-<ordering>, for ordering Japan1, GB1, CNS1 or
// Korea1, and false for any other. It is how text is read from a CID-keyed
// font that has no ToUnicode CMap. Tables are parsed on first use.
func CIDUnicode(ordering string) (*CMap, bool) {
	switch ordering {
	case "Japan1", "GB1", "CNS1", "Korea1":
	default:
		return nil, false
	}
	cidUniMu.Lock()
	defer cidUniMu.Unlock()
	if c, ok := cidUni[ordering]; ok {
		return c, c != nil
	}
	c := loadCIDUnicode(ordering)
	cidUni[ordering] = c
	return c, c != nil
}

func loadCIDUnicode(ordering string) *CMap {
	data, err := ucs2Files.ReadFile("ucs2/Adobe-" + ordering + "-UCS2.gz")
	if err != nil {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil
	}
	c, err := Parse(text)
	if err != nil {
		return nil
	}
	return c
}
