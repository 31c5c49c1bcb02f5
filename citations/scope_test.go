package citations

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// scopeDocuments are the test documents, the genuine quotes' pages and a
// copy of two documents under other names, so that quotes are also found
// in another document than the one they name.
func scopeDocuments() []corpus.MemoryDocument {
	docs := testDocuments()
	for name, pages := range genuinePages {
		d := corpus.MemoryDocument{Name: name}
		for _, text := range pages {
			d.Pages = append(d.Pages, corpus.PageText{Text: text})
		}
		docs = append(docs, d)
	}
	for i := range docs {
		for p := range docs[i].Pages {
			pg := &docs[i].Pages[p]
			if p%2 == 0 && strings.Contains(pg.Text, "\n") {
				pg.Orders = []corpus.Order{reversedLines(pg.Text)}
			}
		}
	}
	for _, d := range slices.Clone(docs[:2]) {
		d.Name = "zz-copy-" + d.Name
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b corpus.MemoryDocument) int { return strings.Compare(a.Name, b.Name) })
	return docs
}

// reversedLines is a reading order of text that reads its lines from the
// last to the first.
func reversedLines(text string) corpus.Order {
	rs := []rune(text)
	type line struct{ from, to int }
	var lines []line
	start := 0
	for i, r := range rs {
		if r == '\n' {
			lines = append(lines, line{start, i})
			start = i + 1
		}
	}
	lines = append(lines, line{start, len(rs)})
	var b strings.Builder
	var m []int32
	for k := len(lines) - 1; k >= 0; k-- {
		if k < len(lines)-1 {
			b.WriteByte('\n')
			m = append(m, -1)
		}
		for i := lines[k].from; i < lines[k].to; i++ {
			b.WriteRune(rs[i])
			m = append(m, int32(i))
		}
	}
	return corpus.Order{Name: "layout", Text: b.String(), Map: m}
}

// scopeQueries derives quotes from every page: word windows as copied,
// with a digit or a word changed, without punctuation or spaces, elided,
// across page breaks and short; each cited in its document, in another
// and in none.
func scopeQueries(t *testing.T, docs []corpus.MemoryDocument) []Query {
	var quotes []struct{ doc, quote string }
	add := func(doc, q string) { quotes = append(quotes, struct{ doc, quote string }{doc, q}) }
	for _, d := range docs {
		var prev []string
		for p, pg := range d.Pages {
			words := strings.Fields(pg.Text)
			for _, n := range []int{2, 3, 6, 12} {
				for i := 0; i+n <= len(words); i += max(1, n/2) {
					w := strings.Join(words[i:i+n], " ")
					add(d.Name, w)
					add(d.Name, strings.Map(func(r rune) rune {
						if r >= '0' && r <= '8' {
							return r + 1
						}
						return r
					}, w))
					add(d.Name, strings.Replace(w, words[i], "zebra", 1))
					add(d.Name, strings.Map(func(r rune) rune {
						if strings.ContainsRune(".,;:-—–’'\"()", r) {
							return -1
						}
						return r
					}, w))
					add(d.Name, strings.ReplaceAll(w, " ", ""))
					add(d.Name, strings.ToValidUTF8(strings.Map(func(r rune) rune {
						if r > 127 {
							return -1
						}
						return r
					}, w), ""))
					if p%2 == 0 {
						if o := reversedLines(pg.Text); len(o.Text) > 0 {
							ow := strings.Fields(o.Text)
							add(d.Name, strings.Join(ow[i%len(ow):min(len(ow), i%len(ow)+n)], " "))
						}
					}
					if n >= 6 {
						add(d.Name, strings.Join(words[i:i+2], " ")+" ... "+strings.Join(words[i+n-2:i+n], " "))
						add(d.Name, strings.Join(words[i+n/2:i+n], " ")+"\n"+strings.Join(words[i:i+n/2], " "))
					}
				}
			}
			if len(prev) > 0 && len(words) > 0 {
				add(d.Name, strings.Join(prev[max(0, len(prev)-4):], " ")+" "+strings.Join(words[:min(4, len(words))], " "))
			}
			prev = words
		}
	}
	var qs []Query
	for k, q := range quotes {
		other := docs[(k*7+3)%len(docs)].Name
		for _, doc := range []string{q.doc, other, ""} {
			qs = append(qs, Query{Document: doc, Quote: q.quote, Page: k % 3, Retrieval: k%5 == 0})
		}
	}
	for _, b := range [][]byte{genuineFound, genuineGuardRails} {
		for _, c := range genuineCases(t, b) {
			qs = append(qs, Query{Document: c.Document, Quote: c.Quote, Retrieval: c.Retrieval}, Query{Quote: c.Quote})
		}
	}
	return qs
}

