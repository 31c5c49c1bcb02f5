package review_test

import (
	"fmt"

	"github.com/citecheck/citecheck/review"
)

// The whole cycle on two arms' results: list the unresolved items, decide
// them (here every one positively, as a reviewer's file would), apply the
// decisions and read the reviewed verdicts.
func Example() {
	results := evaluation()
	set, err := review.Collect(results, reference(), corpusPages())
	if err != nil {
		panic(err)
	}
	var decisions []review.Decision
	for _, it := range set.Blind(1) {
		verdict := review.VerdictPass
		if it.Kind == review.KindField {
			verdict = review.VerdictCorrect
		}
		decisions = append(decisions, review.Decision{Hash: it.Hash, Verdict: verdict, Reviewer: "ana"})
	}
	applied, err := set.Apply(decisions)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d items for %d unresolved verdicts; %d decided\n", len(set.Items()), set.Verdicts(), applied.Decided)
	for i, r := range applied.Results[:3] {
		was, now := results[i].Supported, applied.Results[i].Supported
		if r.Abstention != nil {
			was, now = results[i].Abstention, applied.Results[i].Abstention
		}
		fmt.Printf("%s/%d %s: %s, after review %s\n", r.Arm, r.Session, r.Question, *was, *now)
	}
	// Output:
	// 4 items for 7 unresolved verdicts; 4 decided
	// A/1 Q1: unresolved, after review pass
	// A/1 Q2: unresolved, after review pass
	// A/1 U1: unresolved, after review pass
}
