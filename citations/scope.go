package citations

// A search reads every shard of the index, or only the shards that hold
// one document: its page texts are all in one shard (Index.layout starts
// a shard only between documents) and its reading orders all in one order
// shard (buildOrders, likewise). Lookups of a quote that names its
// document read the document's shards first (search): the cost of those
// lookups does not grow with the corpus. The arrays of the relaxed levels
// that are not sharded (unmapped glyphs, alternative texts) are read
// whole either way.

// scope is the shards a lookup reads: ix.shards[textFrom:textTo] and
// ix.orders.shards[orderFrom:orderTo].
type scope struct {
	textFrom, textTo   int
	orderFrom, orderTo int
}

// everywhere is the scope of every shard.
func (ix *Index) everywhere() scope {
	sc := scope{textTo: len(ix.shards)}
	if ix.orders != nil {
		sc.orderTo = len(ix.orders.shards)
	}
	return sc
}

// within is the scope of the shards holding document d's page texts and
// reading orders.
func (ix *Index) within(d int) scope {
	e := &ix.docs[d]
	var sc scope
	if e.n > 0 && e.shard < len(ix.shards) {
		sc.textFrom, sc.textTo = e.shard, e.shard+1
	}
	if ix.orders != nil {
		if r, ok := ix.orders.byDoc[d]; ok {
			sc.orderFrom, sc.orderTo = r.shard, r.shard+1
		}
	}
	return sc
}

// scopedSearch turns the document's-shards-first search on; the tests
// turn it off to compare with the search of every shard.
var scopedSearch = true
