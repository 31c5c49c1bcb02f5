package plan_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

func fixtureRef(t *testing.T) *spans.Reference {
	t.Helper()
	ref, err := spans.Decode(fixtures.Reference(), "reference.json")
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// bank returns a reference with n answerable and u unknown questions, ids
// in reverse order to show the plan sorts them.
func bank(n, u int) *spans.Reference {
	ref := &spans.Reference{Format: spans.Format}
	for i := n + u; i >= 1; i-- {
		ref.Questions = append(ref.Questions, spans.Question{ID: fmt.Sprintf("Q%02d", i), ExpectedAbstention: i > n})
	}
	return ref
}

// TestFixturePlan: fixtures/plan.json is exactly what New makes with the
// documented parameters, byte for byte.
func TestFixturePlan(t *testing.T) {
	p, err := plan.New(fixtureRef(t), plan.Options{Arms: fixtures.PlanArms, Repetitions: fixtures.PlanRepeats, Seed: fixtures.PlanSeed})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Encode(); !bytes.Equal(got, fixtures.Plan()) {
		t.Errorf("fixtures/plan.json differs from the plan New makes:\n%s", got)
	}
}

func TestEncodeIsDeterministic(t *testing.T) {
	opts := plan.Options{Arms: []string{"A", "B"}, Repetitions: 3, Seed: 7}
	a, _ := plan.New(bank(30, 10), opts)
	b, _ := plan.New(bank(30, 10), opts)
	if !bytes.Equal(a.Encode(), b.Encode()) {
		t.Error("two plans from the same inputs differ")
	}
	// The reference's question order does not matter.
	ref := bank(30, 10)
	slices.Reverse(ref.Questions)
	c, _ := plan.New(ref, opts)
	if !bytes.Equal(a.Encode(), c.Encode()) {
		t.Error("the plan depends on the reference's question order")
	}
	// Encode is valid JSON that decodes to the same plan.
	back, err := plan.Decode(a.Encode(), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Encode(), a.Encode()) {
		t.Error("decode and encode is not the identity")
	}
	var v any
	if err := json.Unmarshal(a.Encode(), &v); err != nil {
		t.Errorf("Encode is not JSON: %v", err)
	}
}

// TestPCGVectors checks the permutation's draws against the Go PCG stream
// and IntN values computed independently in Python
// (../shared/vectors/stats_intervals.json, "go_pcg_check"), and against
// math/rand/v2's own IntN on this (64-bit) platform.
func TestPCGVectors(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "vectors/stats_intervals.json")) // skips without ../shared
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Check struct {
			Seed  []uint64 `json:"seed"`
			First []string `json:"first_uint64"`
			IntN  []int    `json:"first_40_IntN_40"`
		} `json:"go_pcg_check"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	src := rand.NewPCG(v.Check.Seed[0], v.Check.Seed[1])
	for i, s := range v.Check.First {
		want, _ := strconv.ParseUint(s, 10, 64)
		if got := src.Uint64(); got != want {
			t.Fatalf("PCG draw %d: %d, want %d", i, got, want)
		}
	}
	// uniform(40), forty times, from a fresh stream.
	draws := plan.UniformDraws(v.Check.Seed[0], v.Check.Seed[1], 40, 40)
	if !slices.Equal(draws, v.Check.IntN) {
		t.Errorf("uniform draws %v, want %v", draws, v.Check.IntN)
	}
	r := rand.New(rand.NewPCG(v.Check.Seed[0], v.Check.Seed[1]))
	for i, d := range draws {
		if got := r.IntN(40); got != d {
			t.Fatalf("draw %d: ours %d, math/rand/v2 IntN %d", i, d, got)
		}
	}
}

// TestPermutationMatchesShuffle: on 64-bit platforms the documented
// algorithm is what rand.Shuffle does, which the doc promises.
func TestPermutationMatchesShuffle(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
	for rep := 1; rep <= 5; rep++ {
		want := slices.Clone(ids)
		rand.New(rand.NewPCG(42, uint64(rep))).Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		if got := plan.Permutation(ids, 42, rep); !slices.Equal(got, want) {
			t.Errorf("repetition %d: %v, rand.Shuffle gives %v", rep, got, want)
		}
	}
}

func TestRepetitionsAreIndependent(t *testing.T) {
	three, _ := plan.New(bank(30, 10), plan.Options{Arms: []string{"A", "B"}, Repetitions: 3, Seed: 9})
	four, _ := plan.New(bank(30, 10), plan.Options{Arms: []string{"A", "B"}, Repetitions: 4, Seed: 9})
	for r := 0; r < 3; r++ {
		if !slices.Equal(three.Orders[r].Questions, four.Orders[r].Questions) {
			t.Errorf("adding a repetition changed repetition %d", r+1)
		}
	}
	if slices.Equal(three.Orders[0].Questions, three.Orders[1].Questions) {
		t.Error("two repetitions have the same order")
	}
}

func TestSessions(t *testing.T) {
	p, _ := plan.New(bank(3, 1), plan.Options{Arms: []string{"A", "B"}, Repetitions: 3, Seed: 1})
	var got []string
	for _, s := range p.Sessions {
		got = append(got, s.Label())
	}
	if strings.Join(got, " ") != "A1 B1 B2 A2 A3 B3" {
		t.Errorf("alternating order %v", got)
	}
	declared := []plan.Session{{Arm: "B", Repetition: 1}, {Arm: "A", Repetition: 1}, {Arm: "A", Repetition: 2}, {Arm: "B", Repetition: 2}}
	p, err := plan.New(bank(3, 1), plan.Options{Arms: []string{"A", "B"}, Repetitions: 2, Seed: 1, Sessions: declared})
	if err != nil || p.Sessions[0].Label() != "B1" || p.Sessions[3].Order != 4 {
		t.Errorf("declared order: %v %v", p, err)
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name string
		ref  *spans.Reference
		opts plan.Options
		want string
	}{
		{"no arms", bank(1, 1), plan.Options{Repetitions: 1}, "no arms"},
		{"repeated arm", bank(1, 1), plan.Options{Arms: []string{"A", "A"}, Repetitions: 1}, `arm "A" is named twice`},
		{"arm with a space", bank(1, 1), plan.Options{Arms: []string{"A B"}, Repetitions: 1}, "white space"},
		{"no repetitions", bank(1, 1), plan.Options{Arms: []string{"A"}}, "repetitions must be in 1..1000"},
		{"no questions", bank(0, 0), plan.Options{Arms: []string{"A"}, Repetitions: 1}, "no questions"},
		{"duplicate ids", &spans.Reference{Questions: []spans.Question{{ID: "Q"}, {ID: "Q"}}}, plan.Options{Arms: []string{"A"}, Repetitions: 1}, "used twice"},
		{"session missing", bank(1, 1), plan.Options{Arms: []string{"A", "B"}, Repetitions: 1, Sessions: []plan.Session{{Arm: "A", Repetition: 1}}}, "need 2"},
		{"session twice", bank(1, 1), plan.Options{Arms: []string{"A"}, Repetitions: 2, Sessions: []plan.Session{{Arm: "A", Repetition: 1}, {Arm: "A", Repetition: 1}}}, "twice"},
		{"unknown arm", bank(1, 1), plan.Options{Arms: []string{"A"}, Repetitions: 1, Sessions: []plan.Session{{Arm: "C", Repetition: 1}}}, `arm "C" is not one of A`},
	}
	for _, tc := range tests {
		_, err := plan.New(tc.ref, tc.opts)
		if !errors.Is(err, plan.ErrOptions) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want ErrOptions saying %q", tc.name, err, tc.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	full, _ := plan.New(bank(30, 10), plan.Options{Arms: []string{"A"}, Repetitions: 1, Seed: 1})
	if w := full.Warnings(); len(w) != 0 {
		t.Errorf("30 + 10 questions: %v", w)
	}
	small, _ := plan.New(bank(4, 2), plan.Options{Arms: []string{"A"}, Repetitions: 1, Seed: 1})
	if w := small.Warnings(); len(w) != 2 || !strings.Contains(w[0], "4 answerable questions, the policy expects 30") {
		t.Errorf("4 + 2 questions: %v", w)
	}
	custom, _ := plan.New(bank(4, 2), plan.Options{Arms: []string{"A"}, Repetitions: 1, Seed: 1, Expected: plan.Counts{Answerable: 4, Unknown: 2}})
	if w := custom.Warnings(); len(w) != 0 {
		t.Errorf("expected counts configured to 4 + 2: %v", w)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := string(fixtures.Plan())
	tests := []struct {
		name, in, want string
		is             error
	}{
		{"two questions swapped", strings.Replace(good, `["Q06", "Q01", "Q03"`, `["Q01", "Q06", "Q03"`, 1),
			`plan.json:12:37: orders[1].questions[0]: the order is not the one the seed gives: repetition 2 position 1 holds "Q01"; seed 20240601 gives "Q06" (the order was edited: positions 1 and 2 swapped)`, plan.ErrNotReproducible},
		{"other seed", strings.Replace(good, `"seed": 20240601`, `"seed": 20240602`, 1), "not the one the seed gives", plan.ErrNotReproducible},
		{"question dropped from an order", strings.Replace(good, `"Q05", "Q04", "Q02"]`, `"Q05", "Q04"]`, 1), "5 questions, the plan has 6", plan.ErrNotReproducible},
		{"session dropped", strings.Replace(good, ",\n    {\"order\": 6, \"arm\": \"B\", \"repetition\": 3}", "", 1), "5 sessions declared; 2 arms × 3 repetitions need 6", strictjson.ErrValue},
		{"counts wrong", strings.Replace(good, `"counts": {"answerable": 4`, `"counts": {"answerable": 5`, 1), "5 answerable + 2 unknown is not the 6 questions", strictjson.ErrValue},
		{"unsorted questions", strings.Replace(good, `"questions": ["Q01", "Q02"`, `"questions": ["Q02", "Q01"`, 1), "must be sorted", strictjson.ErrValue},
		{"other algorithm", strings.Replace(good, "pcg-dxsm-fisher-yates/1", "shuffle", 1), `algorithm "shuffle"`, strictjson.ErrValue},
		{"duplicate key", strings.Replace(good, `"seed": 20240601,`, `"seed": 20240601, "Seed": 1,`, 1), "differs from \"seed\" only in case", strictjson.ErrDuplicateKey},
		{"unknown field", strings.Replace(good, `"seed": 20240601,`, `"seed": 20240601, "note": "x",`, 1), `unknown field "note"`, strictjson.ErrUnknownField},
		{"negative seed", strings.Replace(good, `"seed": 20240601`, `"seed": -1`, 1), "expected an integer in 0..18446744073709551615", strictjson.ErrType},
	}
	for _, tc := range tests {
		_, err := plan.Decode([]byte(tc.in), "plan.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) {
			t.Errorf("%s: got %v\nwant %q (%v)", tc.name, err, tc.want, tc.is)
		}
	}
}

// TestDecisionFormat1StillRead: a plan of format 1, whose sessions name
// their place in the running order "session", is read as the same plan
// (a lock may pin one), and written back in its own format; format 2
// names it "order", so that it is not taken for a run record's session.
func TestDecisionFormat1StillRead(t *testing.T) {
	v2 := fixtures.Plan()
	v1 := bytes.ReplaceAll(bytes.Replace(v2, []byte(plan.Format), []byte(plan.FormatV1), 1), []byte(`{"order": `), []byte(`{"session": `))
	p2, err := plan.Decode(v2, "v2.json")
	if err != nil {
		t.Fatal(err)
	}
	p1, err := plan.Decode(v1, "v1.json")
	if err != nil {
		t.Fatalf("format 1: %v", err)
	}
	if p1.Format != plan.FormatV1 || !reflect.DeepEqual(p1.Sessions, p2.Sessions) || !reflect.DeepEqual(p1.Orders, p2.Orders) {
		t.Errorf("format 1 reads as another plan: %+v", p1.Sessions)
	}
	if !bytes.Equal(p1.Encode(), v1) {
		t.Errorf("format 1 is not written back as read:\n%s", p1.Encode())
	}
	if _, err := plan.Decode(bytes.Replace(v1, []byte(`{"session": 1`), []byte(`{"order": 1`), 1), "mixed.json"); err == nil {
		t.Errorf("format 1 with format 2's key is read")
	}
}
