// Package layout reads a page a second way: from its stored glyph boxes
// (corpus.GlyphBox) it works out lines, blocks and columns, and writes the
// page's glyphs in the order a layout-ordered extractor reads them. The
// page text itself (pdftext) keeps the content stream's order, as pdf.js
// and MuPDF do; pdftotext and pdfminer order a page by its layout, and a
// quote copied from their text is found contiguously only in such an
// order (docs/extraction.md, "Reading orders"). An Order maps each of its code points to the page
// text's, so that a match in it is reported in the page text's offsets.
//
// # Contract
//
// Orders(text, boxes, rotate) returns up to two orders, Flow ("layout")
// and Boxes ("boxes"), each holding every glyph of the page once, with
// separators of its own: a space between words, "\n" between lines, "\n\n"
// between blocks. Order.Map gives the page-text offset (code points) of
// each code point, -1 for a separator the order inserted; a space the page
// text has between two words that stay side by side maps to that space.
// An order that reads as the page text (the same code points, with white
// space where the page text has white space) is not returned: a
// one-column page has none. The same input always
// gives the same orders: the analysis is integer arithmetic on the boxes'
// grid (hundredths of a point) and breaks every tie by the page text's
// order, so no float decides anything and no build differs from another.
// It never fails: boxes out of range, overlapping, unsorted or degenerate
// are dropped or taken as they are, and a page with more than MaxGlyphs
// boxes or MaxTextLen code points gets no orders.
//
// # From boxes to glyphs
//
// A glyph's em is its box's extent across the writing direction (pdftext
// draws boxes 0.2 em below the baseline to 0.8 em above it), its baseline
// 0.2 em above the box's lower edge. A glyph's writing direction is that
// of its line of the page text (the way from the line's first glyph to its
// last); a line of one glyph takes the page's dominant direction. The page
// text's separators say where words and lines of the content stream end.
//
// # The flow order: poppler's TextOutputDev (pdftotext's default)
//
// Taken from poppler's TextOutputDev.cc (TextPage::coalesce,
// TextBlock::coalesce, TextPage::dump), with its constants:
//
//   - Words: glyphs following each other in the page text with nothing
//     between them, of one size (within 5%; poppler: any change) and one
//     baseline (within half a point), as TextPage::addChar cuts them.
//   - Words of each writing direction are laid out apart (poppler's four
//     rotation pools), in a frame where that direction reads left to
//     right; the page's dominant direction comes first.
//   - Blocks: words pooled in 4-point baseline bands; a block starts at
//     the leftmost word of the topmost four bands and grows by words on the
//     line above or below within 1.5 sizes overlapping it (size within
//     5%), words on its lines within 0.3 sizes of it (size within 60%),
//     and, when nothing else joins, up to three words beside it within one
//     size (size within 20%).
//   - Lines within a block: from the leftmost word of the top bands, the
//     leftmost word within half a size of the baseline that starts less
//     than 1.5 sizes after the line ends, and not more than half a size
//     before; lines sorted by baseline.
//   - Reading order: the blocks' free space beside them (priMin, priMax),
//     tables found from aligned neighbours to the right, below and below
//     right, extended boxes, then poppler's topological sort by Breuel's
//     rules: a block above another it overlaps comes first; a block left
//     of another comes first unless a third block lies below the first and
//     above the second.
//   - Flows: a block joins the flow of the block before it when it lies
//     below it within 2.5 sizes, inside its free space and the flow's, and
//     is not set larger. Flows are separated by a blank line.
//   - Spaces: a space between two words at least 0.03 of the line's size
//     apart (maxCharSpacing): pdftotext's "U1 ," where a subscript is set
//     tight; the page text's own space where it has one.
//
// Not taken: poppler's physical layout mode, its fixed-pitch mode, its
// underline and link handling, the removal of a line-end hyphen (the quote
// profile joins hyphenated words anyway), and the combining of accents
// (pdftext places an accent drawn over a letter beside it, and the quote
// profile composes them). Font ascent and descent are not known: a
// glyph's box stands for poppler's, which may reach higher or lower.
//
// # The boxes order: pdfminer.six's LAParams grouping (layout.py)
//
// Taken from pdfminer.six's layout.py, with LAParams' defaults, in the
// frame of the page turned by its /Rotate, as pdfminer reads a page:
//
//   - Lines (group_objects): glyphs in page-text order (pdfminer's content
//     order), cut where two in a row are not horizontally aligned: their
//     vertical overlap (pdfminer's voverlap) is at most half the smaller
//     height (line_overlap 0.5), or they are at least twice the wider
//     one's width apart (char_margin 2.0).
//   - Boxes (group_textlines): lines joined, transitively, with their
//     neighbours: lines within half a line's height (line_margin 0.5) above
//     or below it, overlapping it, of its height and aligned with it left,
//     right or centre within that; a box's lines sorted top first.
//   - Order (group_textboxes): boxes merged bottom up, the pair whose
//     bounding box wastes least area first, a pair with another element
//     inside its bounding box only when no other pair is left; each merged
//     pair read in the order of (1-0.5) x0 - (1+0.5)(y0+y1) (boxes_flow
//     0.5). A page with more than 300 boxes is read in that order without
//     the grouping, which costs the cube of their number.
//   - Spaces: a space between two glyphs of a line more than 0.1 of the
//     larger of the next one's width and height apart (word_margin); the
//     page text's own space where it has one. Lines end with "\n", boxes
//     with a blank line.
//
// Not taken: text in form XObjects (pdfminer leaves it out of the
// analysis and appends it unspaced; the boxes do not say which glyphs came
// from a form), vertical writing (detect_vertical is off by default), and
// pdfminer's space glyphs (the page text has no boxes for spaces: a gap
// spanned by drawn spaces is measured as a gap).
//
// # Decisions, each pinned by a test named after it
//
//   - TestDecisionOrderEqualToTextLeftOut: an order that reads as the page
//     text, white space aside, is not returned.
//   - TestGoldenTwoColumnsTableFootnote and TestOrdersAsTheToolsRead: on
//     synthetic pages (two and three columns drawn a line of each at a
//     time, a table drawn a column at a time, a footnote drawn first, a
//     running head drawn last), the flow order reads exactly as pdftotext
//     22.12 and the boxes order exactly as pdfminer.six 20221105, after the
//     quote profile's normalization; where they disagree (pdftotext reads
//     the footnote before the right column, pdfminer last), each follows
//     its tool.
//
// # What it does not do
//
// It reads no PDF, stores nothing and matches no quote: pdftext calls it
// while extracting, package corpus stores the orders, package citations
// searches them.
package layout
