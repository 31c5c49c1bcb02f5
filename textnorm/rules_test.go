package textnorm

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var quote = QuoteV2(Options{FooterNames: []string{"report.pdf", "Annual Report 2023.pdf"}})

func norm1(s string) string { return quote.Normalize(s).String() }

// TestRules pins what each rule does to a raw text, with the level the whole
// result needs.
func TestRules(t *testing.T) {
	cases := []struct {
		name, raw, want string
		level           Level
		why             string
	}{
		{"plain", "The cost is 3.5 mm.", "The cost is 3.5 mm.", Exact, "nothing to do: identity, level exact"},
		{"empty", "", "", Exact, "empty in, empty out"},
		{"only-space", " \t\r\n\u00a0", "", Exact, "trimmed to nothing"},
		// canonical
		{"nfc-combining", "caf" + "e\u0301", "café", Canonical, "e + U+0301 composes to é"},
		{"nfc-reorder", "a\u0323\u0301" + "x", "\u1ea1\u0301x", Canonical, "ạ composes, the acute stays after it"},
		{"nfc-singleton-ohm", "5 \u2126", "5 \u03a9", Canonical, "OHM SIGN is canonically Ω"},
		{"nfc-hangul", "\u1100\u1161", "\uac00", Canonical, "jamo L+V compose"},
		{"nfc-already", "café", "café", Exact, "already NFC"},
		{"nfc-expands", "x\u0f4d", "x\u0f4c\u0fb7", Canonical, "composition-excluded: NFC decomposes (Iter hands it out in two calls)"},
		// whitespace
		{"collapse", "a  \t b", "a b", Whitespace, "a run of spaces and tabs is one space"},
		{"crlf", "a\r\nb", "a b", Whitespace, "CRLF is one line break, one space"},
		{"cr", "a\rb", "a b", Whitespace, "a lone CR is a line break"},
		{"nbsp", "10\u00a0km", "10 km", Whitespace, "NBSP is White_Space"},
		{"narrow-nbsp", "3\u202fkg", "3 kg", Whitespace, "NNBSP is White_Space"},
		{"ideographic", "a\u3000b", "a b", Whitespace, "U+3000 is White_Space"},
		{"nel-ls-ps", "a\u0085b\u2028c\u2029d", "a b c d", Whitespace, "NEL, LS, PS are line breaks"},
		{"en-quad", "a\u2000b", "a b", Whitespace, "U+2000 (NFC to U+2002) is White_Space"},
		{"trim", "  lead and trail \n", "lead and trail", Exact, "edges are trimmed; the kept text equals the raw text it covers"},
		{"zwsp", "ab\u200bcd", "abcd", Whitespace, "ZWSP removed, not made a space"},
		{"zwnj-zwj-wj", "a\u200cb\u200dc\u2060d", "abcd", Whitespace, "ZWNJ, ZWJ, WJ removed"},
		{"bom", "\ufeffStart \ufeffmid", "Start mid", Whitespace, "BOM/ZWNBSP removed anywhere"},
		// hyphenation
		{"soft-hyphen", "ac\u00adtual", "actual", Hyphenation, "soft hyphen removed"},
		{"line-end-hyphen", "ac-\ntual", "actual", Hyphenation, "line-end hyphen between letters joins"},
		{"line-end-hyphen-crlf", "ac-\r\ntual", "actual", Hyphenation, "CRLF is one break"},
		{"line-end-hyphen-spaces", "ac- \n  tual", "actual", Hyphenation, "horizontal space around the break is allowed"},
		{"line-end-u2010", "ac\u2010\ntual", "actual", Hyphenation, "U+2010 HYPHEN joins like U+002D"},
		{"line-end-shy", "ac\u00ad\ntual", "actual", Hyphenation, "a soft hyphen at line end joins"},
		{"line-end-accented", "re\u0301-\nsume\u0301", "ré" + "sumé", Hyphenation, "NFC letters on both sides"},
		{"hyphen-same-line", "well-known", "well-known", Exact, "a hyphen inside a line is text"},
		{"hyphen-space-no-break", "pre- and post-war", "pre- and post-war", Exact, "hyphen + space without a break is text"},
		{"paragraph", "ac-\n\ntual", "ac- tual", Whitespace, "two breaks are a paragraph end, not hyphenation"},
		{"digit-after", "COVID-\n19", "COVID-19", Hyphenation, "a letter-digit break keeps the hyphen, loses the break"},
		{"digits-both", "2019-\n2020", "2019-2020", Hyphenation, "digits never join; the dash stays"},
		{"en-dash-line-end", "2019\u2013\n2020", "2019-2020", Typography, "en dash at line end keeps the dash (folded)"},
		{"spaced-dash", "word -\nword", "word - word", Whitespace, "a dash after a space is not a line-end hyphen"},
		{"hyphen-after-digit-letter", "3-\nfold", "3-fold", Hyphenation, "digit-letter keeps the hyphen"},
		// typography
		{"curly-single", "\u2018it\u2019s\u2019", "'it's'", Typography, "‘ ’ fold to '"},
		{"curly-double", "\u201chi\u201d \u201elow\u201f", "\"hi\" \"low\"", Typography, "“ ” „ ‟ fold to \""},
		{"low-single", "\u201aa\u201b", "'a'", Typography, "‚ ‛ fold to '"},
		{"primes", "5\u2032 3\u2033", "5' 3\"", Typography, "primes fold with the quotes"},
		{"guillemets", "\u00abciao\u00bb \u2039a\u203a", "\"ciao\" 'a'", Typography, "guillemets fold with the quotes"},
		{"dashes", "a\u2010b\u2011c\u2012d\u2013e\u2014f\u2015g", "a-b-c-d-e-f-g", Typography, "every dash folds to -"},
		{"minus", "\u22125", "-5", Typography, "minus sign folds to hyphen-minus"},
		{"ellipsis", "wait\u2026", "wait...", Typography, "… is three full stops"},
		// ligatures
		{"lig-fi-fl", "\ufb01nal \ufb02ow", "final flow", Ligature, "ﬁ ﬂ"},
		{"lig-ff-ffi-ffl", "o\ufb00 e\ufb03cient ba\ufb04e", "off efficient baffle", Ligature, "ﬀ ﬃ ﬄ"},
		{"lig-st", "\ufb05op \ufb06ar", "stop star", Ligature, "ﬅ and ﬆ both fold to st"},
		// never folded
		{"superscript", "km\u00b2", "km\u00b2", Exact, "² is NFKC-only: kept"},
		{"fullwidth", "\uff21\uff11\uff12", "\uff21\uff11\uff12", Exact, "fullwidth letters and digits kept"},
		{"fractions", "1\u00bd \u2460 25\u2103", "1\u00bd \u2460 25\u2103", Exact, "½ ① ℃ kept: no extractor of the sweep prints them otherwise"},
		{"micro", "5\u00b5m", "5\u03bcm", Ligature, "quote/v2: the micro sign is the Greek mu (pdf.js prints μ)"},
		{"long-s", "\u017ft", "st", Ligature, "quote/v2: ſ is s, so that pdf.js's \"ſt\" for ﬅ is found"},
		{"case", "ABC abc Straße", "ABC abc Straße", Exact, "case kept"},
		{"acute-grave", "don\u00b4t `x`", "do\u0144t x\u0300\u0300", Typography, "quote/v2: ´ and ` are spacing accents, composed with a letter beside them (ń is precomposed, t́ is not); never quote marks"},
		{"accent-alone", "a \u00a8 b", "a \u00a8 b", Exact, "a spacing accent with no letter beside it is kept"},
		{"tex-dieresis", "na\u00a8\u0131ve", "na\u00efve", Typography, "quote/v2: TeX's accent before a dotless i"},
		{"poppler-dieresis", "na\u0131\u0308ve", "na\u00efve", Typography, "quote/v2: poppler's dotless i with a combining dieresis"},
		{"tex-cedilla", "Fac\u00b8ade", "Fa\u00e7ade", Typography, "quote/v2: a cedilla goes to the letter before it"},
		{"accent-after", "Age\u02c6ncia", "Ag\u00eancia", Typography, "quote/v2: ê is precomposed, n̂ is not"},
		{"doubled-single", "\u2018\u2018recall\u2019\u2019", "\"recall\"", Typography, "quote/v2: two single quotes are a double quote"},
		{"doubled-ascii", "''x'' ``y''", "\"x\" \"y\"", Typography, "quote/v2: '' and `` too"},
		{"cjk-line-break", "\u691c\u77e5\u6a5f\n\u69cb", "\u691c\u77e5\u6a5f\u69cb", Whitespace, "quote/v2: a line break between Han characters is no space"},
		{"brackets", "\u3008x\u3009 \u2016y\u2016", "\u27e8x\u27e9 \u2225y\u2225", Typography, "quote/v2: pdf.js's 〈 〉 ‖ are ⟨ ⟩ ∥"},
		{"vertical-forms", "\ufe35\u3042\ufe36\ufe11", "\uff08\u3042\uff09\u3001", Typography, "quote/v2: vertical CJK punctuation is the horizontal form"},
		{"controls", "x\x1cy\x1fz", "x\x1cy\x1fz", Exact, "U+001C..U+001F are not White_Space"},
		// re-normalization after removal
		{"zw-then-mark", "e\u200b\u0301", "é", Whitespace, "removing ZWSP exposes e+acute: NFC again"},
		{"lig-then-mark", "\ufb01\u0301", "f\u00ed", Ligature, "ﬁ+acute: i+acute composes after expansion"},
		// footer
		{"footer-glued-both", "end.report.pdf Page 3Next", "end. report.pdf Page 3 Next", Whitespace, "footer separated on both sides"},
		{"footer-spaced", "end. report.pdf Page 3 Next", "end. report.pdf Page 3 Next", Exact, "already separated: unchanged"},
		{"footer-name-with-space", "x.Annual Report 2023.pdf Page 12y", "x. Annual Report 2023.pdf Page 12 y", Whitespace, "a name with spaces and digits"},
		// invalid
		{"invalid", "a\xffb", "a\ufffdb", Canonical, "an invalid byte is U+FFFD"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := quote.Normalize(c.raw)
			if x.String() != c.want {
				t.Fatalf("Normalize(%q) = %q, want %q (%s)", c.raw, x.String(), c.want, c.why)
			}
			if got := x.Level(0, x.Len()); got != c.level {
				t.Errorf("Level of %q = %v, want %v (%s)", c.raw, got, c.level, c.why)
			}
			checkInvariants(t, quote, c.raw, x)
		})
	}
}

