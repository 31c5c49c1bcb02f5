package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/review"
)

const reviewAbout = `
List the verdicts the rules left unresolved in graded results, for people
to review: each distinct item once, however many attempts it occurs in.

  citecheck review --lock eval.lock --out items.jsonl results

ITEMS.jsonl (docs/formats.md#review-items) holds one JSON object per
line: hash (blake3: of the item's canonical content), kind (citation,
field, abstention), question, reason, content (what the reviewer judges:
for a citation the quote, the cited document and page, the located
passage on its page and the claims a pass supports with their declared
evidence; for a field the value and target; for an abstention the
response) and attempts (arm, session, position). With --blind, items
carry nothing that tells the systems apart (no arm, session, position,
run file, native id, model name or timing) and come in a shuffle seeded
by --seed. --html FILE writes the same items as a review page: each
passage on its page, verdict buttons, a note, and a button that saves
the decisions. report.html has the same review mode.

A reviewer's decisions are JSON Lines (docs/formats.md#decisions),
{"hash", "verdict", "reviewer", "note"}: pass or fail for citations and
abstentions, correct or incorrect for fields. "citecheck report --reviews
FILE" applies them and shows the figures after review beside the
automatic ones, which never change. A citation of a source outside the
corpus is not an item: its content is not pinned. Workflow and hash:
docs/review.md.

Examples:
  citecheck review --lock eval.lock --out items.jsonl results
  citecheck review --lock eval.lock --blind --seed 7 --html review.html --out blind.jsonl results

Exit status: 0 listed (nothing left to review included); 2 bad usage or
input (results not graded against the lock's evaluation); 3 integrity
refusal: the lock's inputs changed; 4 internal error.`

func runReview(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "review", "review --lock LOCK [--blind] [--seed N] [--out ITEMS.jsonl] [--html FILE] RESULTS...", reviewAbout)
	lockPath := fs.String("lock", "", "the evaluation's `lock`: the reference and page texts the results were graded against")
	blind := fs.Bool("blind", false, "leave out everything that tells the systems apart, and shuffle the items")
	seed := fs.Uint64("seed", 1, "the blinded shuffle's `seed`")
	out := fs.String("out", "", "write the items to `file` (default: standard output)")
	htmlPath := fs.String("html", "", "also write the items as a self-contained review page to `file`")
	paths, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	switch {
	case *lockPath == "":
		return usageErrorf("review: --lock LOCK is required: an item's content is the lock's reference and page texts")
	case len(paths) == 0:
		return usageErrorf("review: no RESULTS given")
	}
	return listReview(stdout, stderr, reviewJob{toolchain: e.toolchain, lock: *lockPath, paths: paths, blind: *blind, seed: *seed,
		out: *out, html: *htmlPath})
}

// reviewJob is what one listing of review items needs: the lock, the
// results, blinding, and where to write (outName and htmlName are shown
// for out and html; the paths when empty).
type reviewJob struct {
	toolchain                    func() freeze.Toolchain
	lock                         string
	paths                        []string
	blind                        bool
	seed                         uint64
	out, html, outName, htmlName string
}

// listReview lists the items of the results, as JSON Lines to job.out
// (stdout when empty) and as a review page to job.html when set.
func listReview(stdout, stderr io.Writer, job reviewJob) error {
	ev, err := openLock(stdout, job.toolchain(), job.lock, "review")
	if err != nil {
		return err
	}
	store, err := corpus.Open(ev.CorpusDir)
	if err != nil {
		return fmt.Errorf("review: %w", err)
	}
	results, err := grade.ReadResultFiles(job.paths)
	if err != nil {
		return err
	}
	pages := report.StorePages(store)
	set, err := review.Collect(results, ev.Reference, pages)
	if err != nil {
		return err
	}
	items := set.Items()
	if job.blind {
		items = set.Blind(job.seed)
	}
	if job.html != "" {
		in := report.HTMLInput{Review: items, ReviewOnly: true, Pages: pages, Reference: ev.Reference,
			ReviewNote: "Nothing to review: the rules decided every verdict of these results."}
		if err := writeAtomic(job.html, func(w io.Writer) error { return report.WriteHTML(w, in) }); err != nil {
			return fmt.Errorf("review: %w", err)
		}
	}
	summary := fmt.Sprintf("%s for %s", itemCounts(items), countOf(set.Verdicts(), "unresolved verdict"))
	if job.out == "" {
		fmt.Fprintln(stderr, summary)
		return writeItems(stdout, items)
	}
	if err := writeAtomic(job.out, func(w io.Writer) error { return writeItems(w, items) }); err != nil {
		return fmt.Errorf("review: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", cmp.Or(job.outName, job.out), summary)
	if job.html != "" {
		fmt.Fprintf(stdout, "wrote %s: the review page\n", cmp.Or(job.htmlName, job.html))
	}
	return nil
}

// openLock verifies a lock and opens its evaluation; a changed input
// prints the verification report and refuses (exit 3).
func openLock(stdout io.Writer, tc freeze.Toolchain, lockPath, verb string) (*freeze.Evaluation, error) {
	ev, err := freeze.Open(lockPath, tc)
	if ev != nil && ev.Report != nil && !ev.Report.OK() {
		printVerifyReport(stdout, lockPath, ev.Report)
		return nil, errRefused
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	return ev, nil
}

// writeItems writes items as JSON Lines, HTML characters as they are.
func writeItems(w io.Writer, items []review.Item) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
			return err
		}
	}
	return nil
}

