package textnorm

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// ProfileValueV2 names the value-grading profile (NormalizeValue). Changing
// any rule or table below means a new name. value/v2 replaced value/v1: it
// keeps a sign around a currency sign and a minus sign apart from its
// digits, reads ".5", bracketed numbers, grouping spaces, quarters, six
// more currencies, "~", full-width forms, "or equal
// to" bounds, postfix maximum/minimum and a currency after a scale word,
// and strips a bracketed file name only with its pages, each a wrong
// verdict an adversarial review found under value/v1.
const ProfileValueV2 = "value/v2"

// TokenKind is the class of a value token. The grader treats the kinds
// other than TokWord as closed classes: a different token of the same kind
// in the same place is an explicit contrary value.
type TokenKind uint8

// The token kinds of value/v2.
const (
	TokWord       TokenKind = iota // any other word
	TokNumber                      // digits with sign, decimal point or comma: "-18", "0.5", "0,5"
	TokUnit                        // a unit of the closed table, after a number: "mm", "°c", "%"
	TokIdentifier                  // a word holding a digit: "qa-7731", "8d", "g-14"
	TokComparison                  // a bound before a value: "<=", ">=", "<", ">", "=", "within", "not exceed"
	TokQualifier                   // a bound after a value: "or colder", "or more"
	TokCondition                   // before, after, until, unless
	TokWeekday                     // monday .. sunday
	TokMonth                       // january .. december
	TokDayBasis                    // calendar, working (business)
	TokBasis                       // per
	TokNegation                    // no, not, none, never, without
	TokStage                       // a process stage: "final inspection", "goods receipt", "dispatch"
	TokDate                        // a date in digits: "31.03.2025", "2025-03-31", "31/03/2025"
	TokTime                        // a time of day in digits: "14:00"
)

var kindNames = [...]string{"word", "number", "unit", "identifier", "comparison", "qualifier", "condition",
	"weekday", "month", "day_basis", "basis", "negation", "stage", "date", "time"}

