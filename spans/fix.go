package spans

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// ErrNotFromFile is returned by Fix for a Reference built in Go: there is
// no file to correct.
var ErrNotFromFile = errors.New("the reference was not decoded from a file")

// Fix returns a corrected copy of the reference file with the offsets of
// rep.Fills written in (rep must come from Validate with Options.Fill on
// this reference). The file is patched, not re-encoded: every other byte,
// the author's formatting and key order included, is kept. The new keys go
// right after the span's "page" member, on lines of their own when the span
// object spans several lines. The result is decoded again before it is
// returned, so Fix never hands back a file Decode would refuse.
func Fix(ref *Reference, rep *Report) ([]byte, error) {
	if ref.src == nil {
		return nil, fmt.Errorf("spans: fix: %w", ErrNotFromFile)
	}
	data := ref.src.data
	type insertion struct {
		at   int
		text string
	}
	var ins []insertion
	for _, f := range rep.Fills {
		obj, ok := ref.src.nodes[f.Path]
		if !ok {
			return nil, fmt.Errorf("spans: fix: no span at %s", f.Path)
		}
		page := obj.Get("page")
		if page == nil || obj.Get("start") != nil || obj.Get("end") != nil {
			return nil, fmt.Errorf("spans: fix: %s is not a span without offsets", f.Path)
		}
		keys := []string{`"start": ` + strconv.Itoa(f.Start), `"end": ` + strconv.Itoa(f.End)}
		if f.EndPage != 0 {
			if obj.Get("end_page") != nil {
				return nil, fmt.Errorf("spans: fix: %s already declares end_page", f.Path)
			}
			keys = append(keys, `"end_page": `+strconv.Itoa(f.EndPage))
		}
		sep := ", "
		if nl := bytes.LastIndexByte(data[obj.Offset:page.KeyOffset], '\n'); nl >= 0 {
			// Multi-line object: indent like the "page" key.
			sep = ",\n" + string(data[obj.Offset+nl+1:page.KeyOffset])
		}
		var text bytes.Buffer
		for _, k := range keys {
			text.WriteString(sep)
			text.WriteString(k)
		}
		ins = append(ins, insertion{page.Value.End, text.String()})
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	var out bytes.Buffer
	last := 0
	for _, x := range ins {
		out.Write(data[last:x.at])
		out.WriteString(x.text)
		last = x.at
	}
	out.Write(data[last:])
	if _, err := Decode(out.Bytes(), ref.src.file); err != nil {
		return nil, fmt.Errorf("spans: fix produced an invalid file (a bug): %w", err)
	}
	return out.Bytes(), nil
}
