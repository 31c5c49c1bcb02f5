package typedqa

import "fmt"

// Order says how list entries are matched.
type Order string

const (
	// OrderAny matches entries one to one in any order, maximising the
	// total character accuracy (docs/typed.md, Order-independent matching).
	OrderAny Order = "any"
	// OrderDocument aligns entries in sequence (Needleman–Wunsch with
	// zero gap penalty; docs/typed.md, Order-dependent alignment).
	OrderDocument Order = "document"
)

// ListMatch is the outcome of matching an answer's entries to the ground
// truth's.
type ListMatch struct {
	// Pairs are (truth index, answer index), truth index ascending.
	Pairs [][2]int
	// Total is the sum of the matched pairs' character accuracies.
	Total float64
	// Precision = Total / answer entries, Recall = Total / truth entries,
	// F1 = 2·P·R / (P + R), evaluated in that order.
	Precision, Recall, F1 float64
}

// MatchEntries scores answer against truth, entry by entry, with
// CharAccuracy as the similarity. An empty side has precision (or recall)
// 0 and F1 0; both sides empty is a full match (1, 1, 1), the reading the
// scorer uses for an empty list against an empty ground truth.
func MatchEntries(truth, answer []string, order Order) (ListMatch, error) {
	if len(truth) == 0 && len(answer) == 0 {
		return ListMatch{Precision: 1, Recall: 1, F1: 1}, nil
	}
	if len(truth) > MaxListEntries || len(answer) > MaxListEntries {
		return ListMatch{}, fmt.Errorf("match entries: more than %d entries", MaxListEntries)
	}
	var m ListMatch
	if len(truth) > 0 && len(answer) > 0 {
		acc := make([][]float64, len(truth))
		for i, g := range truth {
			acc[i] = make([]float64, len(answer))
			for j, p := range answer {
				acc[i][j] = CharAccuracy(g, p)
			}
		}
		switch order {
		case OrderAny:
			rows, cols, err := LinearSumAssignment(acc, true)
			if err != nil {
				return ListMatch{}, fmt.Errorf("match entries: %w", err)
			}
			for k := range rows {
				m.Pairs = append(m.Pairs, [2]int{rows[k], cols[k]})
				m.Total += acc[rows[k]][cols[k]]
			}
		case OrderDocument:
			m.Total, m.Pairs = alignInOrder(acc)
		default:
			return ListMatch{}, fmt.Errorf("match entries: unknown order %q", order)
		}
		m.Precision = m.Total / float64(len(answer))
		m.Recall = m.Total / float64(len(truth))
	}
	if m.Precision+m.Recall > 0 {
		m.F1 = 2 * m.Precision * m.Recall / (m.Precision + m.Recall)
	}
	return m, nil
}

// alignInOrder is global alignment of the truth entries (rows of sim) with
// the answer entries (columns) with gap score 0: the order-preserving
// matching that maximises the total similarity. The traceback prefers a
// diagonal step that scores, then skipping a truth entry, then skipping an
// answer entry; pairs scoring 0 are gaps, not matches.
func alignInOrder(sim [][]float64) (float64, [][2]int) {
	n := len(sim)
	if n == 0 || len(sim[0]) == 0 {
		return 0, nil
	}
	m := len(sim[0])
	s := make([][]float64, n+1)
	for i := range s {
		s[i] = make([]float64, m+1)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			best := s[i-1][j]
			if s[i][j-1] > best {
				best = s[i][j-1]
			}
			if d := s[i-1][j-1] + sim[i-1][j-1]; d > best {
				best = d
			}
			s[i][j] = best
		}
	}
	var pairs [][2]int
	i, j := n, m
	for i > 0 && j > 0 {
		switch {
		case s[i][j] == s[i-1][j-1]+sim[i-1][j-1] && sim[i-1][j-1] > 0:
			pairs = append(pairs, [2]int{i - 1, j - 1})
			i, j = i-1, j-1
		case s[i][j] == s[i-1][j]:
			i--
		default:
			j--
		}
	}
	for a, b := 0, len(pairs)-1; a < b; a, b = a+1, b-1 {
		pairs[a], pairs[b] = pairs[b], pairs[a]
	}
	return s[n][m], pairs
}
