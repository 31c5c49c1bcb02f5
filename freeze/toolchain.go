package freeze

import (
	"runtime"
	"runtime/debug"
	"sort"
	"unicode"

	"github.com/citecheck/citecheck/textnorm"
	"golang.org/x/text/unicode/norm"
)

// Toolchain is how the running tool computes: its own version, the
// versions of the modules built into it, Go's, the Unicode tables' and the
// normalization profile's. A difference from the lock is a warning only
// (Check): the frozen evidence is unchanged, though a verdict computed by
// another toolchain may differ and should be recomputed by the one frozen.
type Toolchain struct {
	Tool          string            // main module path
	Version       string            // main module version; "(devel)" for a source build
	VCS           string            // VCS revision, with "+dirty" when modified; "" when unknown
	Go            string            // runtime.Version()
	Modules       map[string]string // dependency module path -> version
	UnicodeGo     string            // unicode.Version: letter, digit, space tables
	UnicodeNorm   string            // norm.Version: the NFC tables
	Normalization string            // textnorm.ProfileQuoteV2
}

// CurrentToolchain describes the running binary from its build
// information. Outside a module build (a test binary) the tool and module
// fields may be "(unknown)" or empty.
func CurrentToolchain() Toolchain {
	tc := Toolchain{
		Tool: "(unknown)", Version: "(unknown)", Go: runtime.Version(), Modules: map[string]string{},
		UnicodeGo: unicode.Version, UnicodeNorm: norm.Version, Normalization: textnorm.ProfileQuoteV2,
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return tc
	}
	if bi.Main.Path != "" {
		tc.Tool, tc.Version = bi.Main.Path, bi.Main.Version
	}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v += "=>" + d.Replace.Path + "@" + d.Replace.Version
		}
		tc.Modules[d.Path] = v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		tc.VCS = rev
		if modified == "true" {
			tc.VCS += "+dirty"
		}
	}
	return tc
}

// records renders the toolchain as lock records.
func (tc Toolchain) records() []Record {
	rs := []Record{
		{"tool", []string{tc.Tool, tc.Version}},
		{"go", []string{tc.Go}},
		{"unicode", []string{"go", tc.UnicodeGo}},
		{"unicode", []string{"norm", tc.UnicodeNorm}},
		{"normalization", []string{tc.Normalization}},
	}
	if tc.VCS != "" {
		rs = append(rs, Record{"tool.vcs", []string{tc.VCS}})
	}
	paths := make([]string, 0, len(tc.Modules))
	for p := range tc.Modules {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		rs = append(rs, Record{"module", []string{p, tc.Modules[p]}})
	}
	return rs
}
