package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/suggest"
	"github.com/citecheck/citecheck/metrics"
)

const compareAbout = `
Compare two arms question by question, on the graded results of both:

  citecheck compare results --arms A,B --seed 20240601

Each question is a cluster: per question the mean of each arm's repeats
(a failed, missing or timed-out attempt scores 0), the paired difference
A - B, and its mean over the questions; a seeded whole-question bootstrap
(math/rand/v2 PCG with --seed and --stream, both printed) gives the 2.5%
and 97.5% percentiles (Hyndman-Fan type 7, as numpy computes them), beside
the paired standard error and t-interval, the clustered (Miller) standard
error, the between-arm correlation and the smallest difference the design
detects with 80% power. Both bounds are compared: unresolved verdicts
scored 0 (LB) and 1 (UB). The metric is "success" (supported on answerable
questions, clean abstention on unknown ones), or --metric supported,
factual or abstention. This is a fixed-corpus sensitivity envelope, not a
p-value: the repeats are never counted as independent questions.

With --lock and --reviews FILE (or a lock that pins decisions files), the
comparison is also made on the results after review (docs/review.md),
printed after the automatic one; --json then writes {"automatic",
"reviewed"}.

Exit status: 0 compared; 2 bad usage or input (fewer than two arms, no
shared question, a bad results file, a refused decision); 3 the lock's
inputs changed; 4 internal error.`

func runCompare(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "compare", "compare RESULTS... [--arms A,B] [--metric M] [--seed N] [--replicates N] [--json] [--lock LOCK --reviews FILE...]", compareAbout)
	var c compareFlags
	c.register(fs)
	asJSON := fs.Bool("json", false, "write the comparison as JSON")
	lockPath := fs.String("lock", "", "the evaluation's `lock`, to apply reviews")
	var reviews reviewsFlag
	fs.Var(&reviews, "reviews", "also compare after applying the decisions `file` of a source review (repeat for several; needs --lock)")
	paths, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usageErrorf("compare: no RESULTS given")
	}
	results, err := grade.ReadResultFiles(paths)
	if err != nil {
		return err
	}
	b := metrics.NewBuilder()
	for i := range results {
		b.Add(&results[i])
	}
	sum := b.Summary(metrics.DefaultThresholds())
	cmp, err := c.compare(results, sum, true)
	if err != nil {
		return err
	}
	if *lockPath == "" {
		if len(reviews) > 0 {
			return usageErrorf("compare: --reviews needs --lock: an item's content is the lock's reference and page texts")
		}
		if *asJSON {
			return writeJSON(stdout, cmp)
		}
		writeComparison(stdout, cmp)
		return nil
	}
	reviewed, err := reviewedResults(stdout, e.toolchain(), *lockPath, reviews, results)
	if err != nil {
		return err
	}
	after, err := c.compare(reviewed, sum, true)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]*metrics.Comparison{"automatic": cmp, "reviewed": after})
	}
	fmt.Fprintf(stdout, "automatic (the rules alone):\n")
	writeComparison(stdout, cmp)
	fmt.Fprintf(stdout, "\nafter review:\n")
	writeComparison(stdout, after)
	return nil
}

// compareFlags are the comparison's options, shared by compare and report.
type compareFlags struct {
	arms, metric *string
	seed, stream *uint64
	replicates   *int
}

func (c *compareFlags) register(fs interface {
	String(string, string, string) *string
	Uint64(string, uint64, string) *uint64
	Int(string, int, string) *int
}) {
	c.arms = fs.String("arms", "", "the two `arms` to compare, A,B (default: the only two)")
	c.metric = fs.String("metric", metrics.MetricSuccess, "compared `metric`: success, supported, factual or abstention")
	c.seed = fs.Uint64("seed", 20240601, "bootstrap `seed` (PCG)")
	c.stream = fs.Uint64("stream", 1, "bootstrap PCG `stream` (the generator's second seed)")
	c.replicates = fs.Int("replicates", 10000, "bootstrap `replicates`")
}

// defaultCompare is the comparison with every flag at its default.
func defaultCompare() *compareFlags {
	var c compareFlags
	c.register(flag.NewFlagSet("defaults", flag.ContinueOnError))
	return &c
}

// compare runs the comparison; with required false, fewer than two arms
// gives no comparison rather than an error.
func (c *compareFlags) compare(results []grade.Result, sum *metrics.Summary, required bool) (*metrics.Comparison, error) {
	var arms []string
	if *c.arms != "" {
		arms = strings.Split(*c.arms, ",")
		if len(arms) != 2 || arms[0] == "" || arms[1] == "" || arms[0] == arms[1] {
			return nil, usageErrorf("--arms %q: want two different arms, A,B", *c.arms)
		}
		var have []string
		for _, g := range sum.Arms {
			have = append(have, g.Arm)
		}
		for _, a := range arms {
			if !slices.Contains(have, a) {
				return nil, usageErrorf("--arms: no results of arm %q%s; the results hold arms %s", a, suggest.Phrase(have, a), strings.Join(have, ", "))
			}
		}
	} else {
		for _, g := range sum.Arms {
			arms = append(arms, g.Arm)
		}
		if len(arms) != 2 {
			if !required {
				return nil, nil
			}
			return nil, usageErrorf("compare: the results have %d arms (%s): name two with --arms A,B", len(arms), strings.Join(arms, ", "))
		}
	}
	if *c.replicates < 1 || *c.replicates > 10_000_000 {
		return nil, usageErrorf("--replicates %d: want 1 to 10,000,000", *c.replicates)
	}
	cmp, err := metrics.Compare(results, metrics.CompareOptions{Arms: [2]string{arms[0], arms[1]}, Metric: *c.metric,
		Seed: *c.seed, Stream: *c.stream, Replicates: *c.replicates})
	switch {
	case errors.Is(err, metrics.ErrNoClusters):
		return nil, usageErrorf("compare: arms %s and %s: %v", arms[0], arms[1], err)
	case err != nil:
		return nil, usageErrorf("compare: %v", err)
	}
	return cmp, nil
}

// writeComparison prints a comparison for a terminal.
func writeComparison(w io.Writer, c *metrics.Comparison) {
	fmt.Fprintf(w, "paired comparison %s - %s, metric %s: %d question clusters, up to %d repeats per arm%s\n",
		c.Arms[0], c.Arms[1], c.Metric, c.Clusters, c.Repeats, map[bool]string{true: "", false: " (unbalanced)"}[c.Balanced])
	fmt.Fprintf(w, "bootstrap: %d whole-question replicates, PCG seed %d stream %d; a %s\n", c.Replicates, c.Seed[0], c.Seed[1], c.Note)
	for _, s := range []struct {
		name string
		s    metrics.Side
	}{{"LB (unresolved as fail)", c.LB}, {"UB (unresolved as pass)", c.UB}} {
		x := s.s
		fmt.Fprintf(w, "  %s: %s %.4f, %s %.4f, difference %+.4f, bootstrap 95%% [%+.4f, %+.4f], paired SE %.4f, t-interval [%+.4f, %+.4f], MDE80 %.4f\n",
			s.name, c.Arms[0], x.MeanA, c.Arms[1], x.MeanB, x.MeanDiff, x.Interval[0], x.Interval[1], x.SEPaired, x.TInterval[0], x.TInterval[1], x.MDE80)
	}
	if len(c.Excluded) > 0 {
		fmt.Fprintf(w, "  not compared (in one arm only): %s\n", strings.Join(c.Excluded, ", "))
	}
}
