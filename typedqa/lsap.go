package typedqa

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Errors of LinearSumAssignment; the texts are scipy's, so a message can be
// compared with a Python run.
var (
	ErrInvalidEntries = errors.New("matrix contains invalid numeric entries")
	ErrInfeasible     = errors.New("cost matrix is infeasible")
	ErrNotMatrix      = errors.New("expected a matrix (2-D array)")
)

// LinearSumAssignment solves the rectangular linear sum assignment problem
// for cost (rows of equal length). It is a line-by-line port of scipy's
// scipy.optimize.linear_sum_assignment (rectangular_lsap.cpp, scipy 1.10:
// Crouse's shortest augmenting path), kept faithful so that ties are broken
// exactly as scipy breaks them:
//
//   - a tall matrix (more rows than columns) is transposed and the result
//     re-sorted by row;
//   - for maximize the costs are negated;
//   - after that, NaN or -Inf anywhere is ErrInvalidEntries (so +Inf is
//     invalid when maximizing and -Inf is valid);
//   - +Inf forbids a pair; no feasible assignment is ErrInfeasible;
//   - remaining columns are scanned in reverse order and, among equal
//     reduced costs, an unassigned column is preferred, which makes a
//     constant matrix yield the identity.
//
// rowInd is ascending and colInd aligned with it; both have min(rows,
// columns) entries, and are empty (not nil) for an empty matrix.
func LinearSumAssignment(cost [][]float64, maximize bool) (rowInd, colInd []int, err error) {
	nr := len(cost)
	nc := 0
	if nr > 0 {
		nc = len(cost[0])
	}
	for i, row := range cost {
		if len(row) != nc {
			return nil, nil, fmt.Errorf("%w: row %d has %d columns, row 0 has %d", ErrNotMatrix, i, len(row), nc)
		}
	}
	if nr == 0 || nc == 0 {
		return []int{}, []int{}, nil
	}

	// Work on a flat row-major copy, transposed when tall, negated when
	// maximizing, as scipy does.
	transpose := nc < nr
	c := make([]float64, nr*nc)
	if transpose {
		for i := 0; i < nr; i++ {
			for j := 0; j < nc; j++ {
				c[j*nr+i] = cost[i][j]
			}
		}
		nr, nc = nc, nr
	} else {
		for i := 0; i < nr; i++ {
			copy(c[i*nc:(i+1)*nc], cost[i])
		}
	}
	if maximize {
		for i := range c {
			c[i] = -c[i]
		}
	}
	for _, x := range c {
		if math.IsNaN(x) || math.IsInf(x, -1) {
			return nil, nil, ErrInvalidEntries
		}
	}

	s := lsapState{
		nr: nr, nc: nc, cost: c,
		u:                 make([]float64, nr),
		v:                 make([]float64, nc),
		shortestPathCosts: make([]float64, nc),
		path:              fill(make([]int, nc), -1),
		col4row:           fill(make([]int, nr), -1),
		row4col:           fill(make([]int, nc), -1),
		sr:                make([]bool, nr),
		sc:                make([]bool, nc),
		remaining:         make([]int, nc),
	}
	for curRow := 0; curRow < nr; curRow++ {
		sink, minVal := s.augmentingPath(curRow)
		if sink < 0 {
			return nil, nil, ErrInfeasible
		}
		// Update the dual variables.
		s.u[curRow] += minVal
		for i := 0; i < nr; i++ {
			if s.sr[i] && i != curRow {
				s.u[i] += minVal - s.shortestPathCosts[s.col4row[i]]
			}
		}
		for j := 0; j < nc; j++ {
			if s.sc[j] {
				s.v[j] -= minVal - s.shortestPathCosts[j]
			}
		}
		// Augment the previous solution along the path.
		j := sink
		for {
			i := s.path[j]
			s.row4col[j] = i
			s.col4row[i], j = j, s.col4row[i]
			if i == curRow {
				break
			}
		}
	}

	rowInd = make([]int, nr)
	colInd = make([]int, nr)
	if transpose {
		// col4row maps each (transposed) row, an original column, to an
		// original row; sort by that row. Its values are distinct, so the
		// order is total.
		order := make([]int, nr)
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool { return s.col4row[order[a]] < s.col4row[order[b]] })
		for k, v := range order {
			rowInd[k] = s.col4row[v]
			colInd[k] = v
		}
	} else {
		for i := 0; i < nr; i++ {
			rowInd[i] = i
			colInd[i] = s.col4row[i]
		}
	}
	return rowInd, colInd, nil
}

// lsapState holds the solver's working arrays, named as in scipy.
type lsapState struct {
	nr, nc            int
	cost              []float64
	u, v              []float64
	shortestPathCosts []float64
	path              []int
	col4row, row4col  []int
	sr, sc            []bool
	remaining         []int
}

// augmentingPath finds the shortest augmenting path from row i; it returns
// the sink column (or -1 when the matrix is infeasible) and the path cost.
func (s *lsapState) augmentingPath(i int) (sink int, minVal float64) {
	nc := s.nc
	numRemaining := nc
	for it := 0; it < nc; it++ {
		// Filling in reverse order makes a constant matrix give the
		// identity (scipy issue #11602).
		s.remaining[it] = nc - it - 1
	}
	clear(s.sr)
	clear(s.sc)
	for j := range s.shortestPathCosts {
		s.shortestPathCosts[j] = math.Inf(1)
	}

	sink = -1
	for sink == -1 {
		index := -1
		lowest := math.Inf(1)
		s.sr[i] = true
		for it := 0; it < numRemaining; it++ {
			j := s.remaining[it]
			r := minVal + s.cost[i*nc+j] - s.u[i] - s.v[j]
			if r < s.shortestPathCosts[j] {
				s.path[j] = i
				s.shortestPathCosts[j] = r
			}
			// Among equal costs prefer a column that ends the path: it
			// matters for integer matrices with many ties.
			if s.shortestPathCosts[j] < lowest || (s.shortestPathCosts[j] == lowest && s.row4col[j] == -1) {
				lowest = s.shortestPathCosts[j]
				index = it
			}
		}
		minVal = lowest
		if math.IsInf(minVal, 1) {
			return -1, minVal
		}
		j := s.remaining[index]
		if s.row4col[j] == -1 {
			sink = j
		} else {
			i = s.row4col[j]
		}
		s.sc[j] = true
		numRemaining--
		s.remaining[index] = s.remaining[numRemaining]
	}
	return sink, minVal
}

func fill(s []int, v int) []int {
	for i := range s {
		s[i] = v
	}
	return s
}
