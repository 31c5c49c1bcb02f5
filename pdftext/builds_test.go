package pdftext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/citecheck/citecheck/internal/shareddata"
)

// TestStoresAcrossBuilds extracts the shared corpus with a GOAMD64=v1 and
// a GOAMD64=v3 build of citecheck and wants the two stores byte for byte
// the same. v3 lets the compiler fuse a multiply and an add into one FMA
// instruction, which rounds once instead of twice; before every such
// product was rounded explicitly (matrix), two pages of the corpus got
// different glyph boxes (The Go Programming Language Ch1 p15 and pdfplumber
// issue-192-example p1). The whole corpus is extracted: it takes about as
// long as building the v3 binary the first time (std and every dependency
// compiled for v3), and every document is one more chance to meet a fused
// operation.
func TestStoresAcrossBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("building and extracting with two builds is skipped in -short mode")
	}
	if runtime.GOARCH != "amd64" {
		t.Skipf("GOAMD64 levels exist only on amd64, not %s", runtime.GOARCH)
	}
	pdfs := shareddata.Path(t, "pdf-corpus")
	if missing, err := missingV3Features(); err != nil {
		t.Skipf("cannot tell whether this CPU runs GOAMD64=v3 code: %v", err)
	} else if len(missing) > 0 {
		t.Skipf("this CPU cannot run a GOAMD64=v3 binary: it lacks %s", strings.Join(missing, ", "))
	}
	dir := t.TempDir()
	stores := map[string]string{}
	for _, level := range []string{"v1", "v3"} {
		start := time.Now()
		bin := filepath.Join(dir, "citecheck-"+level)
		build := exec.Command("go", "build", "-o", bin, "github.com/citecheck/citecheck/cmd/citecheck")
		build.Env = append(os.Environ(), "GOAMD64="+level)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("GOAMD64=%s go build: %v\n%s", level, err, out)
		}
		built := time.Since(start)
		// Both stores lie at the same depth, so the PDFs' relative paths
		// in the manifests agree.
		store := filepath.Join(dir, "store-"+level)
		var stderr bytes.Buffer
		extract := exec.Command(bin, "extract", "--out", store, "--jobs", "2", pdfs)
		extract.Stderr = &stderr
		out, err := extract.Output()
		// Exit 1 says some documents did not extract ok (the encrypted
		// ones): expected, and the same for both builds.
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Fatalf("GOAMD64=%s citecheck extract: %v\n%s%s", level, err, out, stderr.Bytes())
		}
		t.Logf("GOAMD64=%s: built in %v, extracted in %v", level, built.Round(time.Second), (time.Since(start) - built).Round(time.Second))
		stores[level] = store
	}
	compareStores(t, stores["v1"], stores["v3"])
}

// compareStores wants every file of two corpus stores identical, naming
// the document of each page that differs.
func compareStores(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := storeFiles(t, a), storeFiles(t, b)
	boxes := 0
	for _, f := range fa {
		if strings.HasSuffix(f, ".boxes.gz") {
			boxes++
		}
	}
	if !slices.Contains(fa, "manifest.json") || boxes == 0 {
		t.Fatalf("store %s has no manifest or no glyph boxes: %d files", a, len(fa))
	}
	if !slices.Equal(fa, fb) {
		t.Errorf("the stores hold different files: %d and %d; only in one: %v", len(fa), len(fb), symmetricDiff(fa, fb))
	}
	names := docNames(t, a)
	differ := 0
	for _, f := range fa {
		if !slices.Contains(fb, f) {
			continue
		}
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			differ++
			doc := "" // text/<document hash>/<page>.*
			if parts := strings.Split(f, "/"); len(parts) == 3 {
				doc = " (" + names[parts[1]] + ")"
			}
			t.Errorf("%s%s differs between the builds", f, doc)
		}
	}
	t.Logf("%d files compared (%d glyph-box files), %d differ", len(fa), boxes, differ)
}