func (k TokenKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Token is one normalized element of a value.
type Token struct {
	// Text is the normalized form; two tokens are equal when Kind and Text
	// are.
	Text string
	Kind TokenKind
	// Class groups tokens of one kind that may say the same thing in other
	// words ("until" and "till"; "working" and "business"; every inclusive
	// upper bound). Two tokens of one kind in different classes contradict
	// each other; in the same class with different Text they are an
	// unregistered equivalent.
	Class string
	// Dir is the direction of a comparison or qualifier: +1 an upper bound
	// ("at most", "or colder"), -1 a lower bound, 0 none or exact.
	Dir int8
	// Strict marks strict comparisons ("less than", "more than").
	Strict bool
	// Raw is the folded text the token came from ("centimetres").
	Raw string
}

// Value is a value normalized by value/v2: its tokens and the rules that
// changed something, sorted.
type Value struct {
	Tokens []Token
	Rules  []string
}

// The rules of value/v2, as recorded in Value.Rules.
const (
	RuleUnicode      = "unicode"         // NFC, typographic quotes and dashes, ligatures, the minus sign
	RuleWhitespace   = "whitespace"      // any run of Unicode white space is one separator
	RuleCase         = "case"            // case-insensitive (Unicode case folding)
	RulePunctuation  = "punctuation"     // punctuation other than number signs, decimals and identifier hyphens
	RuleArticle      = "article"         // a, an, the, any
	RuleCardinal     = "cardinal_word"   // zero .. twenty as digits
	RuleUnitSpelling = "unit_spelling"   // the closed unit table
	RulePlural       = "plural"          // common plural forms
	RuleVerb         = "verb_variant"    // inspected/inspection, require/requires, recheck/rechecked
	RuleComparison   = "comparison"      // inclusive and strict comparison phrases
	RuleMarker       = "citation_marker" // "[1]", "[^2]", "【4:0†source】", "(p. 3)" are not part of a value
	RuleSignWord     = "sign_word"       // "minus 18" is -18
	RuleContraction  = "contraction"     // doesn't, don't, isn't, can't ... as two words
)

// Key is the normalized value as one string: the tokens' texts joined by
// single spaces.
func (v Value) Key() string {
	var b strings.Builder
	for i, t := range v.Tokens {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// Unknown reports whether the value is the decline UNKNOWN, in any case and
// with any punctuation around it.
func (v Value) Unknown() bool {
	return len(v.Tokens) == 1 && v.Tokens[0].Kind == TokWord && v.Tokens[0].Text == "unknown"
}

// Equal reports whether two values have the same tokens.
func (v Value) Equal(w Value) bool {
	return slices.EqualFunc(v.Tokens, w.Tokens, func(a, b Token) bool { return a.Kind == b.Kind && a.Text == b.Text })
}

// NormalizeValue applies the value profile value/v2 (the policy's
// "Deterministic normalization" paragraph):
//
//   - NFC; typographic quotes and dashes and the minus sign U+2212 folded to
//     ASCII, ligatures expanded, zero-width characters and soft hyphens
//     removed, U+2103 and U+2109 read as °C and °F (unicode);
//   - white space only separates tokens (whitespace); Unicode case folding
//     (case: value grading is case-insensitive, quote matching is not);
//   - full-width digits, minus, per-cent sign, point and comma are the
//     ASCII ones; a minus sign U+2212 that follows no digit keeps its
//     number across spaces ("− 18" is -18; an ASCII "- 18" may be a bullet
//     and is not);
//   - punctuation is dropped (punctuation), except a sign right before a
//     digit ("-18", "+5") or a currency sign and a digit ("-$340" is "$"
//     and -340, as "$-340" is), a decimal point or comma before or between
//     digits (kept as written: "0,5" stays distinct from "0.5"; ".5" is a
//     number), brackets around a number alone ("(340)", which SameNumber
//     reads as 340 or -340), spaces grouping a number's thousands ("1
//     200 000", one number), "~" before a number (the word "about"), and hyphens, dots and
//     apostrophes inside a word ("qa-7731", "price-list.pdf"; a possessive
//     "'s" is dropped). Symbols are kept as tokens: "%", "°", "°c" and
//     currency signs are units, "/" and "&" words, "≤ ≥ < > =" comparisons;
//   - a, an, the and any are dropped (article);
//   - zero .. twenty standing alone become digits (cardinal_word);
//   - after a number, or a number and its scale word (thousand, million,
//     billion, trillion, bn, mn), the closed unit table (see units) gives one spelling:
//     mm, cm, m, km, µm, mg, g, kg, ml, l, °c, °f, %, h, min, s, eur, usd,
//     gbp, chf, jpy, cny, cad, aud, inr, each with its singular and plural
//     spellings (unit_spelling); a unit is never converted;
//   - inspected/inspection, require/requires, recheck/rechecked (verb_variant)
//     and common plural forms (plural) are read as one word;
//   - inclusive (at most, up to, no more than; at least, no less than) and
//     strict (less/fewer/shorter/lower than; more/greater/longer/higher than)
//     comparisons are kept apart as "<=", ">=", "<", ">" (comparison);
//     "less/greater than or equal to" are "<=" and ">=";
//     "exactly" is "="; one-word bounds (below, under, above, over, within,
//     maximum, minimum) and "not exceed" stay as written, with their
//     direction; postfix qualifiers ("or colder", "or more", and "maximum"
//     or "minimum" after a number) likewise;
//   - citation markers are removed first (citation_marker): "[1]",
//     "[1, 2]", "[^3]", "【4:0†source】", "(p. 3)", "(pages 2-3)",
//     "(see section 4.1)", "[name.pdf, p. 2]" or "(name.pdf, page 2)" (a
//     file name with its pages and nothing else), and
//     a line that starts "Source:", "References:" or "Citation:"; numbers
//     in them are not values;
//   - "twelve (12)" is one number; "minus 18" is -18 and "plus 5" +5
//     (sign_word); "&" is "and"; common contractions are the words they
//     contract ("doesn't" is "does not": contraction);
//   - a date or time written with digits and separators ("31.03.2025",
//     "2025-03-31", "31/03/2025", "14:00") is one token of its own kind
//     (date, time), never a number; SameDate says whether two dates may be
//     the same day;
//   - "first quarter" .. "fourth quarter" (also "fiscal", hyphenated) are
//     the identifiers q1 .. q4, as "Q1" is;
//   - words of the closed classes are tagged: conditions, weekdays, months
//     ("may" only next to a number), the day bases calendar and working
//     (business), "per", negations and process stages.
//
// A word holding a digit is an identifier and is never rewritten. The
// rules are applied the same way to an answer and to the reference values.
func NormalizeValue(s string) Value {
	var n valueNorm
	if t := stripMarkers(s); t != s {
		n.rule(RuleMarker)
		s = t
	}
	folded := n.fold(s)
	n.lex(folded)
	n.phrases()
	slices.Sort(n.rules)
	return Value{Tokens: n.out, Rules: slices.Compact(n.rules)}
}

type valueNorm struct {
	raw   []rawToken
	out   []Token
	rules []string
}

type rawToken struct {
	text     string // folded surface text
	kind     TokenKind
	word     bool // a plain word (letters, maybe inner hyphens): eligible for tables
	cardinal bool // a number written as a word
}

func (n *valueNorm) rule(r string) { n.rules = append(n.rules, r) }

// fold applies the unicode, whitespace and case rules.
func (n *valueNorm) fold(s string) string {
	nfc := s
	if !isASCII(s) {
		nfc = norm.NFC.String(s)
		if nfc != s {
			n.rule(RuleUnicode)
		}
	}
	var b strings.Builder
	b.Grow(len(nfc))
	space, lead := false, true
	// minus: after a minus sign (U+2212, never a bullet) that follows no
	// digit, the spaces before a digit are dropped: "− 18 °C" is -18 °C.
	minus, last := false, rune(-1)
	for i, r := range nfc {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(nfc[i:]); size == 1 {
				r = '\uFFFD'
			}
		}
		switch {
		case isSpace(r):
			if minus && startsDigit(nfc[i:]) {
				n.rule(RuleWhitespace)
				continue
			}
			if r != ' ' || space || lead {
				n.rule(RuleWhitespace)
			}
			space = true
			continue
		case r == 0xAD || r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF:
			n.rule(RuleUnicode)
			continue
		}
		minus = r == 0x2212 && !unicode.IsDigit(last)
		last = r
		if space && !lead {
			b.WriteByte(' ')
		}
		space, lead = false, false
		if c := wideFold(r); c != 0 {
			n.rule(RuleUnicode)
			b.WriteByte(c)
			continue
		}
		if c := typoFold(r); c != 0 {
			n.rule(RuleUnicode)
			b.WriteByte(c)
			continue
		}
		switch r {
		case 0x2026:
			n.rule(RuleUnicode)
			b.WriteString("...")
			continue
		case 0x2103:
			n.rule(RuleUnicode)
			b.WriteString("°c")
			continue
		case 0x2109:
			n.rule(RuleUnicode)
			b.WriteString("°f")
			continue
		}
		if l, ok := ligatures[r]; ok {
			n.rule(RuleUnicode)
			b.WriteString(l)
			continue
		}
		b.WriteRune(r)
	}
	if space {
		n.rule(RuleWhitespace)
	}
	out := b.String()
	var lower string
	if isASCII(out) {
		lower = strings.ToLower(out)
	} else {
		lower = cases.Fold().String(out)
	}
	if lower != out {
		n.rule(RuleCase)
	}
	return lower
}

// startsDigit reports whether s, after its white space, starts with a
// digit.
func startsDigit(s string) bool {
	for _, r := range s {
		if !isSpace(r) {
			return unicode.IsDigit(r)
		}
	}
	return false
}

// wideFold maps the full-width forms of digits, the hyphen-minus, the
// per-cent sign and the decimal point and comma to ASCII: the same
// characters set wide, as CJK text sets them ("－340", "5％").
func wideFold(r rune) byte {
	switch {
	case r >= 0xFF10 && r <= 0xFF19:
		return byte('0' + r - 0xFF10)
	case r == 0xFF0D:
		return '-'
	case r == 0xFF05:
		return '%'
	case r == 0xFF0E:
		return '.'
	case r == 0xFF0C:
		return ','
	}
	return 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// lex cuts the folded text into raw tokens: numbers (with sign), words,
// kept symbols; it drops other punctuation.
func (n *valueNorm) lex(s string) {
	rs := []rune(s)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return -1
		}
		return rs[i]
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		if (r == '-' || r == '+' || r == '±') && isCurrency(at(i+1)) && unicode.IsDigit(at(i+2)) && signContext(at(i-1)) {
			// "-$340" is $-340: the currency, then the signed number.
			rs[i], rs[i+1] = rs[i+1], rs[i]
			r = rs[i]
		}
		switch {
		case r == ' ':
			i++
		case (r == '.' || r == ',') && unicode.IsDigit(at(i+1)) && !isAlnum(at(i-1)):
			i = n.lexNumber(rs, i) // ".5" is a number, not "5"
		case r == '(' && unicode.IsDigit(at(i+1)) && parenNumber(rs, i+1):
			// "(340)" may be an accounting negative: the number keeps its
			// brackets, so that SameNumber reads it both ways.
			at0 := len(n.raw)
			j := n.lexNumber(rs, i+1)
			if j < len(rs) && rs[j] == ')' && len(n.raw) == at0+1 && n.raw[at0].kind == TokNumber {
				n.raw[at0].text = "(" + n.raw[at0].text + ")"
				j++
			}
			i = j
		case unicode.IsDigit(r) || ((r == '-' || r == '+' || r == '±') && unicode.IsDigit(at(i+1)) && signContext(at(i-1))):
			i = n.lexNumber(rs, i)
		case isAlnum(r):
			i = n.lexWord(rs, i)
		case r == '%':
			n.raw = append(n.raw, rawToken{text: "%", kind: TokUnit})
			i++
		case r == '°':
			if c := at(i + 1); (c == 'c' || c == 'f') && !isAlnum(at(i+2)) {
				n.raw = append(n.raw, rawToken{text: "°" + string(c), kind: TokUnit})
				i += 2
			} else {
				n.raw = append(n.raw, rawToken{text: "°", kind: TokUnit})
				i++
			}
		case r == '€' || r == '$' || r == '£':
			n.raw = append(n.raw, rawToken{text: map[rune]string{'€': "eur", '$': "usd", '£': "gbp"}[r], kind: TokUnit})
			n.rule(RuleUnitSpelling)
			i++
		case r == '≤' || r == '≥' || r == '⩽' || r == '⩾' || r == '<' || r == '>' || r == '=':
			text := string(r)
			switch {
			case r == '≤' || r == '⩽':
				text = "<="
			case r == '≥' || r == '⩾':
				text = ">="
			case (r == '<' || r == '>') && at(i+1) == '=':
				text += "="
				i++
			}
			if r != '<' && r != '>' && r != '=' || text != string(r) {
				n.rule(RuleComparison)
			}
			n.raw = append(n.raw, rawToken{text: text, kind: TokComparison})
			i++
		case r == '~' && (unicode.IsDigit(at(i+1)) || isCurrency(at(i+1))):
			// "~340" is "about 340": an approximation, not the number.
			n.raw = append(n.raw, rawToken{text: "about", word: true})
			n.rule(RulePunctuation)
			i++
		case r == '&':
			// The ampersand is the word it stands for.
			n.raw = append(n.raw, rawToken{text: "and", word: true})
			n.rule(RulePunctuation)
			i++
		case r == '/' || r == '+' || r == '±':
			n.raw = append(n.raw, rawToken{text: string(r)})
			i++
		case unicode.IsPunct(r) || r == '`' || r == '^' || r == '~' || r == '|':
			n.rule(RulePunctuation)
			i++
		default:
			// Other symbols are kept: they may carry meaning.
			n.raw = append(n.raw, rawToken{text: string(r)})
			i++
		}
	}
}

func isCurrency(r rune) bool { return r == '€' || r == '$' || r == '£' }

// parenNumber reports whether rs[i:] is digits, with decimal points or
// commas between them, then ")".
func parenNumber(rs []rune, i int) bool {
	for i < len(rs) && (unicode.IsDigit(rs[i]) || (rs[i] == '.' || rs[i] == ',') && i+1 < len(rs) && unicode.IsDigit(rs[i+1])) {
		i++
	}
	return i < len(rs) && rs[i] == ')'
}

// signContext reports whether a sign may start a number after prev: at the
// start, after a space, an opening bracket, a comparison symbol or a
// currency sign ("$-340").
func signContext(prev rune) bool {
	switch prev {
	case -1, ' ', '(', '[', '{', '<', '>', '=', '≤', '≥', ':', '"', '\'', '€', '$', '£':
		return true
	}
	return false
}

func (n *valueNorm) lexNumber(rs []rune, i int) int {
	start := i
	if rs[i] == '-' || rs[i] == '+' || rs[i] == '±' {
		i++
	}
	for i < len(rs) && unicode.IsDigit(rs[i]) {
		i++
	}
	// "1 200 000": groups of three digits after a first of one to three,
	// set apart by spaces, are one number written with grouping spaces.
	if d := i - start; d >= 1 && d <= 3 && unicode.IsDigit(rs[start]) {
		for i+3 < len(rs) && rs[i] == ' ' && unicode.IsDigit(rs[i+1]) && unicode.IsDigit(rs[i+2]) && unicode.IsDigit(rs[i+3]) &&
			(i+4 == len(rs) || !unicode.IsDigit(rs[i+4])) {
			i += 4
		}
	}
	for i+1 < len(rs) && (rs[i] == '.' || rs[i] == ',') && unicode.IsDigit(rs[i+1]) {
		i++
		for i < len(rs) && unicode.IsDigit(rs[i]) {
			i++
		}
	}
	// A date or time in digits ("31.03.2025", "2025-03-31", "31/03/2025",
	// "14:00") is one word: its parts are not numbers.
	if j := dateEnd(rs, start, i); j > i {
		lit := string(rs[start:j])
		kind := TokDate
		if strings.Contains(lit, ":") {
			kind = TokTime
		}
		n.raw = append(n.raw, rawToken{text: lit, kind: kind})
		return j
	}
	num := string(rs[start:i])
	if strings.Count(num, ".") >= 2 {
		n.raw = append(n.raw, rawToken{text: num, kind: TokDate})
		return i
	}
	// Letters glued to the number: a unit ("5mm"), an ordinal ("31st", a
	// word), or an identifier ("8d").
	if i < len(rs) && unicode.IsLetter(rs[i]) {
		j := i
		for j < len(rs) && (isAlnum(rs[j]) || (rs[j] == '-' && j+1 < len(rs) && isAlnum(rs[j+1]))) {
			j++
		}
		tail := string(rs[i:j])
		if _, ok := unitTable[singular(tail)]; ok && !strings.ContainsFunc(tail, unicode.IsDigit) {
			n.raw = append(n.raw, rawToken{text: num, kind: TokNumber}, rawToken{text: tail, word: true})
			return j
		}
		kind := TokIdentifier
		if isOrdinal(num, tail) {
			kind = TokWord
		}
		n.raw = append(n.raw, rawToken{text: num + tail, kind: kind})
		return j
	}
	n.raw = append(n.raw, rawToken{text: num, kind: TokNumber})
	// A range or a date written with hyphens: the dash is kept as a word.
	if i+1 < len(rs) && rs[i] == '-' && unicode.IsDigit(rs[i+1]) {
		n.raw = append(n.raw, rawToken{text: "-"})
		i++
	}
	return i
}

// dateEnd returns where a date or time that starts with the number
// rs[start:i] ends, or i when there is none: digits joined by ":" (a time),
// or three digit groups joined by one separator "-", "/" or "." (a date;
// the number itself may have consumed "d.d").
func dateEnd(rs []rune, start, i int) int {
	digits := func(k int) int {
		for k < len(rs) && unicode.IsDigit(rs[k]) {
			k++
		}
		return k
	}
	if i+1 < len(rs) && rs[i] == ':' && unicode.IsDigit(rs[i+1]) {
		return digits(i + 1)
	}
	lit := string(rs[start:i])
	if strings.Count(lit, ".") >= 2 {
		return i // "31.03.2025" was read whole as a number
	}
	// Re-read from start: group sep group sep group, one separator kind.
	k := start
	if k < len(rs) && (rs[k] == '-' || rs[k] == '+' || rs[k] == '±') {
		return i
	}
	groups, sep := 0, rune(0)
	for {
		e := digits(k)
		if e == k {
			return i
		}
		groups++
		k = e
		if groups == 3 {
			break
		}
		if k+1 >= len(rs) || !unicode.IsDigit(rs[k+1]) || !(rs[k] == '-' || rs[k] == '/' || rs[k] == '.') || (sep != 0 && rs[k] != sep) {
			break
		}
		sep = rs[k]
		k++
	}
	if groups == 3 {
		return k
	}
	return i
}

func isOrdinal(num, tail string) bool {
	if strings.ContainsAny(num, ".,-+±") {
		return false
	}
	return tail == "st" || tail == "nd" || tail == "rd" || tail == "th"
}

func (n *valueNorm) lexWord(rs []rune, i int) int {
	start := i
	for i < len(rs) {
		r := rs[i]
		if isAlnum(r) {
			i++
			continue
		}
		// Inner hyphens, dots and apostrophes join alphanumerics.
		if (r == '-' || r == '.' || r == '\'') && i+1 < len(rs) && isAlnum(rs[i+1]) && i > start {
			i++
			continue
		}
		break
	}
	w := string(rs[start:i])
	if full, ok := contractions[w]; ok {
		n.rule(RuleContraction)
		for _, part := range strings.Fields(full) {
			n.raw = append(n.raw, rawToken{text: part, word: true})
		}
		return i
	}
	if strings.HasSuffix(w, "'s") {
		w = strings.TrimSuffix(w, "'s")
		n.rule(RulePunctuation)
	}
	if strings.Contains(w, "'") {
		w = strings.ReplaceAll(w, "'", "")
		n.rule(RulePunctuation)
	}
	if strings.ContainsFunc(w, unicode.IsDigit) {
		n.raw = append(n.raw, rawToken{text: w, kind: TokIdentifier})
	} else {
		n.raw = append(n.raw, rawToken{text: w, word: true})
	}
	return i
}

// phrases drops articles, reads cardinal words, units, comparison and
// qualifier phrases, closed-class words and lemmas, in one pass.
func (n *valueNorm) phrases() {
	// Articles first, so that phrases see "at latest" for "at the latest".
	toks := n.raw[:0] // filtered in place: writes never pass reads
	for _, t := range n.raw {
		if t.word && articles[t.text] {
			n.rule(RuleArticle)
			continue
		}
		if t.word {
			if d, ok := cardinals[t.text]; ok {
				n.rule(RuleCardinal)
				t = rawToken{text: d, kind: TokNumber, cardinal: true}
			}
		}
		last := len(toks) - 1
		switch {
		case t.kind == TokNumber && last >= 0 && toks[last].kind == TokNumber && strings.Trim(toks[last].text, "()") == strings.Trim(t.text, "()") &&
			(toks[last].cardinal || t.cardinal):
			// "twelve (12)", "12 (twelve)": one number written twice.
			continue
		case t.kind == TokNumber && last >= 0 && toks[last].word && (toks[last].text == "minus" || toks[last].text == "plus") &&
			!strings.ContainsAny(t.text[:1], "+-±"):
			// "minus 18" is the number -18, "plus 5" +5: the sign spelled.
			sign := "-"
			if toks[last].text == "plus" {
				sign = "+"
			}
			toks[last] = rawToken{text: sign + t.text, kind: TokNumber}
			n.rule(RuleSignWord)
			continue
		}
		toks = append(toks, t)
	}
	lem := make([]string, len(toks))
	for i, t := range toks {
		if t.word {
			lem[i] = lemma(t.text)
		}
	}
	// prevNumber: a number or unit among the last two tokens, so that
	// "-18 °C or colder" and "10 boxes or more" both take a qualifier.
	prevNumber := func() bool {
		for k := len(n.out) - 1; k >= 0 && k >= len(n.out)-2; k-- {
			if n.out[k].Kind == TokNumber || n.out[k].Kind == TokUnit {
				return true
			}
		}
		return false
	}
	nextNumber := func(j int) bool {
		return j < len(toks) && toks[j].kind == TokNumber
	}
	n.out = make([]Token, 0, len(toks))
	for i := 0; i < len(toks); {
		t := toks[i]
		if !t.word {
			tok := Token{Text: t.text, Kind: t.kind, Raw: t.text}
			if t.kind == TokComparison {
				tok.Class, tok.Dir, tok.Strict = symbolBounds[t.text].class, symbolBounds[t.text].dir, symbolBounds[t.text].strict
			}
			n.out = append(n.out, tok)
			i++
			continue
		}
		raw := func(k int) string { return joinTexts(toks[i : i+k]) }
		// Units, after a number, or after a number's scale word ("1.2
		// million USD": the currency of the amount).
		if afterNumber(n.out) {
			if p, k := matchPhrase(unitPhrases, lem, toks, i); k > 0 {
				if raw(k) != p.text {
					n.rule(RuleUnitSpelling)
				}
				n.out = append(n.out, Token{Text: p.text, Kind: TokUnit, Raw: raw(k)})
				i += k
				continue
			}
		}
		if p, k := matchPhrase(boundPhrases, lem, toks, i); k > 0 && (p.text == "maximum" || p.text == "minimum") && !nextNumber(i+k) && prevNumber() {
			// "0.5 mm minimum": the bound after its number, a qualifier.
			n.out = append(n.out, Token{Text: p.text, Kind: TokQualifier, Class: p.class, Dir: p.dir, Raw: raw(k)})
			i += k
			continue
		}
		if p, k := matchPhrase(boundPhrases, lem, toks, i); k > 0 && (!p.needNumber || nextNumber(i+k)) && (!p.postfix || prevNumber()) {
			if p.kind == TokComparison && raw(k) != p.text {
				n.rule(RuleComparison)
			}
			n.out = append(n.out, Token{Text: p.text, Kind: p.kind, Class: p.class, Dir: p.dir, Strict: p.strict, Raw: raw(k)})
			i += k
			continue
		}
		if p, k := matchPhrase(classPhrases, lem, toks, i); k > 0 {
			if p.kind == TokMonth && p.text == "may" && !(nextNumber(i+1) || (len(n.out) > 0 && n.out[len(n.out)-1].Kind == TokNumber)) {
				// "may" is a month only next to a number.
			} else {
				if raw(k) != p.text {
					n.noteLemma(toks[i:i+k], lem[i:i+k])
				}
				n.out = append(n.out, Token{Text: p.text, Kind: p.kind, Class: p.class, Raw: raw(k)})
				i += k
				continue
			}
		}
		n.noteLemma(toks[i:i+1], lem[i:i+1])
		n.out = append(n.out, Token{Text: lem[i], Kind: TokWord, Raw: t.text})
		i++
	}
}

// afterNumber reports whether the tokens so far end with a number, or a
// number and a scale word.
func afterNumber(out []Token) bool {
	k := len(out) - 1
	if k >= 1 && out[k].Kind == TokWord && scaleWords[out[k].Text] {
		k--
	}
	return k >= 0 && out[k].Kind == TokNumber
}

// scaleWords multiply the number before them.
var scaleWords = map[string]bool{"thousand": true, "million": true, "billion": true, "trillion": true, "bn": true, "mn": true}

// joinTexts joins raw tokens' texts with single spaces.
func joinTexts(ts []rawToken) string {
	if len(ts) == 1 {
		return ts[0].text
	}
	var b strings.Builder
	for k, x := range ts {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.text)
	}
	return b.String()
}

