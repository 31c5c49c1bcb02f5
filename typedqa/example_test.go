package typedqa_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/citecheck/citecheck/typedqa"
)

// Score compares each response with the ground truth by its question's
// type and pools the items per model, condition and question.
func ExampleScore() {
	qs := typedqa.DefaultQuestions()
	truth, err := typedqa.ReadTruth(strings.NewReader("document,question,value\nd1,Q1,Y\nd1,Q7,12\nd2,Q1,N\nd2,Q7,3\n"), "truth.csv", typedqa.FormatCSV, qs)
	if err != nil {
		log.Fatal(err) // an *InputError naming file, line and column
	}
	resp, err := typedqa.ReadResponses(strings.NewReader("model,condition,run,document,question,value\n"+
		"m,plain,1,d1,Q1,y\nm,plain,1,d1,Q7,12\nm,plain,1,d2,Q1,Y\nm,plain,1,d2,Q7,three\n"), "responses.csv", typedqa.FormatCSV, qs)
	if err != nil {
		log.Fatal(err)
	}
	rep, err := typedqa.Score(qs, typedqa.DefaultDictionary(), truth, resp)
	if err != nil {
		log.Fatal(err) // a response to a document the truth lacks, for one
	}
	for _, r := range rep.Results {
		fmt.Printf("%s %s: %d of %d correct, score %.2f\n", r.Question, r.Type, r.Correct, r.N, *r.Score)
	}
	// Output:
	// Q1 boolean: 1 of 2 correct, score 0.50
	// Q7 integer: 1 of 2 correct, score 0.50
}
