package typedqa

import (
	"embed"
	"sort"
)

//go:embed *.schema.json
var schemaFS embed.FS

// Schemas returns the published JSON Schemas (draft 2020-12) by file name:
// questions.schema.json, dictionary.schema.json, truth-record.schema.json
// and response-record.schema.json. They document the formats for other
// tools; the Go readers enforce them and the cross-row rules a schema cannot
// state.
func Schemas() map[string][]byte {
	entries, _ := schemaFS.ReadDir(".") // embedded: cannot fail
	out := make(map[string][]byte, len(entries))
	for _, e := range entries {
		data, _ := schemaFS.ReadFile(e.Name())
		out[e.Name()] = data
	}
	return out
}

// SchemaNames lists the schema file names, sorted.
func SchemaNames() []string {
	m := Schemas()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
