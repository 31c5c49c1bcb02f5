package pdftext

import (
	"fmt"
	"slices"

	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pageInfo is one page with its inherited attributes resolved.
type pageInfo struct {
	dict      types.Dict
	resources types.Dict
	rotate    int
}

// pages lists the document's pages in page-tree order. A node seen twice (a
// cycle, or a page listed twice) is skipped with a warning; depth and count
// are bounded. When the catalog has no usable page tree, every object typed
// /Page is taken in object-number order, as repairing viewers do.
func (o objects) pages(lim Limits) ([]pageInfo, []string) {
	var out []pageInfo
	var warnings []string
	seen := map[int]bool{}
	var walk func(node types.Object, res types.Dict, rotate, depth int)
	walk = func(node types.Object, res types.Dict, rotate, depth int) {
		if len(out) >= lim.MaxPages {
			return
		}
		if ref, ok := node.(types.IndirectRef); ok {
			n := ref.ObjectNumber.Value()
			if seen[n] {
				warnings = append(warnings, fmt.Sprintf("page tree: object %d reached twice, skipped", n))
				return
			}
			seen[n] = true
		}
		if depth > lim.MaxDepth {
			warnings = append(warnings, "page tree: nested too deeply, subtree skipped")
			return
		}
		d := o.dict(node)
		if d == nil {
			if ref, ok := node.(types.IndirectRef); ok && depth > 0 {
				if e, ok := o.xref.Table[ref.ObjectNumber.Value()]; ok && e != nil && !e.Free {
					// The tree lists a page whose object cannot be read:
					// keep its place, with no text, so page numbers stay right.
					warnings = append(warnings, fmt.Sprintf("page object %d is unreadable; its page has no text", ref.ObjectNumber.Value()))
					out = append(out, pageInfo{rotate: normRotate(rotate)})
				}
			}
			return
		}
		if r := o.dictEntry(d, "Resources"); r != nil {
			res = r
		}
		if r, ok := o.number(o.get(d, "Rotate")); ok {
			rotate = int(r)
		}
		kids := o.arrayEntry(d, "Kids")
		if _, isRef := d["Kids"].(types.IndirectRef); kids == nil && isRef {
			// "/Kids 3 0 R" with the brackets lost: one kid.
			kids = types.Array{d["Kids"]}
		}
		typ := o.nameEntry(d, "Type")
		if typ == "Page" || (typ != "Pages" && kids == nil) {
			out = append(out, pageInfo{dict: d, resources: res, rotate: normRotate(rotate)})
			return
		}
		for _, k := range kids {
			walk(k, res, rotate, depth+1)
		}
	}
	if o.xref.Root != nil {
		if cat := o.dict(*o.xref.Root); cat != nil {
			if p, ok := cat["Pages"]; ok {
				walk(p, nil, 0, 0)
			}
		}
	}
	if len(out) > 0 {
		return out, warnings
	}
	// No page tree: scan for page objects.
	nums := make([]int, 0, len(o.xref.Table))
	for n := range o.xref.Table {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	for _, n := range nums {
		e := o.xref.Table[n]
		if e == nil || e.Free || e.Object == nil {
			continue
		}
		d, ok := e.Object.(types.Dict)
		if !ok || o.nameEntry(d, "Type") != "Page" {
			continue
		}
		res, rotate := o.inherited(d, lim.MaxDepth)
		out = append(out, pageInfo{dict: d, resources: res, rotate: rotate})
		if len(out) >= lim.MaxPages {
			break
		}
	}
	if len(out) > 0 {
		warnings = append(warnings, "no usable page tree: pages found by scanning for /Type /Page objects")
	}
	return out, warnings
}

// inherited resolves Resources and Rotate through a page's /Parent chain.
func (o objects) inherited(d types.Dict, maxDepth int) (types.Dict, int) {
	var res types.Dict
	rotate, haveRotate := 0, false
	for node, depth := d, 0; node != nil && depth <= maxDepth; node, depth = o.dictEntry(node, "Parent"), depth+1 {
		if res == nil {
			res = o.dictEntry(node, "Resources")
		}
		if r, ok := o.number(o.get(node, "Rotate")); ok && !haveRotate {
			rotate, haveRotate = int(r), true
		}
	}
	return res, normRotate(rotate)
}

func normRotate(r int) int {
	r %= 360
	if r < 0 {
		r += 360
	}
	return r / 90 * 90
}

// pageLabels returns the /PageLabels of the catalog as one label per page,
// or nil when the document declares none.
func (o objects) pageLabels(n int) []string {
	if o.xref.Root == nil {
		return nil
	}
	cat := o.dict(*o.xref.Root)
	tree := o.dictEntry(cat, "PageLabels")
	if tree == nil {
		return nil
	}
	type rangeStart struct {
		page  int
		label types.Dict
	}
	var starts []rangeStart
	visited := 0
	var walk func(d types.Dict, depth int)
	walk = func(d types.Dict, depth int) {
		visited++
		if d == nil || depth > 16 || visited > 10000 {
			return
		}
		nums := o.arrayEntry(d, "Nums")
		for i := 0; i+1 < len(nums); i += 2 {
			p, ok := o.number(nums[i])
			if ok && p >= 0 && int(p) < n {
				starts = append(starts, rangeStart{int(p), o.dict(nums[i+1])})
			}
		}
		for _, k := range o.arrayEntry(d, "Kids") {
			walk(o.dict(k), depth+1)
		}
	}
	walk(tree, 0)
	if len(starts) == 0 {
		return nil
	}
	slices.SortStableFunc(starts, func(a, b rangeStart) int { return a.page - b.page })
	labels := make([]string, n)
	for i, s := range starts {
		end := n
		if i+1 < len(starts) {
			end = starts[i+1].page
		}
		style := o.nameEntry(s.label, "S")
		prefix := ""
		if b, ok := o.bytesOf(o.get(s.label, "P")); ok {
			prefix = fontenc.DecodeTextString(b)
		}
		first := int(o.numberEntry(s.label, "St", 1))
		for p := s.page; p < end; p++ {
			labels[p] = prefix + formatLabel(style, first+p-s.page)
		}
	}
	return labels
}

func formatLabel(style string, n int) string {
	switch style {
	case "D":
		return fmt.Sprint(n)
	case "R":
		return roman(n, true)
	case "r":
		return roman(n, false)
	case "A", "a":
		if n < 1 || n > 26*1000 {
			return fmt.Sprint(n)
		}
		c := byte('A')
		if style == "a" {
			c = 'a'
		}
		letter := string(rune(c + byte((n-1)%26)))
		s := ""
		for range (n-1)/26 + 1 {
			s += letter
		}
		return s
	}
	return ""
}

func roman(n int, upper bool) string {
	if n <= 0 || n >= 5000 {
		return fmt.Sprint(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"}
	if upper {
		syms = []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	}
	s := ""
	for i, v := range vals {
		for n >= v {
			s += syms[i]
			n -= v
		}
	}
	return s
}
