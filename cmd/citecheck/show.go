package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/suggest"
)

const showAbout = `
Print the stored text of document DOC (its file name or its blake3: hash):
one page when PAGE (1-based) is given, otherwise every page, separated by a
form feed. The text is printed exactly as stored, so offsets counted in it
are the offsets citecheck reports (Unicode code points, 0-based).

--ruler prefixes each line with the code-point offset of its first
character in the page text; --json prints the document's manifest entry
(with PAGE, that page's entry and its text) instead. --boxes (with PAGE)
lists where each glyph's text lies on the page: code-point span and box in
PDF points, y up (with --json, as a "boxes" array). --alts (with PAGE)
prints the page's alternative texts after its text: the page as other
extractors read glyphs by their font codes, at the same offsets, which
locate searches at its glyph_codes level (with --json, as "alt_texts").
--order NAME (with PAGE) prints the page in one of its reading orders
instead of its text: "layout" as pdftotext orders a page by its layout,
"boxes" as pdfminer does; locate searches them after the text and reports
what it finds there in the text's offsets, which --ruler prints (the
offset in the page text of each line's first character; "-" for a line of
separators). With --json, as "order_text" and "order_map" (each code
point's offset in the page text, -1 for a separator the order inserted).

Example:
  citecheck show --corpus corpus --ruler supplier-policy.pdf 2

Exit status: 0 printed; 2 bad usage, a document or page the corpus does not
have, a document with no text (or a page with no glyph boxes); 3 a stored
file no longer matches the corpus manifest.`

// shown is what "citecheck show" prints: a document's page (0: every
// page) as its stored text, one of its reading orders, its glyph boxes or
// its manifest entry.
type shown struct {
	store *corpus.Store
	doc   *corpus.Document
	page  int
	order *corpus.Order // the reading order to print instead of the text; nil for none
	ruler bool          // prefix each line with its code-point offset
	boxes bool          // the page's glyph boxes
	alts  bool          // the page's alternative texts
}

func runShow(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "show", "show --corpus CORPUS DOC [PAGE] [--ruler] [--boxes] [--alts] [--order NAME] [--json]", showAbout)
	dir := fs.String("corpus", "", "corpus `folder` (required)")
	ruler := fs.Bool("ruler", false, "prefix every line with its code-point offset")
	asJSON := fs.Bool("json", false, "print the manifest entry as JSON")
	withBoxes := fs.Bool("boxes", false, "list the page's glyph boxes (needs PAGE)")
	withAlts := fs.Bool("alts", false, "print the page's alternative texts (needs PAGE)")
	orderName := fs.String("order", "", "print the page in its reading order `NAME` (layout, boxes; needs PAGE)")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageErrorf("show: --corpus CORPUS is required")
	}
	if len(rest) < 1 || len(rest) > 2 {
		return usageErrorf("show: want DOC and an optional PAGE, got %d arguments", len(rest))
	}
	if *withBoxes && len(rest) < 2 {
		return usageErrorf("show: --boxes needs a PAGE")
	}
	if *withAlts && len(rest) < 2 {
		return usageErrorf("show: --alts needs a PAGE")
	}
	if *orderName != "" && len(rest) < 2 {
		return usageErrorf("show: --order needs a PAGE")
	}
	store, err := corpus.Open(*dir)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	doc, err := findDocument(store.Manifest(), rest[0])
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	s := &shown{store: store, doc: doc, ruler: *ruler, boxes: *withBoxes, alts: *withAlts}
	if len(rest) == 2 {
		s.page, err = strconv.Atoi(rest[1])
		if err != nil || s.page < 1 || s.page > len(doc.Pages) {
			return usageErrorf("show: %s: page %q is not in 1..%d", doc.Name, rest[1], len(doc.Pages))
		}
	}
	if doc.Status != corpus.StatusOK && !*asJSON {
		return usageErrorf("show: %s has no text: extraction ended %s: %s", doc.Name, doc.Status, doc.Error)
	}
	if *orderName != "" {
		if s.order, err = s.findOrder(*orderName); err != nil {
			return err
		}
	}
	switch {
	case *asJSON:
		return s.writeJSON(stdout)
	case s.order != nil:
		s.writeOrder(stdout)
		return nil
	case s.boxes:
		return s.writeBoxes(stdout)
	}
	return s.writeText(stdout)
}

// findOrder returns the page's reading order called name, or a usage
// error naming the orders the page has.
func (s *shown) findOrder(name string) (*corpus.Order, error) {
	doc, page := s.doc, s.page
	if doc.Status != corpus.StatusOK {
		return nil, usageErrorf("show: %s has no text: extraction ended %s: %s", doc.Name, doc.Status, doc.Error)
	}
	orders, err := s.store.Orders(doc, page)
	if err != nil {
		return nil, fmt.Errorf("show: %w", err)
	}
	var order *corpus.Order
	var names []string
	for i := range orders {
		if orders[i].Name == name {
			order = &orders[i]
		}
		names = append(names, orders[i].Name)
	}
	if order != nil {
		return order, nil
	}
	if len(names) == 0 {
		return nil, usageErrorf("show: %s page %d has no reading order %q: it has none (no glyph boxes, or every order reads as its text)", doc.Name, page, name)
	}
	return nil, usageErrorf("show: %s page %d has no reading order %q; it has %s", doc.Name, page, name, strings.Join(names, ", "))
}

