package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userDocs are the pages a user reads, by path from this package: the
// README and docs/, but for docs/cli.md (generated from --help, held to it
// by TestCLIReference) and docs/benchmarks.md (a dated record that names
// the versions measured then).
func userDocs(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	paths, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	for _, p := range append(paths, filepath.Join("..", "..", "README.md")) {
		if b := filepath.Base(p); b == "cli.md" || b == "benchmarks.md" {
			continue
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		pages[filepath.ToSlash(p)] = string(data)
	}
	return pages
}

var versionedName = regexp.MustCompile(`\b(citecheck-[a-z-]+/[0-9](?:[0-9.]*[0-9])?|(?:quote|value)/v[0-9]+)\b`)

// TestDocsNameCurrentFormats: every format and normalization profile the
// docs name is the version "citecheck version" reports, and every format
// it reports is described in docs/formats.md.
func TestDocsNameCurrentFormats(t *testing.T) {
	out, _, code := runCLI(t, "version")
	require.Equal(t, 0, code)
	current := map[string][]string{} // "citecheck-plan" -> "citecheck-plan/2"; a family may have two (summary /2 and /3)
	var formats []string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "format":
			formats = append(formats, f[2])
			current[strings.Split(f[2], "/")[0]] = append(current[strings.Split(f[2], "/")[0]], f[2])
		case len(f) == 2 && f[0] == "normalization":
			current[strings.Split(f[1], "/")[0]] = append(current[strings.Split(f[1], "/")[0]], f[1])
		}
	}
	require.NotEmpty(t, formats, "citecheck version lists the formats")
	for path, text := range userDocs(t) {
		for i, line := range strings.Split(text, "\n") {
			for _, name := range versionedName.FindAllString(line, -1) {
				family := strings.Split(name, "/")[0]
				want, ok := current[family]
				if !assert.True(t, ok, "%s:%d names %s, which citecheck version does not report", path, i+1, name) {
					continue
				}
				assert.Contains(t, want, name, "%s:%d names another version than the tool's", path, i+1)
			}
		}
	}
	spec, err := os.ReadFile(filepath.Join("..", "..", "docs", "formats.md"))
	require.NoError(t, err)
	for _, f := range formats {
		if !strings.Contains(string(spec), "`"+f+"`") {
			t.Errorf("docs/formats.md does not name %s (in backquotes) where it describes it", f)
		}
	}
}

// synopsisFlag is a flag a synopsis line of the docs shows with a value:
// "[--timeout 30s]". A value in capitals or with a dot or comma is a
// placeholder ("N", "PLAN", "A:1,B:1,..."), any other is the default.
var synopsisFlag = regexp.MustCompile(`\[--([a-z][a-z-]*) ([^\]\s]+)\]`)

var helpDefault = regexp.MustCompile(`(?m)^  -([a-z][a-z-]*)(?: [a-z]+)?\n\s+.*\(default ([^)]+)\)$`)

// TestDocsFlagDefaults: a default a synopsis in the docs shows for a flag
// is the default the verb's --help prints.
func TestDocsFlagDefaults(t *testing.T) {
	defaults := map[string]map[string]string{} // verb -> flag -> default
	for _, c := range commands {
		if c.hidden {
			continue
		}
		help, _, code := runCLI(t, c.name, "--help")
		require.Equal(t, 0, code, c.name)
		defaults[c.name] = map[string]string{}
		for _, m := range helpDefault.FindAllStringSubmatch(help, -1) {
			defaults[c.name][m[1]] = strings.Trim(m[2], `"`)
		}
	}
	checked := 0
	for path, text := range userDocs(t) {
		for i, line := range strings.Split(text, "\n") {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
			if len(f) < 2 || f[0] != "citecheck" || defaults[f[1]] == nil {
				continue
			}
			for _, m := range synopsisFlag.FindAllStringSubmatch(line, -1) {
				flag, value := m[1], m[2]
				if strings.ToUpper(value) == value || strings.ContainsAny(value, ".,") {
					continue
				}
				want, ok := defaults[f[1]][flag]
				if assert.True(t, ok, "%s:%d: citecheck %s --%s has no default to show", path, i+1, f[1], flag) {
					assert.Equal(t, want, value, "%s:%d: the default of citecheck %s --%s", path, i+1, f[1], flag)
				}
				checked++
			}
		}
	}
	assert.Positive(t, checked, "the docs show some defaults")
}

// TestReadmeExitCodes: the README's table of exit codes is the CLI's.
func TestReadmeExitCodes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	rows := regexp.MustCompile(`(?m)^\| ([0-9]) \| ([a-z]+)`).FindAllStringSubmatch(string(data), -1)
	want := []struct {
		code  int
		first string
	}{{exitOK, "ran"}, {exitFailed, "ran"}, {exitUsage, "usage"}, {exitIntegrity, "integrity"}, {exitInternal, "internal"}}
	require.Len(t, rows, len(want), "one row per exit code")
	for i, w := range want {
		assert.Equal(t, strconv.Itoa(w.code), rows[i][1])
		assert.Equal(t, w.first, rows[i][2], "exit %d", w.code)
	}
}

// TestFreezingDocLockIsReal: the lock docs/freezing.md shows, but for its
// "..." lines, is lines of the freeze golden's lock, in its order.
func TestFreezingDocLockIsReal(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "freezing.md"))
	require.NoError(t, err)
	golden, err := os.ReadFile(filepath.Join(testdata, "freeze", "eval.lock"))
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "```\ncitecheck-lock/1\n")
	require.True(t, ok, "docs/freezing.md shows a lock")
	shown, _, _ := strings.Cut(rest, "```")
	lines := strings.Split(string(golden), "\n")
	at := 0
	for _, l := range strings.Split(strings.TrimSpace(shown), "\n") {
		if l == "..." {
			continue
		}
		i := slices.Index(lines[at:], l)
		if !assert.GreaterOrEqual(t, i, 0, "docs/freezing.md shows a lock line the golden lock does not have after the one before: %q", l) {
			continue
		}
		at += i + 1
	}
}

// TestDocsEnvelopesGrade: each vendor's complete envelope in
// docs/formats.md, copied as written, is read in the format its shape
// shows, audited and graded: every verdict passes on the demo's pieces.
func TestDocsEnvelopesGrade(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "formats.md"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	pieces := filepath.Join("demo", "pieces")
	example := regexp.MustCompile("(?s)\n### ([a-z]+)\n.*?A complete envelope:\n\n```json\n([^\n]+)\n```")
	seen := map[string]bool{}
	for _, m := range example.FindAllStringSubmatch(string(doc), -1) {
		vendor, line := m[1], m[2]
		seen[vendor] = true
		file := vendor + ".jsonl"
		writeFile(t, file, line+"\n")
		out, errOut, code := runCLI(t, "audit", "--corpus", filepath.Join(pieces, "corpus"), file)
		assert.Equal(t, 0, code, "%s: audit: %s%s", vendor, out, errOut)
		out, errOut, code = runCLI(t, "grade", "--corpus", filepath.Join(pieces, "corpus"), "--reference", filepath.Join(pieces, "reference.json"),
			"--out", "r-"+vendor, file)
		assert.Equal(t, 0, code, "%s: grade: every verdict passes: %s%s", vendor, out, errOut)
	}
	for _, v := range runs.Formats[1:] {
		assert.True(t, seen[v], "docs/formats.md shows a complete %s envelope", v)
	}
}
