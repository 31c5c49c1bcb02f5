package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/spans"
)

// Format is the plan format version this package writes; it reads
// FormatV1 too, whose sessions name their place in the running order
// "session" rather than "order".
const (
	Format   = "citecheck-plan/2"
	FormatV1 = "citecheck-plan/1"
)

// Algorithm names the permutation rule of the package documentation.
const Algorithm = "pcg-dxsm-fisher-yates/1"

// OrderAlternating is the default session order (see the package doc).
const OrderAlternating = "alternating"

// DefaultExpected are the counts the policy qualifies a session with:
// "thirty answerable/ten unknown questions".
var DefaultExpected = Counts{Answerable: 30, Unknown: 10}

// Limits on a plan: far above any evaluation, low enough that a hostile
// plan file cannot make regeneration expensive.
const (
	MaxQuestions   = 100000
	MaxArms        = 64
	MaxRepetitions = 1000
)

// Plan is a session plan.
type Plan struct {
	Format      string    `json:"format"`
	Algorithm   string    `json:"algorithm"`
	Seed        uint64    `json:"seed"`
	Arms        []string  `json:"arms"`
	Repetitions int       `json:"repetitions"`
	Expected    Counts    `json:"expected"`
	Counts      Counts    `json:"counts"`
	Questions   []string  `json:"questions"` // sorted bytewise
	Orders      []Order   `json:"orders"`    // one per repetition, in order
	Sessions    []Session `json:"sessions"`  // in the declared running order
}

// Counts are numbers of answerable and unknown questions.
type Counts struct {
	Answerable int `json:"answerable"`
	Unknown    int `json:"unknown"`
}

// Order is the frozen question order of one repetition, shared by all arms.
type Order struct {
	Repetition int      `json:"repetition"`
	Questions  []string `json:"questions"`
}

// Session is one run of one arm over one repetition's order. A run
// record's session is the arm's Repetition (A2 is arm A's second
// session), not its Order among all sessions.
type Session struct {
	Order      int    `json:"order"` // 1-based position in the running order of all sessions
	Arm        string `json:"arm"`
	Repetition int    `json:"repetition"`
}

// Options configures New.
type Options struct {
	Arms        []string
	Repetitions int
	Seed        uint64
	// Expected are the counts Warnings compares with; the zero value means
	// DefaultExpected.
	Expected Counts
	// Sessions, when set, declares the running order as (arm, repetition)
	// pairs; their Session numbers are ignored. Otherwise the order is
	// OrderAlternating.
	Sessions []Session
}

// Errors of New and Decode.
var (
	ErrOptions         = inputerr.New("invalid plan options")
	ErrNotReproducible = inputerr.New("the order is not the one the seed gives")
)

// New makes the plan for ref's questions.
func New(ref *spans.Reference, opts Options) (*Plan, error) {
	ids := make([]string, 0, len(ref.Questions))
	for _, q := range ref.Questions {
		ids = append(ids, q.ID)
	}
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return nil, fmt.Errorf("plan: %w: question id %q is used twice in the reference", ErrOptions, ids[i])
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("plan: %w: the reference has no questions", ErrOptions)
	}
	if len(ids) > MaxQuestions {
		return nil, fmt.Errorf("plan: %w: %d questions, the limit is %d", ErrOptions, len(ids), MaxQuestions)
	}
	if err := checkArms(opts.Arms); err != nil {
		return nil, fmt.Errorf("plan: %w: %v", ErrOptions, err)
	}
	if opts.Repetitions < 1 || opts.Repetitions > MaxRepetitions {
		return nil, fmt.Errorf("plan: %w: repetitions must be in 1..%d, not %d", ErrOptions, MaxRepetitions, opts.Repetitions)
	}
	p := &Plan{
		Format: Format, Algorithm: Algorithm, Seed: opts.Seed,
		Arms: slices.Clone(opts.Arms), Repetitions: opts.Repetitions,
		Expected: opts.Expected, Questions: ids,
	}
	if p.Expected == (Counts{}) {
		p.Expected = DefaultExpected
	}
	p.Counts.Answerable, p.Counts.Unknown = ref.Counts()
	for r := 1; r <= opts.Repetitions; r++ {
		p.Orders = append(p.Orders, Order{Repetition: r, Questions: Permutation(ids, opts.Seed, r)})
	}
	if opts.Sessions == nil {
		p.Sessions = Alternating(p.Arms, p.Repetitions)
	} else {
		for i, s := range opts.Sessions {
			p.Sessions = append(p.Sessions, Session{Order: i + 1, Arm: s.Arm, Repetition: s.Repetition})
		}
		if err := checkSessions(p.Sessions, p.Arms, p.Repetitions); err != nil {
			return nil, fmt.Errorf("plan: %w: %v", ErrOptions, err)
		}
	}
	return p, nil
}

func checkArms(arms []string) error {
	if len(arms) == 0 {
		return errors.New("no arms")
	}
	if len(arms) > MaxArms {
		return fmt.Errorf("%d arms, the limit is %d", len(arms), MaxArms)
	}
	seen := map[string]bool{}
	for _, a := range arms {
		if a == "" || strings.IndexFunc(a, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == ',' }) >= 0 {
			return fmt.Errorf("arm name %q is empty or holds white space or a comma", a)
		}
		if seen[a] {
			return fmt.Errorf("arm %q is named twice", a)
		}
		seen[a] = true
	}
	return nil
}