// noteLemma records the plural and verb rules where a word's lemma differs
// from its surface.
func (n *valueNorm) noteLemma(toks []rawToken, lem []string) {
	for i, t := range toks {
		if lem[i] == t.text {
			continue
		}
		if _, ok := verbVariants[t.text]; ok {
			n.rule(RuleVerb)
		} else {
			n.rule(RulePlural)
		}
	}
}

// lemma is a word's form for comparison: the verb table, else singular.
func lemma(w string) string {
	if v, ok := verbVariants[w]; ok {
		return v
	}
	return singular(w)
}

// singular removes common English plural endings. It is deliberately
// simple and applied to both sides alike; short words and a list of words
// that only look plural are left alone.
func singular(w string) string {
	if len(w) <= 3 || pluralExceptions[w] || !strings.HasSuffix(w, "s") {
		return w
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"),
		strings.HasSuffix(w, "ics"), strings.HasSuffix(w, "ous"):
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		return w[:len(w)-2]
	}
	return w[:len(w)-1]
}

var pluralExceptions = setOf("goods", "series", "species", "means", "news", "this", "thus", "does", "goes", "yes",
	"always", "perhaps", "whereas", "across", "unless", "towards", "afterwards", "besides", "sometimes",
	"overseas", "chassis", "lens", "premises", "hers", "ours", "yours", "theirs", "its", "alias", "canvas", "atlas",
	"celsius", "fahrenheit", "includes", "whereabouts", "upwards", "downwards")

