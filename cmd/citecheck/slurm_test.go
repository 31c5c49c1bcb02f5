//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/internal/shareddata"
)

// slurmPDFs are the PDFs of ../shared/pdf-corpus the Slurm test extracts:
// a few producers, and two that do not extract (encrypted, empty), so that
// some shard exits with 1, which the job script must count a success.
var slurmPDFs = []string{
	"pdfcpu__pkg_testdata_bookletTest.pdf",
	"pdfjs__test_pdfs_bug946506.pdf",
	"pdfjs__test_pdfs_zero_descent.pdf",
	"pdfminer__samples_acroform_AcroForm_TEST.pdf",
	"pdfminer__samples_contrib_matplotlib.pdf",
	"pdfminer__samples_encryption_aes-256.pdf",
	"pdfminer__samples_simple1.pdf",
	"pdfplumber__tests_pdfs_150109DSP-Milw-505-90D.pdf",
	"pdfplumber__tests_pdfs_empty.pdf",
	"pdfplumber__tests_pdfs_scotus-transcript-p1.pdf",
	"pypdf__024-annotations_annotated_pdf.pdf",
}

// slurmInstall is what the skip message tells to install.
const slurmInstall = "apt-get install slurmctld slurmd slurm-client munge"

// TestShardingSlurm submits the Slurm recipe of docs/sharding.md, its two
// job scripts and its submit commands as written, to a one-node Slurm
// cluster the test starts (munged, slurmctld and slurmd in a temporary
// folder, on free ports), with only PDFS, SHARDS and CORPUS pointed at
// temporary folders and this test binary as citecheck. Every job must
// complete with exit code 0, and the merged corpus must equal, file by
// file and byte by byte, the one a plain extract makes.
func TestShardingSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starting Slurm and running the job array takes some 20 s")
	}
	tools := findSlurm(t)
	src := shareddata.Path(t, "pdf-corpus")
	started := time.Now()

	root := slurmTempDir(t)
	bin := filepath.Join(root, "bin")
	pdfs := filepath.Join(root, "pdfs")
	sub := filepath.Join(root, "submit")
	for _, d := range []string{bin, pdfs, sub} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "citecheck"),
		[]byte(fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", testCLIEnv, self)), 0o755))
	for _, name := range slurmPDFs {
		data, err := os.ReadFile(filepath.Join(src, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(pdfs, name), data, 0o644))
	}

	blocks := codeBlocks(t, shardingDoc, "bash")
	extract := blockStarting(t, blocks, "#SBATCH --job-name=citecheck-extract")
	merge := blockStarting(t, blocks, "#SBATCH --job-name=citecheck-merge")
	submit := blockStarting(t, blocks, "sbatch --parsable extract-shards.sbatch")
	nMatch := regexp.MustCompile(`N=\$\{N:-(\d+)\}`).FindStringSubmatch(extract)
	require.NotNil(t, nMatch, "the array script's default N")
	n := mustAtoi(t, nMatch[1])
	require.NoError(t, os.WriteFile(filepath.Join(sub, "extract-shards.sbatch"), []byte(extract), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sub, "merge-shards.sbatch"), []byte(merge), 0o644))

	cluster := startSlurm(t, tools, filepath.Join(root, "slurm"))
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(cluster.logs(sub))
		}
	})
	t.Logf("Slurm up in %.1f s", time.Since(started).Seconds())

	// sbatch passes the submitting environment to the jobs (--export=ALL
	// by default): the scripts' PATH finds citecheck, and their PDFS,
	// SHARDS and CORPUS defaults give way to the temporary folders.
	cmd := exec.Command("bash", "-c", submit)
	cmd.Dir = sub
	cmd.Env = append(os.Environ(), cluster.env...)
	cmd.Env = append(cmd.Env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PDFS="+pdfs,
		"SHARDS="+filepath.Join(root, "shards"),
		"CORPUS="+filepath.Join(root, "out", "corpus"))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the submit commands: %s", out)

	jobs := cluster.waitJobs(t, 3*time.Minute)
	var names []string
	for _, j := range jobs {
		names = append(names, j.name)
		assert.Equal(t, "COMPLETED", j.state, "job %s (%s)", j.id, j.name)
		assert.Equal(t, "0:0", j.exitCode, "job %s (%s)", j.id, j.name)
	}
	if t.Failed() {
		t.FailNow()
	}
	slices.Sort(names)
	want := slices.Repeat([]string{"citecheck-extract"}, n)
	assert.Equal(t, append(want, "citecheck-merge"), names, "one job per array task, and the merge")
	logs, _ := filepath.Glob(filepath.Join(sub, "citecheck-extract-*_*.out"))
	assert.Len(t, logs, n, "each array task writes its --output")
	failedPDFs := 0
	for _, l := range logs {
		data, err := os.ReadFile(l)
		require.NoError(t, err)
		failedPDFs += strings.Count(string(data), "pdfminer__samples_encryption_aes-256.pdf") +
			strings.Count(string(data), "pdfplumber__tests_pdfs_empty.pdf")
	}
	assert.Equal(t, 2, failedPDFs, "the shards holding the two PDFs that do not extract list them, exit with 1, and complete")
	t.Logf("jobs done %.1f s after the start", time.Since(started).Seconds())

	// The reference: one extract, into a folder at the depth of the merged
	// corpus, as the manifest records PDF paths relative to the corpus.
	outText, errOut, code := runCLI(t, "extract", "--out", filepath.Join(root, "out", "whole"), pdfs)
	require.Equal(t, 1, code, "the encrypted and the empty PDF do not extract: %s%s", outText, errOut)
	assert.Empty(t, diffTrees(t, filepath.Join(root, "out", "whole"), filepath.Join(root, "out", "corpus")),
		"the merged corpus differs from the unsharded one")
}

