package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readItems reads review's JSON Lines.
func readItems(t *testing.T, path string) []review.Item {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []review.Item
	for line := range strings.Lines(string(data)) {
		var it review.Item
		require.NoError(t, json.Unmarshal([]byte(line), &it))
		out = append(out, it)
	}
	return out
}

// withoutReviewed is summary.json without what reviews add (each group's
// "reviewed", the summary's "reviews", format /3): the automatic figures'
// bytes, to compare with the summary of no review.
func withoutReviewed(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " ")
		if strings.HasPrefix(trimmed, `"reviewed": {`) || strings.HasPrefix(trimmed, `"reviews": {`) {
			indent := l[:len(l)-len(trimmed)]
			for i++; lines[i] != indent+"}" && lines[i] != indent+"},"; i++ {
			}
			out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], ",")
			continue
		}
		out = append(out, l)
	}
	return strings.Replace(strings.Join(out, "\n"), `"format": "citecheck-summary/3"`, `"format": "citecheck-summary/2"`, 1)
}

// TestReviewOnTheDemo: review lists the demo's unresolved items; the
// shipped decisions resolve them all, and report --reviews gives figures
// after review with no unresolved verdict, the automatic ones unchanged
// byte for byte; stray and automatic decisions are refused with their
// file and line; two reviewers who disagree leave items open and their
// agreement is reported; freeze pins the decisions and refuses a changed
// one; compare applies them too.
func TestReviewOnTheDemo(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	t.Chdir("demo")
	writeFile(t, "decisions.jsonl", string(fixtures.EvalDecisions()))

	out, errOut, code := runCLI(t, "review", "--lock", "eval.lock", "--out", "items.jsonl", "results")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "wrote items.jsonl: 37 items (10 citations, 20 fields, 7 abstentions) for 40 unresolved verdicts\n", out)
	items := readItems(t, "items.jsonl")
	require.Len(t, items, 37)
	byHash := map[string]review.Item{}
	for _, it := range items {
		assert.Equal(t, it.Content.Hash(), it.Hash, "an item's hash is its content's")
		assert.NotEmpty(t, it.Attempts)
		byHash[it.Hash] = it
	}
	stdout, _, code := runCLI(t, "review", "--lock", "eval.lock", "results")
	require.Equal(t, 0, code)
	items2, err := os.ReadFile("items.jsonl")
	require.NoError(t, err)
	assert.Equal(t, string(items2), stdout, "without --out the items go to standard output")

	t.Run("every item decided", reviewEveryItemDecided)
	t.Run("refused", reviewRefused)
	t.Run("disagreement", reviewDisagreement)
	t.Run("blind", func(t *testing.T) { reviewBlind(t, items, byHash) })
	t.Run("frozen", reviewFrozen)
	t.Run("compare", reviewCompare)
}

// reviewEveryItemDecided: the shipped decisions resolve every item:
// figures after review with no unresolved verdict, the automatic ones byte
// for byte as without reviews.
func reviewEveryItemDecided(t *testing.T) {
	_, errOut, code := runCLI(t, "report", "results", "--lock", "eval.lock", "--out", "plain")
	require.Equal(t, 1, code, errOut)
	_, errOut, code = runCLI(t, "report", "results", "--lock", "eval.lock", "--reviews", "decisions.jsonl", "--out", "reviewed")
	require.Equal(t, 1, code, "sessions still fail after review: %s", errOut)
	plain, err := os.ReadFile("plain/summary.json")
	require.NoError(t, err)
	reviewed, err := os.ReadFile("reviewed/summary.json")
	require.NoError(t, err)
	assert.Equal(t, string(plain), withoutReviewed(string(reviewed)), "the automatic figures, byte for byte")
	var s struct {
		Format   string
		Sessions []struct {
			Arm      string
			Session  int
			Reviewed map[string]json.RawMessage
		}
		Reviews struct {
			Items, Decided, Undecided int
			Disagreements             []any
		}
	}
	require.NoError(t, json.Unmarshal(reviewed, &s))
	assert.Equal(t, "citecheck-summary/3", s.Format)
	assert.Equal(t, 37, s.Reviews.Decided)
	assert.Zero(t, s.Reviews.Undecided)
	for _, g := range s.Sessions {
		for _, m := range []string{"supported", "factual", "citations", "abstention"} {
			var metric struct{ Unresolved int }
			require.NoError(t, json.Unmarshal(g.Reviewed[m], &metric))
			assert.Zero(t, metric.Unresolved, "%s/%d %s after review", g.Arm, g.Session, m)
		}
	}
}

