package citations

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// Column runs: the second shape of the reordered level. pdfminer and
// pdftotext read a table column by column, a line-numbered listing as a
// block of numbers, and a list's labels apart from its items, where the
// stored text holds the page's rows. Such a quote's lines are then parts of
// consecutive lines of the stored page, in order: line k of the quote is a
// run of whole words of page line L+k.
//
// "Somewhere in its row" would be too loose: a changed word or number
// often occurs elsewhere in the same row, above all in a table. So every
// quote line is anchored in its row:
//
//   - a line without digits starts its row or ends it, or sits in the
//     run's column; the quote's first and last lines, which a window or a
//     reader's selection cuts anywhere, may sit anywhere in their rows;
//   - a line with a digit always sits in the column, and the column holds
//     at least two such lines: numbers align only with numbers;
//   - the column is one word position for the whole run, counted from the
//     start of the rows or from their end (a column after a name of
//     several words), and holds at least two lines.
//
// A changed cell is then found only where the page holds the changed
// column, in the same rows. As for pieces, a quote that is the page's text
// but for one word (nearMiss) is refused whatever column it would fit.
// A run placed more than one way on a page (a column of values that
// several columns share) is reported at each place, which makes the quote
// ambiguous, never a guessed match.
//
// A quote may also be one piece of text and one run (splitRunOnPage): a
// paragraph's end, then a column of the table after it.

// maxRunPlacements: enough to tell unique from ambiguous. maxRunStates
// bounds the partial placements kept while a run is placed; past it, as
// past maxRunWork, the run is given up on the whole page (not found, never
// guessed: placements skipped at one row could make another look unique).
const (
	maxRunPlacements = 2
	maxRunStates     = 256
	maxRunWork       = 1 << 20 // row words and partial placements looked at on one page
)

// pageLine is one stored line: its words and the code point offset where
// each starts in the page's normalized text.
type pageLine struct {
	words []string
	at    []int
}

// pageLines cuts the page's normalized text at the spaces that stand for a
// raw line break.
func pageLines(t *textnorm.Text) []pageLine {
	s := t.String()
	var lines []pageLine
	var cur pageLine
	cp, wordStart, wordByte := 0, -1, 0
	flush := func(end int) {
		if wordStart >= 0 {
			cur.words = append(cur.words, s[wordByte:end])
			cur.at = append(cur.at, wordStart)
			wordStart = -1
		}
	}
	for i, r := range s {
		if r == ' ' {
			flush(i)
			if rawBreakAt(t, cp) {
				lines = append(lines, cur)
				cur = pageLine{}
			}
		} else if wordStart < 0 {
			wordStart, wordByte = cp, i
		}
		cp++
	}
	flush(len(s))
	return append(lines, cur)
}

// columnKey names a column: a word position counted from the line's start
// (fromEnd false) or from its end.
type columnKey struct {
	fromEnd bool
	index   int
}

// runsOnPage places the quote's lines (units) on page p as a column run,
// else as a piece of text and a run, and returns one location per
// placement, at most maxRunPlacements.
func (ix *Index) runsOnPage(qt *textnorm.Text, units []unit, p int) []loc {
	qs := qt.String()
	if len(units) < 2 || len(qs) < MinPieceLen {
		return nil
	}
	t := ix.text(p)
	// As for pieces: a quote that is the page's text but for one word is a
	// changed quote, whatever column it would fit.
	if nearMiss(qs, t.String()) {
		return nil
	}
	lines := pageLines(t)
	if locs := ix.runOnLines(qt, units, p, lines); len(locs) > 0 {
		return locs
	}
	return ix.splitRunOnPage(qt, units, p, lines)
}

// runOnLines places units as a column run on page p, whose lines are given.
func (ix *Index) runOnLines(qt *textnorm.Text, units []unit, p int, lines []pageLine) []loc {
	if len(units) < 2 {
		return nil
	}
	qs := qt.String()
	words := make([][]string, len(units))
	for k, u := range units {
		words[k] = strings.Split(qs[u.from:u.to], " ")
	}
	var locs []loc
	budget := maxRunWork
	for first := 0; first+len(units) <= len(lines); first++ {
		placements := placeRun(words, lines[first:first+len(units)], &budget)
		if budget < 0 {
			return nil // given up: a partial search could call an ambiguous quote unique
		}
		for _, parts := range placements {
			l := loc{doc: ix.pages[p].doc, level: Reordered}
			for k, at := range parts {
				row := &lines[first+k]
				from := row.at[at]
				last := at + len(words[k]) - 1
				to := row.at[last] + utf8.RuneCountInString(row.words[last])
				l.parts = append(l.parts, part{p, from, to})
			}
			span := l.parts[len(l.parts)-1].to - l.parts[0].from
			if span > max(MaxReorderSpan, 4*qt.Len()) {
				continue
			}
			locs = append(locs, l)
			if len(locs) == maxRunPlacements {
				return locs
			}
		}
	}
	return locs
}

