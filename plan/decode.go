package plan

import (
	"fmt"
	"io"
	"os"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// MaxPlanBytes caps a plan file: 100,000 question ids in every one of
// a few repetitions stay below it.
const MaxPlanBytes = 64 << 20

// DecodeError is a fault in a plan file with file:line:col and JSON path.
type DecodeError = strictjson.Error

// DecodeErrors holds several DecodeErrors in file order.
type DecodeErrors = strictjson.Errors

// ReadFile reads and decodes the plan at path.
func ReadFile(path string) (*Plan, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("plan: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPlanBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("plan: %s: %w", path, err)
	}
	p, err := Decode(data, path)
	return p, data, err
}

// Decode reads a plan strictly and checks that it is whole and
// reproducible: the questions sorted and unique, every order a permutation
// of them equal to the one the seed gives, every arm running every
// repetition exactly once.
func Decode(data []byte, file string) (*Plan, error) {
	root, err := strictjson.Parse(data, file, strictjson.Limits{MaxBytes: MaxPlanBytes})
	if err != nil {
		return nil, err
	}
	pd := &planDecoder{d: &strictjson.Decoder{File: file, Data: data}, p: &Plan{}}
	pd.decode(root)
	if err := pd.d.Err(); err != nil {
		return nil, err
	}
	// The tree decoded: now the plan as a whole, its parts first, then the
	// orders and sessions that need them sound.
	pd.checkParts()
	if err := pd.d.Err(); err != nil {
		return nil, err
	}
	pd.checkOrders()
	if err := checkSessions(pd.p.Sessions, pd.p.Arms, pd.p.Repetitions); err != nil {
		pd.d.Errorf(pd.sessionsV, "sessions", strictjson.ErrValue, "%v", err)
	}
	if err := pd.d.Err(); err != nil {
		return nil, err
	}
	return pd.p, nil
}

// planDecoder decodes a plan's tree into p, keeping the values that the
// checks of the whole plan point their errors at.
type planDecoder struct {
	d                                              *strictjson.Decoder
	p                                              *Plan
	ordersV, sessionsV, questionsV, armsV, countsV *strictjson.Value
}

// decode reads the plan object's fields, each question order and session
// as it comes.
func (pd *planDecoder) decode(root *strictjson.Value) {
	d, p := pd.d, pd.p
	// A session's place in the running order is "order" since format 2,
	// "session" in format 1, which named it as a run record names a
	// repetition.
	orderKey := "order"
	if m := root.Get("format"); m != nil && m.Value.Kind == strictjson.String && m.Value.Str == FormatV1 {
		orderKey = "session"
	}
	d.Object(root, "",
		strictjson.Field{Name: "format", Required: true, Decode: func(v *strictjson.Value, path string) {
			if p.Format = d.String(v, path); v.Kind == strictjson.String && p.Format != Format && p.Format != FormatV1 {
				d.Errorf(v, path, strictjson.ErrValue, "format %q: this citecheck reads %q and %q", p.Format, Format, FormatV1)
			}
		}},
		strictjson.Field{Name: "algorithm", Required: true, Decode: func(v *strictjson.Value, path string) {
			if p.Algorithm = d.String(v, path); v.Kind == strictjson.String && p.Algorithm != Algorithm {
				d.Errorf(v, path, strictjson.ErrValue, "algorithm %q: this citecheck implements %q", p.Algorithm, Algorithm)
			}
		}},
		strictjson.Field{Name: "seed", Required: true, Decode: func(v *strictjson.Value, path string) { p.Seed = d.Uint64(v, path) }},
		strictjson.Field{Name: "arms", Required: true, Decode: func(v *strictjson.Value, path string) {
			pd.armsV = v
			p.Arms = d.Strings(v, path)
		}},
		strictjson.Field{Name: "repetitions", Required: true, Decode: func(v *strictjson.Value, path string) {
			p.Repetitions = int(d.Int(v, path, 1, MaxRepetitions))
		}},
		strictjson.Field{Name: "expected", Required: true, Decode: pd.counts(&p.Expected)},
		strictjson.Field{Name: "counts", Required: true, Decode: func(v *strictjson.Value, path string) {
			pd.countsV = v
			pd.counts(&p.Counts)(v, path)
		}},
		strictjson.Field{Name: "questions", Required: true, Decode: func(v *strictjson.Value, path string) {
			pd.questionsV = v
			p.Questions = d.Strings(v, path)
		}},
		strictjson.Field{Name: "orders", Required: true, Decode: func(v *strictjson.Value, path string) {
			pd.ordersV = v
			d.Array(v, path, func(_ int, e *strictjson.Value, path string) {
				var o Order
				d.Object(e, path,
					strictjson.Field{Name: "repetition", Required: true, Decode: func(v *strictjson.Value, p string) { o.Repetition = int(d.Int(v, p, 1, MaxRepetitions)) }},
					strictjson.Field{Name: "questions", Required: true, Decode: func(v *strictjson.Value, p string) { o.Questions = d.Strings(v, p) }},
				)
				p.Orders = append(p.Orders, o)
			})
		}},
		strictjson.Field{Name: "sessions", Required: true, Decode: func(v *strictjson.Value, path string) {
			pd.sessionsV = v
			d.Array(v, path, func(_ int, e *strictjson.Value, path string) {
				var s Session
				d.Object(e, path,
					strictjson.Field{Name: orderKey, Required: true, Decode: func(v *strictjson.Value, p string) { s.Order = int(d.Int(v, p, 1, MaxArms*MaxRepetitions)) }},
					strictjson.Field{Name: "arm", Required: true, Decode: func(v *strictjson.Value, p string) { s.Arm = d.String(v, p) }},
					strictjson.Field{Name: "repetition", Required: true, Decode: func(v *strictjson.Value, p string) { s.Repetition = int(d.Int(v, p, 1, MaxRepetitions)) }},
				)
				p.Sessions = append(p.Sessions, s)
			})
		}},
	)
}

// counts decodes a Counts object into c.
func (pd *planDecoder) counts(c *Counts) func(v *strictjson.Value, path string) {
	d := pd.d
	return func(v *strictjson.Value, path string) {
		d.Object(v, path,
			strictjson.Field{Name: "answerable", Required: true, Decode: func(v *strictjson.Value, p string) { c.Answerable = int(d.Int(v, p, 0, MaxQuestions)) }},
			strictjson.Field{Name: "unknown", Required: true, Decode: func(v *strictjson.Value, p string) { c.Unknown = int(d.Int(v, p, 0, MaxQuestions)) }},
		)
	}
}

// checkParts checks the arms, the questions (sorted and unique), that the
// counts add up to them and that there is an order per repetition.
func (pd *planDecoder) checkParts() {
	d, p := pd.d, pd.p
	if err := checkArms(p.Arms); err != nil {
		d.Errorf(pd.armsV, "arms", strictjson.ErrValue, "%v", err)
	}
	if len(p.Questions) == 0 || len(p.Questions) > MaxQuestions {
		d.Errorf(pd.questionsV, "questions", strictjson.ErrValue, "%d questions: want 1..%d", len(p.Questions), MaxQuestions)
	}
	for i := 1; i < len(p.Questions); i++ {
		if p.Questions[i-1] >= p.Questions[i] {
			d.Errorf(pd.questionsV.Elems[i], strictjson.JoinIndex("questions", i), strictjson.ErrValue, "%q after %q: the questions must be sorted and unique", p.Questions[i], p.Questions[i-1])
			break
		}
	}
	if n := p.Counts.Answerable + p.Counts.Unknown; n != len(p.Questions) {
		d.Errorf(pd.countsV, "counts", strictjson.ErrValue, "%d answerable + %d unknown is not the %d questions", p.Counts.Answerable, p.Counts.Unknown, len(p.Questions))
	}
	if len(p.Orders) != p.Repetitions {
		d.Errorf(pd.ordersV, "orders", strictjson.ErrValue, "%d orders for %d repetitions", len(p.Orders), p.Repetitions)
	}
}

// checkOrders checks that every order is the permutation the seed gives
// for its repetition: an edited order is not reproducible.
func (pd *planDecoder) checkOrders() {
	d, p := pd.d, pd.p
	for i, o := range p.Orders {
		path := strictjson.JoinIndex("orders", i)
		ov := pd.ordersV.Elems[i]
		if o.Repetition != i+1 {
			d.Errorf(ov, path+".repetition", strictjson.ErrValue, "order %d is for repetition %d", i+1, o.Repetition)
			continue
		}
		want := Permutation(p.Questions, p.Seed, o.Repetition)
		qv := ov.Get("questions").Value
		if len(o.Questions) != len(want) {
			d.Errorf(qv, path+".questions", ErrNotReproducible, "%d questions, the plan has %d", len(o.Questions), len(want))
			continue
		}
		if k := firstDiff(o.Questions, want); k >= 0 {
			d.Errorf(qv.Elems[k], strictjson.JoinIndex(path+".questions", k), ErrNotReproducible,
				"repetition %d position %d holds %q; seed %d gives %q (the order was edited: %s)", o.Repetition, k+1, o.Questions[k], p.Seed, want[k], describeDiff(o.Questions, want))
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// describeDiff names how got differs from want: the positions that differ,
// as "positions 2 and 5 swapped" when that is all.
func describeDiff(got, want []string) string {
	var pos []int
	for i := range got {
		if got[i] != want[i] {
			pos = append(pos, i)
		}
	}
	if len(pos) == 2 && got[pos[0]] == want[pos[1]] && got[pos[1]] == want[pos[0]] {
		return fmt.Sprintf("positions %d and %d swapped", pos[0]+1, pos[1]+1)
	}
	if len(pos) > 8 {
		return fmt.Sprintf("%d positions differ", len(pos))
	}
	s := make([]string, len(pos))
	for i, p := range pos {
		s[i] = fmt.Sprint(p + 1)
	}
	return fmt.Sprintf("positions %v differ", s)
}