func TestDecisionCaseKept(t *testing.T) {
	// Extractors agree on case; a quote in another case is not a copy.
	if norm1("The Answer") == norm1("the answer") {
		t.Fatal("case must not be folded")
	}
	if norm1("STRASSE") == norm1("Straße") {
		t.Fatal("ß must not be folded")
	}
}

func TestDecisionQuoteFolds(t *testing.T) {
	for _, r := range "\u2018\u2019\u201a\u201b\u2032\u2039\u203a" {
		if got := norm1(string(r)); got != "'" {
			t.Errorf("%U -> %q, want '", r, got)
		}
	}
	for _, r := range "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb" {
		if got := norm1(string(r)); got != "\"" {
			t.Errorf("%U -> %q, want \"", r, got)
		}
	}
	for _, r := range "\u00b4`\u02bc\u2034" {
		if got := norm1(string(r)); got != string(r) {
			t.Errorf("%U folded to %q; only the listed marks fold", r, got)
		}
	}
}

func TestDecisionMinusFoldsToHyphen(t *testing.T) {
	// The sign is kept, its glyph unified: −5 and -5 are the same value.
	if norm1("\u22125") != norm1("-5") {
		t.Fatal("−5 must equal -5 at typography level")
	}
	if norm1("\u22125") == norm1("5") {
		t.Fatal("the sign must not be dropped")
	}
}