// reviewRefused: a stray hash and a decision on a verdict the rules
// decided are refused, exit 2, with file and line; nothing is written.
func reviewRefused(t *testing.T) {
	lines := strings.SplitAfter(string(fixtures.EvalDecisions()), "\n")
	// The first decision with its hash's last digit changed.
	at := strings.Index(lines[0], `", "verdict"`)
	swap := map[byte]string{'0': "1"}[lines[0][at-1]]
	if swap == "" {
		swap = "0"
	}
	stray := lines[0][:at-1] + swap + lines[0][at:]
	strayHash := stray[strings.Index(stray, "blake3:"):at]
	// A verdict the grader decided: the demo's first result's passing
	// citation, hashed as review hashes it.
	auto := `{"hash": "` + passingCitationHash(t) + `", "verdict": "fail", "reviewer": "r.okafor"}` + "\n"
	for _, tc := range []struct {
		why, file, want string
	}{
		{"a hash of no unresolved item", lines[1] + stray, "stray.jsonl:2: hash: decision refused: " + strayHash + " matches no unresolved item of these results"},
		{"a verdict the rules decided", lines[1] + lines[2] + auto,
			"stray.jsonl:3: hash: decision refused: blake3:.* is a verdict the grader decided \\(pass\\): a review resolves only what the rules left unresolved, it never overrides them"},
	} {
		writeFile(t, "stray.jsonl", tc.file)
		_, errOut, code := runCLI(t, "report", "results", "--lock", "eval.lock", "--reviews", "stray.jsonl", "--out", "stray")
		assert.Equal(t, 2, code, tc.why)
		assert.Regexp(t, tc.want, errOut, tc.why)
		_, err := os.Stat("stray/summary.json")
		assert.True(t, os.IsNotExist(err), "%s: nothing is written", tc.why)
	}
	_, errOut, code := runCLI(t, "report", "results", "--reviews", "decisions.jsonl", "--out", "nolock")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--reviews needs the evaluation the results were graded against")
}

