package spans

import _ "embed"

//go:embed reference.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the reference format,
// reference.schema.json. It documents the format for other tools; Decode
// and Validate enforce it and what a schema cannot state.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }
