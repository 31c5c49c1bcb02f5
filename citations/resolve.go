package citations

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Resolution is the outcome of mapping a cited document to the corpus.
type Resolution string

// The resolutions.
const (
	DocResolved  Resolution = "resolved"
	DocUnknown   Resolution = "unknown"   // no corpus document
	DocAmbiguous Resolution = "ambiguous" // the ways of naming disagree, or only a loose match exists
)

// DocumentMatch is the result of Resolve.
type DocumentMatch struct {
	Resolution Resolution
	Name       string   // the corpus name when resolved
	Candidates []string // the corpus names in play when ambiguous, sorted
	// Loose: ambiguous because the reference matches only loosely (case,
	// a folder prefix, the extension), not because two ways disagree.
	Loose bool
}

// Why explains an ambiguous match.
func (m DocumentMatch) Why(ref string) string {
	if m.Loose {
		return fmt.Sprintf("document %q matches %s only loosely (case, folder or extension)", ref, strings.Join(m.Candidates, ", "))
	}
	return fmt.Sprintf("document %q maps to %s", ref, strings.Join(m.Candidates, ", "))
}

// Resolve maps a cited document reference to a corpus document. Exact name,
// hash and the run's mapping are each tried; if they point at different
// documents the mapping is ambiguous, and so is a mapping whose candidates
// name two or more corpus documents (candidates the corpus lacks are left
// out; a one-name list is the name). With none of them, a name that
// matches only loosely (case, a folder prefix, a missing ".pdf") is
// ambiguous too, never silently accepted: the citation needs review. A
// reference the mapping sends only to names the corpus lacks is unknown;
// an empty list of candidates (an input error, see runs.Record.Validate)
// counts as no mapping. m maps how a run names a document to the corpus
// names it may stand for (a run's runs.Mapping); it may be nil.
func (ix *Index) Resolve(ref string, m map[string][]string) DocumentMatch {
	got := map[int]bool{}
	if d, ok := ix.docIndex(ref); ok {
		got[d] = true
	}
	if targets := m[ref]; len(targets) > 0 {
		mapped := false
		for _, target := range targets {
			if d, ok := ix.docIndex(target); ok {
				got[d] = true
				mapped = true
			}
		}
		if !mapped && len(got) == 0 {
			// The run maps the reference only to what the corpus lacks.
			return DocumentMatch{Resolution: DocUnknown}
		}
	}
	switch len(got) {
	case 1:
		for d := range got {
			return DocumentMatch{Resolution: DocResolved, Name: ix.docs[d].name}
		}
	case 0:
		var near []string
		for _, d := range ix.docs {
			if looseName(d.name) == looseName(ref) && ref != "" {
				near = append(near, d.name)
			}
		}
		if len(near) > 0 {
			sort.Strings(near)
			return DocumentMatch{Resolution: DocAmbiguous, Candidates: near, Loose: true}
		}
		return DocumentMatch{Resolution: DocUnknown}
	}
	var names []string
	for d := range got {
		names = append(names, ix.docs[d].name)
	}
	sort.Strings(names)
	return DocumentMatch{Resolution: DocAmbiguous, Candidates: names}
}

// looseName folds case, drops a folder prefix and a ".pdf" extension.
func looseName(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, `\`, "/")))
	s = path.Base(s)
	return strings.TrimSuffix(s, ".pdf")
}