// slurmTools are the Slurm and MUNGE programs the test runs.
type slurmTools struct {
	munged, slurmctld, slurmd string
}

// findSlurm finds the daemons (on PATH, or in /usr/sbin, outside a
// non-root PATH) and the client commands (on PATH, where the documented
// commands look for them), and skips the test when one is missing or
// when it cannot start slurmd.
func findSlurm(t *testing.T) slurmTools {
	t.Helper()
	var missing []string
	find := func(name string, sbin bool) string {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		if p := filepath.Join("/usr/sbin", name); sbin {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		missing = append(missing, name)
		return ""
	}
	for _, c := range []string{"sbatch", "squeue", "scontrol", "sinfo", "scancel", "bash"} {
		find(c, false)
	}
	tools := slurmTools{munged: find("munged", true), slurmctld: find("slurmctld", true), slurmd: find("slurmd", true)}
	if len(missing) > 0 {
		t.Skipf("Slurm is absent (no %s): install it (%s, as .ci/run does) to run the documented job array on a one-node cluster",
			strings.Join(missing, ", "), slurmInstall)
	}
	if os.Geteuid() != 0 {
		t.Skip("Slurm is installed but the test is not root: slurmd must be root to run jobs as their submitter")
	}
	return tools
}

// slurmTempDir is a temporary folder every user may enter: munged refuses
// a socket under a folder others cannot search, and t.TempDir's are 0700.
// It is short, as a Unix socket path is at most 107 bytes.
func slurmTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "citecheck-slurm-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	return dir
}

// slurmCluster is a running one-node cluster.
type slurmCluster struct {
	dir string
	env []string // SLURM_CONF, for the client commands
}