func TestDecisionControlSeparatorsNotSpace(t *testing.T) {
	// Python's str.split treats U+001C..U+001F as whitespace; Unicode does not.
	for r := rune(0x1c); r <= 0x1f; r++ {
		if unicode.Is(unicode.White_Space, r) {
			t.Fatalf("%U is White_Space in Go's tables", r)
		}
		if got := norm1("a" + string(r) + "b"); got != "a"+string(r)+"b" {
			t.Errorf("%U changed: %q", r, got)
		}
	}
}

func TestDecisionInvalidUTF8(t *testing.T) {
	x := quote.Normalize("a\xe2\x82b\xff")
	if x.String() != "a\ufffd\ufffdb\ufffd" {
		t.Fatalf("got %q", x.String())
	}
	if x.RawLen() != 5 || utf8.RuneCountInString(x.Raw()) != 5 {
		t.Fatalf("raw length %d, want 5 (one code point per invalid byte)", x.RawLen())
	}
	if l := x.Level(1, 2); l != Canonical {
		t.Fatalf("replacement level %v", l)
	}
	if a, b := x.RawSpan(4, 5); a != 4 || b != 5 {
		t.Fatalf("RawSpan(4,5) = %d,%d", a, b)
	}
}

// TestWhiteSpaceSet checks the whitespace rule against Go's White_Space table
// over the whole BMP and beyond.
func TestWhiteSpaceSet(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if isSpace(r) != unicode.Is(unicode.White_Space, r) {
			t.Errorf("isSpace(%U) = %v, White_Space = %v", r, isSpace(r), !isSpace(r))
		}
	}
}

