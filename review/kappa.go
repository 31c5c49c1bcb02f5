package review

import "math/big"

// Kappa compares two reviewers' verdicts on the same items, a[i] and b[i]
// each true for a positive verdict (pass, correct) and false for a
// negative one (fail, incorrect): how many they agree on, the share of
// items agreed (observed agreement p_o) and Cohen's kappa, (p_o - p_e) /
// (1 - p_e), where p_e = p_a p_b + (1 - p_a)(1 - p_b) is the agreement
// expected from each reviewer's share of positive verdicts. Both are
// exact fractions; kappa is nil when it is undefined (p_e = 1: both gave
// one and the same verdict throughout), share and kappa nil when there
// is no item. Verdicts are compared as positive or negative, so that
// items of every kind are one table: a field's correct and a citation's
// pass are the same answer to "does it hold?".
func Kappa(a, b []bool) (agreed int, share, kappa *big.Rat) {
	n := min(len(a), len(b))
	if n == 0 {
		return 0, nil, nil
	}
	posA, posB := 0, 0
	for i := range n {
		if a[i] == b[i] {
			agreed++
		}
		if a[i] {
			posA++
		}
		if b[i] {
			posB++
		}
	}
	nr := big.NewRat(int64(n), 1)
	share = big.NewRat(int64(agreed), int64(n))
	pa := new(big.Rat).Quo(big.NewRat(int64(posA), 1), nr)
	pb := new(big.Rat).Quo(big.NewRat(int64(posB), 1), nr)
	one := big.NewRat(1, 1)
	qa, qb := new(big.Rat).Sub(one, pa), new(big.Rat).Sub(one, pb)
	pe := new(big.Rat).Add(new(big.Rat).Mul(pa, pb), new(big.Rat).Mul(qa, qb))
	if pe.Cmp(one) == 0 {
		return agreed, share, nil
	}
	kappa = new(big.Rat).Quo(new(big.Rat).Sub(share, pe), new(big.Rat).Sub(one, pe))
	return agreed, share, kappa
}
