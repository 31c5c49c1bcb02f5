package citations

// LocateAll locates every query on workers goroutines (0: GOMAXPROCS) and
// returns the results in the queries' order. An Index is immutable and
// Locate reads nothing else, so each result is what Locate returns for its
// query alone: the output does not depend on workers or scheduling.
func (ix *Index) LocateAll(qs []Query, workers int) []Result {
	out := make([]Result, len(qs))
	parallel(len(qs), workers, func(i int) { out[i] = ix.Locate(qs[i]) })
	return out
}
