package citecheck_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzSmokeLine is one fuzz target of the Makefile's fuzz-smoke recipe:
// its name and its package folder.
var fuzzSmokeLine = regexp.MustCompile(`-fuzz='\^(Fuzz\w+)\$\$'.*\s\./(\S*?)/?$`)

// TestFuzzSmokeRunsEveryTarget: "make fuzz-smoke" runs every fuzz target
// of the module, so that none is left to rot unrun; a target the module
// no longer has is a line to remove.
func TestFuzzSmokeRunsEveryTarget(t *testing.T) {
	defined := fuzzTargets(t)
	listed := fuzzSmokeTargets(t)
	require.NotEmpty(t, defined, "no fuzz target found: the walk is wrong")
	for _, target := range defined {
		assert.True(t, slices.Contains(listed, target), "%s has no line in the Makefile's fuzz-smoke recipe", target)
	}
	for _, target := range listed {
		assert.True(t, slices.Contains(defined, target), "make fuzz-smoke runs %s, which no test defines", target)
	}
}

// fuzzTargets returns every func FuzzXxx(*testing.F) of the module's
// test files, as "dir.FuzzXxx" (dir slash-separated, "." at the root).
func fuzzTargets(t *testing.T) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") && len(fn.Type.Params.List) == 1 {
				out = append(out, filepath.ToSlash(filepath.Dir(path))+"."+fn.Name.Name)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// fuzzSmokeTargets returns the targets of the fuzz-smoke recipe, as
// fuzzTargets names them.
func fuzzSmokeTargets(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	_, recipe, found := strings.Cut(string(data), "\nfuzz-smoke:\n")
	require.True(t, found, "no fuzz-smoke target in the Makefile")
	var out []string
	for _, line := range strings.Split(recipe, "\n") {
		if !strings.HasPrefix(line, "\t") {
			break // the recipe's end
		}
		m := fuzzSmokeLine.FindStringSubmatch(line)
		require.NotNil(t, m, "a fuzz-smoke line this test cannot read: %s", line)
		dir := m[2]
		if dir == "" {
			dir = "."
		}
		out = append(out, dir+"."+m[1])
	}
	require.NotEmpty(t, out, "an empty fuzz-smoke recipe")
	return out
}
