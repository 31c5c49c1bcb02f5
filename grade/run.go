package grade

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/suggest"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/runs"
)

// Input is one run file: Each calls fn with its records in file order and
// returns the first error (a read or input error, or fn's).
type Input struct {
	File string
	Each func(fn func(rec *runs.Record) error) error
}

// RunOptions configure Run.
type RunOptions struct {
	// Plan, when set, is the frozen plan the runs are checked against.
	Plan *plan.Plan
	// Arms are planned arms whose planned attempts Run writes although no
	// record names them (an arm whose run produced nothing): with a plan,
	// Run writes the planned attempts of the arms its records hold and of
	// these, never of another arm, so that arms graded apart are each
	// graded once. Every name must be an arm of Plan (ErrArmNotPlanned).
	Arms []string
	// Workers grade attempts in parallel; runtime.GOMAXPROCS(0) when < 1.
	Workers int
	// SpillDir holds a temporary file while results are put in plan order
	// (os.TempDir() when ""). It is removed before Run returns.
	SpillDir string
	// Progress, when set, is called after each graded record, from one
	// goroutine at a time.
	Progress func(records int)
	// Written, when set, is called with every result Run writes, from one
	// goroutine at a time: the records' results in input order as they
	// are graded, then the missing ones (with a plan, the file's order is
	// the plan's). Callers count them (metrics.Builder) rather than Run.
	Written func(*Result)
}

// ErrUnknownQuestion is the cause of an input error for a record whose
// question the reference does not have.
var ErrUnknownQuestion = inputerr.New("no such question in the reference")

// ErrArmNotPlanned: RunOptions.Arms names an arm the plan does not have,
// or names arms without a plan.
var ErrArmNotPlanned = inputerr.New("not an arm of the plan")

// Run grades every record of the inputs and writes one result per line to
// out (results.jsonl), in this order:
//
//   - with a plan: one result for every planned (arm, session, question)
//     of the arms the records hold (and of opts.Arms), sessions in the
//     plan's declared running order and questions in their repetition's
//     order, Position 1..n; a record's session is its arm's repetition
//     number. A planned attempt no record answers is AttemptMissing; the
//     planned attempts of an arm no record names are not written, so that
//     each arm's attempts are graded once when arms are graded apart. Then, in input order, every further record for a
//     planned attempt (AttemptDuplicate) and every record the plan does not
//     have (AttemptExtra: another arm, a session past the repetitions);
//     both are graded as failures, never dropped. A record that comes
//     after a record planned later in its session is flagged OutOfOrder.
//   - without a plan: every record in input order, Position counting the
//     records of its arm and session; a repeated (arm, session, question)
//     is AttemptDuplicate.
//
// A record naming a question the reference lacks is an input error
// (*runs.InputError wrapping ErrUnknownQuestion), as is any error of
// an Input; Run then stops and returns it. Memory stays flat in the number
// of records when they arrive in plan order (or without a plan): results
// are written as they are graded, and in plan order through a spill file
// whose offsets, 16 bytes per planned attempt, are all that is kept.
// A fault of the index found while grading (citations.Index.Err: a
// changed index block or page text read) is returned after the last
// record, and the results are then not to be used.
func (g *Grader) Run(inputs []Input, out io.Writer, opts RunOptions) error {
	workers := opts.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	written := opts.Written
	if written == nil {
		written = func(*Result) {}
	}
	s := &scheduler{g: g, plan: opts.Plan, seen: map[armSession][]bool{}, next: map[armSession]int{}, arms: map[string]bool{}}
	if err := s.wantArms(opts.Arms); err != nil {
		return err
	}
	if opts.Plan != nil {
		s.index()
	}
	bw := bufio.NewWriterSize(out, 256<<10)
	var sink resultSink = &directSink{w: bw}
	if opts.Plan != nil {
		sp, err := newSpillSink(opts.SpillDir, len(s.slots))
		if err != nil {
			return err
		}
		defer sp.remove()
		sink = sp
	}

	jobs := make(chan job, 4*workers)
	done := make(chan graded, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r := g.Grade(j.rec, j.file, j.attempt, j.position)
				r.OutOfOrder = j.outOfOrder
				buf := lines.Get().(*bytes.Buffer)
				buf.Reset()
				err := WriteResult(buf, &r)
				done <- graded{seq: j.seq, slot: j.slot, line: buf, res: &r, err: err}
			}
		}()
	}
	// The writer puts results back in input order.
	writeErr := make(chan error, 1)
	go func() {
		pending := map[int]graded{}
		next, records := 0, 0
		var err error
		for d := range done {
			pending[d.seq] = d
			for {
				p, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				if err == nil && p.err != nil {
					err = fmt.Errorf("grade: encode: %w", p.err)
				}
				if err == nil {
					err = sink.put(p.slot, p.line.Bytes())
				}
				lines.Put(p.line)
				written(p.res)
				records++
				if opts.Progress != nil {
					opts.Progress(records)
				}
			}
		}
		writeErr <- err
	}()

	seq := 0
	var readErr error
	for _, in := range inputs {
		err := in.Each(func(rec *runs.Record) error {
			if !g.Known(rec.Question) {
				return &runs.InputError{File: in.File, Line: rec.Line, Field: "question",
					Err: fmt.Errorf("%w: %q%s", ErrUnknownQuestion, rec.Question, suggest.Phrase(g.questionIDs(), rec.Question))}
			}
			j := s.place(rec)
			j.seq, j.rec, j.file = seq, rec, in.File
			seq++
			jobs <- j
			return nil
		})
		if err != nil {
			readErr = err
			break
		}
	}
	close(jobs)
	wg.Wait()
	close(done)
	if err := <-writeErr; err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	// A changed index block or page text a citation's lookup read: no
	// result of this run can be trusted (citations.Index.Err).
	if err := g.ix.Err(); err != nil {
		return err
	}
	if sp, ok := sink.(*spillSink); ok {
		if err := sp.finish(bw, s, g, written); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	return nil
}