// startSlurm writes a munge key and a one-node slurm.conf into dir and
// starts munged, slurmctld and slurmd there, each in a process group of
// its own that t.Cleanup ends; it returns once the node is idle.
func startSlurm(t *testing.T, tools slurmTools, dir string) *slurmCluster {
	t.Helper()
	for _, d := range []string{"munge", "state", "spool", "log"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	c := &slurmCluster{dir: dir, env: []string{"SLURM_CONF=" + filepath.Join(dir, "slurm.conf")}}

	key := make([]byte, 1024)
	_, err := rand.Read(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o400))
	socket := filepath.Join(dir, "munge", "munge.socket")
	c.daemon(t, "munged", tools.munged, "--foreground",
		"--socket="+socket, "--key-file="+filepath.Join(dir, "munge", "munge.key"),
		"--log-file="+filepath.Join(dir, "log", "munged.log"), "--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	c.poll(t, "munged's socket", 20*time.Second, func() bool { _, err := os.Stat(socket); return err == nil })

	host, err := os.Hostname()
	require.NoError(t, err)
	// slurmctld accepts only its own short host name as SlurmctldHost.
	host, _, _ = strings.Cut(host, ".")
	conf := strings.Join([]string{
		"ClusterName=citecheck-test",
		fmt.Sprintf("SlurmctldHost=%s(127.0.0.1)", host),
		fmt.Sprintf("SlurmctldPort=%d", freePort(t)),
		fmt.Sprintf("SlurmdPort=%d", freePort(t)),
		"SlurmUser=root",
		"SlurmdUser=root",
		"AuthType=auth/munge",
		"CredType=cred/munge",
		"AuthInfo=socket=" + socket,
		"StateSaveLocation=" + filepath.Join(dir, "state"),
		"SlurmdSpoolDir=" + filepath.Join(dir, "spool"),
		"SlurmctldPidFile=" + filepath.Join(dir, "slurmctld.pid"),
		"SlurmdPidFile=" + filepath.Join(dir, "slurmd.pid"),
		"SlurmctldLogFile=" + filepath.Join(dir, "log", "slurmctld.log"),
		"SlurmdLogFile=" + filepath.Join(dir, "log", "slurmd.log"),
		// No cgroups, no accounting database, no MPI: nothing beyond the
		// three daemons needs to be set up.
		"ProctrackType=proctrack/linuxproc",
		"TaskPlugin=task/none",
		"JobAcctGatherType=jobacct_gather/none",
		"AccountingStorageType=accounting_storage/none",
		"JobCompType=jobcomp/none",
		"MpiDefault=none",
		"MailProg=/bin/true",
		"SchedulerType=sched/builtin",
		"SelectType=select/cons_tres",
		"SelectTypeParameters=CR_Core",
		"ReturnToService=2",
		// The job script asks for 4 CPUs and 12 GiB a task, as on a
		// cluster; the node claims that much whatever the machine has
		// (config_overrides), so the script runs unchanged, one array
		// task at a time on 4 claimed CPUs.
		"SlurmdParameters=config_overrides",
		fmt.Sprintf("NodeName=%s NodeAddr=127.0.0.1 CPUs=4 RealMemory=16384 State=UNKNOWN", host),
		"PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
	}, "\n") + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(conf), 0o644))

	c.daemon(t, "slurmctld", tools.slurmctld, "-D")
	c.daemon(t, "slurmd", tools.slurmd, "-D")
	c.poll(t, "the node to be idle", time.Minute, func() bool {
		out, err := c.command("sinfo", "--noheader", "--Node", "--format=%t")
		return err == nil && strings.TrimSpace(out) == "idle"
	})
	// Runs before the daemons stop (cleanups run last first): no job is
	// left to outlive them when the test fails early.
	t.Cleanup(func() {
		if _, err := c.command("scancel", "--full", "--user=root"); err == nil {
			c.pollUntil(20*time.Second, func() bool {
				out, err := c.command("squeue", "--noheader", "--format=%i")
				return err != nil || strings.TrimSpace(out) == ""
			})
		}
	})
	return c
}

// daemon starts a daemon in the foreground, in a process group of its own,
// and has t.Cleanup stop the group.
func (c *slurmCluster) daemon(t *testing.T, name, path string, args ...string) {
	t.Helper()
	out, err := os.Create(filepath.Join(c.dir, "log", name+".out"))
	require.NoError(t, err)
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start(), name)
	exited := make(chan struct{})
	go func() { cmd.Wait(); out.Close(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
}

// command runs a Slurm client command against the cluster.
func (c *slurmCluster) command(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), c.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (c *slurmCluster) pollUntil(limit time.Duration, done func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		if done() {
			return true
		}
	}
	return done()
}

