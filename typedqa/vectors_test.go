package typedqa

import (
	"slices"
	"testing"
)

type entryVector struct {
	Name       string       `json:"name"`
	GT         []string     `json:"gt_entries"`
	Pred       []string     `json:"pred_entries"`
	Matrix     [][]float64  `json:"acc_matrix_gt_by_pred"`
	Hungarian  entryOutcome `json:"hungarian"`
	NeedlemanW entryOutcome `json:"needleman_wunsch_zero_gap"`
}

type entryOutcome struct {
	Pairs     [][2]int `json:"pairs_gt_pred"`
	Total     float64  `json:"total"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	F1        *float64 `json:"f1"`
}

// TestEntryMatchingVectors checks the accuracy matrix, the Hungarian
// (scipy, maximize) and Needleman–Wunsch (gap 0) matchings, totals, P, R
// and F1 of entry_matching.json bit for bit. A null in the vectors (P of an
// empty prediction, everything for two empty lists) is where the vectors
// leave the value undefined; MatchEntries' reading of two empty lists is
// pinned in TestAmbiguityEmptyListAgainstEmptyTruth.
func TestEntryMatchingVectors(t *testing.T) {
	var file struct {
		Cases []entryVector `json:"cases"`
	}
	loadShared(t, "vectors/entry_matching.json", &file)
	if len(file.Cases) == 0 {
		t.Fatal("entry_matching.json holds no cases")
	}
	for _, c := range file.Cases {
		for i, g := range c.GT {
			for j, p := range c.Pred {
				if got := CharAccuracy(g, p); got != c.Matrix[i][j] {
					t.Errorf("%s: acc(%q, %q) = %v, want %v", c.Name, g, p, got, c.Matrix[i][j])
				}
			}
		}
		for _, k := range []struct {
			order Order
			want  entryOutcome
		}{{OrderAny, c.Hungarian}, {OrderDocument, c.NeedlemanW}} {
			m, err := MatchEntries(c.GT, c.Pred, k.order)
			if err != nil {
				t.Errorf("%s %s: %v", c.Name, k.order, err)
				continue
			}
			wantPairs := k.want.Pairs
			if len(wantPairs) == 0 {
				wantPairs = nil
			}
			if !slices.Equal(m.Pairs, wantPairs) {
				t.Errorf("%s %s: pairs %v, want %v", c.Name, k.order, m.Pairs, wantPairs)
			}
			if m.Total != k.want.Total {
				t.Errorf("%s %s: total %v, want %v", c.Name, k.order, m.Total, k.want.Total)
			}
			for _, q := range []struct {
				name string
				got  float64
				want *float64
			}{{"precision", m.Precision, k.want.Precision}, {"recall", m.Recall, k.want.Recall}, {"f1", m.F1, k.want.F1}} {
				if q.want != nil && q.got != *q.want {
					t.Errorf("%s %s: %s %v, want %v", c.Name, k.order, q.name, q.got, *q.want)
				}
			}
		}
	}
}

type levVector struct {
	Name string `json:"name"`
	GT   string `json:"gt"`
	Pred string `json:"pred"`
	NFC  struct {
		NGT        int      `json:"n_gt"`
		Distance   int      `json:"distance"`
		AccClipped *float64 `json:"acc_clipped"`
	} `json:"nfc_codepoints"`
}

// TestLevenshteinVectors checks CharAccuracy against the NFC code-point
// view of levenshtein.json: the distance and acc_clipped exactly. Where
// acc_clipped is null (empty ground truth), the documented convention (1
// for an empty answer, 0 otherwise) is checked instead.
func TestLevenshteinVectors(t *testing.T) {
	var file struct {
		Cases []levVector `json:"cases"`
	}
	loadShared(t, "vectors/levenshtein.json", &file)
	if len(file.Cases) == 0 {
		t.Fatal("levenshtein.json holds no cases")
	}
	for _, c := range file.Cases {
		acc, dist, n := charAccuracy(c.GT, c.Pred)
		if dist != c.NFC.Distance || n != c.NFC.NGT {
			t.Errorf("%s: distance %d over %d code points, want %d over %d", c.Name, dist, n, c.NFC.Distance, c.NFC.NGT)
		}
		want := 0.0
		switch {
		case c.NFC.AccClipped != nil:
			want = *c.NFC.AccClipped
		case c.Pred == "":
			want = 1
		}
		if acc != want {
			t.Errorf("%s: accuracy %v, want %v", c.Name, acc, want)
		}
	}
}
