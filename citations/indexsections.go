package citations

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"
)

// The sections of an index file (indexSections), each a pair: encodeX
// adds the section's arrays to the encoder, decodeX reads them back in
// the same order and checks every reference a record holds before the
// Index uses it, so that no file makes a lookup fail other than with an
// error. Records are structs of int32 fields, read in place (records);
// segment, jsegment, altText and orderRun are their own records.

// strRef is a string of the strings section: its offset and length.
type strRef struct{ off, n int32 }

// indexCounts is the counts section, one record: how many documents,
// pages, shards, pages with unmapped glyphs, alternative texts, reading
// orders and reading-order shards the file holds.
type indexCounts struct {
	docs, pages, shards, unmapped, alts, orders, orderShards int32
}

func countsOf(ix *Index) indexCounts {
	n := indexCounts{docs: int32(len(ix.docs)), pages: int32(len(ix.pages)), shards: int32(len(ix.shards))}
	if ix.unmapped != nil {
		n.unmapped = int32(len(ix.unmapped.pages))
	}
	if ix.alts != nil {
		n.alts = int32(len(ix.alts.alts))
	}
	if ix.orders != nil {
		n.orders, n.orderShards = int32(len(ix.orders.pages)), int32(len(ix.orders.shards))
	}
	return n
}

func encodeCounts(e *encoder) { writeRecords(&e.writer, []indexCounts{e.n}) }

func decodeCounts(d *decoder) {
	c := records[indexCounts](d.reader)
	if d.err != nil || len(c) != 1 {
		d.fail("no counts")
		return
	}
	d.n = c[0]
	for _, v := range int32sOf(c) {
		if v < 0 || int64(v) > int64(len(d.b)) {
			d.fail("count %d", v)
			return
		}
	}
}

// The strings section holds the strings the records name, in the order
// the sections after it add them.
func encodeStrings(e *encoder) {
	e.strsAt = len(e.arrays)
	e.bytes(nil)
}

func decodeStrings(d *decoder) { d.strs = d.bytes() }

// docRecord is a document, sorted by name: pages[first : first+n], in
// shard, its fragments at [regFrom, regTo) of the shard's text.
type docRecord struct {
	name, hash, status strRef
	first, n           int32
	shard              int32
	regFrom, regTo     int32
}

func encodeDocs(e *encoder) {
	writeRecords(&e.writer, recordsOf(e.ix.docs, func(d *docEntry) docRecord {
		return docRecord{name: e.str(d.name), hash: e.str(d.hash), status: e.str(string(d.status)),
			first: int32(d.first), n: int32(d.n), shard: int32(d.shard), regFrom: int32(d.regFrom), regTo: int32(d.regTo)}
	}))
}

// decodeDocs reads the documents, whose names set the profile the file's
// texts must have been normalized with.
func decodeDocs(d *decoder) {
	recs := records[docRecord](d.reader)
	nDocs, nPages, nShards := int(d.n.docs), int(d.n.pages), int(d.n.shards)
	if d.err == nil && len(recs) != nDocs {
		d.fail("%d document records for %d documents", len(recs), nDocs)
	}
	ix := d.ix
	names := make([]string, 0, nDocs)
	for i := 0; d.err == nil && i < nDocs; i++ {
		v := &recs[i]
		e := docEntry{name: d.str(v.name), hash: d.str(v.hash), status: corpus.Status(d.str(v.status)),
			first: int(v.first), n: int(v.n), shard: int(v.shard), regFrom: int(v.regFrom), regTo: int(v.regTo)}
		if e.name == "" || i > 0 && e.name <= names[i-1] {
			d.fail("document %d: no name, or %q not after the one before", i, e.name)
		}
		if e.first < 0 || e.n < 0 || e.first > nPages || e.n > nPages-e.first || e.shard < 0 || e.shard >= max(nShards, 1) || e.regFrom < 0 || e.regFrom > e.regTo {
			d.fail("document %d: pages %d+%d of %d, shard %d of %d, region %d-%d", i, e.first, e.n, nPages, e.shard, nShards, e.regFrom, e.regTo)
		}
		names = append(names, e.name)
		if e.hash != "" {
			ix.byHash[e.hash] = i
		}
		ix.docs = append(ix.docs, e)
	}
	if d.err != nil {
		return
	}
	ix.profile = textnorm.QuoteV2(textnorm.Options{FooterNames: names})
	if ix.profile.Name() != d.profile {
		d.err = fmt.Errorf("%w: profile %q, this citecheck normalizes with %q", ErrIndexStale, d.profile, ix.profile.Name())
	}
}