// storeFiles lists a store's regular files, slash-separated and sorted.
func storeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// docNames maps each document's hash, as its folder is named, to its name.
func docNames(t *testing.T, store string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(store, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Documents []struct {
			Name   string `json:"name"`
			BLAKE3 string `json:"blake3"`
		} `json:"documents"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, d := range m.Documents {
		names[strings.TrimPrefix(d.BLAKE3, "blake3:")] = d.Name
	}
	return names
}

func symmetricDiff(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			out = append(out, s)
		}
	}
	return out
}

// v3Flags are the /proc/cpuinfo flags for what the Go runtime checks
// before it runs a GOAMD64=v3 binary (runtime/asm_amd64.s): the v2 set
// (pni is SSE3, lahf_lm LAHF in 64-bit mode), then AVX, AVX2, BMI1, BMI2,
// F16C, FMA, LZCNT (abm) and MOVBE. Linux lists avx only when the kernel
// saves the AVX state, which is the runtime's OS-support check.
var v3Flags = []string{
	"pni", "ssse3", "cx16", "sse4_1", "sse4_2", "popcnt", "lahf_lm",
	"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe",
}

// missingV3Features returns the v3 features this CPU lacks.
func missingV3Features() ([]string, error) {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return nil, err
	}
	for line := range strings.Lines(string(data)) {
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(key) != "flags" {
			continue
		}
		have := strings.Fields(value)
		var missing []string
		for _, f := range v3Flags {
			if !slices.Contains(have, f) {
				missing = append(missing, f)
			}
		}
		return missing, nil
	}
	return nil, errors.New("/proc/cpuinfo lists no flags")
}

// TestNoFusedMultiplyAdd compiles pdftext for targets whose compiler fuses
// multiply-adds (amd64 at GOAMD64=v3, arm64) and wants no fused
// instruction in its code: every product that is added or subtracted must
// be rounded first with an explicit float64 conversion (see matrix), or
// positions, glyph boxes and the text decisions made from them differ
// between builds. It catches what the corpus may never exercise; amd64
// fuses only a*b + c, arm64 also a*b - c and c - a*b. It only compiles, so
// it runs on any machine.
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling pdftext for other targets is skipped in -short mode")
	}
	targets := []struct {
		env   []string
		fused *regexp.Regexp
	}{
		{[]string{"GOARCH=amd64", "GOAMD64=v3"}, regexp.MustCompile(`\tVFN?M(ADD|SUB)\w*`)},
		{[]string{"GOARCH=arm64"}, regexp.MustCompile(`\tFN?M(ADD|SUB)[SD]\b`)},
	}
	const pkgs = "github.com/citecheck/citecheck/pdftext/..."
	for _, tg := range targets {
		cmd := exec.Command("go", "build", "-gcflags="+pkgs+"=-S", "-o", os.DevNull, pkgs)
		cmd.Env = append(os.Environ(), tg.env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v go build: %v\n%s", tg.env, err, out)
		}
		if !bytes.Contains(out, []byte("STEXT")) {
			t.Fatalf("%v go build -S printed no assembly", tg.env)
		}
		var fused []string // one per source line and instruction
		for line := range strings.Lines(string(out)) {
			if !tg.fused.MatchString(line) {
				continue
			}
			// "\t0x001c 00028 (/path/file.go:24)\tVFMADD231SD\tX1, X2, X3"
			if i, j := strings.Index(line, "("), strings.Index(line, ")"); i >= 0 && j > i {
				if f := fmt.Sprintf("%s %s", line[i+1:j], tg.fused.FindString(line)[1:]); !slices.Contains(fused, f) {
					fused = append(fused, f)
				}
			}
		}
		slices.Sort(fused)
		if len(fused) > 0 {
			t.Errorf("%v: fused multiply-adds in pdftext (round each product with float64(x*y)):\n%s", tg.env, strings.Join(fused, "\n"))
		}
	}
}
