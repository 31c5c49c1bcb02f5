package fidelity

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Cache keeps reference tools' page texts on disk, keyed by tool name and
// version and by the PDF's hash, so a benchmark or test run pays for each
// reference extraction once per tool version.
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
		key := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name + "-" + t.Version)
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
			os.MkdirAll(filepath.Dir(file), 0o755)
			tmp := file + ".tmp"
			if os.WriteFile(tmp, b, 0o644) == nil {
				os.Rename(tmp, file)
			}
		}
	}
	return pages, err
}