// pageRecord is a page: its document, number (from 1), label, flags
// joined by line feeds, the offset of its start in its document's text,
// and its content without page furniture, in normalized code points.
type pageRecord struct {
	doc, num               int32
	label, flags           strRef
	docPos                 int32
	contentFrom, contentTo int32
}

func encodePages(e *encoder) {
	writeRecords(&e.writer, recordsOf(e.ix.pages, func(p *pageEntry) pageRecord {
		return pageRecord{doc: int32(p.doc), num: int32(p.num), label: e.str(p.label), flags: e.str(strings.Join(p.flags, "\n")),
			docPos: int32(p.docPos), contentFrom: int32(p.contentFrom), contentTo: int32(p.contentTo)}
	}))
}

func decodePages(d *decoder) {
	recs := records[pageRecord](d.reader)
	nPages := int(d.n.pages)
	if d.err == nil && len(recs) != nPages {
		d.fail("%d page records for %d pages", len(recs), nPages)
	}
	flagSets := map[string][]string{"": nil}
	d.ix.pages = make([]pageEntry, 0, nPages)
	for p := 0; d.err == nil && p < nPages; p++ {
		v := &recs[p]
		if v.doc < 0 || v.doc >= d.n.docs {
			d.fail("page %d: document %d of %d", p, v.doc, d.n.docs)
			break
		}
		fs := d.str(v.flags)
		flags, ok := flagSets[fs]
		if !ok {
			flags = strings.Split(fs, "\n")
			flagSets[fs] = flags
		}
		d.ix.pages = append(d.ix.pages, pageEntry{doc: int(v.doc), num: int(v.num), label: d.str(v.label), flags: flags,
			docPos: int(v.docPos), contentFrom: int(v.contentFrom), contentTo: int(v.contentTo)})
	}
}

// The page texts section holds the stored page texts, as the corpus
// store holds them.
func encodePageTexts(e *encoder) {
	if e.sf != nil {
		e.int64s(e.sf.pageOffs)
		e.arrays = append(e.arrays, e.sf.pageBytes)
		return
	}
	e.texts(len(e.ix.pages), func(p int) string { return e.ix.text(p).Raw() })
}

func decodePageTexts(d *decoder) {
	nPages := int(d.n.pages)
	raw, chk := d.texts("page texts", nPages), d.chk
	d.ix.texts = make([]atomic.Pointer[textnorm.Text], nPages)
	d.ix.kept = make([]atomic.Int32, min(nPages, textCache))
	d.ix.rawText = func(p int) string {
		s := raw.at(p)
		chk.string(s)
		return s
	}
}

// The shards section holds, per shard (Index.shards): its text, its
// suffix array, its segments, its joined text, that text's suffix array,
// its joined segments, and its skeletons (skelIndex: text, suffix array,
// spans).
func encodeShards(e *encoder) {
	if e.sf != nil {
		e.arrays = append(e.arrays, e.sf.shards...)
		return
	}
	for i := range e.ix.shards {
		encodeShard(&e.writer, &e.ix.shards[i])
	}
}

func encodeShard(w *writer, sh *shard) {
	w.bytes(sh.data)
	w.suffixes(&sh.sa)
	writeRecords(w, sh.segs)
	w.bytes(sh.jdata)
	w.suffixes(&sh.jsa)
	writeRecords(w, sh.jsegs)
	encodeSkel(w, &sh.sk)
}

// encodeSkel adds a skelIndex: its text, suffix array and spans.
func encodeSkel(w *writer, sk *skelIndex) {
	w.bytes(sk.data)
	w.suffixes(&sk.sa)
	writeRecords(w, sk.spans)
}

