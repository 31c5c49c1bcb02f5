package fidelity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Tool is a reference extractor: it turns a PDF file into page texts.
type Tool struct {
	// Name is the short name used in matrices and cache paths.
	Name string
	// Version identifies the installed tool; it keys the cache.
	Version string
	// Usage counts the tool's runs and their largest resident set.
	Usage *Usage
	// recipe is how the tool is run (its arguments, its script): with
	// Name and Version it keys the cache, so a changed recipe is rerun.
	recipe string
	pages  func(ctx context.Context, path string) ([]string, error)
}

// ErrNotInstalled reports that a reference tool is absent from the machine.
var ErrNotInstalled = errors.New("not installed")

// ToolNames lists the reference extractors in the order matrices print them.
var ToolNames = []string{"pdftotext", "mutool", "pdfjs", "pdfminer", "pypdf", "pymupdf"}

// Find returns the named tool when it is installed, or an error wrapping
// ErrNotInstalled that says how to install it.
func Find(name string) (*Tool, error) {
	switch name {
	case "pdftotext":
		return findPdftotext()
	case "mutool":
		return findMutool()
	case "pdfjs":
		return findPdfjs()
	case "pdfminer":
		return findPdfminer()
	case "pypdf":
		return findPython("pypdf", "python3-pypdf", "import pypdf; print(pypdf.__version__)", pypdfScript)
	case "pymupdf":
		return findPython("pymupdf", "python3-fitz", "import fitz; print(fitz.VersionBind)", pymupdfScript)
	}
	return nil, fmt.Errorf("fidelity: unknown tool %q", name)
}

// Pages extracts the page texts of the PDF at path, the tool bounded by
// Timeout and AddressSpace.
func (t *Tool) Pages(ctx context.Context, path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	return t.pages(ctx, path)
}

func firstLineMatch(re *regexp.Regexp, name string, args ...string) string {
	out, _ := exec.Command(name, args...).CombinedOutput()
	if m := re.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return "unknown"
}

func findPdftotext() (*Tool, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return nil, fmt.Errorf("pdftotext: %w (Debian: poppler-utils)", ErrNotInstalled)
	}
	v := firstLineMatch(regexp.MustCompile(`version ([0-9.]+)`), bin, "-v")
	u := &Usage{}
	return &Tool{Name: "pdftotext", Version: v, Usage: u, recipe: "-q -enc UTF-8", pages: func(ctx context.Context, path string) ([]string, error) {
		out, err := output(ctx, u, command(ctx, AddressSpace, bin, "-q", "-enc", "UTF-8", path, "-"))
		if err != nil && len(out) == 0 {
			return nil, err
		}
		// pdftotext ends every page with a form feed.
		pages := strings.Split(string(out), "\f")
		return pages[:len(pages)-1], nil
	}}, nil
}

func findMutool() (*Tool, error) {
	bin, err := exec.LookPath("mutool")
	if err != nil {
		return nil, fmt.Errorf("mutool: %w (Debian: mupdf-tools)", ErrNotInstalled)
	}
	v := firstLineMatch(regexp.MustCompile(`version ([0-9.]+)`), bin, "-v")
	u := &Usage{}
	return &Tool{Name: "mutool", Version: v, Usage: u, recipe: "draw -q -F txt", pages: func(ctx context.Context, path string) ([]string, error) {
		dir, err := os.MkdirTemp("", "fidelity-mutool-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		// One file per page: a page mutool fails on stays in its place.
		_, runErr := output(ctx, u, command(ctx, AddressSpace, bin, "draw", "-q", "-F", "txt", "-o", filepath.Join(dir, "%d.txt"), path))
		entries, _ := os.ReadDir(dir)
		n := 0
		for _, e := range entries {
			if k, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".txt")); err == nil && k > n {
				n = k
			}
		}
		if n == 0 && runErr != nil {
			return nil, runErr
		}
		pages := make([]string, n)
		for i := range pages {
			b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d.txt", i+1)))
			pages[i] = strings.ReplaceAll(string(b), "\f", "")
		}
		return pages, nil
	}}, nil
}

// pdfjsScript prints the page texts as pdf.js-based document chats build
// them: the items' strings in order, a newline after an item that ends a line.
const pdfjsScript = `
import * as fs from 'node:fs';
const [lib, file] = process.argv.slice(2);
const pdfjs = await import(lib);
const base = new URL('../../', 'file://' + lib).pathname;
const data = new Uint8Array(fs.readFileSync(file));
const doc = await pdfjs.getDocument({data, verbosity: 0, isEvalSupported: false,
  cMapUrl: base + 'cmaps/', cMapPacked: true, standardFontDataUrl: base + 'standard_fonts/'}).promise;
const pages = [];
for (let i = 1; i <= doc.numPages; i++) {
  try {
    const page = await doc.getPage(i);
    const tc = await page.getTextContent();
    pages.push(tc.items.map(it => (it.str ?? '') + (it.hasEOL ? '\n' : '')).join(''));
  } catch (e) { pages.push(''); }
}
process.stdout.write(JSON.stringify(pages));
`

// PdfjsCandidates are the places searched for pdfjs-dist's legacy build,
// after $CITECHECK_PDFJS; "make reftools" installs it in the first one.
func PdfjsCandidates() []string {
	var c []string
	if dir, err := os.UserCacheDir(); err == nil {
		c = append(c, filepath.Join(dir, "citecheck", "pdfjs"))
	}
	return append(c, "/tmp/pdfjs", "/usr/local/lib", "/usr/lib")
}

