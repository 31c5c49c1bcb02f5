package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set whose usage text starts with synopsis and
// whose errors go to stderr.
func newFlagSet(stderr io.Writer, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: citecheck %s\n\n%s\n", synopsis, strings.TrimSpace(about))
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintf(fs.Output(), "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// ("extract a.pdf --out C"); "--" ends flag parsing. Asked for help, it
// prints the usage to stdout and returns errHelp; otherwise it returns the
// positional arguments or a usage error.
func parseFlags(fs *flag.FlagSet, stdout io.Writer, args []string) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			old := fs.Output()
			fs.SetOutput(stdout)
			fs.Usage()
			fs.SetOutput(old)
			return nil, errHelp
		}
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usageErrorf("%s: %v", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// splitList splits a comma-separated flag value into its non-empty,
// trimmed items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
