package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/runs"
)

// formatsDoc is docs/formats.md, where every input and output format is
// described.
const formatsDoc = "../../docs/formats.md"

// headingAnchors returns the anchors GitHub gives a Markdown file's
// headings: lower case, punctuation but hyphens dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	drop := regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
	inCode := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		anchors[a] = true
	}
	return anchors
}

// TestHelpLinksFormats: no verb's help points to DESIGN sections, which a
// user does not have; the verbs that read or write a format name its
// section of docs/formats.md, and every section a help names exists.
func TestHelpLinksFormats(t *testing.T) {
	anchors := headingAnchors(t, formatsDoc)
	link := regexp.MustCompile(`docs/formats\.md#([a-z0-9-]+)`)
	want := map[string][]string{
		"locate": {"quotes", "locate-output"},
		"audit":  {"run-records", "envelopes"},
		"grade":  {"run-records", "envelopes"},
		"review": {"review-items", "decisions"},
	}
	for _, c := range commands {
		if c.hidden {
			continue
		}
		out, errOut, code := runCLI(t, c.name, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d: %s", c.name, code, errOut)
			continue
		}
		if strings.Contains(out, "DESIGN") {
			t.Errorf("%s --help points to DESIGN, which users do not have", c.name)
		}
		linked := map[string]bool{}
		for _, m := range link.FindAllStringSubmatch(out, -1) {
			linked[m[1]] = true
			if !anchors[m[1]] {
				t.Errorf("%s --help links docs/formats.md#%s: no such section", c.name, m[1])
			}
		}
		for _, a := range want[c.name] {
			if !linked[a] {
				t.Errorf("%s --help does not link docs/formats.md#%s", c.name, a)
			}
		}
	}
}

// TestFormatsDocLinks: every relative link of the README and of docs/*.md
// leads to a file of the repository or a section of it, and every vendor
// format has its section of docs/formats.md.
func TestFormatsDocLinks(t *testing.T) {
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md")
	linkRE := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.ToSlash(page), "../../")
		for _, m := range linkRE.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			linked := page
			if file != "" {
				linked = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(linked); err != nil {
					t.Errorf("%s links %s: %v", name, target, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(linked, ".md") && !headingAnchors(t, linked)[anchor] {
				t.Errorf("%s links %s: no such section", name, target)
			}
		}
	}
	anchors := headingAnchors(t, formatsDoc)
	for _, f := range runs.Formats[1:] {
		if !anchors[f] {
			t.Errorf("docs/formats.md has no section %q for --format %s", f, f)
		}
	}
	// The schemas' own links to docs/formats.md name existing sections.
	files, _ := filepath.Glob("../../docs/schema/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`docs/formats\.md#([a-z0-9-]+)`).FindAllStringSubmatch(string(b), -1) {
			if !anchors[m[1]] {
				t.Errorf("%s links docs/formats.md#%s: no such section", filepath.Base(f), m[1])
			}
		}
	}
}

// TestAuditGradeDetectFormat: without --format, audit reads every native
// fixture as its --format does, and a vendor response given without its
// envelope is an input error naming the format to use.
func TestAuditGradeDetectFormat(t *testing.T) {
	in := writeDemoPDFs(t)
	c := filepath.Join(t.TempDir(), "corpus")
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	adapters := filepath.Join("..", "..", "runs", "testdata", "adapters")
	for _, f := range runs.Formats[1:] {
		path := filepath.Join(adapters, f+".jsonl")
		want, wantErr, wantCode := runCLI(t, "audit", "--corpus", c, "--format", f, path)
		got, gotErr, gotCode := runCLI(t, "audit", "--corpus", c, path)
		if got != want || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("%s: audit without --format: exit %d, stderr %q; with --format %s: exit %d, stderr %q", f, gotCode, gotErr, f, wantCode, wantErr)
		}
		if wantCode == exitUsage {
			t.Errorf("%s: the fixture does not audit: %s", f, wantErr)
		}
	}
	run := filepath.Join("..", "..", "fixtures", "citations", "run.jsonl")
	want, _, wantCode := runCLI(t, "audit", "--corpus", c, "--format", "run", run)
	if got, gotErr, gotCode := runCLI(t, "audit", "--corpus", c, run); got != want || gotCode != wantCode {
		t.Errorf("run records without --format: exit %d, stderr %q", gotCode, gotErr)
	}

	// A vendor's response without its envelope.
	line, err := os.ReadFile(filepath.Join(adapters, "anthropic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(string(line), "\n", 2)[0]), &env); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFile(t, "bare.jsonl", string(env.Response)+"\n")
	for _, verb := range [][]string{{"audit", "--corpus", c}, {"grade", "--corpus", c, "--reference", "ref.json", "--out", "res"}} {
		if verb[0] == "grade" {
			writeFile(t, "ref.json", `{"format": "citecheck-reference/1.5", "questions": []}`)
		}
		_, errOut, code := runCLI(t, append(verb, "bare.jsonl")...)
		if code != exitUsage || !strings.Contains(errOut, "bare.jsonl:1: cannot tell the run format: looks like an Anthropic Messages response without an envelope") ||
			!strings.Contains(errOut, "use --format anthropic") {
			t.Errorf("%s on a bare Anthropic message: exit %d, stderr %q", verb[0], code, errOut)
		}
	}
}
