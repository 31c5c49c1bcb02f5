package textnorm_test

import (
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/textnorm"
)

func ExampleProfile_Normalize() {
	p := textnorm.QuoteV2(textnorm.Options{FooterNames: []string{"report.pdf"}})
	t := p.Normalize("The e\ufb03cient \u201cac-\ntual\u201d cost\u00a0is \u22123.5\u2026report.pdf Page 2")
	fmt.Println(t.String())
	fmt.Println(p.Name(), t.Level(0, t.Len()))
	a, b := t.RawSpan(14, 22) // "actual" with its quotes
	fmt.Printf("%q\n", t.RawSlice(a, b))
	// Output:
	// The efficient "actual" cost is -3.5... report.pdf Page 2
	// quote/v2 ligature
	// "“ac-\ntual”"
}

func ExampleMatch() {
	p := textnorm.QuoteV2(textnorm.Options{})
	page := p.Normalize("prices rose by 3.5 % in the \ufb01rst\nquarter")
	for _, q := range []string{"3.5 % in the first quarter", "35 % in the first quarter"} {
		qt := p.Normalize(q)
		i := strings.Index(page.String(), qt.String())
		if i < 0 {
			fmt.Printf("%q: not found\n", q)
			continue
		}
		at := page.CodePoint(i)
		end, level, _ := textnorm.Match(page, at, qt)
		a, b := page.RawSpan(at, end)
		fmt.Printf("%q: raw [%d,%d) %s\n", q, a, b, level)
	}
	// Output:
	// "3.5 % in the first quarter": raw [15,40) ligature
	// "35 % in the first quarter": not found
}

func ExampleText_Variants() {
	p := textnorm.QuoteV2(textnorm.Options{})
	vs, _ := p.Normalize("a well- known ac-tual case").Variants(10)
	for _, v := range vs {
		fmt.Println(v)
	}
	// Output:
	// a well- known ac-tual case
	// a well- known actual case
	// a wellknown ac-tual case
	// a wellknown actual case
	// a well-known ac-tual case
	// a well-known actual case
}

func ExampleText_Joined() {
	p := textnorm.QuoteV2(textnorm.Options{})
	j := p.Normalize("lost inter word spaces in 1 000 rows").Joined()
	fmt.Println(j.String(), j.Eligible())
	// Output:
	// lostinterwordspacesin1 000rows true
}
