package fidelity

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeebo/blake3"
)

// Cache keeps reference tools' page texts on disk, keyed by tool name,
// version and recipe (how it is run) and by the PDF's hash, so a benchmark
// or test run pays for each reference extraction once per tool version.
// A failure is kept like a success, a timeout included: a file the tool
// took longer than Timeout on is not retried until the cache is cleared.
type Cache struct {
	Dir string // "" disables caching
}

// DefaultCacheDir is $XDG_CACHE_HOME/citecheck/reftext (or the platform's
// equivalent), or "" when there is no user cache folder.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "citecheck", "reftext")
}

type cached struct {
	Pages []string `json:"pages"`
	Error string   `json:"error,omitempty"`
}

// Pages returns the tool's page texts of the PDF at path whose BLAKE3
// digest is hash ("blake3:<hex>"). A tool's failure on a file is cached like
// a success, so a broken file is not retried on every run; a cancelled
// context is not cached.
func (c *Cache) Pages(ctx context.Context, t *Tool, path, hash string) ([]string, error) {
	file := ""
	if c.Dir != "" {
		key := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name + "-" + t.Version + t.recipeKey())
		file = filepath.Join(c.Dir, key, strings.TrimPrefix(hash, "blake3:")+".json")
		if b, err := os.ReadFile(file); err == nil {
			var v cached
			if json.Unmarshal(b, &v) == nil {
				if v.Error != "" {
					return nil, errors.New(v.Error)
				}
				return v.Pages, nil
			}
		}
	}
	pages, err := t.Pages(ctx, path)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if file != "" {
		v := cached{Pages: pages}
		if err != nil {
			v.Error = err.Error()
		}
		if b, jerr := json.Marshal(v); jerr == nil {
			writeFile(file, b)
		}
	}
	return pages, err
}

// writeFile puts b at file through a temporary file of its own, so that
// two runs filling the cache at once never leave half a file; a failure
// leaves the entry uncached.
func writeFile(file string, b []byte) {
	os.MkdirAll(filepath.Dir(file), 0o755)
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Chmod(tmp.Name(), 0o644) != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

// recipeKey is "-" and 8 hex digits of the recipe's hash, "" for none.
func (t *Tool) recipeKey() string {
	if t.recipe == "" {
		return ""
	}
	sum := blake3.Sum256([]byte(t.recipe))
	return "-" + hex.EncodeToString(sum[:4])
}
