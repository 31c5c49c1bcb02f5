package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

const planAbout = `
Make the session plan of an evaluation: for each repetition, one frozen
permutation of the reference's questions, the same for every arm, and the
declared order of the sessions. The permutation is seeded (algorithm
` + plan.Algorithm + `: math/rand/v2 PCG(seed, repetition), Fisher-Yates
over the sorted ids); seed and algorithm are recorded in the plan, so the
same inputs give the same bytes and anyone can regenerate it.

Sessions run the arms in the given order in odd repetitions and reversed in
even ones (A1 B1 B2 A2 A3 B3) unless --sessions declares another order as
ARM:REPETITION pairs. The plan lists each session with its "order" in that
running order, its arm and its repetition. A run record names its session
by the repetition: arm B's second session is "session": 2 in B's records,
although it is third in the order.

The policy qualifies a session with 30 answerable and 10 unknown questions;
other counts are a warning (--answerable and --unknown change what is
expected). The plan goes to --out, or to stdout with the summary on stderr.

Example:
  citecheck plan reference.json --arms A,B --repeats 3 --seed 20240601 --out plan.json

Exit status: 0 plan written (warnings included); 2 bad usage or an
unreadable or malformed reference.`

func runPlan(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "plan", "plan REFERENCE --arms A,B --repeats 3 --seed N [--out PLAN] [--sessions A:1,B:1,...]", planAbout)
	arms := fs.String("arms", "", "comma-separated arm `names`, such as A,B (required)")
	repeats := fs.Int("repeats", 3, "repetitions per arm")
	seedStr := fs.String("seed", "", "the permutation seed, an unsigned 64-bit `integer` (required)")
	out := fs.String("out", "-", "write the plan to `file` (- is stdout)")
	answerable := fs.Int("answerable", plan.DefaultExpected.Answerable, "answerable questions the policy expects")
	unknown := fs.Int("unknown", plan.DefaultExpected.Unknown, "unknown questions the policy expects")
	sessions := fs.String("sessions", "", "declared session order as `ARM:REP,...` (default: alternating)")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageErrorf("plan: want one REFERENCE, got %d arguments", len(rest))
	}
	if *arms == "" || *seedStr == "" {
		return usageErrorf("plan: --arms and --seed are required: the seed must be declared, never defaulted")
	}
	seed, err := strconv.ParseUint(*seedStr, 10, 64)
	if err != nil {
		return usageErrorf("plan: --seed %q is not an unsigned 64-bit integer", *seedStr)
	}
	if *answerable < 0 || *unknown < 0 {
		return usageErrorf("plan: --answerable and --unknown cannot be negative")
	}
	opts := plan.Options{
		Arms: strings.Split(*arms, ","), Repetitions: *repeats, Seed: seed,
		Expected: plan.Counts{Answerable: *answerable, Unknown: *unknown},
	}
	if *sessions != "" {
		for _, s := range strings.Split(*sessions, ",") {
			arm, rep, ok := strings.Cut(s, ":")
			n, err := strconv.Atoi(rep)
			if !ok || err != nil {
				return usageErrorf("plan: --sessions: %q is not ARM:REPETITION", s)
			}
			opts.Sessions = append(opts.Sessions, plan.Session{Arm: arm, Repetition: n})
		}
	}
	ref, err := spans.ReadFile(rest[0])
	if err != nil {
		return err
	}
	p, err := plan.New(ref, opts)
	if err != nil {
		return err
	}
	summary := stdout
	if *out == "-" {
		if _, err := stdout.Write(p.Encode()); err != nil {
			return err
		}
		summary = stderr
	} else if err := atomicfile.Write(*out, p.Encode()); err != nil {
		return fmt.Errorf("plan: --out: %w", err)
	}
	printPlanSummary(summary, p)
	if *out != "-" {
		fmt.Fprintf(summary, "wrote %s\n", *out)
	}
	return nil
}

func printPlanSummary(w io.Writer, p *plan.Plan) {
	fmt.Fprintf(w, "plan: %d questions (%d answerable, %d unknown), arms %s, %d repetitions, seed %d, algorithm %s\n",
		len(p.Questions), p.Counts.Answerable, p.Counts.Unknown, strings.Join(p.Arms, ", "), p.Repetitions, p.Seed, p.Algorithm)
	labels := make([]string, len(p.Sessions))
	for i, s := range p.Sessions {
		labels[i] = s.Label()
	}
	fmt.Fprintf(w, "sessions: %s\n", strings.Join(labels, " "))
	for _, o := range p.Orders {
		fmt.Fprintf(w, "repetition %d: %s\n", o.Repetition, strings.Join(o.Questions, " "))
	}
	for _, warn := range p.Warnings() {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}