// checkSessions requires every (arm, repetition) exactly once and
// sessions numbered 1, 2, ... in order.
func checkSessions(ss []Session, arms []string, reps int) error {
	seen := map[Session]bool{}
	for i, s := range ss {
		if s.Order != i+1 {
			return fmt.Errorf("session %d in order is numbered %d", i+1, s.Order)
		}
		if !slices.Contains(arms, s.Arm) {
			return fmt.Errorf("session %d in order: arm %q is not one of %s", s.Order, s.Arm, strings.Join(arms, ", "))
		}
		if s.Repetition < 1 || s.Repetition > reps {
			return fmt.Errorf("session %d in order: repetition %d is not in 1..%d", s.Order, s.Repetition, reps)
		}
		k := Session{Arm: s.Arm, Repetition: s.Repetition}
		if seen[k] {
			return fmt.Errorf("session %d in order: arm %s runs repetition %d twice", s.Order, s.Arm, s.Repetition)
		}
		seen[k] = true
	}
	if want := len(arms) * reps; len(ss) != want {
		return fmt.Errorf("%d sessions declared; %d arms × %d repetitions need %d", len(ss), len(arms), reps, want)
	}
	return nil
}

// Alternating returns the default session order: arms in the given order
// in odd repetitions and reversed in even ones.
func Alternating(arms []string, reps int) []Session {
	var out []Session
	for r := 1; r <= reps; r++ {
		order := slices.Clone(arms)
		if r%2 == 0 {
			slices.Reverse(order)
		}
		for _, a := range order {
			out = append(out, Session{Order: len(out) + 1, Arm: a, Repetition: r})
		}
	}
	return out
}

// Permutation returns the order of repetition rep (1-based) for the sorted
// ids under seed, by Algorithm.
func Permutation(sortedIDs []string, seed uint64, rep int) []string {
	out := slices.Clone(sortedIDs)
	src := rand.NewPCG(seed, uint64(rep))
	for i := len(out) - 1; i > 0; i-- {
		j := uniform(src, uint64(i+1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// uniform draws from [0, m) as Go's 64-bit Rand.uint64n does.
func uniform(src *rand.PCG, m uint64) uint64 {
	if m&(m-1) == 0 {
		return src.Uint64() & (m - 1)
	}
	hi, lo := bits.Mul64(src.Uint64(), m)
	if lo < m {
		thresh := -m % m
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), m)
		}
	}
	return hi
}

// Warnings compares the counts with the expected ones: the policy qualifies
// a session only with its full bank, but a plan is still made for a smaller
// one (a pilot, a smoke test), so a shortfall is a warning, not an error.
func (p *Plan) Warnings() []string {
	var out []string
	if p.Counts.Answerable != p.Expected.Answerable {
		out = append(out, fmt.Sprintf("%d answerable questions, the policy expects %d: sessions on this plan cannot qualify", p.Counts.Answerable, p.Expected.Answerable))
	}
	if p.Counts.Unknown != p.Expected.Unknown {
		out = append(out, fmt.Sprintf("%d unknown questions, the policy expects %d: sessions on this plan cannot qualify", p.Counts.Unknown, p.Expected.Unknown))
	}
	return out
}

// Encode renders the plan in its fixed layout: two-space indentation, one
// order or session per line, a final newline.
func (p *Plan) Encode() []byte {
	var b bytes.Buffer
	str := func(s string) string {
		var sb bytes.Buffer
		enc := json.NewEncoder(&sb)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s) // a string cannot fail
		return strings.TrimSuffix(sb.String(), "\n")
	}
	list := func(ss []string) string {
		q := make([]string, len(ss))
		for i, s := range ss {
			q[i] = str(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	fmt.Fprintf(&b, "{\n")
	fmt.Fprintf(&b, "  \"format\": %s,\n", str(p.Format))
	fmt.Fprintf(&b, "  \"algorithm\": %s,\n", str(p.Algorithm))
	fmt.Fprintf(&b, "  \"seed\": %d,\n", p.Seed)
	fmt.Fprintf(&b, "  \"arms\": %s,\n", list(p.Arms))
	fmt.Fprintf(&b, "  \"repetitions\": %d,\n", p.Repetitions)
	fmt.Fprintf(&b, "  \"expected\": {\"answerable\": %d, \"unknown\": %d},\n", p.Expected.Answerable, p.Expected.Unknown)
	fmt.Fprintf(&b, "  \"counts\": {\"answerable\": %d, \"unknown\": %d},\n", p.Counts.Answerable, p.Counts.Unknown)
	fmt.Fprintf(&b, "  \"questions\": %s,\n", list(p.Questions))
	fmt.Fprintf(&b, "  \"orders\": [\n")
	for i, o := range p.Orders {
		fmt.Fprintf(&b, "    {\"repetition\": %d, \"questions\": %s}%s\n", o.Repetition, list(o.Questions), comma(i, len(p.Orders)))
	}
	fmt.Fprintf(&b, "  ],\n")
	fmt.Fprintf(&b, "  \"sessions\": [\n")
	for i, s := range p.Sessions {
		fmt.Fprintf(&b, "    {%s: %d, \"arm\": %s, \"repetition\": %d}%s\n", str(p.orderKey()), s.Order, str(s.Arm), s.Repetition, comma(i, len(p.Sessions)))
	}
	fmt.Fprintf(&b, "  ]\n}\n")
	return b.Bytes()
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// Label names a session as "A1": its arm and repetition.
func (s Session) Label() string { return fmt.Sprintf("%s%d", s.Arm, s.Repetition) }

// orderKey is the key of a session's place in the running order in p's
// format.
func (p *Plan) orderKey() string {
	if p.Format == FormatV1 {
		return "session"
	}
	return "order"
}