// placeRun returns the placements of the quote lines (as words) on the
// rows, one row each: for every placement, the word index in each row
// where its quote line starts. Each line is anchored in its row: it starts
// the row, ends it, or sits in the run's one column with at least one
// other line; a first or last line without digits may sit anywhere. A line
// holding a digit always sits in the column, which must then hold at least
// two of them. budget counts the row words and partial placements looked
// at; past it placeRun returns nil and leaves budget negative.
func placeRun(words [][]string, rows []pageLine, budget *int) [][]int {
	type state struct {
		key           columnKey // index -1 until a line sits in the column
		inCol, digits int       // lines in the column, and of them with digits
		parts         []int
	}
	states := []state{{key: columnKey{index: -1}}}
	for k, w := range words {
		row := rows[k].words
		at := wordsAt(row, w)
		*budget -= len(row) + len(states)*len(at)
		if *budget < 0 {
			return nil
		}
		digits := hasDigit(strings.Join(w, " "))
		var next []state
		for _, s := range states {
			for _, a := range at {
				if !digits && (a == 0 || a+len(w) == len(row) || k == 0 || k == len(words)-1) {
					next = append(next, state{s.key, s.inCol, s.digits, append(s.parts[:k:k], a)})
					continue
				}
				for _, key := range []columnKey{{false, a}, {true, len(row) - a - len(w)}} {
					if s.key.index >= 0 && key != s.key {
						continue
					}
					d := s.digits
					if digits {
						d++
					}
					next = append(next, state{key, s.inCol + 1, d, append(s.parts[:k:k], a)})
				}
			}
		}
		if len(next) > maxRunStates {
			*budget = -1 // give up, as when the budget runs out
			return nil
		}
		if len(next) == 0 {
			return nil
		}
		states = next
	}
	// One placement per distinct set of positions: a column found both
	// from the start and from the end of equal rows is one column.
	var out [][]int
	seen := map[string]bool{}
	for _, s := range states {
		if s.inCol == 1 || s.digits == 1 {
			continue // a column of one line, or one number, fixes nothing
		}
		k := fmt.Sprint(s.parts)
		if !seen[k] {
			seen[k] = true
			out = append(out, s.parts)
		}
	}
	return out
}

// wordsAt returns the word indexes in row where the words w occur in
// sequence.
func wordsAt(row, w []string) []int {
	var at []int
	for i := 0; i+len(w) <= len(row); i++ {
		match := true
		for j := range w {
			if row[i+j] != w[j] {
				match = false
				break
			}
		}
		if match {
			at = append(at, i)
		}
	}
	return at
}

// splitRunOnPage tries the quote as one piece of text and one column run:
// its first lines found as they are and the rest as a run, or a run then
// text (a paragraph's end, then a table's column, as pdfminer reads a page
// whose table follows the text). The piece follows the rules of pieces
// (MinPieceLen, numbers glued inside it); the run those of runs. Every
// distinct placement is returned, up to maxRunPlacements, so that a quote
// placed two ways is ambiguous.
func (ix *Index) splitRunOnPage(qt *textnorm.Text, units []unit, p int, lines []pageLine) []loc {
	n := len(units)
	if n < 3 {
		return nil
	}
	qs := qt.String()
	t := ix.text(p)
	find := func(i, j int) []int {
		sub := qs[units[i].from:units[j-1].to]
		if len(sub) > len(t.String()) {
			return nil
		}
		return findOnPage(t, sub, false, false, false)
	}
	// Being found is monotone in the lines taken: a piece of the quote's
	// first (or last) lines found on the page, between word boundaries,
	// holds every shorter such piece at the same place, since lines are
	// joined by a space. So the text pieces found are the first lines up
	// to some count and the last lines from some line on; the last lines'
	// are found first, from the shortest, so that a quote of thousands of
	// lines (a model stuck in a loop) costs a few searches, not n.
	suffixes := map[int][]int{}
	for s := n - 1; s >= 1; s-- {
		offs := find(s, n)
		if len(offs) == 0 {
			break
		}
		suffixes[s] = offs
	}
	prefixFound := true
	var locs []loc
	seen := map[[2]int]bool{}
	for s := 1; s < n; s++ {
		for _, textFirst := range []bool{true, false} {
			ti, tj, ri, rj := 0, s, s, n
			if !textFirst {
				ti, tj, ri, rj = s, n, 0, s
			}
			if rj-ri < 2 || textFirst && !prefixFound || !textFirst && suffixes[s] == nil {
				continue
			}
			sub := qs[units[ti].from:units[tj-1].to]
			if utf8.RuneCountInString(sub) < MinPieceLen || !digitsGlued(qs, units, ti, tj) {
				continue
			}
			offs := suffixes[s]
			if textFirst {
				if offs = find(ti, tj); len(offs) == 0 {
					prefixFound = false
					continue
				}
			}
			runs := ix.runOnLines(qt, units[ri:rj], p, lines)
			for _, b := range offs {
				from := t.CodePoint(b)
				piece := part{p, from, from + utf8.RuneCountInString(sub)}
				for _, r := range runs {
					lo, hi, overlap := piece.from, piece.to, false
					for _, q := range r.parts {
						overlap = overlap || q.from < piece.to && piece.from < q.to
						lo, hi = min(lo, q.from), max(hi, q.to)
					}
					if overlap || hi-lo > max(MaxReorderSpan, 4*qt.Len()) || seen[[2]int{lo, hi}] {
						continue
					}
					seen[[2]int{lo, hi}] = true
					l := loc{doc: ix.pages[p].doc, level: Reordered, parts: append([]part{piece}, r.parts...)}
					sort.Slice(l.parts, func(a, b int) bool { return l.parts[a].from < l.parts[b].from })
					locs = append(locs, l)
					if len(locs) == maxRunPlacements {
						return locs
					}
				}
			}
		}
	}
	return locs
}