var articles = setOf("a", "an", "the", "any")

// contractions are read as the words they contract.
var contractions = map[string]string{
	"doesn't": "does not", "don't": "do not", "didn't": "did not", "isn't": "is not", "aren't": "are not",
	"wasn't": "was not", "weren't": "were not", "can't": "cannot", "won't": "will not", "shouldn't": "should not",
	"mustn't": "must not", "hasn't": "has not", "haven't": "have not", "it's": "it is", "there's": "there is",
}

var cardinals = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
	"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
}

var verbVariants = map[string]string{
	"inspect": "inspect", "inspects": "inspect", "inspected": "inspect", "inspection": "inspect", "inspections": "inspect",
	"require": "require", "requires": "require",
	"recheck": "recheck", "rechecks": "recheck", "rechecked": "recheck",
}

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// phrase is an entry of a phrase table; words holds the lemmas to match.
type phrase struct {
	words      []string
	text       string
	kind       TokenKind
	class      string
	dir        int8
	strict     bool
	needNumber bool // only before a number ("under 10 kg", not "under part number")
	postfix    bool // only after a number or unit ("-18 °C or colder")
}

// matchPhrase returns the longest phrase of table starting at toks[i].
func matchPhrase(table map[string][]phrase, lem []string, toks []rawToken, i int) (phrase, int) {
	best, bestLen := phrase{}, 0
	for _, p := range table[lem[i]] {
		k := len(p.words)
		if k <= bestLen || i+k > len(toks) {
			continue
		}
		ok := true
		for j, w := range p.words {
			if !toks[i+j].word || lem[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			best, bestLen = p, k
		}
	}
	return best, bestLen
}

func phraseTable(ps []phrase) map[string][]phrase {
	m := map[string][]phrase{}
	for _, p := range ps {
		// Tables are written in surface form; match on lemmas.
		for j, w := range p.words {
			p.words[j] = lemma(w)
		}
		m[p.words[0]] = append(m[p.words[0]], p)
	}
	return m
}

func ws(s string) []string { return strings.Fields(s) }

// unitTable is the closed unit table: every spelling (as a lemma) and its
// normalized unit.
var unitTable = map[string]string{}

var unitPhrases = func() map[string][]phrase {
	units := map[string][]string{
		"mm":  {"mm", "millimetre", "millimeter"},
		"cm":  {"cm", "centimetre", "centimeter"},
		"m":   {"m", "metre", "meter"},
		"km":  {"km", "kilometre", "kilometer"},
		"µm":  {"µm", "μm", "um", "micrometre", "micrometer", "micron"},
		"mg":  {"mg", "milligram", "milligramme"},
		"g":   {"g", "gram", "gramme"},
		"kg":  {"kg", "kilogram", "kilogramme"},
		"ml":  {"ml", "millilitre", "milliliter"},
		"l":   {"l", "litre", "liter"},
		"°c":  {"degree celsius", "degrees celsius", "deg c"},
		"°f":  {"degree fahrenheit", "degrees fahrenheit", "deg f"},
		"%":   {"percent", "per cent"},
		"h":   {"h", "hr", "hrs", "hour"},
		"min": {"min", "minute"},
		"s":   {"s", "sec", "second"},
		"eur": {"eur", "euro"},
		"chf": {"chf", "swiss franc"},
		"jpy": {"jpy", "yen"},
		"cny": {"cny", "rmb", "yuan", "renminbi"},
		"cad": {"cad", "canadian dollar"},
		"aud": {"aud", "australian dollar"},
		"inr": {"inr", "rupee"},
		"usd": {"usd", "dollar"},
		"gbp": {"gbp", "pound sterling"},
	}
	var ps []phrase
	for u, spellings := range units {
		for _, sp := range spellings {
			ps = append(ps, phrase{words: ws(sp), text: u, kind: TokUnit})
			if len(ws(sp)) == 1 {
				unitTable[lemma(sp)] = u
			}
		}
	}
	slices.SortFunc(ps, func(a, b phrase) int { return strings.Compare(strings.Join(a.words, " "), strings.Join(b.words, " ")) })
	return phraseTable(ps)
}()

var boundPhrases = func() map[string][]phrase {
	var ps []phrase
	add := func(text string, kind TokenKind, dir int8, strict, needNumber, postfix bool, spellings ...string) {
		class := map[int8]string{1: "upper", -1: "lower", 0: "exact"}[dir]
		if strict {
			class += "_strict"
		}
		for _, sp := range spellings {
			ps = append(ps, phrase{words: ws(sp), text: text, kind: kind, class: class, dir: dir, strict: strict, needNumber: needNumber, postfix: postfix})
		}
	}
	add("<=", TokComparison, 1, false, false, false, "at most", "no more than", "not more than",
		"less than or equal to", "fewer than or equal to", "lower than or equal to", "smaller than or equal to")
	add("at or below", TokComparison, 1, false, false, false, "at or below", "at or under", "at or lower than")
	add("at or above", TokComparison, -1, false, false, false, "at or above", "at or over", "at or higher than")
	add("<=", TokComparison, 1, false, true, false, "up to")
	add(">=", TokComparison, -1, false, false, false, "at least", "no less than", "not less than", "no fewer than", "not fewer than",
		"greater than or equal to", "more than or equal to", "higher than or equal to", "larger than or equal to")
	add("<", TokComparison, 1, true, false, false, "less than", "fewer than", "lower than", "shorter than", "smaller than")
	add(">", TokComparison, -1, true, false, false, "more than", "greater than", "longer than", "higher than", "larger than")
	add("=", TokComparison, 0, false, false, false, "exactly")
	for _, w := range []string{"below", "under"} {
		add(w, TokComparison, 1, true, true, false, w)
	}
	for _, w := range []string{"above", "over"} {
		add(w, TokComparison, -1, true, true, false, w)
	}
	add("within", TokComparison, 1, false, true, false, "within")
	add("maximum", TokComparison, 1, false, true, false, "maximum", "max")
	add("minimum", TokComparison, -1, false, true, false, "minimum", "min")
	add("not exceed", TokComparison, 1, false, false, false, "not exceed", "not to exceed", "not exceeding")
	add("no later than", TokComparison, 1, false, false, false, "no later than", "not later than")
	add("no earlier than", TokComparison, -1, false, false, false, "no earlier than", "not earlier than")
	for _, w := range []string{"colder", "less", "fewer", "lower", "below", "under", "shorter", "earlier", "smaller"} {
		add("or "+w, TokQualifier, 1, false, false, true, "or "+w)
	}
	for _, w := range []string{"below", "under", "less"} {
		add("and "+w, TokQualifier, 1, false, false, true, "and "+w)
	}
	for _, w := range []string{"warmer", "more", "higher", "above", "over", "greater", "longer", "later", "larger"} {
		add("or "+w, TokQualifier, -1, false, false, true, "or "+w)
	}
	for _, w := range []string{"above", "over", "more"} {
		add("and "+w, TokQualifier, -1, false, false, true, "and "+w)
	}
	add("at latest", TokQualifier, 1, false, false, true, "at latest")
	add("at earliest", TokQualifier, -1, false, false, true, "at earliest")
	return phraseTable(ps)
}()

// symbolBounds are the comparison symbols, read like their phrases.
var symbolBounds = map[string]struct {
	class  string
	dir    int8
	strict bool
}{
	"<=": {"upper", 1, false}, ">=": {"lower", -1, false}, "<": {"upper_strict", 1, true}, ">": {"lower_strict", -1, true},
	"=": {"exact", 0, false},
}

var classPhrases = func() map[string][]phrase {
	var ps []phrase
	add := func(kind TokenKind, class, text string, spellings ...string) {
		for _, sp := range spellings {
			ps = append(ps, phrase{words: ws(sp), text: text, kind: kind, class: class})
		}
	}
	add(TokCondition, "before", "before", "before")
	add(TokCondition, "before", "prior to", "prior to")
	add(TokCondition, "after", "after", "after")
	add(TokCondition, "until", "until", "until")
	add(TokCondition, "until", "till", "till")
	add(TokCondition, "until", "up until", "up until")
	add(TokCondition, "unless", "unless", "unless")
	for _, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		add(TokWeekday, d, d, d)
	}
	for _, m := range []string{"january", "february", "march", "april", "may", "june", "july", "august",
		"september", "october", "november", "december"} {
		add(TokMonth, m, m, m)
	}
	// A quarter is the identifier a filing writes for it: "first quarter"
	// is "q1", so "Q1 2023" and "first quarter of 2023" name the same one
	// and "second quarter" another (identifiers are a closed class).
	for k, q := range []string{"first", "second", "third", "fourth"} {
		add(TokIdentifier, "", fmt.Sprintf("q%d", k+1), q+" quarter", q+" fiscal quarter", q+"-quarter")
	}
	add(TokDayBasis, "calendar", "calendar", "calendar")
	add(TokDayBasis, "working", "working", "working")
	add(TokDayBasis, "working", "business", "business")
	add(TokBasis, "per", "per", "per")
	for _, w := range []string{"no", "not", "none", "never", "without"} {
		add(TokNegation, "negation", w, w)
	}
	for _, s := range []string{"final inspection", "goods receipt", "goods-in", "goods in", "incoming inspection",
		"incoming goods inspection", "receiving inspection", "in-process inspection", "first article inspection",
		"first-article inspection", "pre-shipment inspection", "outgoing inspection", "dispatch", "despatch",
		"shipment", "shipping", "loading", "unloading", "delivery", "installation", "commissioning", "production",
		"assembly", "packing", "packaging", "receipt"} {
		add(TokStage, s, s, s)
	}
	return phraseTable(ps)
}()

