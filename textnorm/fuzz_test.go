package textnorm

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

var fuzzSeeds = []string{
	"", " ", "a", "ac-\ntual", "ac\u00ad\ntual", "COVID-\n19", "e\u0301", "e\u200b\u0301", "\ufb01\u0301",
	"end.report.pdf Page 3Next", "\ufb01le.pdf Page 1", "1\u00a0000 \u22125", "\u201cq\u201d \u2026", "\xffe\u0301",
	"\r\u0f73", "\u1100\u1161\u11a8", "a\u0323\u0301", "  x  \r\n  ", "x\x1cy", "\ufeff\u200d",
	"report.pdf Page 1report.pdf Page 2", "ac-\r\n  tual", "- \n5", "\u0344\u0301\u0f73", "\u0f4d",
}

// FuzzNormalize: no panics, a total and monotonic map inside the raw text,
// NFC equal to x/text's, idempotence, and the level promises
// (checkInvariants), under the full profile and two limited ones.
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	p := QuoteV2(Options{FooterNames: []string{"report.pdf", "ile.pdf", "a b.pdf"}})
	canon := p.Limit(Canonical)
	ws := p.Limit(Whitespace)
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 1024 {
			return // the checks cost ~10 µs per code point; long inputs only slow minimization
		}
		checkInvariants(t, p, raw, p.Normalize(raw))
		c := canon.Normalize(raw)
		checkInvariants(t, canon, raw, c)
		if want := norm.NFC.String(replaceInvalid(raw)); c.String() != want {
			t.Fatalf("NFC(%q) = %q, x/text says %q", raw, c.String(), want)
		}
		checkInvariants(t, ws, raw, ws.Normalize(raw))
	})
}

// FuzzAlign: Align never panics and stays inside both ranges, whatever the
// texts and positions.
func FuzzAlign(f *testing.F) {
	f.Add("an ac-\ntual case", "ac-tual", 3, 0)
	f.Add("COVID-\n19", "COVID- 19", 0, 0)
	f.Add("x", "", 0, 0)
	p := QuoteV2(Options{})
	f.Fuzz(func(t *testing.T, page, q string, at, from int) {
		if len(page) > 4096 || len(q) > 4096 {
			return
		}
		pt, qt := p.Normalize(page), p.Normalize(q)
		if pt.Len() == 0 {
			at = 0
		} else {
			at = ((at % (pt.Len() + 1)) + pt.Len() + 1) % (pt.Len() + 1)
		}
		if qt.Len() == 0 {
			from = 0
		} else {
			from = ((from % (qt.Len() + 1)) + qt.Len() + 1) % (qt.Len() + 1)
		}
		a := Align(pt, at, qt, from, qt.Len())
		if a.End < at || a.End > pt.Len() || a.QuoteEnd < from || a.QuoteEnd > qt.Len() || a.Level > Ligature {
			t.Fatalf("Align(%q@%d, %q@%d) = %+v", page, at, q, from, a)
		}
		if a.End > at {
			ra, rb := pt.RawSpan(at, a.End)
			if ra < 0 || rb > pt.RawLen() || ra > rb {
				t.Fatalf("RawSpan %d,%d", ra, rb)
			}
		}
		vs, _ := qt.Variants(8)
		if len(vs) == 0 || vs[0] != qt.String() {
			t.Fatalf("variants %q", vs)
		}
	})
}
