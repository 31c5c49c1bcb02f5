package typedqa

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// typedDocCite is how Go code cites a section of docs/typed.md: the path, a
// comma, a space (or a line break inside a comment) and the heading. Built
// from parts so that this file does not cite a heading itself.
const typedDocCite = "docs/typed.md" + ","

// commentBreak is a line comment's break to its continuation, read as a
// space, so a citation wrapped across two comment lines reads as one.
var commentBreak = regexp.MustCompile(`\n[ \t]*//[ \t]?`)

// TestDocsTypedHeadingsExist: every citation of a docs/typed.md section in
// the module's Go files names a heading that the page has, followed by
// punctuation, so renaming or dropping a section cannot leave code pointing
// at a rule that is no longer stated.
func TestDocsTypedHeadingsExist(t *testing.T) {
	headings := typedDocHeadings(t)
	cited := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		for at := 0; ; {
			i := strings.Index(text[at:], typedDocCite)
			if i < 0 {
				break
			}
			at += i + len(typedDocCite)
			rest := text[at:]
			if len(rest) > 300 { // far longer than a heading with its wrapping
				rest = rest[:300]
			}
			rest = commentBreak.ReplaceAllString(rest, " ")
			heading, ok := strings.CutPrefix(rest, " ")
			if !ok {
				continue // the path alone, not a section
			}
			cited++
			if !citesHeading(heading, headings) {
				line := strings.Count(text[:at], "\n") + 1
				shown, _, _ := strings.Cut(heading, "\n")
				if len(shown) > 40 {
					shown = shown[:40] + "..."
				}
				t.Errorf("%s:%d cites %q, which is no heading of docs/typed.md followed by punctuation", path, line, shown)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// typedqa alone cites the page some forty times; far fewer means the
	// scan, not the code, is broken.
	if cited < 20 {
		t.Errorf("found %d citations of docs/typed.md sections, want the code's (20 or more)", cited)
	}
}

// typedDocHeadings lists the text of every heading of the page, leaving
// out fenced blocks, where a "#" line is not a heading.
func typedDocHeadings(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("../docs/typed.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fenced := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		case !fenced && strings.HasPrefix(line, "#"):
			if h := strings.TrimSpace(strings.TrimLeft(line, "#")); h != "" {
				out = append(out, h)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/typed.md has no headings")
	}
	return out
}

// citesHeading says whether s starts with one of headings ended by
// punctuation or the end of the line: "Text arrays)" does, "Text arrays
// are" does not. The longest heading s starts with decides, so a heading
// that begins another is not taken for it.
func citesHeading(s string, headings []string) bool {
	longest := ""
	for _, h := range headings {
		if strings.HasPrefix(s, h) && len(h) > len(longest) {
			longest = h
		}
	}
	if longest == "" {
		return false
	}
	rest := s[len(longest):]
	return rest == "" || strings.ContainsAny(rest[:1], "),;:.\"`\n")
}