// markerPattern matches citation markers: bracketed numbers and footnote
// marks, OpenAI's 【...】 source marks, parenthesized page references and
// a bracketed file reference.
var markerPattern = regexp.MustCompile(`\[\^?\d+(?:\s*[,–-]\s*\^?\d+)*\]` +
	`|【[^】]*】` +
	`|(?i:\((?:see\s+|cf\.?\s+)?` + pageReference + `\))` +
	`|(?i:\[[^\[\]%$€£]*\.pdf` + pageRefs + `\s*\]|\([^()%$€£]*\.pdf` + pageRefs + `\s*\))` +
	`|(?im:^[ \t]*` + sourceLabel + `.*$)`)

// pageReference is a page or section reference ("p. 2", "pages 2-3",
// "section 4.1"); sourceLabel starts a line that names sources.
const (
	pageReference = `(?:p|pp|page|pages|s|section|sections|clause|§)\.?\s*\d+(?:\.\d+)*(?:\s*[,–-]\s*\d+(?:\.\d+)*)*`
	sourceLabel   = `(?:sources?|references?|citations?)[ \t]*:`
)

var (
	sourceLine = regexp.MustCompile(`(?im)^[ \t]*` + sourceLabel + `(.*)$`)
	reference  = regexp.MustCompile(`(?i)[^\s,;()\[\]]+\.pdf|\b` + pageReference)
)