// reviewDisagreement: two reviewers who differ leave items unresolved and
// listed; their agreement is reported.
func reviewDisagreement(t *testing.T) {
	// A second reviewer agrees but on the first two positive verdicts.
	second := strings.ReplaceAll(string(fixtures.EvalDecisions()), `"r.okafor"`, `"m.lindqvist"`)
	second = strings.Replace(second, `"verdict": "pass"`, `"verdict": "fail"`, 1)
	second = strings.Replace(second, `"verdict": "correct"`, `"verdict": "incorrect"`, 1)
	writeFile(t, "second.jsonl", second)
	out, errOut, code := runCLI(t, "report", "results", "--lock", "eval.lock", "--reviews", "decisions.jsonl", "--reviews", "second.jsonl", "--out", "two")
	require.Equal(t, 1, code, errOut)
	var s struct {
		Reviews struct {
			Decided, Undecided int
			Disagreements      []struct{ Verdicts map[string]string }
			Agreement          []struct {
				Reviewers     [2]string
				Items, Agreed int
				Share, Kappa  float64
			}
		}
	}
	data, err := os.ReadFile("two/summary.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &s))
	assert.Equal(t, 35, s.Reviews.Decided)
	require.Len(t, s.Reviews.Disagreements, 2)
	require.Len(t, s.Reviews.Agreement, 1)
	a := s.Reviews.Agreement[0]
	assert.Equal(t, [2]string{"m.lindqvist", "r.okafor"}, a.Reviewers)
	assert.Equal(t, 37, a.Items)
	assert.Equal(t, 35, a.Agreed)
	// By hand: r.okafor 31 positive of 37, m.lindqvist 29; p_o = 35/37;
	// p_e = (31*29 + 6*8)/37^2 = 947/1369; kappa = (1295 - 947)/(1369 -
	// 947) = 348/422 = 174/211.
	assert.Equal(t, 0.945946, a.Share)
	assert.Equal(t, 0.824645, a.Kappa)
	assert.Contains(t, out, "- Reviewers m.lindqvist and r.okafor agree on 35 of 37 items (94.6%), Cohen's kappa 0.824645.")
	assert.Contains(t, out, "- Disagreement, left unresolved: ")
	assert.Contains(t, out, "2 disagreements, 0 undecided")
}

// reviewBlind: blinded items and review page hold nothing that tells the
// systems apart, in a shuffle, with the same hashes.
func reviewBlind(t *testing.T, items []review.Item, byHash map[string]review.Item) {
	// Results whose arms, run files and timings name the systems.
	data, err := os.ReadFile("results/results.jsonl")
	require.NoError(t, err)
	named := strings.NewReplacer(`"arm":"A"`, `"arm":"kingy-pipeline"`, `"arm":"B"`, `"arm":"lmstudio-native"`).Replace(string(data))
	require.NoError(t, os.MkdirAll("named", 0o755))
	writeFile(t, "named/results.jsonl", named)
	out, errOut, code := runCLI(t, "review", "--lock", "eval.lock", "--blind", "--seed", "7", "--html", "blind.html", "--out", "blind.jsonl", "named")
	require.Equal(t, 0, code, errOut)
	jsonl, err := os.ReadFile("blind.jsonl")
	require.NoError(t, err)
	page, err := os.ReadFile("blind.html")
	require.NoError(t, err)
	// The page's markup: without its own style and script, which name
	// no system but hold words of their own.
	markup := string(page[:strings.Index(string(page), "<style>")]) + string(page[strings.Index(string(page), "</style>"):strings.Index(string(page), "<script")])
	for _, secret := range []string{"kingy", "lmstudio", "anthropic", "A-anthropic", "B-lmstudio", "document_index", "1741948800000", "end_turn", "total_ms"} {
		for name, text := range map[string]string{"output": out + errOut, "items": string(jsonl), "page": string(page)} {
			assert.False(t, strings.Contains(text, secret), "the blinded %s holds %q", name, secret)
		}
	}
	for _, word := range []string{`"arm"`, `"session"`, `"position"`, `"attempts"`} {
		assert.False(t, strings.Contains(string(jsonl), word), "the blinded items hold %s", word)
	}
	for _, word := range []string{"session", "position"} {
		assert.False(t, strings.Contains(markup, word), "the blinded page's markup holds %q", word)
	}
	blind := readItems(t, "blind.jsonl")
	require.Len(t, blind, len(items))
	same := 0
	for i, it := range blind {
		assert.Contains(t, byHash, it.Hash, "blinding changes no hash")
		if it.Hash == items[i].Hash {
			same++
		}
	}
	assert.Less(t, same, len(items)/2, "the blinded items are shuffled")
}

// reviewFrozen: freeze pins the decisions; a report with that lock applies
// them, refuses others, and a changed decision is refused.
func reviewFrozen(t *testing.T) {
	out, errOut, code := runCLI(t, "freeze", "--corpus", "corpus", fixtures.EvalReferenceName, "--plan", fixtures.EvalPlanName,
		"--reviews", "decisions.jsonl", "--out", "reviewed.lock")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "reviews: pinned 1 decisions file: decisions.jsonl\n")
	lock, err := os.ReadFile("reviewed.lock")
	require.NoError(t, err)
	assert.Regexp(t, `\nreviews decisions.jsonl blake3:[0-9a-f]{64}\n`, string(lock))
	// The lock's reviews apply without --reviews; given, they must be
	// the pinned ones.
	_, errOut, code = runCLI(t, "report", "results", "--lock", "reviewed.lock", "--out", "pinned")
	require.Equal(t, 1, code, errOut)
	pinned, err := os.ReadFile("pinned/summary.json")
	require.NoError(t, err)
	assert.Contains(t, string(pinned), `"file": "decisions.jsonl"`)
	assert.Contains(t, string(pinned), `"decided": 37`)
	writeFile(t, "other.jsonl", strings.SplitAfter(string(fixtures.EvalDecisions()), "\n")[0])
	_, errOut, code = runCLI(t, "report", "results", "--lock", "reviewed.lock", "--reviews", "other.jsonl", "--out", "other")
	assert.Equal(t, 3, code, errOut)
	assert.Contains(t, errOut, "--reviews other.jsonl is not a decisions file the lock pins (decisions.jsonl)")
	// A changed decision: verify and report refuse.
	edit(t, "decisions.jsonl", `"verdict": "incorrect"`, `"verdict": "correct"`)
	out, _, code = runCLI(t, "freeze", "--verify", "reviewed.lock")
	assert.Equal(t, 3, code)
	assert.Contains(t, out, "changed: reviews decisions.jsonl: the decisions changed after freeze")
	out, _, code = runCLI(t, "report", "results", "--lock", "reviewed.lock", "--out", "changed")
	assert.Equal(t, 3, code)
	assert.Contains(t, out, "changed: reviews decisions.jsonl")
	writeFile(t, "decisions.jsonl", string(fixtures.EvalDecisions()))
	writeFile(t, "bad.jsonl", `{"hash": "nope", "verdict": "pass", "reviewer": "x"}`+"\n")
	_, errOut, code = runCLI(t, "freeze", "--corpus", "corpus", fixtures.EvalReferenceName, "--reviews", "bad.jsonl", "--out", "bad.lock")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "bad.jsonl:1: hash: invalid decision")
}

