package pdftext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
)

func sampleResponse() response {
	return response{
		Status:   corpus.StatusOK,
		Warnings: []string{"cross-reference table rebuilt"},
		Grown:    3 << 20,
		Pages: []wirePage{
			{Text: "Hello, world\nsecond line", Boxes: corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 1, X0: 1, Y0: 2, X1: 3, Y1: 4}}),
				Alts: []string{"Hello, world\nsecond linf"}, Label: "iv", Flags: []string{FlagExtractionError}, Warnings: []string{"a"},
				Orders: corpus.EncodeOrders([]corpus.Order{{Name: "layout", Text: "second line\nHello, world", Map: []int32{13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}})},
			{Text: ""},
		},
	}
}

func TestWireRoundTrip(t *testing.T) {
	want := sampleResponse()
	got, err := decodeResponse(want.encode(nil))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.LessOrEqual(t, len(want.encode(nil)), want.encodedSize(), "encodedSize bounds the encoding")

	failed := response{Status: corpus.StatusEncrypted, Error: "encrypted: a password is needed"}
	got, err = decodeResponse(failed.encode(nil))
	require.NoError(t, err)
	assert.Equal(t, failed, got)
}

// TestWireRefusesMalformedFrames: the parent reads what a worker sends
// strictly; every fault is errWire, never a panic or a huge allocation.
func TestWireRefusesMalformedFrames(t *testing.T) {
	good := sampleResponse()
	enc := good.encode(nil)
	tests := []struct {
		name  string
		frame []byte
	}{
		{"empty: no magic", nil},
		{"another magic", append([]byte("R1"), enc[2:]...)},
		{"cut short in the last page", enc[:len(enc)-1]},
		{"a byte after the last page", append(append([]byte(nil), enc...), 0)},
		{"a string longer than the frame", []byte("R2\x7f")},
		{"a length that does not end", []byte("R2\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")},
		{"a billion pages announced in a short frame", append([]byte("R2\x02ok\x00\x00\x00"), 0x80, 0x94, 0xeb, 0xdc, 0x03)},
	}
	for _, tc := range tests {
		_, err := decodeResponse(tc.frame)
		assert.ErrorIs(t, err, errWire, tc.name)
	}
}

// TestWireCoercesInvalidUTF8LikeJSON: responses were JSON, which turns
// each byte of invalid UTF-8 into one U+FFFD; the binary form does the
// same, so a warning quoting a font name in GBK is stored as before.
func TestWireCoercesInvalidUTF8LikeJSON(t *testing.T) {
	for _, s := range []string{"font \xcb\xce\xcc\xe5: not embedded", "\xff", "ok \uFFFD ok", "a\xe2\x82b", "plain"} {
		resp := response{Status: corpus.StatusOK, Warnings: []string{s}, Pages: []wirePage{{Text: s}}}
		got, err := decodeResponse(resp.encode(nil))
		require.NoError(t, err)
		viaJSON, err := json.Marshal(s)
		require.NoError(t, err)
		var want string
		require.NoError(t, json.Unmarshal(viaJSON, &want))
		assert.Equal(t, want, got.Warnings[0], "%q", s)
		assert.Equal(t, want, got.Pages[0].Text, "%q", s)
	}
}

// FuzzDecodeResponse: whatever a worker sends, decoding ends with a
// response or errWire, and a decoded response encodes to what decodes to
// it again.
func FuzzDecodeResponse(f *testing.F) {
	good := sampleResponse()
	f.Add(good.encode(nil))
	f.Add([]byte("R2\x02ok\x00\x00\x00\x00"))
	f.Add([]byte(strings.Repeat("\xff", 12)))
	f.Fuzz(func(t *testing.T, frame []byte) {
		resp, err := decodeResponse(frame)
		if err != nil {
			require.ErrorIs(t, err, errWire)
			return
		}
		again, err := decodeResponse(resp.encode(nil))
		require.NoError(t, err)
		require.Equal(t, resp, again)
	})
}

// TestEncoderFramesAsWholeResponse: the worker's frames, encoded page by
// page, are byte for byte the frames of the whole response, for documents
// that extract and one that does not; and one encoder serves many.
func TestEncoderFramesAsWholeResponse(t *testing.T) {
	var enc encoder
	docs := append(fixtures.Demo(), fixtures.Eval()...)
	inputs := [][]byte{[]byte("%PDF-1.4 not really")}
	for _, d := range docs {
		inputs = append(inputs, d.Data)
	}
	for i, data := range inputs {
		var whole, paged bytes.Buffer
		require.NoError(t, writeFrame(&whole, extractResponse(data, nil, DefaultLimits)))
		require.NoError(t, enc.writeFrame(&paged, enc.extract(data, nil, DefaultLimits)))
		assert.Equal(t, whole.Bytes(), paged.Bytes(), "input %d", i)
	}
}
