package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/citecheck/citecheck/fixtures"
)

// shardingDoc is docs/sharding.md, whose Slurm scripts and Kubernetes
// manifests TestShardingRecipesRun runs; absolute, for tests that change
// directory.
var shardingDoc, _ = filepath.Abs("../../docs/sharding.md")

// testCLIEnv makes the test binary act as the citecheck command (TestMain),
// so that the documented scripts can call "citecheck".
const testCLIEnv = "CITECHECK_TEST_CLI"

// codeBlocks returns the fenced code blocks of a Markdown file in the
// given language, in order.
func codeBlocks(t *testing.T, path, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	re := regexp.MustCompile("(?ms)^```" + lang + "\n(.*?)^```")
	var blocks []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// blockStarting returns the one block whose text holds marker.
func blockStarting(t *testing.T, blocks []string, marker string) string {
	t.Helper()
	var found []string
	for _, b := range blocks {
		if strings.Contains(b, marker) {
			found = append(found, b)
		}
	}
	require.Len(t, found, 1, "blocks holding %q", marker)
	return found[0]
}

// k8sJob is what the test reads of a Job manifest.
type k8sJob struct {
	Kind string `yaml:"kind"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				Containers []struct {
					Env []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
					Command      []string `yaml:"command"`
					Args         []string `yaml:"args"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestShardingRecipesRun runs the recipes of docs/sharding.md as written,
// on the fixture PDFs, with their paths pointed at temporary folders and
// this test binary as citecheck: the Slurm array script for each index
// and the merge script, then the Kubernetes indexed Job's command for
// each completion index and the merge Job's. Both give the corpus one
// extract gives, byte for byte.
func TestShardingRecipesRun(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the Slurm scripts")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "citecheck"),
		[]byte(fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", testCLIEnv, self)), 0o755))
	pdfs := filepath.Join(root, "pdfs")
	require.NoError(t, os.Mkdir(pdfs, 0o755))
	for _, d := range append(fixtures.Demo(), fixtures.Eval()...) {
		require.NoError(t, os.WriteFile(filepath.Join(pdfs, d.Name), d.Data, 0o644))
	}
	// The reference: one extract, into a folder at the depth of the
	// merged corpora.
	_, errOut, code := runCLI(t, "extract", "--out", filepath.Join(root, "store", "whole"), pdfs)
	require.Equal(t, 0, code, errOut)
	want := readFiles(t, filepath.Join(root, "store", "whole"))

	run := func(shell, script string, env ...string) {
		t.Helper()
		cmd := exec.Command(shell, "-c", script)
		cmd.Env = append(os.Environ(), append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}

	t.Run("slurm", func(t *testing.T) {
		blocks := codeBlocks(t, shardingDoc, "bash")
		extract := blockStarting(t, blocks, "#SBATCH --job-name=citecheck-extract")
		merge := blockStarting(t, blocks, "#SBATCH --job-name=citecheck-merge")
		array := regexp.MustCompile(`#SBATCH --array=0-(\d+)`).FindStringSubmatch(extract)
		n := regexp.MustCompile(`N=\$\{N:-(\d+)\}`).FindStringSubmatch(extract)
		require.NotNil(t, array)
		require.NotNil(t, n)
		assert.Equal(t, fmt.Sprint(mustAtoi(t, array[1])+1), n[1], "--array=0-(N-1)")
		shards := filepath.Join(root, "slurm-shards")
		paths := []string{"PDFS=" + pdfs, "SHARDS=" + shards, "CORPUS=" + filepath.Join(root, "store", "slurm"), "SLURM_CPUS_PER_TASK=2"}
		for k := range mustAtoi(t, n[1]) {
			run(bash, extract, append(paths, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", k))...)
		}
		run(bash, merge, paths...)
		assert.Equal(t, want, readFiles(t, filepath.Join(root, "store", "slurm")))
	})

	t.Run("kubernetes", func(t *testing.T) {
		blocks := codeBlocks(t, shardingDoc, "yaml")
		var extract, merge k8sJob
		require.NoError(t, yaml.Unmarshal([]byte(blockStarting(t, blocks, "name: citecheck-extract")), &extract))
		require.NoError(t, yaml.Unmarshal([]byte(blockStarting(t, blocks, "name: citecheck-merge")), &merge))
		assert.Equal(t, "Job", extract.Kind)
		assert.Equal(t, "Indexed", extract.Spec.CompletionMode)
		// The pods' folders, mapped to temporary ones.
		mapped := map[string]string{"/data/pdfs": pdfs, "/data/store": filepath.Join(root, "store"), "/scratch": filepath.Join(root, "scratch")}
		for _, job := range []*k8sJob{&extract, &merge} {
			c := job.Spec.Template.Spec.Containers[0]
			for _, m := range c.VolumeMounts {
				assert.Contains(t, mapped, m.MountPath, "a mount the test maps")
			}
		}
		envOf := func(job *k8sJob) []string {
			var env []string
			for _, e := range job.Spec.Template.Spec.Containers[0].Env {
				v := e.Value
				for from, to := range mapped {
					if strings.HasPrefix(v, from) {
						v = to + strings.TrimPrefix(v, from)
					}
				}
				if e.Name == "N" {
					assert.Equal(t, fmt.Sprint(extract.Spec.Completions), v, "N is the number of completions")
				}
				env = append(env, e.Name+"="+v)
			}
			return env
		}
		script := func(job *k8sJob) string {
			c := job.Spec.Template.Spec.Containers[0]
			require.Equal(t, []string{"/bin/sh", "-c"}, c.Command)
			require.Len(t, c.Args, 1)
			return c.Args[0]
		}
		require.NoError(t, os.MkdirAll(mapped["/scratch"], 0o755))
		for k := range extract.Spec.Completions {
			run("/bin/sh", script(&extract), append(envOf(&extract), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k))...)
		}
		mergeEnv := envOf(&merge)
		for i, e := range mergeEnv {
			if strings.HasPrefix(e, "CORPUS=") {
				mergeEnv[i] = "CORPUS=" + filepath.Join(root, "store", "k8s")
			}
		}
		run("/bin/sh", script(&merge), mergeEnv...)
		assert.Equal(t, want, readFiles(t, filepath.Join(root, "store", "k8s")))
	})
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	_, err := fmt.Sscan(s, &n)
	require.NoError(t, err)
	return n
}