// reviewCompare: compare applies the decisions too, after the automatic
// comparison.
func reviewCompare(t *testing.T) {
	out, errOut, code := runCLI(t, "compare", "results", "--lock", "eval.lock", "--reviews", "decisions.jsonl", "--replicates", "200")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "automatic (the rules alone):\npaired comparison A - B"), out)
	assert.Contains(t, out, "\nafter review:\npaired comparison A - B")
	_, errOut, code = runCLI(t, "compare", "results", "--reviews", "decisions.jsonl")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--reviews needs --lock")
}

// passingCitationHash is the hash of the demo's first passing citation,
// whose verdict the grader decided.
func passingCitationHash(t *testing.T) string {
	t.Helper()
	out, errOut, code := runCLI(t, "review", "--lock", "eval.lock", "results")
	require.Equal(t, 0, code, errOut)
	require.NotEmpty(t, out)
	// The first result's c1 passes (declared_span); make it unresolved in
	// a copy of the results, list it, and take its hash.
	data, err := os.ReadFile("results/results.jsonl")
	require.NoError(t, err)
	first, rest, _ := strings.Cut(string(data), "\n")
	require.Contains(t, first, `"verdict":"pass","reason":"declared_span"`)
	first = strings.Replace(first, `"verdict":"pass","reason":"declared_span"`, `"verdict":"unresolved","reason":"alternate_evidence"`, 1)
	first = strings.Replace(first, `"supported":"pass"}]`, `"supported":"unresolved"}]`, 1)
	first = strings.Replace(first, `"supported":"pass","abstention"`, `"supported":"unresolved","abstention"`, 1)
	require.NoError(t, os.MkdirAll(filepath.Join("opened"), 0o755))
	writeFile(t, filepath.Join("opened", "results.jsonl"), first+"\n"+rest)
	_, errOut, code = runCLI(t, "review", "--lock", "eval.lock", "--out", "opened.jsonl", "opened")
	require.Equal(t, 0, code, errOut)
	for _, it := range readItems(t, "opened.jsonl") {
		if it.Reason == "alternate_evidence" && it.Attempts[0].Arm == "A" && it.Attempts[0].Session == 1 && it.Attempts[0].Position == 1 {
			return it.Hash
		}
	}
	t.Fatal("the opened citation is not listed")
	return ""
}
