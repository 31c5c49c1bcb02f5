package strictjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShapeCheck(t *testing.T) {
	shape := &Shape{Keys: map[string]*Shape{
		"a":    nil,
		"list": {Elem: &Shape{Keys: map[string]*Shape{"id": nil}}},
		"obj":  {Keys: map[string]*Shape{"x": nil}},
	}}
	spelled := map[string]string{"text": "text"}
	tests := []struct {
		in  string
		err string // "" for none
		is  error
		why string
	}{
		{in: `{"a": {"any": [1, {"deep": true}]}, "list": [{"id": 1}], "obj": {"x": 2}}`, why: "listed keys; a nil shape is free"},
		{in: `{"b": 1}`, err: "f:1:2: b: unknown key; the keys it may hold: a, list, obj", is: ErrUnknownKey, why: "an unlisted key, at its offset"},
		{in: `{"list": [{"id": 1}, {"ID": 2}]}`, err: `f:1:23: list[1].ID: unknown key (did you mean "id"?); the keys it may hold: id`, is: ErrUnknownKey, why: "keys are compared exactly"},
		{in: `{"list": {"id": 1}}`, err: "f:1:10: list: invalid value: expected an array, found an object", is: ErrValue, why: "an object where an array goes"},
		{in: `{"obj": [1]}`, err: "f:1:9: obj: invalid value: expected an object, found an array", is: ErrValue, why: "an array where an object goes"},
		{in: `{"obj": 1}`, why: "scalars are the decoder's to type"},
		{in: `{"a": {"Text": 1}}`, err: `f:1:8: a.Text: unknown key: "Text" is spelled "text"`, is: ErrUnknownKey, why: "a free value refuses a misspelt known key"},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in), "f", Limits{})
		require.NoError(t, err, tt.why)
		err = shape.Check([]byte(tt.in), "f", v, spelled)
		if tt.err == "" {
			assert.NoError(t, err, tt.why)
			continue
		}
		assert.EqualError(t, err, tt.err, tt.why)
		assert.ErrorIs(t, err, tt.is, tt.why)
	}
}

func TestMissing(t *testing.T) {
	v, err := Parse([]byte(`{"a": 1, "b": null}`), "f", Limits{})
	require.NoError(t, err)
	assert.Equal(t, "", v.Missing("a", "b"), "a null value is present")
	assert.Equal(t, "c", v.Missing("a", "c", "d"), "the first absent key, in the order asked")
	s, err := Parse([]byte(`"x"`), "f", Limits{})
	require.NoError(t, err)
	assert.Equal(t, "a", s.Missing("a"), "a value that is not an object lacks every key")
}

func TestTreeDecoder(t *testing.T) {
	data := []byte(`{"s": "x", "n": 3, "f": 1.5, "b": true, "z": null, "l": ["p", "q"], "big": 1e3}`)
	v, err := Parse(data, "f", Limits{})
	require.NoError(t, err)
	d := &TreeDecoder{Data: data}
	get := func(k string) *Value { return v.Get(k).Value }
	assert.Equal(t, "x", d.Str(get("s"), "s"))
	assert.Equal(t, 3, d.Int(get("n"), "n"))
	assert.Equal(t, 1.5, *d.Float(get("f"), "f"))
	assert.True(t, d.Bool(get("b"), "b"))
	assert.Equal(t, "", d.Str(get("z"), "z"), "null is the zero value")
	assert.Nil(t, d.IntPtr(get("z"), "z"))
	assert.Equal(t, []string{"p", "q"}, d.Strings(get("l"), "l"))
	assert.Equal(t, `["p", "q"]`, string(d.Raw(get("l"))))
	require.NoError(t, d.Err)

	assert.Equal(t, 0, d.Int(get("big"), "big"))
	assert.Equal(t, "", d.Str(get("n"), "n"), "a second fault is not kept")
	assert.EqualError(t, d.Err, "invalid value: expected int, found JSON number 1e3")
	assert.ErrorIs(t, d.Err, ErrValue)
	assert.Equal(t, "big", d.Path)
	assert.Equal(t, get("big").Offset, d.Offset)
}
