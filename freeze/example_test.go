package freeze_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// A lock pins an evaluation's corpus and reference by hash; Check
// re-hashes them and lists what changed since, so that grading refuses
// inputs that are no longer the ones frozen.
func ExampleCheck() {
	store, remove, err := testcorpus.Import(map[string][]string{"policy.pdf": {"Orders are delivered within 10 working days."}})
	if err != nil {
		log.Fatal(err)
	}
	defer remove()
	dir := filepath.Dir(store.Dir())
	ref := filepath.Join(dir, "reference.json")
	if err := os.WriteFile(ref, []byte(`{"format": "citecheck-reference/1.5", "questions": [
  {"id": "Q01", "question": "When are orders delivered?",
   "required_fields": [{"field": "deadline", "label": "Deadline"}], "expected_abstention": false,
   "answer_fields": {"deadline": "10 working days"},
   "essential_claims": [{"field": "deadline", "value": "10 working days", "evidence": [
     {"document": "policy.pdf", "page": 1, "start": 21, "end": 43, "text": "within 10 working days"}]}]}]}`), 0o644); err != nil {
		log.Fatal(err)
	}
	tc := freeze.CurrentToolchain()
	lock := filepath.Join(dir, "eval.lock")
	frozen, err := freeze.Build(freeze.Inputs{LockPath: lock, CorpusDir: store.Dir(), ReferencePath: ref, Toolchain: tc})
	if err != nil {
		log.Fatal(err) // ErrReferenceInvalid, ErrPlanMismatch or ErrStaleCorpus
	}
	if err := os.WriteFile(lock, frozen.Lock.Encode(), 0o644); err != nil {
		log.Fatal(err)
	}

	rep, err := freeze.Check(lock, tc)
	if err != nil {
		log.Fatal(err) // the lock cannot be read
	}
	fmt.Println("unchanged:", rep.OK())

	// A claim's value edited after the freeze.
	b, err := os.ReadFile(ref)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(ref, bytes.Replace(b, []byte(`"value": "10 working days"`), []byte(`"value": "5 working days"`), 1), 0o644); err != nil {
		log.Fatal(err)
	}
	rep, err = freeze.Check(lock, tc)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("unchanged:", rep.OK())
	for _, c := range rep.Changes {
		fmt.Println("changed:", c.Input)
	}
	// Output:
	// unchanged: true
	// unchanged: false
	// changed: reference reference.json
	// changed: question Q01
}
