// Command citecheck verifies the evidence behind answers to document
// questions: it extracts page text from PDFs, locates cited quotes, grades
// answers and reports metrics. Run "citecheck help" for the verbs.
//
// Exit codes: 0 ran and every check passed; 1 ran and something failed or is
// unresolved; 2 usage or input error; 3 integrity refusal (frozen inputs
// changed); 4 internal error.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	err := run(os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(exitCode(os.Stderr, err))
}

// command is one verb of the CLI.
type command struct {
	name    string
	summary string
	run     func(stdout, stderr io.Writer, args []string) error
	hidden  bool
}

// commands is the verb table, in the order "help" lists them.
var commands []command

func init() {
	commands = []command{
		{name: "extract", summary: "extract page text and hashes from PDFs into a corpus store", run: runExtract},
		{name: "import-text", summary: "make a corpus store from page texts (OCR output, trusted text) instead of PDFs", run: runImportText},
		{name: "show", summary: "print a document's stored page text, with an offset ruler on request", run: runShow},
		{name: "locate", summary: "find where each quote lies: unique, ambiguous, not found, and at what level", run: runLocate},
		{name: "spans", summary: "validate a reference's evidence spans against the corpus; --fix fills unique offsets", run: runSpans},
		{name: "plan", summary: "make the frozen question order of every session", run: runPlan},
		{name: "freeze", summary: "pin corpus, reference and plan by hash in a lock; --verify checks one", run: runFreeze},
		{name: "audit", summary: "audit every citation of runs for grounding; no reference needed", run: runAudit},
		{name: "grade", summary: "grade every attempt of runs against a frozen evaluation: fields, citations, abstention", run: runGrade},
		{name: "typed", summary: "score typed transcription answers (booleans, integers, strings, lists)", run: runTyped},
		{name: "demo", summary: "run the pipeline on the embedded fixture PDFs", run: runDemo},
		{name: "help", summary: "describe the verbs", run: runHelp},
		{name: childCommand, run: runChild, hidden: true},
	}
}

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		usage(stderr)
		return usageErrorf("no verb given")
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(stdout, stderr, args[1:])
		}
	}
	usage(stderr)
	return usageErrorf("unknown verb %q", name)
}

func runHelp(stdout, stderr io.Writer, args []string) error {
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		for _, c := range commands {
			if c.name == args[0] && !c.hidden {
				return c.run(stdout, stderr, []string{"--help"})
			}
		}
		return usageErrorf("unknown verb %q", args[0])
	}
	usage(stdout)
	return nil
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
	fmt.Fprintf(w, "\nRun \"citecheck VERB --help\" for a verb's flags.\n")
	fmt.Fprintf(w, "Exit codes: 0 all checks pass, 1 something failed or is unresolved,\n")
	fmt.Fprintf(w, "2 usage or input error, 3 integrity refusal, 4 internal error.\n")
}

// Exit codes of the CLI contract (DESIGN §2).
const (
	exitOK        = 0
	exitFailed    = 1
	exitUsage     = 2
	exitIntegrity = 3
	exitInternal  = 4
)

// exitError carries the exit code a verb wants; any other error is internal.
type exitError struct {
	code   int
	err    error
	silent bool // the verb has already said what went wrong
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports bad usage or bad input (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// inputError marks err as a fault in the user's input (exit 2).
func inputError(err error) error {
	return &exitError{code: exitUsage, err: err}
}

// errChecksFailed is returned by a verb that ran to the end but found
// something failed or unresolved (exit 1); the verb has already reported it.
var errChecksFailed = &exitError{code: exitFailed, err: errors.New("some checks failed"), silent: true}

// errHelp is returned after --help was printed: not an error for the user.
var errHelp = &exitError{code: exitOK, err: errors.New("help shown")}

func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.code != exitOK && !ee.silent {
			fmt.Fprintf(stderr, "citecheck: %v\n", err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "citecheck: internal error: %v\n", err)
	return exitInternal
}