// decodeSkel reads what encodeSkel wrote, checking that the spans are in
// order, inside the text, and name a page or a reading order of the file.
func decodeSkel(d *decoder, what string) skelIndex {
	var sk skelIndex
	sk.data = d.lazyBytes()
	sk.sa = d.suffixes(sk.data)
	spans := records[jsegment](d.reader)
	for k := 0; d.err == nil && k < len(spans); k++ {
		g := &spans[k]
		if g.at < 0 || int(g.at) > len(sk.data) || k > 0 && g.at < spans[k-1].at || g.page >= d.n.pages || g.page < -d.n.orders {
			d.fail("%s: skeleton %d", what, k)
		}
	}
	sk.spans = slices.Clone(spans)
	return sk
}

func decodeShards(d *decoder) {
	ix := d.ix
	for s := 0; d.err == nil && s < int(d.n.shards); s++ {
		ix.shards = append(ix.shards, decodeShard(d, s))
	}
	if d.err != nil {
		return
	}
	// A page's first segment is its whole text, the full fragment written
	// before the excerpts across page breaks (Index.layout).
	ix.fullSeg = make([]uint64, d.n.pages)
	for s := range ix.shards {
		for k, g := range ix.shards[s].segs {
			if ix.fullSeg[g.page] == 0 && g.from == 0 {
				ix.fullSeg[g.page] = uint64(s)<<32 | uint64(k+1)
			}
		}
	}
	for i := range ix.docs {
		if e := &ix.docs[i]; len(ix.shards) > 0 && e.regTo > len(ix.shards[e.shard].data) {
			d.fail("document %d: region past its shard", i)
			return
		}
	}
}

func decodeShard(d *decoder, s int) shard {
	var sh shard
	sh.data = d.lazyBytes()
	sh.sa = d.suffixes(sh.data)
	segs := records[segment](d.reader)
	sh.jdata = d.lazyBytes()
	sh.jsa = d.suffixes(sh.jdata)
	jsegs := records[jsegment](d.reader)
	sh.sk = decodeSkel(d, fmt.Sprintf("shard %d", s))
	for k := 0; d.err == nil && k < len(segs); k++ {
		g := &segs[k]
		if g.at < 0 || int(g.at) > len(sh.data) || k > 0 && g.at < segs[k-1].at || g.page < 0 || g.page >= d.n.pages ||
			g.from < 0 || g.from > g.to || g.fromByte < 0 || g.next < -1 || int(g.next) >= len(segs) {
			d.fail("shard %d: segment %d", s, k)
		}
	}
	for k := 0; d.err == nil && k < len(jsegs); k++ {
		g := &jsegs[k]
		if g.at < 0 || int(g.at) > len(sh.jdata) || k > 0 && g.at < jsegs[k-1].at || g.page < 0 || g.page >= d.n.pages {
			d.fail("shard %d: joined segment %d", s, k)
		}
	}
	// Copies, as checked: lookups index pages and texts by them unchecked.
	sh.segs, sh.jsegs = slices.Clone(segs), slices.Clone(jsegs)
	return sh
}

// unmappedRecord is a page holding unmapped glyphs: its form at at in
// the section's text, and the normalized positions behind its code
// points at [idxFrom, idxTo) of the section's positions.
type unmappedRecord struct{ at, page, idxFrom, idxTo int32 }

// The unmapped glyphs section holds the text without them (unmappedIndex),
// its suffix array, the pages, and the positions.
func encodeUnmapped(e *encoder) {
	um := e.ix.unmapped
	recs := make([]unmappedRecord, 0, len(um.pages))
	var idx []int32
	for _, up := range um.pages {
		recs = append(recs, unmappedRecord{at: up.at, page: up.page, idxFrom: int32(len(idx)), idxTo: int32(len(idx) + len(up.idx))})
		idx = append(idx, up.idx...)
	}
	e.bytes(um.data)
	e.suffixes(&um.sa)
	writeRecords(&e.writer, recs)
	e.int32s(idx)
}

func decodeUnmapped(d *decoder) {
	um := &unmappedIndex{data: d.lazyBytes()}
	um.sa = d.suffixes(um.data)
	recs, idx := records[unmappedRecord](d.reader), d.int32s(1)
	if d.err == nil && len(recs) != int(d.n.unmapped) {
		d.fail("%d unmapped-glyph pages for %d", len(recs), d.n.unmapped)
	}
	for k := 0; d.err == nil && k < len(recs); k++ {
		v := &recs[k]
		if v.at < 0 || int(v.at) > len(um.data) || k > 0 && v.at < recs[k-1].at || v.page < 0 || v.page >= d.n.pages ||
			v.idxFrom < 0 || v.idxFrom > v.idxTo || int(v.idxTo) > len(idx) {
			d.fail("unmapped-glyph page %d", k)
			break
		}
		um.pages = append(um.pages, unmappedPage{at: v.at, page: v.page, idx: idx[v.idxFrom:v.idxTo:v.idxTo]})
	}
	d.ix.unmapped = um
}