// TestTypographyTablesComplete guards the fold tables against drift: every
// entry is folded and nothing else in the punctuation blocks is.
func TestTypographyTablesComplete(t *testing.T) {
	folded := map[rune]string{}
	for _, r := range "\u2018\u2019\u201a\u201b\u2032\u2039\u203a" {
		folded[r] = "'"
	}
	for _, r := range "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb" {
		folded[r] = "\""
	}
	for _, r := range "\u2010\u2011\u2012\u2013\u2014\u2015\u2212" {
		folded[r] = "-"
	}
	folded[0x2026] = "..."
	for r, s := range map[rune]string{0xfb00: "ff", 0xfb01: "fi", 0xfb02: "fl", 0xfb03: "ffi", 0xfb04: "ffl", 0xfb05: "st", 0xfb06: "st", 0x17f: "s", 0xb5: "\u03bc"} {
		folded[r] = s
	}
	for r, c := range typoRunes {
		folded[r] = string(c)
	}
	// Spacing accents compose with the x before them ("x" + accent below)
	// or after them (accent above): checked in TestAccents.
	for r := rune(0x80); r < 0x10000; r++ {
		if r >= 0xd800 && r <= 0xdfff || isSpace(r) {
			continue
		}
		switch r {
		case 0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff:
			continue
		}
		in := "x" + string(r) + "x"
		// What NFC makes of r decides: U+1FEF is canonically `, U+2329 〈.
		nfc := []rune(norm.NFC.String(string(r)))
		if len(nfc) == 1 && (spacingAccent(nfc[0]) != 0 || dotless(nfc[0]) != 0) {
			continue
		}
		if c, ok := typoRunes[nfc[0]]; ok && len(nfc) == 1 {
			if got := norm1(in); got != "x"+string(c)+"x" {
				t.Errorf("%U -> %q, want %q", r, got, "x"+string(c)+"x")
			}
			continue
		}
		got := norm1(in)
		want, ok := folded[r]
		if ok {
			if got != "x"+want+"x" {
				t.Errorf("%U -> %q, want %q", r, got, "x"+want+"x")
			}
			continue
		}
		// Anything else is only NFC'd.
		if exp := quote.Limit(Canonical).Normalize(in).String(); got != exp {
			t.Errorf("%U -> %q, only NFC expected (%q)", r, got, exp)
		}
	}
}

