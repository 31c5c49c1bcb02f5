package textnorm

import (
	"strings"
	"testing"
)

// TestDigitsNeverMerge: digits, decimal points, separators and signs are
// never dropped or merged, at any level including joined words.
func TestDigitsNeverMerge(t *testing.T) {
	cases := []struct {
		a, b   string
		equal  bool  // equal after normalization
		level  Level // level of the match when equal
		why    string
		joined bool // equal in the joined form (only spaces next to a non-digit differ)
	}{
		{"3.5", "3-5", false, 0, "decimal point vs hyphen", false},
		{"3.5", "35", false, 0, "decimal point dropped", false},
		{"3-5", "35", false, 0, "hyphen dropped", false},
		{"3.5", "3,5", false, 0, "decimal point vs comma", false},
		{"1,000", "1 000", false, 0, "comma vs space", false},
		{"1,000", "1000", false, 0, "separator dropped", false},
		{"1 000", "1000", false, 0, "space between digits removed", false},
		{"1\u00a0000", "1 000", true, Whitespace, "NBSP thousands separator is a space", false},
		{"1\u202f000", "1 000", true, Whitespace, "NNBSP thousands separator is a space", false},
		{"1\n000", "1 000", true, Whitespace, "a line break between digits is a space", false},
		{"-5", "\u22125", true, Typography, "minus folds to hyphen-minus", false},
		{"-5", "5", false, 0, "sign dropped", false},
		{"+5", "5", false, 0, "plus dropped", false},
		{"-5", "+5", false, 0, "sign changed", false},
		{"2019-2020", "2019\u20132020", true, Typography, "en dash range", false},
		{"2019-2020", "2019\u20142020", true, Typography, "em dash", false},
		{"2019-2020", "20192020", false, 0, "range dash dropped", false},
		{"2019-\n2020", "2019-2020", true, Hyphenation, "line-end dash between digits keeps the dash", false},
		{"10 %", "10%", false, 0, "space before a symbol is not cosmetic here", true},
		{"3\u00b2", "32", false, 0, "superscript is not a digit", false},
		{"\uff13", "3", false, 0, "fullwidth digit is not folded", false},
		{"\u0663", "3", false, 0, "Arabic-Indic digit is not folded", false},
		{"1.5\u2026", "1.5...", true, Typography, "ellipsis after a number", false},
	}
	for _, c := range cases {
		t.Run(c.a+"|"+c.b, func(t *testing.T) {
			x, y := quote.Normalize(c.a), quote.Normalize(c.b)
			if (x.String() == y.String()) != c.equal {
				t.Fatalf("%q -> %q, %q -> %q: equal %v, want %v (%s)", c.a, x.String(), c.b, y.String(), !c.equal, c.equal, c.why)
			}
			if c.equal {
				if _, l, ok := Match(x, 0, y); !ok || l != c.level {
					t.Fatalf("Match level %v ok %v, want %v (%s)", l, ok, c.level, c.why)
				}
				return
			}
			// Not equal must hold for Align too (no hyphenation step), both ways.
			if end, _, ok := Match(x, 0, y); ok && end == x.Len() {
				t.Fatalf("Align equated %q and %q (%s)", c.a, c.b, c.why)
			}
			if end, _, ok := Match(y, 0, x); ok && end == y.Len() {
				t.Fatalf("Align equated %q and %q (%s)", c.b, c.a, c.why)
			}
			if got := x.Joined().String() == y.Joined().String(); got != c.joined {
				t.Fatalf("joined forms %q, %q: equal %v, want %v (%s)", x.Joined().String(), y.Joined().String(), got, c.joined, c.why)
			}
		})
	}
}

func TestJoined(t *testing.T) {
	cases := []struct {
		raw, want, why string
	}{
		{"lost inter word spaces", "lostinterwordspaces", "spaces removed"},
		{"1 000 units", "1 000units", "a space between two digits stays"},
		{"in 2019 3 studies", "in2019 3studies", "digits of two numbers never merge"},
		{"Table 3 shows", "Table3shows", "letter-digit spaces go"},
		{"\u0663 \u0664", "\u0663 \u0664", "any Nd digits"},
		{"x", "x", "single"},
		{"", "", "empty"},
	}
	for _, c := range cases {
		j := quote.Normalize(c.raw).Joined()
		if j.String() != c.want {
			t.Errorf("Joined(%q) = %q, want %q (%s)", c.raw, j.String(), c.want, c.why)
		}
	}
	// Map and level.
	x := quote.Normalize("the cost\u00a0is 35 dollars")
	j := x.Joined()
	if j.String() != "thecostis35dollars" {
		t.Fatalf("got %q", j.String())
	}
	i := strings.Index(j.String(), "costis35")
	a, b := j.RawSpan(i, i+8)
	if x.RawSlice(a, b) != "cost\u00a0is 35" {
		t.Fatalf("RawSpan covers %q", x.RawSlice(a, b))
	}
	if l := j.Level(i, i+8); l != JoinedWords {
		t.Fatalf("level %v", l)
	}
	if l := j.Level(i, i+4); l != Exact {
		t.Fatalf("a span without removed spaces keeps its level: %v", l)
	}
	if na, nb := j.NormSpan(0, 0); na != 0 || nb != 0 {
		t.Fatal("empty NormSpan")
	}
	if na, nb := j.NormSpan(j.Len(), j.Len()); na != x.Len() || nb != x.Len() {
		t.Fatal("empty NormSpan at end")
	}
	if j.Text() != x {
		t.Fatal("Text()")
	}
}

func TestJoinedMinLen(t *testing.T) {
	if quote.Normalize("short quote here").Joined().Eligible() {
		t.Fatal("14 joined code points must not be eligible")
	}
	if !quote.Normalize("a longer quote that is long").Joined().Eligible() {
		t.Fatal("22 joined code points must be eligible")
	}
	if JoinedMinLen != 20 {
		t.Fatal("JoinedMinLen is part of the profile contract; change the profile name with it")
	}
}

func TestDecisionJoinedSpaceNextToDigit(t *testing.T) {
	// Only a space between two digits is kept. "3 .5" joins to "3.5" and
	// "- 5" to "-5"; a joined-words match never passes a citation.
	if got := norm1Joined("3 .5"); got != "3.5" {
		t.Fatalf("got %q", got)
	}
	if got := norm1Joined("- 5"); got != "-5" {
		t.Fatalf("got %q", got)
	}
	if got := norm1Joined("3 5"); got != "3 5" {
		t.Fatalf("got %q", got)
	}
}

func TestDecisionInvisibleBetweenDigits(t *testing.T) {
	// Soft hyphens and zero-width characters are invisible, not separators:
	// removing them between digits shows the number as printed.
	if norm1("1\u00ad000") != "1000" || norm1("1\u200b000") != "1000" {
		t.Fatal("invisible characters between digits must be removed")
	}
	// A soft hyphen at a line end between digits is no hyphenation: the
	// break stays a space.
	if got := norm1("1\u00ad\n000"); got != "1 000" {
		t.Fatalf("got %q", got)
	}
}

func norm1Joined(s string) string { return quote.Normalize(s).Joined().String() }
