package typedqa

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

type lsapVector struct {
	Name     string     `json:"name"`
	Shape    [2]int     `json:"shape"`
	Cost     [][]vfloat `json:"cost"`
	Minimize lsapResult `json:"minimize"`
	Maximize lsapResult `json:"maximize"`
}

type lsapResult struct {
	RowInd []int   `json:"row_ind"`
	ColInd []int   `json:"col_ind"`
	Total  *vfloat `json:"total"`
	Error  string  `json:"error"`
}

// TestLSAPVectors checks the port against scipy 1.10.1 on every matrix of
// lsap.json: exact row_ind/col_ind (ties included), exact totals, and the
// error texts.
//
// Reading on ties (docs/typed.md, Order-independent matching;
// docs/typed.md, Order-dependent alignment): the Hungarian matching breaks
// them as scipy does and the alignment's traceback prefers a scoring
// diagonal step, then skipping a truth entry; ties change only the
// reported pairs, never a score (also TestEntryMatchingVectors).
func TestLSAPVectors(t *testing.T) {
	var file struct {
		Cases []lsapVector `json:"cases"`
	}
	loadShared(t, "vectors/lsap.json", &file)
	if len(file.Cases) == 0 {
		t.Fatal("lsap.json holds no cases")
	}
	for _, c := range file.Cases {
		cost := make([][]float64, len(c.Cost))
		for i, row := range c.Cost {
			cost[i] = make([]float64, len(row))
			for j, x := range row {
				cost[i][j] = float64(x)
			}
		}
		for _, dir := range []struct {
			maximize bool
			want     lsapResult
		}{{false, c.Minimize}, {true, c.Maximize}} {
			rows, cols, err := LinearSumAssignment(cost, dir.maximize)
			if dir.want.Error != "" {
				if err == nil || err.Error() != dir.want.Error {
					t.Errorf("%s (maximize=%v): error %v, want %q", c.Name, dir.maximize, err, dir.want.Error)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s (maximize=%v): unexpected error %v", c.Name, dir.maximize, err)
				continue
			}
			if !slices.Equal(rows, dir.want.RowInd) || !slices.Equal(cols, dir.want.ColInd) {
				t.Errorf("%s (maximize=%v): got rows %v cols %v, want rows %v cols %v", c.Name, dir.maximize, rows, cols, dir.want.RowInd, dir.want.ColInd)
				continue
			}
			got := numpySum(cost, rows, cols)
			if dir.want.Total == nil || got != float64(*dir.want.Total) {
				t.Errorf("%s (maximize=%v): total %v, want %v", c.Name, dir.maximize, got, dir.want.Total)
			}
		}
	}
}

// numpySum is numpy's sum of cost[rows, cols]: a plain loop below eight
// terms, eight interleaved accumulators from eight (pairwise_sum for up to
// 128 terms), so that totals compare bit for bit.
func numpySum(cost [][]float64, rows, cols []int) float64 {
	a := make([]float64, len(rows))
	for k := range rows {
		a[k] = cost[rows[k]][cols[k]]
	}
	if len(a) < 8 {
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	}
	var r [8]float64
	copy(r[:], a[:8])
	i := 8
	for ; i < len(a)-len(a)%8; i += 8 {
		for j := range 8 {
			r[j] += a[i+j]
		}
	}
	res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for ; i < len(a); i++ {
		res += a[i]
	}
	return res
}

// TestLSAPErrors pins the error cases the vectors cannot express.
func TestLSAPErrors(t *testing.T) {
	tests := []struct {
		name     string
		cost     [][]float64
		maximize bool
		want     error
		reason   string
	}{
		{"ragged", [][]float64{{1, 2}, {3}}, false, ErrNotMatrix, "rows of unequal length are not a matrix"},
		{"nan minimize", [][]float64{{math.NaN()}}, false, ErrInvalidEntries, "NaN is invalid in either direction"},
		{"-inf minimize", [][]float64{{math.Inf(-1), 0}}, false, ErrInvalidEntries, "-inf would make every cost unbounded below"},
		{"+inf maximize", [][]float64{{math.Inf(1), 0}}, true, ErrInvalidEntries, "+inf negates to -inf when maximizing"},
		{"all +inf row", [][]float64{{math.Inf(1), math.Inf(1)}}, false, ErrInfeasible, "a row with no finite cost cannot be assigned"},
		{"tall infeasible", [][]float64{{math.Inf(1)}, {math.Inf(1)}, {math.Inf(1)}}, false, ErrInfeasible, "the transposed path reports infeasibility too"},
	}
	for _, tc := range tests {
		_, _, err := LinearSumAssignment(tc.cost, tc.maximize)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v (%s)", tc.name, err, tc.want, tc.reason)
		}
	}
	rows, cols, err := LinearSumAssignment(nil, true)
	if err != nil || rows == nil || cols == nil || len(rows) != 0 {
		t.Errorf("nil matrix: got %v %v %v, want empty non-nil results", rows, cols, err)
	}
}

// TestLSAPOptimalRandom compares totals with brute force on random
// matrices, a check independent of scipy's tie rules.
func TestLSAPOptimalRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 300; trial++ {
		nr, nc := 1+rng.IntN(6), 1+rng.IntN(6)
		cost := make([][]float64, nr)
		for i := range cost {
			cost[i] = make([]float64, nc)
			for j := range cost[i] {
				cost[i][j] = float64(rng.IntN(5)) / 4 // ties, like char accuracies
			}
		}
		for _, maximize := range []bool{false, true} {
			rows, cols, err := LinearSumAssignment(cost, maximize)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != min(nr, nc) {
				t.Fatalf("trial %d: %d pairs for %dx%d", trial, len(rows), nr, nc)
			}
			seenR, seenC := map[int]bool{}, map[int]bool{}
			got := 0.0
			for k := range rows {
				if seenR[rows[k]] || seenC[cols[k]] || (k > 0 && rows[k] <= rows[k-1]) {
					t.Fatalf("trial %d: not a strictly increasing one-to-one assignment: %v %v", trial, rows, cols)
				}
				seenR[rows[k]], seenC[cols[k]] = true, true
				got += cost[rows[k]][cols[k]]
			}
			if want := bruteForce(cost, maximize); math.Abs(got-want) > 1e-12 {
				t.Fatalf("trial %d maximize=%v: total %v, brute force %v (cost %v)", trial, maximize, got, want, cost)
			}
		}
	}
}

func bruteForce(cost [][]float64, maximize bool) float64 {
	nr, nc := len(cost), len(cost[0])
	best := math.NaN()
	used := make([]bool, max(nr, nc))
	var rec func(k int, sum float64)
	// Assign each element of the shorter side to a distinct element of the
	// longer side.
	short := min(nr, nc)
	rec = func(k int, sum float64) {
		if k == short {
			if math.IsNaN(best) || (maximize && sum > best) || (!maximize && sum < best) {
				best = sum
			}
			return
		}
		for x := 0; x < max(nr, nc); x++ {
			if used[x] {
				continue
			}
			used[x] = true
			if nr <= nc {
				rec(k+1, sum+cost[k][x])
			} else {
				rec(k+1, sum+cost[x][k])
			}
			used[x] = false
		}
	}
	rec(0, 0)
	return best
}
