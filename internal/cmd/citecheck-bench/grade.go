package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// benchGrade measures "citecheck grade" end to end on an evaluation built
// from the worked examples of ../shared/grading: their page texts
// imported; their reference with every question copied K times under new
// ids (Q01-1, Q01-2, ...), K just enough for the largest count, and frozen;
// their 64 run records repeated over the copies in 30 sessions, each
// example's arm its rank among the examples of its question (at most 9
// arms), so that every record is a distinct attempt, as in a real
// evaluation of a large bank. Every count grades against the same frozen
// evaluation. It prints wall time, attempts per second and peak memory per
// count, and the memory ratio between the largest and smallest count: flat
// streaming keeps it near 1.
func benchGrade(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	bin := fs.String("citecheck", "bin/citecheck", "citecheck `binary`")
	shared := fs.String("grading", "../shared/grading", "worked examples `folder`")
	counts := fs.String("attempts", "10000,100000", "comma-separated attempt `counts`")
	work := fs.String("work", filepath.Join(os.TempDir(), "citecheck-bench-grade"), "scratch `folder` (replaced)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := os.RemoveAll(*work); err != nil {
		return err
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	var ns []int
	for _, c := range strings.Split(*counts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("--attempts: %q", c)
		}
		ns = append(ns, n)
	}
	examples, err := os.ReadFile(filepath.Join(*shared, "runs.jsonl"))
	if err != nil {
		return err
	}
	var records []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(examples), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		records = append(records, m)
	}
	const sessions = 30
	copies := (slices.Max(ns) + len(records)*sessions - 1) / (len(records) * sessions)
	if err := copyReference(filepath.Join(*shared, "reference.json"), filepath.Join(*work, "reference.json"), copies); err != nil {
		return err
	}
	lock := filepath.Join(*work, "eval.lock")
	for _, argv := range [][]string{
		{"import-text", "--out", filepath.Join(*work, "corpus"), filepath.Join(*shared, "pages")},
		{"freeze", "--corpus", filepath.Join(*work, "corpus"), filepath.Join(*work, "reference.json"), "--out", lock},
	} {
		if _, err := runMeasured(*bin, argv...); err != nil {
			return fmt.Errorf("%s: %w", argv[0], err)
		}
	}
	fmt.Fprintf(stdout, "grade: %d worked examples over %d copies of the reference's questions, %d sessions; %s grade --lock, whole process\n\n",
		len(records), copies, sessions, *bin)
	fmt.Fprintf(stdout, "%10s %10s %14s %12s\n", "attempts", "wall", "attempts/s", "peak RSS")
	var rss []int64
	for _, n := range ns {
		runs := filepath.Join(*work, fmt.Sprintf("runs-%d.jsonl", n))
		if err := writeRuns(runs, records, n, sessions); err != nil {
			return err
		}
		out := filepath.Join(*work, fmt.Sprintf("results-%d", n))
		m, err := runMeasured(*bin, "grade", "--lock", lock, "--out", out, runs)
		if err != nil {
			return fmt.Errorf("grade %d: %w", n, err)
		}
		// The examples fail on purpose (exit 1); what counts is that every
		// attempt got its result.
		if got, err := countLines(filepath.Join(out, "results.jsonl")); err != nil || got != n {
			return fmt.Errorf("grade %d: %d results (%v)", n, got, err)
		}
		rss = append(rss, m.maxRSS)
		fmt.Fprintf(stdout, "%10d %9.2fs %14.0f %9.1f MiB\n", n, m.wall.Seconds(), float64(n)/m.wall.Seconds(), float64(m.maxRSS)/(1<<20))
	}
	if len(rss) > 1 && rss[0] > 0 {
		fmt.Fprintf(stdout, "\npeak RSS, largest count / smallest: %.2fx\n", float64(rss[len(rss)-1])/float64(rss[0]))
	}
	return nil
}

// writeRuns writes n records: for copy k = 1, 2, ... and session 1..s,
// every example once, answering copy k of its question, its arm its rank
// among the examples of that question.
func writeRuns(path string, records []map[string]any, n, sessions int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	rank := make([]int, len(records))
	seen := map[any]int{}
	for i, r := range records {
		rank[i] = seen[r["question"]]
		seen[r["question"]]++
	}
	for i := range n {
		e := i % len(records)
		round := i / len(records)
		rec := maps.Clone(records[e])
		rec["arm"] = fmt.Sprintf("A%d", rank[e]+1)
		rec["session"] = round%sessions + 1
		rec["question"] = fmt.Sprintf("%s-%d", records[e]["question"], round/sessions+1)
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// copyReference writes the reference with every question copied k times,
// ids suffixed -1 .. -k.
func copyReference(src, dst string, k int) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var ref map[string]json.RawMessage
	if err := json.Unmarshal(data, &ref); err != nil {
		return err
	}
	var qs []map[string]json.RawMessage
	if err := json.Unmarshal(ref["questions"], &qs); err != nil {
		return err
	}
	var out []map[string]json.RawMessage
	for c := 1; c <= k; c++ {
		for _, q := range qs {
			var id string
			if err := json.Unmarshal(q["id"], &id); err != nil {
				return err
			}
			cp := maps.Clone(q)
			cp["id"], _ = json.Marshal(fmt.Sprintf("%s-%d", id, c))
			out = append(out, cp)
		}
	}
	ref["questions"], err = json.Marshal(out)
	if err != nil {
		return err
	}
	data, err = json.Marshal(ref)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func countLines(path string) (int, error) {
	data, err := os.ReadFile(path)
	return bytes.Count(data, []byte("\n")), err
}
