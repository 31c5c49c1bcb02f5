package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// kubeJobSchema is Kubernetes' batch/v1 Job as far as docs/sharding.md's
// manifests go: every field of the types they use, nothing unknown, and
// the API server's Job rules they depend on (its $comment says whence).
// A schema rather than k8s.io/api's types: those bring 17 modules and
// some 90 packages into the build of this package's tests for two
// manifests.
var kubeJobSchema = filepath.Join("testdata", "kubernetes", "job.schema.json")

// TestShardingKubeJobSchema: the two Job manifests of docs/sharding.md are
// valid Jobs (no unknown or misspelt field, every value of its type, the
// Job rules kept), and the schema refuses each kind of mistake it is
// there to catch.
func TestShardingKubeJobSchema(t *testing.T) {
	schema, err := jsonschema.NewCompiler().Compile(kubeJobSchema)
	require.NoError(t, err)
	validate := func(manifest string) error {
		var doc any
		if err := yaml.Unmarshal([]byte(manifest), &doc); err != nil {
			return err
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return err
		}
		if err := schema.Validate(inst); err != nil {
			return err
		}
		return jobReferences(b)
	}

	blocks := codeBlocks(t, shardingDoc, "yaml")
	extract := blockStarting(t, blocks, "name: citecheck-extract")
	for _, name := range []string{"citecheck-extract", "citecheck-merge"} {
		assert.NoError(t, validate(blockStarting(t, blocks, "name: "+name)), name)
	}

	// Each case makes a mistake in the extract manifest and says what the
	// refusal must say (a schema error's %#v lists its reasons): refused,
	// and for that reason.
	for _, tc := range []struct{ what, from, to, want string }{
		{"a misspelt field", "backoffLimitPerIndex: 2", "backoffLimitPerIndx: 2", "'backoffLimitPerIndx' not allowed"},
		{"a field at the wrong level", "      restartPolicy: Never", "      restartPolicy: Never\n      completions: 4", "'completions' not allowed"},
		{"a number as a string", "completions: 4", `completions: "4"`, "got string, want integer"},
		{"restartPolicy Always", "restartPolicy: Never", "restartPolicy: Always", "one of 'Never', 'OnFailure'"},
		{"backoffLimitPerIndex without Indexed", "completionMode: Indexed", "completionMode: NonIndexed", "value must be 'Indexed'"},
		{"a malformed quantity", "limits: {memory: 6Gi}", "limits: {memory: 6GB}", "'6GB' does not match"},
		{"no image", "image: registry.example.com/citecheck:latest", "imagePullPolicy: Always", "missing property 'image'"},
		{"an env name the shell cannot read", "{name: PDFS,", "{name: PDF-DIR,", "'PDF-DIR' does not match"},
		{"a mount of no volume", "{name: scratch, mountPath: /scratch}", "{name: tmp, mountPath: /scratch}", `volume "tmp", which the pod does not have`},
		{"a volume with two sources", "emptyDir: {}", "emptyDir: {}\n          hostPath: {path: /tmp}", "maxProperties: got 3, want 2"},
		{"a duplicate key", "parallelism: 4", "parallelism: 4\n  parallelism: 2", `"parallelism" already defined`},
		{"maxFailedIndexes past completions", "maxFailedIndexes: 0", "maxFailedIndexes: 5", "past completions"},
	} {
		bad := strings.Replace(extract, tc.from, tc.to, 1)
		require.NotEqual(t, extract, bad, "%s: the manifest no longer holds %q", tc.what, tc.from)
		err := validate(bad)
		if !assert.Error(t, err, tc.what) {
			continue
		}
		msg := err.Error()
		var invalid *jsonschema.ValidationError
		if errors.As(err, &invalid) {
			msg = fmt.Sprintf("%#v", invalid)
		}
		assert.Contains(t, msg, tc.want, tc.what)
	}
}

// jobReferences checks what the schema cannot: that every mount names a
// volume of the pod, and that maxFailedIndexes is at most completions.
func jobReferences(manifest []byte) error {
	type container struct {
		VolumeMounts []struct{ Name string } `json:"volumeMounts"`
	}
	var job struct {
		Spec struct {
			Completions      *int `json:"completions"`
			MaxFailedIndexes *int `json:"maxFailedIndexes"`
			Template         struct {
				Spec struct {
					InitContainers []container             `json:"initContainers"`
					Containers     []container             `json:"containers"`
					Volumes        []struct{ Name string } `json:"volumes"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(manifest, &job); err != nil {
		return err
	}
	pod := job.Spec.Template.Spec
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	for _, c := range append(pod.InitContainers, pod.Containers...) {
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				return fmt.Errorf("a mount of volume %q, which the pod does not have", m.Name)
			}
		}
	}
	if s := job.Spec; s.MaxFailedIndexes != nil && (s.Completions == nil || *s.MaxFailedIndexes > *s.Completions) {
		return fmt.Errorf("maxFailedIndexes %d is past completions", *s.MaxFailedIndexes)
	}
	return nil
}