func TestProfileNames(t *testing.T) {
	cases := []struct {
		p    *Profile
		want string
	}{
		{QuoteV2(Options{}), "quote/v2"},
		{QuoteV2(Options{FooterNames: []string{"a.pdf"}}), "quote/v2"},
		{QuoteV2(Options{NoFooterRepair: true}), "quote/v2+nofooter"},
		{QuoteV2(Options{}).Limit(Typography), "quote/v2@typography"},
		{QuoteV2(Options{}).Limit(JoinedWords), "quote/v2"},
	}
	for _, c := range cases {
		if c.p.Name() != c.want {
			t.Errorf("Name() = %q, want %q", c.p.Name(), c.want)
		}
	}
	if UnicodeVersion == "" || GoUnicodeVersion == "" {
		t.Fatal("versions must be recorded")
	}
}

func TestLevelNames(t *testing.T) {
	want := []string{"exact", "canonical", "whitespace", "hyphenation", "typography", "ligature", "joined_words"}
	for i, n := range want {
		l := Level(i)
		if l.String() != n {
			t.Errorf("Level(%d) = %q", i, l.String())
		}
		p, err := ParseLevel(n)
		if err != nil || p != l {
			t.Errorf("ParseLevel(%q) = %v, %v", n, p, err)
		}
		b, err := l.MarshalText()
		if err != nil || string(b) != n {
			t.Errorf("MarshalText = %q, %v", b, err)
		}
		var u Level
		if err := u.UnmarshalText(b); err != nil || u != l {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, u, err)
		}
	}
	if _, err := ParseLevel("normalized"); err == nil {
		t.Error("unknown level accepted")
	}
	if _, err := Level(9).MarshalText(); err == nil {
		t.Error("invalid level marshalled")
	}
	if !strings.Contains(Level(9).String(), "9") {
		t.Error("invalid level string")
	}
}

// TestLimitIsCumulative checks that a limited profile applies exactly the
// rules up to its level.
func TestLimitIsCumulative(t *testing.T) {
	raw := "e\u0301  \u201cﬁ\u201d ac-\ntual\u00ad \u2026"
	want := map[Level]string{
		Exact:       raw,
		Canonical:   "é  \u201cﬁ\u201d ac-\ntual\u00ad \u2026",
		Whitespace:  "é \u201cﬁ\u201d ac- tual\u00ad \u2026",
		Hyphenation: "é \u201cﬁ\u201d actual \u2026",
		Typography:  "é \"ﬁ\" actual ...",
		Ligature:    "é \"fi\" actual ...",
	}
	for l := Exact; l <= Ligature; l++ {
		if got := quote.Limit(l).Normalize(raw).String(); got != want[l] {
			t.Errorf("Limit(%v) = %q, want %q", l, got, want[l])
		}
	}
}

// TestDecisionsDocumented keeps doc.go's list of decisions and the tests that
// pin them in step.
func TestDecisionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`TestDecision[A-Za-z0-9]+`)
	documented := map[string]bool{}
	for _, m := range re.FindAllString(string(doc), -1) {
		documented[m] = true
	}
	files, _ := os.ReadDir(".")
	defined := map[string]bool{}
	fre := regexp.MustCompile(`(?m)^func (TestDecision[A-Za-z0-9]+)\(`)
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fre.FindAllStringSubmatch(string(b), -1) {
			defined[m[1]] = true
		}
	}
	for n := range documented {
		if !defined[n] {
			t.Errorf("doc.go names %s, which does not exist", n)
		}
	}
	for n := range defined {
		if n != "TestDecisionsDocumented" && !documented[n] {
			t.Errorf("%s is not listed in doc.go", n)
		}
	}
}