type armSession struct {
	arm     string
	session int
}

type job struct {
	seq        int
	rec        *runs.Record
	file       string
	attempt    string
	position   int
	slot       int // planned slot, -1 for duplicates, extras and runs without a plan
	outOfOrder bool
}

// lines recycles the buffers results are encoded in.
var lines = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type graded struct {
	seq  int
	slot int
	line *bytes.Buffer
	res  *Result
	err  error
}

// slotKey names one planned attempt.
type slotKey struct {
	arm      string
	session  int
	question string
}

// scheduler decides, in input order, what each record is.
type scheduler struct {
	g     *Grader
	plan  *plan.Plan
	slots []slotKey       // planned attempts in output order
	slot  map[slotKey]int // their index
	// With a plan: which slots are filled and the last planned position
	// seen per session; without: which questions each session answered
	// (by the reference's question index) and its record count.
	filled  []bool
	last    map[armSession]int
	seen    map[armSession][]bool
	next    map[armSession]int
	qIndex  map[string]int
	posSlot []int // position of each slot in its session
	// arms are the arms whose planned attempts are written: those of the
	// records and RunOptions.Arms.
	arms map[string]bool
}

// wantArms adds the arms RunOptions.Arms names, each an arm of the plan.
func (s *scheduler) wantArms(arms []string) error {
	if err := CheckArms(s.plan, arms); err != nil {
		return err
	}
	for _, a := range arms {
		s.arms[a] = true
	}
	return nil
}

// CheckArms returns an error wrapping ErrArmNotPlanned unless every name
// in arms is an arm of p (RunOptions.Arms), so that a caller can refuse
// them before it grades.
func CheckArms(p *plan.Plan, arms []string) error {
	for _, a := range arms {
		if p == nil {
			return fmt.Errorf("arm %q: %w (there is no plan)", a, ErrArmNotPlanned)
		}
		if !slices.Contains(p.Arms, a) {
			return fmt.Errorf("arm %q: %w (its arms: %s)", a, ErrArmNotPlanned, strings.Join(p.Arms, ", "))
		}
	}
	return nil
}

func (s *scheduler) index() {
	p := s.plan
	s.slot = map[slotKey]int{}
	s.last = map[armSession]int{}
	for _, ses := range p.Sessions {
		order := p.Orders[ses.Repetition-1].Questions
		for k, q := range order {
			key := slotKey{ses.Arm, ses.Repetition, q}
			s.slot[key] = len(s.slots)
			s.slots = append(s.slots, key)
			s.posSlot = append(s.posSlot, k+1)
		}
	}
	s.filled = make([]bool, len(s.slots))
}

func (s *scheduler) place(rec *runs.Record) job {
	s.arms[rec.Arm] = true
	if s.plan == nil {
		if s.qIndex == nil {
			s.qIndex = map[string]int{}
			for i := range s.g.ref.Questions {
				s.qIndex[s.g.ref.Questions[i].ID] = i
			}
		}
		as := armSession{rec.Arm, rec.Session}
		seen := s.seen[as]
		if seen == nil {
			seen = make([]bool, len(s.g.ref.Questions))
			s.seen[as] = seen
		}
		s.next[as]++
		qi := s.qIndex[rec.Question]
		if seen[qi] {
			return job{attempt: AttemptDuplicate, position: s.next[as], slot: -1}
		}
		seen[qi] = true
		return job{attempt: AttemptOK, position: s.next[as], slot: -1}
	}
	key := slotKey{rec.Arm, rec.Session, rec.Question}
	i, ok := s.slot[key]
	if !ok {
		return job{attempt: AttemptExtra, slot: -1}
	}
	pos := s.posSlot[i]
	if s.filled[i] {
		return job{attempt: AttemptDuplicate, position: pos, slot: -1}
	}
	s.filled[i] = true
	as := armSession{rec.Arm, rec.Session}
	ooo := pos < s.last[as]
	s.last[as] = max(s.last[as], pos)
	return job{attempt: AttemptOK, position: pos, slot: i, outOfOrder: ooo}
}

