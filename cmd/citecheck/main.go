// Command citecheck verifies the evidence behind answers to document
// questions: it extracts page text from PDFs, locates cited quotes, grades
// answers and reports metrics. Run "citecheck help" for the verbs.
//
// Exit codes: 0 ran and every check passed; 1 ran and something failed or is
// unresolved; 2 usage or input error; 3 integrity refusal (frozen inputs
// changed); 4 internal error, a bug. exitCodeOf (exitcode.go) is the one
// place that maps what a verb returned to its code.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/citecheck/citecheck/freeze"
)

func main() {
	err := run(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(exitCode(os.Stderr, err))
}

// env is what a verb runs with: the standard streams (an input named "-"
// is stdin) and the toolchain it pins in a lock and checks locks against.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// toolchain describes the running binary; tests give a fixed one so
	// that golden output does not depend on the Go version or the commit.
	toolchain func() freeze.Toolchain
}

// command is one verb of the CLI.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) error
	hidden  bool
}

// commands is the verb table, in the order "help" lists them.
var commands []command

func init() {
	commands = []command{
		{name: "extract", summary: "extract page text and hashes from PDFs into a corpus store", run: runExtract},
		{name: "merge", summary: "merge the shards of extract --shard K/N into the corpus one extract would make", run: runMerge},
		{name: "import-text", summary: "make a corpus store from page texts (OCR output, trusted text) instead of PDFs", run: runImportText},
		{name: "show", summary: "print a document's stored page text, with an offset ruler on request", run: runShow},
		{name: "locate", summary: "find where each quote lies: unique, ambiguous, not found, and at what level", run: runLocate},
		{name: "spans", summary: "validate a reference's evidence spans against the corpus; --fix fills unique offsets", run: runSpans},
		{name: "plan", summary: "make the frozen question order of every session", run: runPlan},
		{name: "freeze", summary: "pin corpus, reference and plan by hash in a lock; --verify checks one", run: runFreeze},
		{name: "audit", summary: "audit every citation of runs for grounding; no reference needed", run: runAudit},
		{name: "grade", summary: "grade every attempt of runs against a frozen evaluation: fields, citations, abstention", run: runGrade},
		{name: "report", summary: "metrics with bounds, qualification, comparison and latency: summary.md, summary.json, report.html", run: runReport},
		{name: "compare", summary: "paired whole-question comparison of two arms: seeded bootstrap, SEs, t-interval", run: runCompare},
		{name: "review", summary: "list the verdicts the rules left unresolved, for a blinded human review report --reviews applies", run: runReview},
		{name: "typed", summary: "score typed transcription answers (booleans, integers, strings, lists)", run: runTyped},
		{name: "demo", summary: "run the pipeline on the embedded fixture PDFs", run: runDemo},
		{name: "version", summary: "print the versions of the tool, extractor, normalization profiles and formats", run: runVersion},
		{name: "help", summary: "describe the verbs", run: runHelp},
		{name: childCommand, run: runChild, hidden: true},
	}
}

// run runs the verb args[0] with the running toolchain.
func run(stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	return runEnv(&env{stdin: stdin, stdout: stdout, stderr: stderr, toolchain: freeze.CurrentToolchain}, args)
}

// runEnv runs the verb args[0] in e.
func runEnv(e *env, args []string) error {
	stderr := e.stderr
	if len(args) == 0 {
		usage(stderr)
		return usageErrorf("no verb given")
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(e, args[1:])
		}
	}
	usage(stderr)
	return usageErrorf("unknown verb %q", name)
}

const helpAbout = `
Describe the verbs, or with VERB, print that verb's flags, a worked example
and its exit status (as "citecheck VERB --help" does).

Example:
  citecheck help grade

Exit status: 0 help printed; 2 an unknown verb.`

func runHelp(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "help", "help [VERB]", helpAbout)
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	switch len(rest) {
	case 0:
		usage(stdout)
		return nil
	case 1:
		for _, c := range commands {
			if c.name == rest[0] && !c.hidden {
				return c.run(e, []string{"--help"})
			}
		}
		return usageErrorf("unknown verb %q", rest[0])
	}
	return usageErrorf("help: want at most one VERB, got %d arguments", len(rest))
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: citecheck VERB [flags] [args]\n\nVerbs:\n")
	width := 0
	for _, c := range commands {
		if !c.hidden {
			width = max(width, len(c.name))
		}
	}
	for _, c := range commands {
		if !c.hidden {
			fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
		}
	}
	fmt.Fprintf(w, "\nRun \"citecheck VERB --help\" for a verb's flags, an example and its exit status.\n")
	fmt.Fprintf(w, "Exit status: 0 all checks pass, 1 something failed or is unresolved,\n")
	fmt.Fprintf(w, "2 usage or input error, 3 integrity refusal, 4 internal error (a bug).\n")
}
