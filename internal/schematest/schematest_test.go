package schematest_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/internal/schematest"
)

// TestMain runs the tests from the folder above, one below the module's
// root, where the packages that use schematest run theirs.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// quote has the JSON keys of docs/schema/quote.schema.json.
type quote struct {
	ID        string  `json:"id"`
	Document  string  `json:"document"`
	Quote     string  `json:"quote"`
	Page      *int    `json:"page,omitempty"`
	PageLabel *string `json:"page_label,omitempty"`
	QuoteFrom string  `json:"quote_from,omitempty"`
	//lint:ignore U1000 an unexported field, which CheckProperties leaves out
	internal int
	Skipped  int `json:"-"`
}

// TestCompileAndValidate: a schema of docs/schema compiles, and
// Validate accepts a record it allows and refuses one it does not.
func TestCompileAndValidate(t *testing.T) {
	s := schematest.Compile(t, "quote.schema.json")
	assert.NoError(t, schematest.Validate(t, s, `{"id": "q1", "document": "a.pdf", "quote": "some words"}`))
	assert.Error(t, schematest.Validate(t, s, `{"id": "q1", "document": "a.pdf", "quote": "some words", "extra": 1}`), "an unknown key")
	assert.Error(t, schematest.Validate(t, s, `{"id": "q1", "document": "a.pdf"}`), "no quote")
}

// TestCompileBytes: an embedded schema compiles from its bytes.
func TestCompileBytes(t *testing.T) {
	s := schematest.CompileBytes(t, "small.json", []byte(`{"type": "object", "required": ["a"]}`))
	assert.NoError(t, schematest.Validate(t, s, `{"a": 1}`))
	assert.Error(t, schematest.Validate(t, s, `{}`))
}

// TestDocAndAt: Doc reads a schema as a tree and At walks it by keys.
func TestDocAndAt(t *testing.T) {
	doc := schematest.Doc(t, "quote.schema.json")
	assert.Equal(t, "https://github.com/citecheck/citecheck/docs/schema/quote.schema.json", doc["$id"])
	id := schematest.At(t, doc, "properties", "id")
	assert.Equal(t, "string", id["type"])
}

// TestCheckPropertiesMatchingType: the quote schema's properties are the
// JSON keys of a Go type with the same tags (unexported and "-" fields
// left out).
func TestCheckPropertiesMatchingType(t *testing.T) {
	schematest.CheckProperties(t, "quote", schematest.Doc(t, "quote.schema.json"), quote{})
}

// TestLines: blank lines are not records; CR LF ends are trimmed.
func TestLines(t *testing.T) {
	assert.Equal(t, []string{`{"a":1}`, `{"b":2}`}, schematest.Lines(t, []byte("{\"a\":1}\r\n\n  \n{\"b\":2}")))
}

// TestCheckersFail: the checks fail a test where schema and Go disagree.
// Each case runs in a child test binary, whose failure is the result.
func TestCheckersFail(t *testing.T) {
	for _, c := range []struct{ child, why, says string }{
		{"properties", "a Go type with a key the schema lacks", "schema properties"},
		{"agreement-schema", "a case whose schema verdict is wrong", "good: schema valid=true, want false"},
		{"agreement-reader", "a case whose reader verdict is wrong", "good: reader valid=false, want true"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChild$")
		cmd.Env = append(os.Environ(), "SCHEMATEST_CHILD="+c.child)
		cmd.Dir = "schematest" // the package's folder, which its TestMain leaves
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		assert.True(t, errors.As(err, &ee), "%s (%s): the child test passed:\n%s", c.child, c.why, out)
		assert.True(t, strings.Contains(string(out), c.says), "%s (%s): the child did not say %q:\n%s", c.child, c.why, c.says, out)
	}
}

// TestChild is the child of TestCheckersFail; it does nothing otherwise.
func TestChild(t *testing.T) {
	what := os.Getenv("SCHEMATEST_CHILD")
	if what == "" {
		return
	}
	s := schematest.Compile(t, "quote.schema.json")
	good := `{"id": "q1", "document": "a.pdf", "quote": "some words"}`
	switch what {
	case "properties":
		type more struct {
			quote
			Extra string `json:"extra"`
		}
		schematest.CheckProperties(t, "quote", schematest.Doc(t, "quote.schema.json"), more{})
	case "agreement-schema":
		schematest.CheckAgreement(t, s, []schematest.Case{{Name: "good", Line: good, Schema: false, Reader: true}}, func(string) error { return nil })
	case "agreement-reader":
		schematest.CheckAgreement(t, s, []schematest.Case{{Name: "good", Line: good, Schema: true, Reader: true}}, func(string) error { return errors.New("refused") })
	default:
		require.Failf(t, "unknown child", "%q", what)
	}
}
