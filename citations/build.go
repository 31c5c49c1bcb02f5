package citations

import (
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"
)

// Build and BuildFile index a corpus in pieces: consecutive whole
// documents holding about Options.ShardChars code points of page text,
// each read, normalized and indexed (a shard of page texts, one of reading
// orders, their suffix arrays) before the next. Build keeps every piece;
// BuildFile writes each to a spill file and forgets it, so that its memory
// is one piece's and not the corpus's. The pieces are the same either way,
// and so are the files WriteIndex and BuildFile write
// (TestBuildFileSameBytes).

// builder indexes a corpus piece by piece.
type builder struct {
	ix    *Index
	texts corpus.Texts
	docs  []corpus.Document
	names []string
	opts  Options
	alts  [][]string     // by page, for the alternative texts' index, built last
	um    *unmappedIndex // the pages holding unmapped glyphs, built last
	// done, when set, is given each piece's shard and order shard (nil
	// when the piece has no reading order) once their arrays are built.
	done func(sh *shard, osh *orderShard, p0, p1 int) error
}

// Build reads every page of texts (its text, alternative texts and
// reading orders; opts.Workers read and normalize pages in parallel) and
// indexes them. Pages of a document whose Status is not ok are not
// searched. A page texts cannot give (for a corpus.Store, one no longer
// matching the manifest: corpus.ErrIntegrity) is an error.
func Build(texts corpus.Texts, opts Options) (*Index, error) {
	b, err := newBuilder(texts, opts)
	if err != nil {
		return nil, err
	}
	if err := b.run(); err != nil {
		return nil, err
	}
	return b.ix, nil
}

// newBuilder checks the documents of texts and lists their pages.
func newBuilder(texts corpus.Texts, opts Options) (*builder, error) {
	docs := texts.Documents()
	names := make([]string, len(docs))
	for i := range docs {
		d := &docs[i]
		switch {
		case d.Name == "":
			return nil, fmt.Errorf("citations: document %d has no name", i)
		case i > 0 && docs[i-1].Name == d.Name:
			return nil, fmt.Errorf("citations: %q: %w", d.Name, ErrDuplicateDocument)
		case i > 0 && docs[i-1].Name > d.Name:
			return nil, fmt.Errorf("citations: %q: documents not sorted by name", d.Name)
		}
		names[i] = d.Name
	}
	ix := &Index{
		profile: textnorm.QuoteV2(textnorm.Options{FooterNames: names}),
		byHash:  map[string]int{},
	}
	for d := range docs {
		doc := &docs[d]
		e := docEntry{name: doc.Name, hash: doc.BLAKE3, status: doc.Status, first: len(ix.pages)}
		if doc.Status == corpus.StatusOK {
			e.n = len(doc.Pages)
			for p, pg := range doc.Pages {
				ix.pages = append(ix.pages, pageEntry{doc: d, num: p + 1, label: pg.Label, flags: pg.Flags})
			}
		}
		if doc.BLAKE3 != "" {
			ix.byHash[doc.BLAKE3] = d
		}
		ix.docs = append(ix.docs, e)
	}
	ix.texts = make([]atomic.Pointer[textnorm.Text], len(ix.pages))
	return &builder{ix: ix, texts: texts, docs: docs, names: names, opts: opts,
		alts: make([][]string, len(ix.pages)), um: &unmappedIndex{}}, nil
}

// pieces returns the pieces' ranges of documents, [from, to): a piece ends
// after the document with which its pages reach opts.ShardChars code points.
func (b *builder) pieces() [][2]int {
	var out [][2]int
	from, chars := 0, 0
	for d := range b.docs {
		if b.ix.docs[d].n > 0 {
			for _, pg := range b.docs[d].Pages {
				chars += pg.Chars
			}
		}
		if chars >= b.opts.shardChars() || d == len(b.docs)-1 {
			out = append(out, [2]int{from, d + 1})
			from, chars = d+1, 0
		}
	}
	return out
}

// run indexes every piece, then the pages' unmapped glyphs and alternative
// texts.
func (b *builder) run() error {
	for _, pc := range b.pieces() {
		if err := b.piece(pc[0], pc[1]); err != nil {
			return err
		}
	}
	parallel(2, b.opts.Workers, func(i int) {
		if i == 0 {
			b.ix.buildAlts(b.alts)
		} else {
			b.ix.buildUnmapped(b.um)
		}
	})
	return nil
}