// writeJSON prints the document's manifest entry or, for one page, the
// page's entry with its text and what else was asked for.
func (s *shown) writeJSON(w io.Writer) error {
	doc, page := s.doc, s.page
	if page == 0 {
		return writeJSON(w, doc)
	}
	text, err := s.store.Text(doc, page)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	var boxes []corpus.GlyphBox
	if s.boxes {
		if boxes, err = s.store.Boxes(doc, page); err != nil {
			return fmt.Errorf("show: %w", err)
		}
	}
	var alts []string
	if s.alts {
		if alts, err = s.store.AltTexts(doc, page); err != nil {
			return fmt.Errorf("show: %w", err)
		}
	}
	var orderText *string
	var orderMap []int32
	if s.order != nil {
		orderText, orderMap = &s.order.Text, s.order.Map
	}
	return writeJSON(w, struct {
		Document string `json:"document"`
		corpus.Page
		Text       string            `json:"text"`
		GlyphBoxes []corpus.GlyphBox `json:"glyph_boxes,omitempty"`
		AltTexts   []string          `json:"alt_texts,omitempty"`
		OrderText  *string           `json:"order_text,omitempty"`
		OrderMap   []int32           `json:"order_map,omitempty"`
	}{doc.Name, doc.Pages[page-1], text, boxes, alts, orderText, orderMap})
}

// writeOrder prints the page in its reading order; with the ruler, each
// line after the page-text offset of its first character ("-" for a line
// of separators the order inserted).
func (s *shown) writeOrder(w io.Writer) {
	order := s.order
	if !s.ruler {
		io.WriteString(w, order.Text)
		return
	}
	fmt.Fprintf(w, "--- %s page %d, reading order %s (%d code points; offsets in the page text)\n", s.doc.Name, s.page, order.Name, len(order.Map))
	at := 0
	for _, line := range strings.SplitAfter(order.Text, "\n") {
		if line == "" {
			continue
		}
		n := len([]rune(line))
		first := "-"
		for _, m := range order.Map[at : at+n] {
			if m >= 0 {
				first = strconv.Itoa(int(m))
				break
			}
		}
		fmt.Fprintf(w, "%7s| %s", first, line)
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w)
		}
		at += n
	}
}

// writeBoxes lists the page's glyph boxes with the text each covers.
func (s *shown) writeBoxes(w io.Writer) error {
	doc, page := s.doc, s.page
	text, err := s.store.Text(doc, page)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	boxes, err := s.store.Boxes(doc, page)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	runes := []rune(text)
	fmt.Fprintf(w, "--- %s page %d: %d glyph boxes (PDF points, y up)\n", doc.Name, page, len(boxes))
	fmt.Fprintf(w, "%7s %7s %9s %9s %9s %9s  %s\n", "start", "end", "x0", "y0", "x1", "y1", "text")
	for _, b := range boxes {
		fmt.Fprintf(w, "%7d %7d %9.2f %9.2f %9.2f %9.2f  %s\n", b.Start, b.End, b.X0, b.Y0, b.X1, b.Y1, string(runes[b.Start:b.End]))
	}
	return nil
}

// writeText prints the page's stored text, or every page's separated by
// a form feed, then, when asked, the page's alternative texts.
func (s *shown) writeText(w io.Writer) error {
	doc := s.doc
	pages := []int{s.page}
	if s.page == 0 {
		pages = pages[:0]
		for p := range doc.Pages {
			pages = append(pages, p+1)
		}
	}
	for i, p := range pages {
		text, err := s.store.Text(doc, p)
		if err != nil {
			return fmt.Errorf("show: %w", err)
		}
		if i > 0 {
			io.WriteString(w, "\f")
		}
		if s.ruler {
			fmt.Fprintf(w, "--- %s page %d (%d code points)\n", doc.Name, p, doc.Pages[p-1].Chars)
			writeRuler(w, text)
		} else {
			io.WriteString(w, text)
		}
	}
	if !s.alts {
		return nil
	}
	alts, err := s.store.AltTexts(doc, s.page)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	if !s.ruler {
		fmt.Fprintln(w) // the stored text ends without a newline
	}
	fmt.Fprintf(w, "--- %s page %d: %d alternative texts (glyphs read by their font codes; offsets as in the text)\n", doc.Name, s.page, len(alts))
	for k, alt := range alts {
		fmt.Fprintf(w, "--- alternative %d\n", k+1)
		if s.ruler {
			writeRuler(w, alt)
		} else {
			fmt.Fprintln(w, alt)
		}
	}
	return nil
}

// writeRuler prints text line by line, each prefixed with the code-point
// offset of the line's first character.
func writeRuler(w io.Writer, text string) {
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		fmt.Fprintf(w, "%7d| %s", offset, line)
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w)
		}
		offset += len([]rune(line))
	}
}

// findDocument looks a document up by name or hash, suggesting names that
// resemble key when it is not found.
func findDocument(m *corpus.Manifest, key string) (*corpus.Document, error) {
	if d, ok := m.Lookup(key); ok {
		return d, nil
	}
	names := make([]string, len(m.Documents))
	for i, d := range m.Documents {
		names[i] = d.Name
	}
	if near := suggest.Near(names, key); len(near) > 0 {
		return nil, usageErrorf("no document %q in the corpus; did you mean %s?", key, strings.Join(near, ", "))
	}
	return nil, usageErrorf("no document %q in the corpus (%d documents)", key, len(m.Documents))
}
