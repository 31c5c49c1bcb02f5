package grade

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/citecheck/citecheck/spans"
)

// fuzzQuestion is a two-field question, so that label parsing, duplicate
// and missing labels all occur.
var fuzzQuestion = spans.Question{
	ID: "Q13", Question: "For how long is pallet storage free of charge, and what fee applies after that?",
	RequiredFields: []spans.RequiredField{{Field: "free_period", Label: "Free storage period"}, {Field: "fee", Label: "Storage fee"}},
	AnswerFields:   map[string]string{"free_period": "the first 14 calendar days of pallet storage", "fee": "2.50 EUR per pallet per calendar day"},
	EssentialClaims: []spans.Claim{{Field: "free_period", Value: "the first 14 calendar days of pallet storage"},
		{Field: "fee", Value: "2.50 EUR per pallet per calendar day"}},
	AcceptedAlternatives: map[string][]string{"fee": {"EUR 2.50 per pallet and calendar day"}},
}

// FuzzParseResponse parses any response into the question's fields and
// grades each value against the reference: no panic; every value is text
// of the response; every field gets one of the three verdicts with at
// least one reason; flags are sorted and known.
func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{
		"Free storage period: the first 14 calendar days\nStorage fee: 2.50 EUR per pallet per calendar day",
		"- **Storage fee:** 2,50 EUR\n**Free storage period**: UNKNOWN",
		"Here you go:\nStorage fee: 2.50 EUR per pallet per calendar day\nStorage fee: 3 EUR",
		"14 days free, then 2.50 EUR per pallet per day.", "", "UNKNOWN", "Storage fee:", ":::", "1. Storage fee: 5%\r\n",
		"Free storage period：14 calendar days", "# Storage fee: at least 2.50 EUR [1]", "\xff\xfe:",
	} {
		f.Add(s)
	}
	refs := newFieldRefs(&fuzzQuestion)
	known := map[string]bool{FlagUnassignedPreface: true, FlagDuplicateLabel: true, FlagMissingLabel: true,
		FlagExtraOutput: true, FlagUnlabelled: true, FlagUnknownField: true}
	f.Fuzz(func(t *testing.T, s string) {
		r := ParseResponse(&fuzzQuestion, s, nil)
		for i, fl := range r.Flags {
			if !known[fl] || i > 0 && r.Flags[i-1] >= fl {
				t.Fatalf("flags %v", r.Flags)
			}
		}
		for field, vs := range r.Values {
			if fieldIndex(&fuzzQuestion, field) < 0 {
				t.Fatalf("value for unknown field %q", field)
			}
			for _, v := range vs {
				if utf8.ValidString(s) && !strings.Contains(strings.ReplaceAll(s, "\r\n", "\n"), strings.TrimSpace(v)) && !strings.Contains(v, "\n") {
					t.Fatalf("value %q is not text of the response %q", v, s)
				}
			}
		}
		for i := range refs {
			for _, v := range r.Values[refs[i].field] {
				fv := gradeValue(&refs[i], v)
				switch fv.Verdict {
				case Correct, Incorrect, Unresolved:
				default:
					t.Fatalf("verdict %q for %q", fv.Verdict, v)
				}
				if len(fv.Reasons) == 0 {
					t.Fatalf("no reason for %q: %+v", v, fv)
				}
			}
		}
	})
}
