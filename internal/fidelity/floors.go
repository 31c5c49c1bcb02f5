package fidelity

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Floors is the record of the fidelity ratchet (pdftext's
// TestFidelityRatchet), kept per reference tool: the tool's version the
// floors were measured with and, per document and for the whole corpus
// (the document "*"), the least share of that tool's windows that must be
// found in our text, in tenths of a percent.
//
// Each tool's figure counts only that tool's windows, so it is the same
// whichever other tools are installed: a machine with three of the four
// tools checks three tools' floors and leaves the fourth's as they are.
type Floors struct {
	Version map[string]string         // tool → version
	Rate    map[string]map[string]int // tool → document ("*" all) → tenths
}

// Corpus is the document name of a tool's whole-corpus floor.
const Corpus = "*"

// FloorsHeader documents the file format; Format writes it first.
const FloorsHeader = `# Extraction fidelity ratchet (pdftext TestFidelityRatchet, package internal/fidelity):
# for each reference extractor, the least share of the windows of its page texts that
# must be found in citecheck's page text, in tenths of a percent, per document and for
# the whole corpus ("*"). One floor a line: "<tool> <document> <tenths>". The "# tools:"
# line names the version of each tool its floors were measured with. Only installed
# tools are checked: a tool's per-document floors with the version they were measured
# with, its whole-corpus floor with any version (less one point with another one).
# Raised with go test ./pdftext -run FidelityRatchet -update-floors: a floor never goes
# down, and a tool's floors are raised only with the version they were measured with.
`

// NewFloors returns empty floors.
func NewFloors() *Floors {
	return &Floors{Version: map[string]string{}, Rate: map[string]map[string]int{}}
}

// Tenths is a cell's rate in tenths of a percent, rounded down; an empty
// cell is 1000.
func Tenths(c Cell) int {
	if c.Total == 0 {
		return 1000
	}
	return int(math.Floor(1000 * float64(c.Found) / float64(c.Total)))
}

func knownTool(name string) bool { return slices.Contains(ToolNames, name) }

// ReadFloors parses the floors file format (FloorsHeader).
func ReadFloors(r io.Reader) (*Floors, error) {
	f := NewFloors()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if tools, ok := strings.CutPrefix(line, "# tools:"); ok {
			for _, tv := range strings.Fields(tools) {
				name, v, ok := strings.Cut(tv, "=")
				if !ok || !knownTool(name) {
					return nil, fmt.Errorf("line %d: want \"# tools: <tool>=<version> ...\" naming %s, got %q", n, strings.Join(ToolNames, ", "), line)
				}
				f.Version[name] = v
			}
			continue
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tool, rest, ok1 := strings.Cut(line, " ")
		i := strings.LastIndexByte(rest, ' ')
		if !ok1 || i <= 0 || !knownTool(tool) {
			return nil, fmt.Errorf("line %d: want \"<tool> <document> <tenths of a percent>\" with a tool of %s, got %q", n, strings.Join(ToolNames, ", "), line)
		}
		doc := rest[:i]
		v, err := strconv.Atoi(rest[i+1:])
		if err != nil || v < 0 || v > 1000 {
			return nil, fmt.Errorf("line %d: %q is not a share in tenths of a percent (0 to 1000)", n, rest[i+1:])
		}
		if f.Rate[tool] == nil {
			f.Rate[tool] = map[string]int{}
		}
		if _, dup := f.Rate[tool][doc]; dup {
			return nil, fmt.Errorf("line %d: a second floor for %s on %s", n, tool, doc)
		}
		f.Rate[tool][doc] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for tool := range f.Rate {
		if _, ok := f.Version[tool]; !ok {
			return nil, fmt.Errorf("floors for %s but no version of it on the \"# tools:\" line", tool)
		}
	}
	return f, nil
}

// tools lists the tools with floors or a version, in ToolNames order.
func (f *Floors) tools() []string {
	var out []string
	for _, t := range ToolNames {
		if _, ok := f.Version[t]; ok {
			out = append(out, t)
		} else if len(f.Rate[t]) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Format returns the floors file: FloorsHeader, the tools line, then the
// floors by tool, the whole corpus first, then the documents sorted.
func (f *Floors) Format() []byte {
	var b strings.Builder
	b.WriteString(FloorsHeader)
	tools := f.tools()
	var ids []string
	for _, t := range tools {
		ids = append(ids, t+"="+f.Version[t])
	}
	fmt.Fprintf(&b, "# tools: %s\n", strings.Join(ids, " "))
	for _, t := range tools {
		docs := make([]string, 0, len(f.Rate[t]))
		for d := range f.Rate[t] {
			docs = append(docs, d)
		}
		slices.SortFunc(docs, func(a, b string) int {
			if (a == Corpus) != (b == Corpus) {
				if a == Corpus {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
		for _, d := range docs {
			fmt.Fprintf(&b, "%s %s %d\n", t, d, f.Rate[t][d])
		}
	}
	return []byte(b.String())
}

// Measured is one tool's figures of a ratchet run: its windows found in
// our text, per document (documents where it had no window left out) and
// over the whole corpus.
type Measured struct {
	Tool, Version string
	Docs          map[string]Cell
	All           Cell
}

// Rates are the measured figures in the floors' unit, Corpus included.
func (m *Measured) Rates() map[string]int {
	r := map[string]int{Corpus: Tenths(m.All)}
	for d, c := range m.Docs {
		if c.Total > 0 {
			r[d] = Tenths(c)
		}
	}
	return r
}

// Slack is how far, in tenths of a percent, a tool's whole-corpus figure
// may fall below its floor when the installed version is not the one the
// floor was measured with: tool versions move figures a little.
const Slack = 10

// Check compares a tool's figures with its floors. It returns a one-line
// summary for the log and a message for each floor the run is below: a
// document's, only when the versions are the same; the whole corpus's,
// less Slack when they differ. A tool without floors passes.
func (f *Floors) Check(m *Measured) (summary string, below []string) {
	floors := f.Rate[m.Tool]
	recorded, has := f.Version[m.Tool]
	same := has && recorded == m.Version
	for _, d := range sortedNames(m.Docs) {
		c := m.Docs[d]
		floor, ok := floors[d]
		if !ok || c.Total == 0 || !same {
			continue
		}
		if Tenths(c) < floor {
			below = append(below, fmt.Sprintf("%s %s: %s: %d of %d windows found (%.1f%%), below its floor of %.1f%%",
				m.Tool, m.Version, d, c.Found, c.Total, c.Rate(), float64(floor)/10))
		}
	}
	docFloors := 0
	for d := range floors {
		if d != Corpus {
			docFloors++
		}
	}
	head := fmt.Sprintf("%s %s: %d of %d windows found in our text (%.2f%%)", m.Tool, m.Version, m.All.Found, m.All.Total, m.All.Rate())
	floor, ok := floors[Corpus]
	switch {
	case !has || !ok:
		return head + ": no floors recorded for this tool yet", below
	case !same:
		if Tenths(m.All) < floor-Slack {
			below = append(below, fmt.Sprintf("%s %s: whole corpus: %.2f%% of windows found, below the floor of %.1f%% (%.1f%% measured with %s %s, less %.1f points for another version)",
				m.Tool, m.Version, m.All.Rate(), float64(floor-Slack)/10, float64(floor)/10, m.Tool, recorded, float64(Slack)/10))
		}
		summary = fmt.Sprintf("%s; whole-corpus floor %.1f%% (%.1f%% measured with %s, less %.1f): %s; %d per-document floors not checked: they were measured with %s",
			head, float64(floor-Slack)/10, float64(floor)/10, recorded, float64(Slack)/10, verdict(below), docFloors, recorded)
	default:
		if Tenths(m.All) < floor {
			below = append(below, fmt.Sprintf("%s %s: whole corpus: %.2f%% of windows found, below the floor of %.1f%%", m.Tool, m.Version, m.All.Rate(), float64(floor)/10))
		}
		checked := 0
		for d, c := range m.Docs {
			if _, ok := floors[d]; ok && c.Total > 0 {
				checked++
			}
		}
		note := ""
		if checked < docFloors {
			note = " (the others' documents gave no window)"
		}
		summary = fmt.Sprintf("%s; whole-corpus floor %.1f%%; %d of %d per-document floors checked%s: %s",
			head, float64(floor)/10, checked, docFloors, note, verdict(below))
	}
	return summary, below
}

func verdict(below []string) string {
	if len(below) == 0 {
		return "pass"
	}
	return fmt.Sprintf("FAIL (%d below)", len(below))
}

func sortedNames[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Raise merges a tool's measured figures into its floors: each floor
// becomes the greater of the two, floors of documents not measured stay,
// and a tool without floors gets the figures. It refuses to mix versions:
// floors measured with another version are raised only by -reset-floors.
func (f *Floors) Raise(m *Measured) error {
	if v, ok := f.Version[m.Tool]; ok && v != m.Version {
		return fmt.Errorf("not raising the %s floors measured with version %s using version %s: compare like with like (reset them, with the reason in the commit)", m.Tool, v, m.Version)
	}
	if f.Rate[m.Tool] == nil {
		f.Rate[m.Tool] = map[string]int{}
	}
	for d, v := range m.Rates() {
		if old, ok := f.Rate[m.Tool][d]; !ok || v > old {
			f.Rate[m.Tool][d] = v
		}
	}
	f.Version[m.Tool] = m.Version
	return nil
}

// Reset replaces a tool's floors and version with the measured figures,
// lowering floors: only for a deliberate change.
func (f *Floors) Reset(m *Measured) {
	f.Rate[m.Tool] = m.Rates()
	f.Version[m.Tool] = m.Version
}
