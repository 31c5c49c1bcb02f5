package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/citecheck/citecheck/typedqa"
)

const typedAbout = `
Score typed transcription answers (booleans with "illegible", integers,
paired integers "N | N", a string scored by character accuracy, and
"|"-separated lists scored by F1) against a ground truth, by the rules
docs/typed.md states (its "Scoring rules"). Runs are pooled per model, condition and
question; the output does not depend on the order of input rows.

Inputs:
  --questions  JSON: {"questions": [{"id", "type", "blank_when", "order",
               "first_words", "partial_credit_marker"}]}
               (typedqa/questions-default.json encodes Q1-Q22)
  --truth      CSV with header document,question,value, or JSON Lines with
               those keys; an empty value is a blank ground truth
  --responses  CSV with header model,condition,run,document,question,value,
               or JSON Lines with those keys; an empty value is a blank answer
  --dict       JSON: {"classes": [{"canonical", "forms": [...]}]}
Files ending in .jsonl or .ndjson are JSON Lines, .csv is CSV; otherwise
the first byte decides. One input may be "-", read from stdin.

Output: a table, one row per model, condition and question ("-" where a
figure does not apply; cond_acc, combined and illeg_rate are the boolean
conditional accuracy, combined score and illegibility-claim rate), or with
--json {"results": [...]} with 6-decimal numbers and null where a figure
does not apply. --items writes one CSV row per answer with its outcome,
score and reason.

Example:
  citecheck typed --questions typedqa/questions-default.json --truth truth.csv --responses responses.csv

Exit status: 0 scored; 2 bad usage or bad input (file:line and the fault; a
ground truth or responses file with no rows).`

// runTyped implements "citecheck typed": it parses flags, reads the inputs
// with package typedqa, scores them and renders the report.
func runTyped(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "typed", "typed --questions Q --truth GT --responses R [--dict D] [--json] [--items FILE.csv]", typedAbout)
	questionsPath := fs.String("questions", "", "questions `file` (JSON; required)")
	truthPath := fs.String("truth", "", "ground-truth `file` (CSV or JSON Lines; required)")
	responsesPath := fs.String("responses", "", "responses `file` (CSV or JSON Lines; required)")
	dictPath := fs.String("dict", "", "equivalence dictionary `file` (JSON; default: the built-in figliuolo and domestico classes)")
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	itemsPath := fs.String("items", "", "also write one CSV row per scored answer to `FILE.csv`")
	pos, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("typed: unexpected argument %q", pos[0])
	}
	stdinUsers := 0
	for _, f := range []struct{ name, value string }{{"questions", *questionsPath}, {"truth", *truthPath}, {"responses", *responsesPath}, {"dict", *dictPath}} {
		if f.value == "" && f.name != "dict" {
			return usageErrorf("typed: --%s is required (see citecheck typed --help)", f.name)
		}
		if f.value == "-" {
			stdinUsers++
		}
	}
	if stdinUsers > 1 {
		return usageErrorf("typed: only one input can be read from stdin (-)")
	}
	if *itemsPath == "-" {
		return usageErrorf("typed: --items needs a file name: stdout already carries the table or JSON")
	}

	qs, err := readInput(e.stdin, *questionsPath, func(r io.Reader, _ string) (*typedqa.Questions, error) {
		return typedqa.ReadQuestions(r, *questionsPath)
	})
	if err != nil {
		return err
	}
	dict := typedqa.DefaultDictionary()
	if *dictPath != "" {
		if dict, err = readInput(e.stdin, *dictPath, func(r io.Reader, _ string) (*typedqa.Dictionary, error) {
			return typedqa.ReadDictionary(r, *dictPath)
		}); err != nil {
			return err
		}
	}
	truth, err := readInput(e.stdin, *truthPath, func(r io.Reader, _ string) (*typedqa.Truth, error) {
		return typedqa.ReadTruth(r, *truthPath, typedqa.FormatAuto, qs)
	})
	if err != nil {
		return err
	}
	if len(truth.Rows()) == 0 {
		return fmt.Errorf("typed: %w", noRecords(*truthPath))
	}
	responses, err := readInput(e.stdin, *responsesPath, func(r io.Reader, _ string) (*typedqa.Responses, error) {
		return typedqa.ReadResponses(r, *responsesPath, typedqa.FormatAuto, qs)
	})
	if err != nil {
		return err
	}
	if len(responses.Rows()) == 0 {
		return fmt.Errorf("typed: %w", noRecords(*responsesPath))
	}
	report, err := typedqa.Score(qs, dict, truth, responses)
	if err != nil {
		return err
	}

	if *itemsPath != "" {
		var b bytes.Buffer
		if err := report.WriteItemsCSV(&b); err != nil {
			return fmt.Errorf("typed: render items: %w", err)
		}
		if err := writeTypedItems(*itemsPath, b.Bytes()); err != nil {
			return err
		}
	}
	if *asJSON {
		err = report.WriteJSON(stdout)
	} else {
		err = report.WriteTable(stdout)
	}
	if err != nil {
		return fmt.Errorf("typed: write output: %w", err)
	}
	return nil
}

// writeTypedItems writes data to path through a temporary file in the same
// folder, so an interrupted run never leaves a truncated items file.
func writeTypedItems(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("typed: --items: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("typed: write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("typed: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("typed: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("typed: write %s: %w", path, err)
	}
	return nil
}