// resultSink receives encoded results in input order.
type resultSink interface {
	put(slot int, line []byte) error
}

type directSink struct{ w io.Writer }

func (d *directSink) put(_ int, line []byte) error {
	_, err := d.w.Write(line)
	return err
}

// span is where one result lies in the spill file.
type span struct {
	off, n int64
}

// spillSink writes results as they come and remembers where: planned ones
// by slot, the rest (duplicates, extras) in input order.
type spillSink struct {
	f      *os.File
	w      *bufio.Writer
	off    int64
	slots  []span
	others []span
}

// newSpillSink creates the spill file in dir (os.TempDir() when "") for
// results of slots planned attempts; remove deletes it.
func newSpillSink(dir string, slots int) (*spillSink, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, ".citecheck-spill-*")
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	return &spillSink{f: f, w: bufio.NewWriterSize(f, 256<<10), slots: make([]span, slots)}, nil
}

func (s *spillSink) remove() {
	s.f.Close()
	os.Remove(s.f.Name())
}

func (s *spillSink) put(slot int, line []byte) error {
	if _, err := s.w.Write(line); err != nil {
		return fmt.Errorf("grade: spill: %w", err)
	}
	sp := span{s.off, int64(len(line))}
	s.off += int64(len(line))
	if slot >= 0 {
		s.slots[slot] = sp
	} else {
		s.others = append(s.others, sp)
	}
	return nil
}

// finish writes the planned results in plan order (missing ones graded
// now, each passed to written), then the duplicates and extras.
func (s *spillSink) finish(out io.Writer, sch *scheduler, g *Grader, written func(*Result)) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("grade: spill: %w", err)
	}
	var buf []byte
	copySpan := func(sp span) error {
		if cap(buf) < int(sp.n) {
			buf = make([]byte, sp.n)
		}
		b := buf[:sp.n]
		if _, err := s.f.ReadAt(b, sp.off); err != nil {
			return fmt.Errorf("grade: spill: %w", err)
		}
		_, err := out.Write(b)
		return err
	}
	var mb bytes.Buffer
	for i, key := range sch.slots {
		if sch.filled[i] {
			if err := copySpan(s.slots[i]); err != nil {
				return err
			}
			continue
		}
		if !sch.arms[key.arm] {
			continue // another grading's arm
		}
		r := g.Missing(key.arm, key.session, key.question, sch.posSlot[i])
		mb.Reset()
		if err := WriteResult(&mb, &r); err != nil {
			return fmt.Errorf("grade: encode: %w", err)
		}
		written(&r)
		if _, err := out.Write(mb.Bytes()); err != nil {
			return err
		}
	}
	for _, sp := range s.others {
		if err := copySpan(sp); err != nil {
			return err
		}
	}
	return nil
}

// Passes reports whether r passes: an ok attempt whose verdicts of its
// kind and emitted citations all pass, with no citation of a source
// outside the corpus (unresolved, counted apart) and nothing its adapter
// left unread. An answer that cited nothing fails on its supported
// verdict, not on its missing-citation entry.
func (r *Result) Passes() bool {
	pass := func(o *Outcome) bool { return o != nil && *o == Pass }
	switch {
	case r.Attempt != AttemptOK, len(r.Unread) > 0:
		return false
	case r.Kind == KindAnswerable && !(pass(r.Factual) && pass(r.Supported)):
		return false
	case r.Kind != KindAnswerable && !pass(r.Abstention):
		return false
	}
	for _, c := range r.Citations {
		if c.Reason != ReasonMissingCitation && (c.Reason == ReasonExternalSource || c.Verdict != Pass) {
			return false
		}
	}
	return true
}

// ArmHint says which field of an arm's records likely disagrees with the
// plan p when every record of the arm was extra (none answered a planned
// attempt), given the sessions its records name; "" when nothing stands
// out. A run record's session is the arm's repetition, which a user who
// copied a session's place in the plan's running order gets wrong.
func ArmHint(p *plan.Plan, arm string, sessions []int) string {
	if p == nil {
		return ""
	}
	if !slices.Contains(p.Arms, arm) {
		return fmt.Sprintf("arm %q: every record is extra: the plan has no arm %q%s (its arms: %s); check the records' \"arm\"",
			arm, arm, suggest.Phrase(p.Arms, arm), strings.Join(p.Arms, ", "))
	}
	var beyond []string
	for _, s := range sessions {
		if s > p.Repetitions {
			beyond = append(beyond, fmt.Sprint(s))
		}
	}
	if len(beyond) > 0 {
		return fmt.Sprintf("arm %q: every record is extra: its records give session %s, the plan has %d repetitions; a record's \"session\" is the arm's repetition (1 to %d: arm %s's second session is \"session\": 2), not the session's \"order\" in the plan",
			arm, strings.Join(beyond, ", "), p.Repetitions, p.Repetitions, arm)
	}
	return fmt.Sprintf("arm %q: every record is extra: its records' \"session\" and \"question\" match no attempt the plan has for it", arm)
}