// itemCounts says how many items of each kind: "38 items (12 citations,
// 20 fields, 6 abstentions)".
func itemCounts(items []review.Item) string {
	n := map[string]int{}
	for _, it := range items {
		n[it.Kind]++
	}
	var parts []string
	for _, k := range []string{review.KindCitation, review.KindField, review.KindAbstention} {
		parts = append(parts, countOf(n[k], k))
	}
	return fmt.Sprintf("%s (%s)", countOf(len(items), "item"), strings.Join(parts, ", "))
}

// reviewsFlag is a repeatable flag naming decisions files.
type reviewsFlag []string

func (r *reviewsFlag) String() string { return strings.Join(*r, ",") }

func (r *reviewsFlag) Set(v string) error {
	if v == "" {
		return fmt.Errorf("an empty file name")
	}
	*r = append(*r, v)
	return nil
}

// applyReviews gives report.html its review items and, with decisions
// (job.reviews, or those the lock pins), applies them: the summary gets
// its figures after review, and the paired comparison after review.
func applyReviews(html *report.HTMLInput, results []grade.Result, job reportJob, pinned []freeze.ReviewFile) error {
	if html.Pages == nil || html.Reference == nil {
		if len(job.reviews) > 0 {
			return usageErrorf("report: --reviews needs the evaluation the results were graded against: give --lock (or --corpus and --reference)")
		}
		html.ReviewNote = "No review mode: it needs the page texts and the reference the results were graded against (report --lock, or --corpus and --reference)."
		return nil
	}
	set, err := review.Collect(results, html.Reference, html.Pages)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	html.Review = set.Items()
	html.ReviewNote = "Nothing to review: the rules decided every verdict of these results."
	paths, names, err := reviewFiles(job.reviews, job.reviewNames, pinned)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(paths) == 0 {
		return nil
	}
	ds, files, err := review.ReadDecisionFiles(paths)
	if err != nil {
		return err
	}
	applied, err := set.Apply(ds)
	if err != nil {
		return err
	}
	for i := range files {
		files[i].Path = names[i]
	}
	sum := html.Summary
	rv := applied.Summary(files)
	if sum.Comparison != nil {
		if rv.Comparison, err = job.compare.compare(applied.Results, sum, false); err != nil {
			return err
		}
	}
	sum.AddReviewed(applied.Results, job.thresholds, rv)
	return nil
}

// reviewFiles are the decisions files a report applies, with their names:
// those --reviews gives, or those the lock pins (named as the lock names
// them). With both, the files given must be the ones pinned, by content:
// a published report names exactly the reviews it used.
func reviewFiles(given, names []string, pinned []freeze.ReviewFile) (paths, _ []string, err error) {
	if names == nil {
		names = given
	}
	if len(pinned) == 0 {
		return given, names, nil
	}
	if len(given) == 0 {
		for _, p := range pinned {
			paths, names = append(paths, p.Path), append(names, p.Rel)
		}
		return paths, names, nil
	}
	givenSums := map[string]bool{}
	for _, g := range given {
		_, sum, err := corpus.HashFile(g)
		if err != nil {
			return nil, nil, fmt.Errorf("--reviews: %w", err)
		}
		if !slices.ContainsFunc(pinned, func(p freeze.ReviewFile) bool { return p.BLAKE3 == sum }) {
			return nil, nil, fmt.Errorf("%w: --reviews %s is not a decisions file the lock pins (%s): give the files it pins, or none", freeze.ErrChanged, g, pinnedNames(pinned))
		}
		givenSums[sum] = true
	}
	for _, p := range pinned {
		if !givenSums[p.BLAKE3] {
			return nil, nil, fmt.Errorf("%w: the lock pins the decisions file %s, which --reviews does not give: give the files it pins, or none", freeze.ErrChanged, p.Rel)
		}
	}
	return given, names, nil
}

// reviewedResults applies decisions (given, or those the lock pins) to
// results graded against the lock's evaluation, for compare.
func reviewedResults(stdout io.Writer, tc freeze.Toolchain, lockPath string, given []string, results []grade.Result) ([]grade.Result, error) {
	ev, err := openLock(stdout, tc, lockPath, "compare")
	if err != nil {
		return nil, err
	}
	store, err := corpus.Open(ev.CorpusDir)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	set, err := review.Collect(results, ev.Reference, report.StorePages(store))
	if err != nil {
		return nil, err
	}
	paths, _, err := reviewFiles(given, nil, ev.Reviews)
	switch {
	case err != nil:
		return nil, fmt.Errorf("compare: %w", err)
	case len(paths) == 0:
		return nil, usageErrorf("compare: --lock %s pins no decisions file and --reviews gives none: nothing to apply", lockPath)
	}
	ds, _, err := review.ReadDecisionFiles(paths)
	if err != nil {
		return nil, err
	}
	applied, err := set.Apply(ds)
	if err != nil {
		return nil, err
	}
	return applied.Results, nil
}

func pinnedNames(ps []freeze.ReviewFile) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rel)
	}
	return strings.Join(out, ", ")
}

// checkDecisionFiles reads decisions files strictly, so that freeze pins
// only files report can apply.
func checkDecisionFiles(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	_, _, err := review.ReadDecisionFiles(paths)
	return err
}

// printPinnedReviews names the decisions files a lock pins, when any.
func printPinnedReviews(w io.Writer, l *freeze.Lock) {
	rs := l.Find("reviews")
	if len(rs) == 0 {
		return
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Fields[0])
	}
	fmt.Fprintf(w, "reviews: pinned %s: %s\n", countOf(len(rs), "decisions file"), strings.Join(names, ", "))
}