// SourceLines returns what follows the colon of each line of s that
// names sources ("Source: ...", "References: ..."), the lines
// NormalizeValue drops as citation markers.
func SourceLines(s string) []string {
	var out []string
	for _, m := range sourceLine.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// WithoutReferences is s with its file names ("name.pdf") and page or
// section references ("p. 2") replaced by spaces.
func WithoutReferences(s string) string { return reference.ReplaceAllString(s, " ") }

// pageRefs is what may follow a file name in a marker: its pages ("[name.pdf,
// p. 2]", "(name.pdf, pages 2-3)"), nothing else: "(price-list.pdf gives
// 8%)" is a value beside a name, not a marker.
const pageRefs = `(?:\s*[,;:]?\s*(?:p|pp|page|pages|s)\.?\s*\d+(?:\s*[,–-]\s*\d+)*)?`

func stripMarkers(s string) string {
	if !strings.ContainsAny(s, "[(【:") {
		return s
	}
	return markerPattern.ReplaceAllString(s, " ")
}

// SameDate reports whether two dates written in digits can be read as the
// same day: year first (2025-03-31), or day or month first (31.03.2025,
// 03/31/2025), a two-digit year in the 2000s.
func SameDate(a, b string) bool {
	for _, x := range dateReadings(a) {
		for _, y := range dateReadings(b) {
			if x == y {
				return true
			}
		}
	}
	return false
}

func dateReadings(s string) [][3]int {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '/' || r == '-' })
	if len(parts) != 3 {
		return nil
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil
		}
		v[i] = n
	}
	year := func(y int) int {
		if y < 100 {
			return 2000 + y
		}
		return y
	}
	valid := func(y, m, d int) bool { return m >= 1 && m <= 12 && d >= 1 && d <= 31 }
	var out [][3]int
	if len(parts[0]) == 4 {
		if valid(v[0], v[1], v[2]) {
			out = append(out, [3]int{v[0], v[1], v[2]})
		}
		return out
	}
	if valid(year(v[2]), v[1], v[0]) {
		out = append(out, [3]int{year(v[2]), v[1], v[0]})
	}
	if valid(year(v[2]), v[0], v[1]) {
		out = append(out, [3]int{year(v[2]), v[0], v[1]})
	}
	return out
}

// SameNumber reports whether two number tokens, written differently, can be
// read as the same number: a decimal comma ("0,5" and "0.5"), a thousands
// separator ("1,000" and "1000"), trailing zeros ("2.5" and "2.50"). The
// grader calls such a pair an unregistered equivalent (unresolved), not a
// wrong number.
func SameNumber(a, b string) bool {
	for _, x := range numberReadings(a) {
		for _, y := range numberReadings(b) {
			if x.Cmp(y) == 0 {
				return true
			}
		}
	}
	return false
}

// numberReadings returns the values a number literal may denote: with "."
// as the decimal point and "," grouping thousands, and the other way round.
func numberReadings(s string) []*big.Rat {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		// "(340)": an accounting negative, or a number in brackets.
		inner := s[1 : len(s)-1]
		return append(numberReadings(inner), numberReadings("-"+inner)...)
	}
	sign := ""
	switch {
	case strings.HasPrefix(s, "-"):
		sign, s = "-", s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "±"):
		return nil
	}
	if strings.Contains(s, " ") {
		// "1 200 000": spaces group thousands, the number is read without them.
		groups := strings.Split(s, " ")
		for k, g := range groups {
			if k > 0 && len(g) < 3 || strings.ContainsAny(g[:min(len(g), 3)], ".,") {
				return nil
			}
		}
		return numberReadings(sign + strings.Join(groups, ""))
	}
	var out []*big.Rat
	for _, conv := range [][2]string{{".", ","}, {",", "."}} {
		dec, group := conv[0], conv[1]
		intPart, frac, hasFrac := strings.Cut(s, dec)
		if hasFrac && strings.Contains(frac, dec) {
			continue
		}
		if strings.Contains(frac, group) {
			continue
		}
		if intPart == "" && hasFrac {
			intPart = "0" // ".5" is 0.5
		}
		groups := strings.Split(intPart, group)
		okGroups := true
		for k, g := range groups {
			if g == "" || (k > 0 && len(g) != 3) || (k == 0 && len(groups) > 1 && len(g) > 3) {
				okGroups = false
			}
		}
		if !okGroups {
			continue
		}
		lit := sign + strings.Join(groups, "")
		if hasFrac {
			lit += "." + frac
		}
		if r, ok := new(big.Rat).SetString(lit); ok {
			out = append(out, r)
		}
	}
	return out
}