// The alternative texts section holds the alternatives (altText), their
// stored texts, their normalized text and its suffix array, and their
// joined text and its suffix array (altIndex).
func encodeAlts(e *encoder) {
	ai := e.ix.alts
	writeRecords(&e.writer, ai.alts)
	e.texts(len(ai.alts), func(k int) string {
		t, _ := e.ix.altForms(k)
		return t.Raw()
	})
	e.bytes(ai.data)
	e.suffixes(&ai.sa)
	e.bytes(ai.jdata)
	e.suffixes(&ai.jsa)
}

func decodeAlts(d *decoder) {
	nAlts := int(d.n.alts)
	recs := records[altText](d.reader)
	raw, chk := d.texts("alternative texts", nAlts), d.chk
	ai := &altIndex{data: d.lazyBytes()}
	ai.sa = d.suffixes(ai.data)
	ai.jdata = d.lazyBytes()
	ai.jsa = d.suffixes(ai.jdata)
	if d.err == nil && len(recs) != nAlts {
		d.fail("%d alternative records for %d", len(recs), nAlts)
	}
	for k := 0; d.err == nil && k < len(recs); k++ {
		v := &recs[k]
		if v.at < 0 || int(v.at) > len(ai.data) || v.jat < 0 || int(v.jat) > len(ai.jdata) ||
			k > 0 && (v.at < recs[k-1].at || v.jat < recs[k-1].jat) || v.page < 0 || v.page >= d.n.pages {
			d.fail("alternative text %d", k)
		}
	}
	ai.alts = slices.Clone(recs)
	ai.norm = make([]atomic.Pointer[altForms], nAlts)
	ai.raw = func(k int) string {
		s := raw.at(k)
		chk.string(s)
		return s
	}
	d.ix.alts = ai
}

// orderRecord is a reading order of page: its normalized text at fb in
// its shard's text, its name, and its runs [runFrom, runTo).
type orderRecord struct {
	page, fb       int32
	name           strRef
	runFrom, runTo int32
}

// The reading orders section holds the orders (orderRecord), their runs
// (orderRun) and their stored texts.
func encodeOrders(e *encoder) {
	oi := e.ix.orders
	recs := make([]orderRecord, 0, len(oi.pages))
	var runs []orderRun
	nruns := int32(0)
	for k, op := range oi.pages {
		n := int32(len(op.runs))
		if e.sf != nil {
			n = e.sf.runCounts[k]
		}
		recs = append(recs, orderRecord{page: op.page, fb: op.fb, name: e.str(op.name), runFrom: nruns, runTo: nruns + n})
		nruns += n
		if e.sf == nil {
			runs = append(runs, op.runs...)
		}
	}
	writeRecords(&e.writer, recs)
	if e.sf != nil {
		e.arrays = append(e.arrays, e.sf.orderRuns)
		e.int64s(e.sf.orderOffs)
		e.arrays = append(e.arrays, e.sf.orderBytes)
		return
	}
	writeRecords(&e.writer, runs)
	e.texts(len(oi.pages), func(k int) string { return oi.pages[k].raw })
}

func decodeOrders(d *decoder) {
	nOrders := int(d.n.orders)
	recs, runs := records[orderRecord](d.reader), records[orderRun](d.reader)
	raw := d.texts("reading orders", nOrders)
	if d.err == nil && len(recs) != nOrders {
		d.fail("%d order records for %d", len(recs), nOrders)
	}
	// One copy of the runs, each page's a slice of it: one allocation
	// instead of one per page.
	allRuns := slices.Clone(runs)
	oi := &orderIndex{byDoc: map[int]orderRegion{}, pages: make([]orderPage, 0, nOrders)}
	for k := 0; d.err == nil && k < nOrders; k++ {
		v := &recs[k]
		if v.page < 0 || v.page >= d.n.pages || v.fb < 0 || v.runFrom < 0 || v.runFrom > v.runTo || int(v.runTo) > len(runs) {
			d.fail("reading order %d", k)
			break
		}
		// The raw text is verified when a lookup normalizes it.
		oi.pages = append(oi.pages, orderPage{page: v.page, fb: v.fb, name: d.str(v.name), raw: raw.at(k), runs: allRuns[v.runFrom:v.runTo:v.runTo]})
	}
	d.ix.orders = oi
}

