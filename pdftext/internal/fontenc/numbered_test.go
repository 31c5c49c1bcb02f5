package fontenc

import "testing"

func TestNumberedNames(t *testing.T) {
	var decimal, hex Encoding
	decimal[65], decimal[66] = "C65", "C66"
	hex[65], hex[75] = "C41", "C4b"
	tests := []struct {
		enc  *Encoding
		name string
		code int
		want string // "" when not read
		why  string
	}{
		{&decimal, "C65", 65, "A", "C names count in decimal by default"},
		{&hex, "C41", 65, "A", "one C name with a hex letter makes all of them hex"},
		{&hex, "C4b", 75, "K", "the hex letter itself"},
		{&decimal, "G41", 65, "A", "G names are hex"},
		{&decimal, "g0041", 65, "A", "g names are hex, four digits"},
		{&decimal, "c97", 97, "a", "lower-case c like C"},
		{&hex, "C96", 150, "–", "a C1 control that is the glyph's own code is read through WinAnsi"},
		{&hex, "C96", 40, "", "a C1 control at another code stays unread"},
		{&decimal, "C0", 0, "", "two characters: not a numbered name"},
		{&decimal, "C12345", 1, "", "six characters: not a numbered name"},
		{&decimal, "Cx1", 1, "", "not a number in the encoding's base"},
		{&decimal, "C07", 7, "", "a control character is no text"},
		{&decimal, "H65", 65, "", "only C, c, G and g names"},
	}
	for _, tc := range tests {
		got, ok := NewNumberedNames(tc.enc).Unicode(tc.name, tc.code)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s at %d: got %q %v, want %q (%s)", tc.name, tc.code, got, ok, tc.want, tc.why)
		}
	}
}