func findPdfjs() (*Tool, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("pdfjs: %w (node is missing; Debian: nodejs)", ErrNotInstalled)
	}
	lib := os.Getenv("CITECHECK_PDFJS")
	if lib == "" {
		for _, dir := range PdfjsCandidates() {
			p := filepath.Join(dir, "node_modules", "pdfjs-dist", "legacy", "build", "pdf.mjs")
			if _, err := os.Stat(p); err == nil {
				lib = p
				break
			}
		}
	}
	if lib == "" {
		return nil, fmt.Errorf("pdfjs: %w (run make reftools, or npm install pdfjs-dist@4 and set CITECHECK_PDFJS to its legacy/build/pdf.mjs)", ErrNotInstalled)
	}
	lib, _ = filepath.Abs(lib)
	v := "unknown"
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(lib), "..", "..", "package.json")); err == nil {
		var pkg struct{ Version string }
		if json.Unmarshal(b, &pkg) == nil && pkg.Version != "" {
			v = pkg.Version
		}
	}
	// node -e takes no module arguments reliably: the script is a file.
	script := filepath.Join(os.TempDir(), "citecheck-fidelity-pdfjs-"+v+".mjs")
	if err := os.WriteFile(script, []byte(pdfjsScript), 0o644); err != nil {
		return nil, fmt.Errorf("pdfjs: %w", err)
	}
	// V8 reserves some 10 GiB of address space for each WebAssembly
	// memory (pdf.js has WebAssembly decoders) unless its trap handler is
	// off; a node too old to turn it off gets a heap limit instead of an
	// address-space one.
	u := &Usage{}
	as, flags := AddressSpace, []string{"--disable-wasm-trap-handler"}
	if exec.Command(node, append(flags, "-e", "0")...).Run() != nil {
		as, flags = 0, nil
		if AddressSpace > 0 {
			flags = []string{fmt.Sprintf("--max-old-space-size=%d", AddressSpace>>20)}
		}
	}
	return &Tool{Name: "pdfjs", Version: v, Usage: u, recipe: pdfjsScript, pages: func(ctx context.Context, path string) ([]string, error) {
		path, _ = filepath.Abs(path)
		return jsonPages(ctx, u, command(ctx, as, node, append(flags, script, lib, path)...))
	}}, nil
}

// pdfminerScript is pdf2txt's default text conversion, one page at a time.
// pdfminer's layout analysis breaks ties between equally distant text
// boxes by id(), a memory address, so the order of its text blocks changed
// from run to run; the script gives pdfminer.layout an id that numbers
// objects in the order it first sees them, which makes the text the same
// on every run and machine.
const pdfminerScript = `
import io, itertools, json, sys
import pdfminer.layout
_order, _next = {}, itertools.count()
def _stable_id(obj, _id=id):
    e = _order.get(_id(obj))
    if e is None or e[0] is not obj:
        e = _order[_id(obj)] = (obj, next(_next))
    return e[1]
pdfminer.layout.id = _stable_id
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfinterp import PDFResourceManager, PDFPageInterpreter
from pdfminer.converter import TextConverter
from pdfminer.layout import LAParams
rsrc = PDFResourceManager()
pages = []
with open(sys.argv[1], 'rb') as f:
    for page in PDFPage.get_pages(f):
        s = io.StringIO()
        dev = TextConverter(rsrc, s, laparams=LAParams())
        try:
            PDFPageInterpreter(rsrc, dev).process_page(page)
        except Exception:
            pass
        dev.close()
        pages.append(s.getvalue().replace('\f', ''))
        _order.clear()
json.dump(pages, sys.stdout)
`

func findPdfminer() (*Tool, error) {
	return findPython("pdfminer", "python3-pdfminer", "import pdfminer; print(pdfminer.__version__)", pdfminerScript)
}

// pypdfScript prints the page texts as LangChain's PyPDFLoader reads
// them: pypdf's extract_text() of each page, in its default (plain) mode.
const pypdfScript = `
import json, logging, sys
import pypdf
logging.disable(logging.CRITICAL)
pages = []
for page in pypdf.PdfReader(sys.argv[1]).pages:
    try:
        pages.append(page.extract_text() or '')
    except Exception:
        pages.append('')
json.dump(pages, sys.stdout)
`

// pymupdfScript prints the page texts as LangChain's PyMuPDFLoader reads
// them: PyMuPDF's page.get_text() with its default flags (ligatures kept).
const pymupdfScript = `
import json, sys
import fitz
pages = []
for page in fitz.open(sys.argv[1]):
    try:
        pages.append(page.get_text())
    except Exception:
        pages.append('')
json.dump(pages, sys.stdout)
`

// findPython finds a reference tool that is a Python library of the
// system interpreter (Debian package pkg), its version printed by the
// probe, run as script with the PDF's path as its argument.
func findPython(name, pkg, probe, script string) (*Tool, error) {
	// Debian's python3 packages live in the system interpreter, which a
	// pyenv shim on PATH may hide.
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		bin, err := exec.LookPath(py)
		if err != nil {
			continue
		}
		out, err := exec.Command(bin, "-c", probe).Output()
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(out))
		u := &Usage{}
		return &Tool{Name: name, Version: v, Usage: u, recipe: script, pages: func(ctx context.Context, path string) ([]string, error) {
			cmd := command(ctx, AddressSpace, bin, "-c", script, path)
			cmd.Env = append(os.Environ(), "PYTHONHASHSEED=0")
			return jsonPages(ctx, u, cmd)
		}}, nil
	}
	return nil, fmt.Errorf("%s: %w (Debian: %s)", name, ErrNotInstalled, pkg)
}

func jsonPages(ctx context.Context, u *Usage, cmd *exec.Cmd) ([]string, error) {
	out, err := output(ctx, u, cmd)
	if err != nil {
		return nil, err
	}
	var pages []string
	if err := json.Unmarshal(out, &pages); err != nil {
		return nil, err
	}
	return pages, nil
}