// piece reads and normalizes the pages of documents d0 to d1, lays out
// their shard and order shard and builds their suffix arrays.
func (b *builder) piece(d0, d1 int) error {
	ix := b.ix
	p0, p1 := ix.docs[d0].first, ix.docs[d1-1].first+ix.docs[d1-1].n
	orders := make([][]corpus.Order, p1-p0)
	sks := make([]string, p1-p0)
	errs := make([]error, p1-p0)
	parallel(p1-p0, b.opts.Workers, func(k int) {
		i := p0 + k
		b.alts[i], orders[k], errs[k] = ix.readPage(b.texts, &b.docs[ix.pages[i].doc], i, b.names)
		if errs[k] == nil {
			sks[k], _ = skeleton(newPtext(ix.text(i)))
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if err := ix.layout(d0, d1, sks, p0); err != nil {
		return err
	}
	osh := ix.layoutOrders(p0, orders, b.opts.Workers)
	ix.addUnmapped(b.um, p0, p1)
	sh := &ix.shards[len(ix.shards)-1]
	buildSuffixes(sh, osh, b.opts.Workers)
	if b.done != nil {
		return b.done(sh, osh, p0, p1)
	}
	return nil
}

// buildSuffixes builds the suffix arrays of a piece, the largest first, so
// that the last to finish is a small one and no core waits on another's
// long array.
func buildSuffixes(sh *shard, osh *orderShard, workers int) {
	type job struct {
		bytes int
		build func()
	}
	arr := func(x *suffixes, data []byte) job { return job{len(data), func() { *x = newSuffixes(data) }} }
	jobs := []job{arr(&sh.sa, sh.data), arr(&sh.jsa, sh.jdata), arr(&sh.sk.sa, sh.sk.data)}
	if osh != nil {
		jobs = append(jobs, arr(&osh.sa, osh.data), arr(&osh.sk.sa, osh.sk.data))
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].bytes > jobs[j].bytes })
	parallel(len(jobs), workers, func(i int) { jobs[i].build() })
}

// layout adds the shard of documents d0 to d1: their data, jdata and
// skeletons (sks, by page from p0) with their segment tables.
func (ix *Index) layout(d0, d1 int, sks []string, p0 int) error {
	ix.shards = append(ix.shards, shard{})
	sh := &ix.shards[len(ix.shards)-1]
	addSeg := func(page, from, to int, joinPrev bool) {
		t := ix.text(page)
		if joinPrev {
			sh.data = append(sh.data, ' ')
			sh.segs[len(sh.segs)-1].next = int32(len(sh.segs))
		}
		fb, tb := t.ByteOffset(from), t.ByteOffset(to)
		sh.segs = append(sh.segs, segment{at: int32(len(sh.data)), page: int32(page), from: int32(from), to: int32(to), fromByte: int32(fb), next: -1})
		sh.data = append(sh.data, t.String()[fb:tb]...)
	}
	for d := d0; d < d1; d++ {
		e := &ix.docs[d]
		e.shard = len(ix.shards) - 1
		e.regFrom = len(sh.data)
		// The full fragment: every page with text, joined by one space.
		var nonEmpty []int
		pos := 0
		for p := e.first; p < e.first+e.n; p++ {
			pe := &ix.pages[p]
			pe.docPos = pos
			t := ix.text(p)
			if t.Len() == 0 {
				continue
			}
			addSeg(p, 0, t.Len(), len(nonEmpty) > 0)
			pos += t.Len() + 1
			nonEmpty = append(nonEmpty, p)
			sh.jsegs = append(sh.jsegs, jsegment{at: int32(len(sh.jdata)), page: int32(p)})
			sh.jdata = append(sh.jdata, t.Joined().String()...)
			sh.jdata = append(sh.jdata, '\f')
			sh.sk.add(sks[p-p0], int32(p))
		}
		if len(nonEmpty) > 0 {
			sh.data = append(sh.data, '\f')
		}
		ix.excerpts(sh, nonEmpty, addSeg)
		e.regTo = len(sh.data)
		if len(sh.data) >= 1<<31-1 || len(sh.jdata) >= 1<<31-1 {
			return fmt.Errorf("citations: document %q: %d bytes of text is too large for one index", e.name, len(sh.data))
		}
	}
	return nil
}

// excerpts adds the excerpts across a document's page breaks with
// furniture between them: the end of one page's content joined to the
// start of the next's.
func (ix *Index) excerpts(sh *shard, nonEmpty []int, addSeg func(page, from, to int, joinPrev bool)) {
	for k := 1; k < len(nonEmpty); k++ {
		a, b := &ix.pages[nonEmpty[k-1]], &ix.pages[nonEmpty[k]]
		if a.contentTo == ix.text(nonEmpty[k-1]).Len() && b.contentFrom == 0 {
			continue // nothing between them: the full fragment covers it
		}
		if a.contentTo <= a.contentFrom || b.contentTo <= b.contentFrom {
			continue
		}
		addSeg(nonEmpty[k-1], max(a.contentFrom, a.contentTo-CrossPageWindow), a.contentTo, false)
		addSeg(nonEmpty[k], b.contentFrom, min(b.contentTo, b.contentFrom+CrossPageWindow), true)
		sh.data = append(sh.data, '\f')
	}
}

// layoutOrders adds the reading orders of pages p0 on (orders[k] are page
// p0+k's) in an order shard of their own, with their skeletons, and
// returns it; nil when the pages have none.
func (ix *Index) layoutOrders(p0 int, orders [][]corpus.Order, workers int) *orderShard {
	first := 0
	if ix.orders != nil {
		first = len(ix.orders.pages)
	}
	var added []orderPage
	for k, os := range orders {
		for _, o := range os {
			added = append(added, orderPage{page: int32(p0 + k), name: o.Name, raw: o.Text, runs: runsOf(o.Map)})
		}
	}
	if len(added) == 0 {
		return nil
	}
	if ix.orders == nil {
		ix.orders = &orderIndex{byDoc: map[int]orderRegion{}}
	}
	oi := ix.orders
	oi.pages = append(oi.pages, added...)
	norm := make([]string, len(added))
	sks := make([]string, len(added))
	parallel(len(added), workers, func(k int) {
		t := ix.profile.Normalize(added[k].raw)
		norm[k] = t.String()
		sks[k], _ = skeleton(newPtext(t))
	})
	oi.shards = append(oi.shards, orderShard{})
	sh := &oi.shards[len(oi.shards)-1]
	for k := range added {
		op := &oi.pages[first+k]
		doc := ix.pages[op.page].doc
		r, ok := oi.byDoc[doc]
		if !ok {
			r = orderRegion{shard: len(oi.shards) - 1, from: len(sh.data)}
		}
		op.fb = int32(len(sh.data))
		sh.pages = append(sh.pages, first+k)
		sh.data = append(sh.data, norm[k]...)
		sh.data = append(sh.data, '\f')
		sh.sk.add(sks[k], orderTarget(first+k))
		r.to = len(sh.data)
		oi.byDoc[doc] = r
	}
	return sh
}
