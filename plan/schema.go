package plan

import _ "embed"

//go:embed plan.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the plan format,
// plan.schema.json.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }
