package main

import "testing"

func TestWindowHits(t *testing.T) {
	ref := "one two three four five six seven eight nine ten eleven twelve"
	// Windows start at words 1 and 5: "one..eight" and "five..twelve".
	total, a, b := windowHits(ref, "one two  three\nfour five six seven eight nine ten eleven twelve", "onetwo three four five six seven eight nine ten eleven twelve")
	if total != 2 || a != 2 || b != 1 {
		t.Errorf("got total %d, a %d, b %d; want 2, 2 (spaces collapsed), 1 (a lost space loses the window)", total, a, b)
	}
	if total, _, _ := windowHits("too short", "", ""); total != 0 {
		t.Errorf("fewer than 8 words make no window: %d", total)
	}
}
