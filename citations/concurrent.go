package citations

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// LocateAll locates every query on workers goroutines (0: GOMAXPROCS) and
// returns the results in the queries' order. An Index is immutable and
// Locate reads nothing else, so each result is what Locate returns for its
// query alone: the output does not depend on workers or scheduling. The
// results of an opened index are usable only if Err is then nil.
func (ix *Index) LocateAll(qs []Query, workers int) []Result {
	out := make([]Result, len(qs))
	parallel(len(qs), workers, func(i int) { out[i] = ix.Locate(qs[i]) })
	return out
}

// GroundAll grounds every citation, cs[i] under its run's mapping ms[i]
// (Ground), on workers goroutines (0: GOMAXPROCS) and returns the results
// in the citations' order. As with LocateAll, each result is what Ground
// returns for its citation alone: the output does not depend on workers.
// done, when not nil, is told how many citations are grounded so far after
// each one, one call at a time.
func (ix *Index) GroundAll(cs []Citation, ms []map[string][]string, workers int, done func(n int)) []Grounded {
	out := make([]Grounded, len(cs))
	var mu sync.Mutex
	n := 0
	parallel(len(cs), workers, func(i int) {
		out[i] = ix.Ground(cs[i], ms[i])
		if done != nil {
			mu.Lock()
			n++
			done(n) // under the lock: the counts it is told only grow
			mu.Unlock()
		}
	})
	return out
}

// locateBatch is how many requests WriteLocated locates before writing
// their records: output starts early and memory stays flat in the input's
// size.
const locateBatch = 1024

// WriteLocated locates each request on workers goroutines (0: GOMAXPROCS)
// and writes its record (NewLocateRecord) as a line of JSON, in the
// requests' order: the same bytes for every workers. It reports whether
// every result was clean (Result.Clean). It stops at the first batch whose
// locating found a fault (Err), before writing it, and returns the fault.
// done, when not nil, is told how many records are written after each
// batch.
func (ix *Index) WriteLocated(w io.Writer, reqs []LocateRequest, workers int, done func(n int)) (bool, error) {
	bw := bufio.NewWriter(w)
	clean := true
	lines := make([][]byte, min(locateBatch, len(reqs)))
	dirty := make([]bool, len(lines))
	errs := make([]error, len(lines))
	for at := 0; at < len(reqs); at += locateBatch {
		batch := reqs[at:min(at+locateBatch, len(reqs))]
		parallel(len(batch), workers, func(i int) {
			r := ix.Locate(batch[i].Query())
			dirty[i] = !r.Clean()
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			errs[i] = enc.Encode(NewLocateRecord(batch[i].ID, r))
			lines[i] = buf.Bytes()
		})
		if err := ix.Err(); err != nil {
			return false, err
		}
		for i := range batch {
			if errs[i] != nil {
				return false, errs[i]
			}
			clean = clean && !dirty[i]
			if _, err := bw.Write(lines[i]); err != nil {
				return false, err
			}
		}
		if done != nil {
			done(at + len(batch))
		}
	}
	return clean, bw.Flush()
}
