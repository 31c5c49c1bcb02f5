// Package textnorm implements citecheck's quote-matching normalization
// profile with exact offset maps back to the raw text.
//
// A quote emitted by an AI system and the page text it cites were usually
// produced by different PDF extractors, so they differ in spaces, line
// breaks, hyphenation, quote marks, dashes and ligatures. The profile removes
// exactly those differences and nothing else, keeps for every normalized code
// point the raw code points it came from, and records which rule produced it
// so that a match can report the least relaxed level it needed.
//
// # Units
//
// Every offset in this API is a Unicode code point index, 0-based, end
// exclusive: raw offsets index the text given to Normalize,
// normalized offsets index Text.String. Code points are counted as Go's
// range loop and utf8.RuneCountInString count them: an invalid UTF-8 byte is
// one code point. ByteOffset and CodePoint convert normalized offsets for
// byte-based indexes such as index/suffixarray; both cost O(log n) plus at most
// 63 decoded runes (after a one-time checkpoint pass on first use), and
// nothing when the text is ASCII. A valid UTF-8 pattern found in String by a
// byte search always starts and ends on code point boundaries.
//
// # Identity
//
// ProfileQuoteV2 ("quote/v2") names the rule set below. Changing any rule,
// table or level means a new name. quote/v2 replaced quote/v1:
// it adds the spacing-accent and doubled-quote rules and the bracket, bar
// and vertical-form folds of rule 5, the long s and the micro sign of rule
// 6 and the CJK line break of rule 2, each a fold the sweep of the shared
// corpus found one of the four reference extractors (pdftotext, mutool,
// pdf.js, pdfminer) printing otherwise, so that a quote copied from it
// was not found. A lock frozen with quote/v1 warns (freeze records the
// name): its verdicts may differ under quote/v2, which finds more; Profile.Name adds a suffix when a profile
// is limited (Limit) or has the footer repair switched off. The NFC tables are
// those of golang.org/x/text/unicode/norm (UnicodeVersion, 15.0.0 with Go
// 1.26; x/text switches to 17.0.0 tables under Go 1.27, which is a different
// profile identity and must be recorded as such). Letter, mark, digit and
// White_Space tests use Go's unicode package (GoUnicodeVersion). Record
// Name, UnicodeVersion and GoUnicodeVersion with every stored match.
//
// # Rules, with the level each is charged to
//
// NFC comes first; rules 2, 4, 5 and 6 then apply in one pass over its code
// points; NFC is re-applied if needed; the footer repair runs last.
//
//  1. canonical   Invalid UTF-8 bytes become U+FFFD (one per byte). NFC
//     (canonical composition; never NFKC). Applied again at the end when
//     a later rule left a combining mark next to a new base letter (for
//     example e, ZWSP, U+0301 or ﬁ, U+0301), so the output is always NFC.
//  2. whitespace  The zero-width characters ZWSP U+200B, ZWNJ U+200C, ZWJ
//     U+200D, WJ U+2060 and BOM/ZWNBSP U+FEFF are removed. Every run of
//     Unicode White_Space (tab, LF, VT, FF, CR, space, NEL, NBSP, U+1680,
//     U+2000..U+200A, LS, PS, U+202F, U+205F, U+3000; CRLF included) becomes
//     one U+0020; leading and trailing whitespace is dropped. A run between
//     two Chinese or Japanese characters (Han, kana, CJK punctuation,
//     fullwidth and halfwidth forms but their digits; not Hangul) is
//     removed instead: text without word spaces breaks lines anywhere
//     ("検知機\n構" is 検知機構), and extractors read its gaps as spaces or
//     not.
//  3. whitespace  Footer repair (named rule "footer", on by default): a
//     "<file name> Page <N>" footer, where <file name> is one of
//     Options.FooterNames (case-sensitive, normalized by this profile),
//     "Page" is literal and case-sensitive, the two separators are
//     whitespace runs and <N> is one or more ASCII digits (all of them; a
//     digit is never split off), is separated by one inserted space from a
//     non-space code point glued to it before the name or after the number.
//     When several names end at the same place the longest wins. Nothing
//     else about footers is changed and the footer itself is kept.
//  4. hyphenation The soft hyphen U+00AD is removed (between two letters it
//     marks an optional hyphen, see below). Line-end hyphenation: a
//     hyphen (U+002D or U+2010) or a soft hyphen that follows a letter or
//     combining mark, then optional horizontal whitespace, exactly one line
//     break (LF, VT, FF, CR, CRLF, NEL, LS or PS) and optional horizontal
//     whitespace, then a letter, is removed together with the break: the
//     normalized text holds the joined word ("ac-\ntual" gives "actual") and
//     marks an optional hyphen there (OptionalHyphenAt). A dash
//     (U+002D, U+2010..U+2015) after a non-space code point, followed the
//     same way by exactly one line break and a non-space code point, that
//     does not join two letters keeps the dash and drops the break
//     ("COVID-\n19" gives "COVID-19", "2019–\n2020" gives "2019-2020") and
//     marks an optional space there (OptionalSpaceAt).
//  5. typography  Folded to ASCII: ‘ ’ ‚ ‛ ′ ‹ › to '; “ ” „ ‟ ″ « » to ";
//     the dashes ‐ ‑ ‒ – — ― and the minus sign − to -; the ellipsis … to
//     "..." (three code points mapped to the one raw code point). Two
//     single quote marks that fold alike with nothing but zero-width
//     characters between them (‘‘, ’’, two apostrophes, two grave accents)
//     are one double quote ", mapped to both. 〈 〉 (U+3008, U+3009, and U+2329, U+232A by NFC) to ⟨ ⟩,
//     ‖ to ∥, and the vertical forms of CJK punctuation (U+FE10..U+FE19,
//     U+FE35..U+FE48) to their horizontal forms (︵ to （, ︑ to 、).
//     Spacing accents (` ¨ ¯ ´ ¸ ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝) are composed with a
//     letter beside them as the combining accent, a dotless i or j under
//     an accent above becomes i or j, and the result is NFC: "na¨ıve",
//     "naı̈ve" and "naïve" are one spelling, as are "Fac¸ade" and "Façade"
//     (accents.go states how the letter is chosen). An accent with no
//     letter beside it is kept, and an accent is never dropped.
//  6. ligature    ﬀ ﬁ ﬂ ﬃ ﬄ to ff fi fl ffi ffl; ﬅ and ﬆ to st; the long s
//     ſ to s (so ﬅ, "ſt" and "st" are one spelling); the micro sign µ to
//     the Greek μ. No other compatibility character is folded: ² ½ ① ℃
//     fullwidth letters and digits and the like stay as they are.
//
// The levels form a strict order, from strictest: Exact (the raw code points
// are identical), Canonical, Whitespace, Hyphenation, Typography, Ligature,
// then JoinedWords (see Joined). The locate contract names exact,
// whitespace, hyphenation, typography and ligature as the levels a match
// reports; Canonical is added because NFC is neither raw equality nor any
// of those, and hiding it in Exact would make "exact" false.
// Profile.Limit(l) applies only the rules charged to levels up to l, which
// makes the levels cumulative.
//
// # Levels of a match
//
// One normalized text per raw text; no per-level copies. For every normalized
// code point the map stores its raw span, the level of the rule that produced
// it, and the level of anything removed between it and the previous code
// point. Text.Level(a, b) is the least level whose rules explain the
// difference between [a, b) and the raw text it covers. Align compares a
// quote with a page code point by code point and charges a difference only
// where the raw text of the two sides differs, so a quote with “curly”
// quotes found in a page with the same curly quotes is Exact, not
// Typography. The charge is unit-wise: when both sides reached the same code
// point through the same relaxed rule from different raw text (CRLF and LF
// inside a joined line-end hyphen), the unit is charged that rule's level
// even though a stricter one would explain the difference.
//
// # Line-end hyphenation, both ways, with one normalized text
//
// The page text keeps the joined word and an optional-hyphen mark. A quote
// copied with the break normalizes to the same joined word, so it is found by
// plain substring search. A quote "ac-tual" or "ac- tual" (a line break that
// became a hyphen-space in a chunker) is matched by Align, which lets the
// quote's hyphen (and one space after it, or one before it where the space
// after it was a line break, as pypdf writes "oth -\ners") stand for the
// page's optional hyphen, and the reverse; Text.Variants lists the spellings to look up in a
// substring index before verifying the hits with Align. A hyphen in a quote
// matches nothing in the page unless the page had a line-end hyphen exactly
// there, so "well-known" does not match a page that prints "wellknown".
// A quote may end at the page's optional hyphen with its own hyphen ("our
// dynamic com-" in "com-\npilers"): Align takes a final hyphen of the
// whole quote for the optional hyphen, at Hyphenation, and Variants lists
// the spelling without it.
//
// # Joined words
//
// Text.Joined removes every space except one between two decimal digits, so
// words glued by an extractor ("lostinterwordspaces") are found. A match
// found only this way is JoinedWords, which the policy never passes ("does
// not normalize arbitrary word/number joins"). JoinedMinLen (20 code points of
// joined quote) is the shortest quote for which such a match should be
// reported at all; shorter strings occur by chance across word boundaries.
//
// # What the profile never does
//
//   - It never removes, adds or merges digits, decimal points, thousands
//     separators or signs: "3.5", "3-5" and "35" stay distinct, as do
//     "1,000", "1 000" and "1000"; the Joined form keeps the space between
//     two digits. Dashes and the minus sign are folded to "-" (Typography),
//     so "−5" equals "-5" and "2019–2020" equals "2019-2020": the sign is
//     kept, only its glyph is unified.
//   - It never folds case: extractors almost never disagree on case, and a
//     quote whose case differs is not a copy (ß, İ and final sigma would make
//     folding lossy besides).
//   - It never applies NFKC or folds characters other than those listed.
//   - It never drops punctuation other than a line-end hyphen it joins
//     (which Align still accepts in a quote) and never adds any.
//   - It never treats U+001C..U+001F as whitespace (Python's str.split does;
//     Unicode White_Space does not).
//
// # Ambiguities decided, each pinned by a test named after it
//
//   - TestDecisionCanonicalLevel: NFC differences are reported as Canonical,
//     a level between Exact and Whitespace.
//   - TestDecisionZeroWidthIsWhitespaceLevel: zero-width characters are
//     removed (not turned into spaces) and charged to Whitespace; the soft
//     hyphen is charged to Hyphenation and marks an optional hyphen.
//   - TestDecisionHyphenationJoinsLettersOnly: only a hyphen between a
//     letter (or mark) and a letter joins; exactly one line break; a blank
//     line is a paragraph break, not hyphenation.
//   - TestDecisionLineEndDashKeepsDash: a line-end dash that does not join
//     letters keeps the dash and loses the break.
//   - TestDecisionQuoteFolds: primes and guillemets are folded with the
//     quotation marks; ´ and ` are not.
//   - TestDecisionMinusFoldsToHyphen: − and the dashes become "-".
//   - TestDecisionCaseKept: case is never folded.
//   - TestDecisionFooterAnyCorpusName: the footer repair uses every corpus
//     file name, not only the cited document's, because a quote is
//     normalized before its document is resolved and must be normalized the
//     same way whatever document it names; it inserts a space next to any
//     non-space neighbour, punctuation included; a footer cut off by the
//     quote's edge is not repaired.
//   - TestDecisionFooterInsideLigature: a space the footer repair inserts
//     inside the expansion of one raw code point (a ligature split by a
//     file name) maps to that code point.
//   - TestDecisionUnitWiseLevel: the unit-wise charge above.
//   - TestDecisionQuoteHyphenOptional: a quote's own line-end hyphen is
//     optional too, so "ac-\ntual" in a quote matches "actual" and
//     "ac-tual" in a page.
//   - TestDecisionSpacedHyphenAtLineEnd: pypdf's "oth -\ners" (a space
//     before a line-end hyphen) is read as the page's optional hyphen; a
//     spaced dash within a line is not.
//   - TestDecisionInvisibleBetweenDigits: soft hyphens and zero-width
//     characters between digits are removed (they are invisible, not
//     separators), so "1<SHY>000" is "1000" as printed.
//   - TestDecisionJoinedSpaceNextToDigit: the Joined form keeps only spaces
//     between two digits; a space between a digit and "." or "-" is removed.
//   - TestDecisionInvalidUTF8: invalid bytes become U+FFFD, charged to
//     Canonical, one code point per byte.
//   - TestDecisionControlSeparatorsNotSpace: U+001C..U+001F are kept.
//   - TestDecisionInsertedSpaceSpan: a space inserted by the footer repair
//     maps to an empty raw span at its insertion point.
//   - TestDecisionDroppedAccentNotFound: a spacing accent is composed,
//     never dropped: "naive" is not found in "na¨ıve" (dropping accents
//     would equate año and ano, schön and schon).
//   - TestDecisionAccentLetterChoice: the letter a spacing accent between
//     two letters goes to (a dotless i or j; the one precomposed result;
//     below: the letter before, above: the letter after).
//   - TestDecisionLongS: ſ is s at the ligature level, so ﬅ, "ſt" (pdf.js
//     copies ﬅ so) and "st" match.
//   - TestDecisionCJKLineBreak: white space between two Chinese or
//     Japanese characters is no space, a line break or a blank line alike;
//     Hangul, Latin beside Han and fullwidth digits keep theirs.
//
// # The value profile value/v2
//
// NormalizeValue reads a field value (an answer's or a reference's) into
// tokens for the answer grader, by the policy's "Deterministic
// normalization" paragraph; its doc lists every rule, and Value.Rules
// records which ones changed a value. Unlike quote/v2 it folds case,
// drops punctuation and articles, and reads plurals, cardinal words,
// units and comparison phrases, but like quote/v2 it never changes a
// digit, a sign, a decimal point or comma, or an identifier's hyphen, and
// never converts a unit. Tokens carry a kind (number, unit, identifier,
// comparison, weekday, ...) so that the grader can tell a changed number
// from a changed word. SameNumber says whether two number spellings may
// mean the same number.
//
//   - TestDecisionValueCaseInsensitive: value grading and UNKNOWN detection
//     are case-insensitive (docs/grading.md's readings).
//   - TestDecisionDecimalCommaKept: "0,5" stays distinct from "0.5"; the
//     two are SameNumber (unresolved, not wrong: docs/grading.md's readings).
//
// # Limits
//
// A raw text must be shorter than 2^31 bytes (Normalize panics otherwise);
// the map costs 9 bytes per normalized code point. Offsets passed to the
// methods must lie in the documented ranges; out-of-range offsets panic like
// slice indexes do. Text, Joined and Profile are immutable after
// construction and safe for concurrent use. The package never prints.
package textnorm