func (c *slurmCluster) poll(t *testing.T, what string, limit time.Duration, done func() bool) {
	t.Helper()
	if !c.pollUntil(limit, done) {
		t.Fatalf("waited %s for %s\n%s", limit, what, c.logs(""))
	}
}

// slurmJob is a job as scontrol shows it.
type slurmJob struct {
	id, name, state, reason, exitCode string
}

var slurmField = regexp.MustCompile(`\b(JobId|JobName|JobState|Reason|ExitCode)=(\S*)`)

// jobs lists the cluster's jobs (the finished ones too, for MinJobAge,
// 300 s by default), an array's tasks one by one once they started.
func (c *slurmCluster) jobs(t *testing.T) []slurmJob {
	t.Helper()
	out, err := c.command("scontrol", "--oneliner", "show", "job")
	require.NoError(t, err, out)
	var jobs []slurmJob
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "JobId=") {
			continue
		}
		var j slurmJob
		for _, m := range slurmField.FindAllStringSubmatch(line, -1) {
			switch m[1] {
			case "JobId":
				j.id = m[2]
			case "JobName":
				j.name = m[2]
			case "JobState":
				j.state = m[2]
			case "Reason":
				j.reason = m[2]
			case "ExitCode":
				j.exitCode = m[2]
			}
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// waitJobs waits until every job has ended, or waits on a dependency that
// can no longer be met (the merge after a failed shard), and returns them.
func (c *slurmCluster) waitJobs(t *testing.T, limit time.Duration) []slurmJob {
	t.Helper()
	var jobs []slurmJob
	c.poll(t, "the jobs to end", limit, func() bool {
		jobs = c.jobs(t)
		for _, j := range jobs {
			if (j.state == "PENDING" || j.state == "RUNNING" || j.state == "CONFIGURING" || j.state == "COMPLETING") &&
				j.reason != "DependencyNeverSatisfied" {
				return false
			}
		}
		return len(jobs) > 0
	})
	return jobs
}

// logs is what the daemons logged and, from sub, what the jobs wrote: the
// test prints it when it fails.
func (c *slurmCluster) logs(sub string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(c.dir, "log", "*"))
	if sub != "" {
		outs, _ := filepath.Glob(filepath.Join(sub, "*.out"))
		files = append(files, outs...)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 8000 {
			data = data[len(data)-8000:]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", f, data)
	}
	if out, err := c.command("scontrol", "--oneliner", "show", "job"); err == nil {
		fmt.Fprintf(&b, "--- scontrol show job\n%s", out)
	}
	return b.String()
}

// freePort is a TCP port nothing listens on now, so that the test's
// cluster does not meet another one on this machine.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// diffTrees is diff -r: the paths, folders included, found in only one of
// the two trees or whose file bytes (or kind) differ.
func diffTrees(t *testing.T, a, b string) []string {
	t.Helper()
	list := func(root string) map[string][]byte {
		entries := map[string][]byte{}
		require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == root {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() {
				entries[rel+"/"] = nil
				return nil
			}
			data, err := os.ReadFile(p)
			entries[rel] = data
			return err
		}))
		return entries
	}
	ea, eb := list(a), list(b)
	var diffs []string
	for p, da := range ea {
		db, ok := eb[p]
		switch {
		case !ok:
			diffs = append(diffs, "only in "+a+": "+p)
		case !bytes.Equal(da, db):
			diffs = append(diffs, fmt.Sprintf("differs: %s (%d and %d bytes)", p, len(da), len(db)))
		}
	}
	for p := range eb {
		if _, ok := ea[p]; !ok {
			diffs = append(diffs, "only in "+b+": "+p)
		}
	}
	slices.Sort(diffs)
	return diffs
}