// The order shards section holds, per shard of orders (orderShard): its
// text, its suffix array, the orders in it, by their offset there, and
// their skeletons (skelIndex).
func encodeOrderShards(e *encoder) {
	if e.sf != nil {
		e.arrays = append(e.arrays, e.sf.orderShards...)
		return
	}
	for i := range e.ix.orders.shards {
		encodeOrderShard(&e.writer, &e.ix.orders.shards[i])
	}
}

func encodeOrderShard(w *writer, sh *orderShard) {
	w.bytes(sh.data)
	w.suffixes(&sh.sa)
	w.int32s(recordsOf(sh.pages, func(p *int) int32 { return int32(*p) }))
	encodeSkel(w, &sh.sk)
}

func decodeOrderShards(d *decoder) {
	oi := d.ix.orders
	for s := 0; d.err == nil && s < int(d.n.orderShards); s++ {
		var sh orderShard
		sh.data = d.lazyBytes()
		sh.sa = d.suffixes(sh.data)
		for k, p := range d.int32s(1) {
			if p < 0 || p >= d.n.orders || k > 0 && oi.pages[p].fb < oi.pages[sh.pages[k-1]].fb {
				d.fail("order shard %d: page %d", s, k)
				break
			}
			sh.pages = append(sh.pages, int(p))
		}
		sh.sk = decodeSkel(d, fmt.Sprintf("order shard %d", s))
		oi.shards = append(oi.shards, sh)
	}
}

// regionRecord is the byte range of a document's orders in an order
// shard's text, for a scan of the document (orderIndex.byDoc).
type regionRecord struct{ doc, shard, from, to int32 }

// The order regions section holds the documents' regions, by document.
func encodeOrderRegions(e *encoder) {
	byDoc := e.ix.orders.byDoc
	docs := make([]int, 0, len(byDoc))
	for d := range byDoc {
		docs = append(docs, d)
	}
	sort.Ints(docs)
	writeRecords(&e.writer, recordsOf(docs, func(d *int) regionRecord {
		r := byDoc[*d]
		return regionRecord{doc: int32(*d), shard: int32(r.shard), from: int32(r.from), to: int32(r.to)}
	}))
}

func decodeOrderRegions(d *decoder) {
	oi := d.ix.orders
	for k, v := range records[regionRecord](d.reader) {
		if v.doc < 0 || v.doc >= d.n.docs || v.shard < 0 || v.shard >= d.n.orderShards || v.from < 0 || v.from > v.to || int(v.to) > len(oi.shards[v.shard].data) {
			d.fail("order region %d", k)
			return
		}
		oi.byDoc[int(v.doc)] = orderRegion{shard: int(v.shard), from: int(v.from), to: int(v.to)}
	}
}

// recordsOf maps v to its records, in order.
func recordsOf[S, R any](v []S, record func(*S) R) []R {
	out := make([]R, len(v))
	for i := range v {
		out[i] = record(&v[i])
	}
	return out
}

// texts is n texts of an index file, in place: their n+1 offsets, checked,
// and their bytes, which the caller verifies when it reads them.
type texts struct {
	offs []int64
	raw  []byte
}

func (t texts) at(k int) string {
	return unsafe.String(unsafe.SliceData(t.raw[t.offs[k]:]), t.offs[k+1]-t.offs[k])
}

// texts writes n texts: their offsets, then their bytes.
func (w *writer) texts(n int, text func(k int) string) {
	offs := make([]int64, 1, n+1)
	var raw []byte
	for k := range n {
		raw = append(raw, text(k)...)
		offs = append(offs, int64(len(raw)))
	}
	w.int64s(offs)
	w.bytes(raw)
}

// texts reads what writer.texts wrote.
func (r *reader) texts(what string, n int) texts {
	t := texts{offs: r.int64s(), raw: r.lazyBytes()}
	r.checkOffsets(what, t.offs, n, len(t.raw))
	return t
}