// TestShardsAndScopeSameResults: an index of many shards (a budget of one
// byte: every document its own) answers as the index of one shard, and the
// search of the cited document's shards first as the search of every
// shard, for every quote.
func TestShardsAndScopeSameResults(t *testing.T) {
	docs := scopeDocuments()
	m := testcorpus.Memory(t, docs)
	one, err := Build(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	many, err := Build(m, Options{ShardChars: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.shards) != 1 || len(many.shards) < len(docs)-2 {
		t.Fatalf("%d and %d shards for %d documents", len(one.shards), len(many.shards), len(docs))
	}
	qs := scopeQueries(t, docs)
	locate := func(ix *Index, scoped bool) []Result {
		defer func(v bool) { scopedSearch = v }(scopedSearch)
		scopedSearch = scoped
		out := make([]Result, len(qs))
		for i, q := range qs {
			out[i] = ix.Locate(q)
		}
		return out
	}
	want := locate(one, false)
	statuses := map[Status]int{}
	for _, r := range want {
		statuses[r.Status]++
	}
	for _, s := range []Status{StatusUnique, StatusAmbiguous, StatusNotFound, StatusNotFoundInDocument, StatusUnknownDocument} {
		if statuses[s] == 0 {
			t.Errorf("no query is %s: %v", s, statuses)
		}
	}
	for _, c := range []struct {
		name   string
		ix     *Index
		scoped bool
	}{{"one shard, scoped", one, true}, {"many shards", many, false}, {"many shards, scoped", many, true}, {"one target kept", one, true}} {
		if c.name == "one target kept" {
			defer func(v int) { maxTargets = v }(maxTargets)
			maxTargets = 0
		}
		got := locate(c.ix, c.scoped)
		diffs := 0
		for i := range qs {
			if !reflect.DeepEqual(got[i], want[i]) {
				if diffs++; diffs <= 5 {
					t.Errorf("%s: %+v:\n got %s\nwant %s", c.name, qs[i], fmt.Sprintf("%+v", got[i]), fmt.Sprintf("%+v", want[i]))
				}
			}
		}
		if diffs > 0 {
			t.Errorf("%s: %d of %d results differ", c.name, diffs, len(qs))
		}
	}
	// The document's shards alone answer every quote found at a normalized
	// level in its page texts or reading orders: the search of every shard
	// is the exception.
	served, inOrders := 0, 0
	for i, q := range qs {
		r := want[i]
		if q.Document == "" || r.Document == "" || len(r.Locations) == 0 || r.Level > Ligature || r.Elided || many.profile.Normalize(q.Quote).Len() < ShortQuoteLen {
			continue
		}
		d, _ := many.docIndex(q.Document)
		if s := many.searchStages(many.profile.Normalize(q.Quote), d, q.Retrieval, many.within(d), true); len(s.in) == 0 {
			t.Errorf("%+v: found at %s, not by the document's shards alone", q, r.Level)
		}
		served++
		if r.Locations[0].Order != "" {
			inOrders++
		}
	}
	if served == 0 || inOrders == 0 {
		t.Errorf("%d quotes found by the document's shards, %d of them in reading orders", served, inOrders)
	}
	t.Logf("%d queries: %v; %d found by the document's shards alone, %d in reading orders", len(qs), statuses, served, inOrders)
}

// TestBuildFileSameBytes: BuildFile, which spills each piece as it is
// built, writes the file WriteIndex writes for Build's index, with one
// piece or many, its spill in memory or in a file (which leaves nothing
// in SpillDir).
func TestBuildFileSameBytes(t *testing.T) {
	m := testcorpus.Memory(t, scopeDocuments())
	defer func(v int64, w int) { spillMemory, wholeChars = v, w }(spillMemory, wholeChars)
	for k, opts := range []Options{{}, {}, {ShardChars: 1}, {ShardChars: 300, Workers: 1}, {ShardChars: 1, SpillDir: t.TempDir()}} {
		// Whole, then pieces spilled in memory, moved to a file at once or later.
		wholeChars = []int{1 << 30, 0, 0, 0, 0}[k]
		spillMemory = []int64{0, 1 << 30, 1000, 0, 5000}[k]
		ix, err := Build(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		var want, got bytes.Buffer
		wb, err := WriteIndex(&want, ix, [32]byte{7})
		if err != nil {
			t.Fatal(err)
		}
		gb, err := BuildFile(&got, m, opts, [32]byte{7})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) || gb != wb {
			t.Errorf("%+v: BuildFile wrote %d bytes (%s), WriteIndex %d (%s)", opts, got.Len(), gb, want.Len(), wb)
		}
		if len(ix.shards) < 2 && opts.ShardChars > 0 {
			t.Errorf("%+v: %d shards", opts, len(ix.shards))
		}
		if opts.SpillDir != "" {
			if left, _ := os.ReadDir(opts.SpillDir); len(left) > 0 {
				t.Errorf("%d files left in the spill folder", len(left))
			}
		}
	}
}

// TestASCIIShortcutSameResults: verifying a non_ascii_dropped piece's hit
// only where the whole skeleton starts, on a text that holds no character
// an ASCII copy may lose there, and reading such a text's ASCII skeleton
// from the whole skeleton's hits (asciipure.go), give every quote the
// result of verifying every hit and scanning every text; the documents
// hold accented letters, ligatures and pages without either.
func TestASCIIShortcutSameResults(t *testing.T) {
	docs := scopeDocuments()
	qs := scopeQueries(t, docs)
	var ascii []Query
	for _, q := range qs {
		if asciiText(q.Quote) {
			ascii = append(ascii, q)
		}
	}
	locate := func(shortcut bool) []Result {
		defer func(v bool) { asciiShortcut = v }(asciiShortcut)
		asciiShortcut = shortcut
		fresh, err := Build(testcorpus.Memory(t, docs), Options{ShardChars: 400})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]Result, len(ascii))
		for i, q := range ascii {
			out[i] = fresh.Locate(q)
		}
		return out
	}
	want, got := locate(false), locate(true)
	levels := map[Level]int{}
	diffs := 0
	for i := range ascii {
		levels[want[i].Level]++
		if !reflect.DeepEqual(got[i], want[i]) {
			if diffs++; diffs <= 5 {
				t.Errorf("%+v:\n got %+v\nwant %+v", ascii[i], got[i], want[i])
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d results differ", diffs, len(ascii))
	}
	if levels[NonASCIIDropped] == 0 || levels[Punctuation] == 0 {
		t.Errorf("no quote found at non_ascii_dropped or punctuation: %v", levels)
	}
	t.Logf("%d ASCII queries, by level: %v", len(ascii), levels)
}

// TestIndexedSkeletons: the skeleton the index holds of each page text and
// reading order, read back by target (segText reads it instead of the
// page), is the one made from the text, with one shard or many.
func TestIndexedSkeletons(t *testing.T) {
	m := testcorpus.Memory(t, scopeDocuments())
	for _, opts := range []Options{{}, {ShardChars: 300}} {
		ix, err := Build(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		targets := map[int32]*target{}
		n := 0
		for p := range ix.pages {
			ts := []int32{int32(p)}
			if ix.orders != nil {
				for k := range ix.orders.pages {
					if int(ix.orders.pages[k].page) == p {
						ts = append(ts, orderTarget(k))
					}
				}
			}
			for _, tt := range ts {
				s, _ := ix.skelTarget(targets, tt).skeleton()
				if got := ix.indexedSkeleton(tt); got != s {
					t.Errorf("%+v: target %d: indexed %q, made %q", opts, tt, got, s)
				}
				n++
			}
		}
		if ix.indexedSkeleton(int32(len(ix.pages))) != "" {
			t.Errorf("a target past the pages has a skeleton")
		}
		if len(ix.orders.pages) == 0 || n < len(ix.pages)+2 {
			t.Errorf("%d targets checked", n)
		}
	}
}
