package runs

import (
	"github.com/citecheck/citecheck/internal/strictjson"
)

// parseRunLine parses one run record and checks its keys, as
// eachRunRecord does before decoding it.
func parseRunLine(data []byte) (*strictjson.Value, error) {
	v, err := strictjson.Parse(data, "", strictjson.Limits{})
	if err != nil {
		return nil, err
	}
	return v, runShape.Check(data, "", v, nil)
}
