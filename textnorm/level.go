package textnorm

import (
	"fmt"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ProfileQuoteV2 is the name of the quote-matching rule set this package
// implements. Any change to a rule or table needs a new name: quote/v1
// became quote/v2 when spacing accents, doubled single quotes, the long s,
// the micro sign, a few brackets and CJK line breaks joined the rules.
const ProfileQuoteV2 = "quote/v2"

// UnicodeVersion is the Unicode version of the NFC tables used.
const UnicodeVersion = norm.Version

// GoUnicodeVersion is the Unicode version of the letter, mark, digit and
// White_Space tables used.
const GoUnicodeVersion = unicode.Version

// JoinedMinLen is the shortest joined quote, in code points, for which a
// JoinedWords match should be reported: below it, letter strings recur across
// word boundaries by chance.
const JoinedMinLen = 20

// Level is how much normalization a match needed, from Exact (strictest) to
// JoinedWords. Levels are ordered: a larger value is more relaxed.
type Level uint8

// The levels, strictest first.
const (
	Exact       Level = iota // raw code points identical
	Canonical                // NFC (and invalid UTF-8 replaced)
	Whitespace               // whitespace collapsed, zero-width removed, footer separated
	Hyphenation              // soft hyphens removed, line-end hyphenation
	Typography               // quotes, dashes, minus, ellipsis folded
	Ligature                 // whitelisted ligatures expanded
	JoinedWords              // spaces ignored (never between two digits)
)

var levelNames = [...]string{"exact", "canonical", "whitespace", "hyphenation", "typography", "ligature", "joined_words"}

// String returns the reported name ("exact", ..., "joined_words").
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel is the inverse of Level.String.
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("textnorm: unknown level %q", s)
}

// MarshalText makes a Level a JSON string.
func (l Level) MarshalText() ([]byte, error) {
	if int(l) >= len(levelNames) {
		return nil, fmt.Errorf("textnorm: invalid level %d", uint8(l))
	}
	return []byte(levelNames[l]), nil
}

// UnmarshalText reads a level name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Per normalized code point, one byte: the level of the rule that produced
// it, the level of whatever was removed between it and its predecessor, and
// two flags that Align and Variants use.
const (
	ownMask    = 0x07
	gapShift   = 3
	gapMask    = 0x07 << gapShift
	flagHyphen = 0x40 // a line-end or soft hyphen between letters was removed just before
	flagSpace  = 0x80 // a line break after a dash was removed just before
)

func ownOf(b uint8) Level { return Level(b & ownMask) }
func gapOf(b uint8) Level { return Level((b & gapMask) >> gapShift) }

// withGap raises the gap level in g to at least l, keeping flags.
func withGap(g uint8, l Level) uint8 {
	if gapOf(g) >= l {
		return g
	}
	return g&^gapMask | uint8(l)<<gapShift
}

// mergeGap combines two gap bytes: the larger level, the union of flags.
func mergeGap(a, b uint8) uint8 {
	return withGap(a|b&^gapMask, gapOf(b))
}
