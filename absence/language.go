package absence

import (
	"github.com/citecheck/citecheck/textnorm"
)

// The closed word lists below are read on value/v2 tokens: case folded,
// articles dropped, plurals and "requires"-style variants reduced, so
// "does not state", "doesn't specify" and "is not mentioned" all match.

// negators may open absence language ("does not state").
var negators = set("not", "no", "never", "doesnt", "dont", "didnt", "isnt", "arent", "wasnt", "werent", "cannot", "cant")

// reportVerbs are what a document does or does not do with a fact.
var reportVerbs = set("state", "stated", "specify", "specified", "say", "said", "mention", "mentioned", "contain",
	"contained", "list", "listed", "give", "given", "provide", "provided", "include", "included", "define",
	"defined", "indicate", "indicated", "address", "addressed", "cover", "covered", "set", "document",
	"documented", "found", "available", "information", "detail", "data", "reference", "referenced", "disclose",
	"disclosed", "describe", "described", "name", "named", "show", "shown", "regulate", "regulated",
	"determine", "determined", "record", "recorded", "indication", "statement", "specification", "mentioning",
	"stating", "specifying", "listing")

// hedges mark a value as a guess ("it is probably 8%").
var hedges = set("probably", "likely", "possibly", "perhaps", "maybe", "presumably", "typically", "usually",
	"generally", "normally", "commonly", "approximately", "roughly", "estimate", "estimated", "guess",
	"assume", "assumed", "might", "could", "may", "suppose", "expect", "expected", "likelihood")

// zeroWords assert that something is nothing: a factual zero.
var zeroWords = set("free", "nil", "nothing", "gratis", "zero")

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// Declines reports whether a value declines to answer: UNKNOWN, absence
// language ("the agreement does not specify", "no information is given",
// "nothing is said") or another decline ("I don't know", "cannot be
// determined"). The grader fails such a value on an answerable question
// (policy: "A decline on an answerable question fails").
func Declines(v textnorm.Value) bool {
	return v.Unknown() || absenceLanguage(v) || declinePhrase(v)
}

// absenceLanguage: a negator followed within three words by a reporting
// verb or noun; "nothing" next to one ("says nothing", "nothing is said");
// "only" before one ("only lists"); "silent".
func absenceLanguage(v textnorm.Value) bool {
	ts := v.Tokens
	for i, t := range ts {
		switch {
		case negators[t.Text]:
			for j := i + 1; j < len(ts) && j <= i+3; j++ {
				if reportVerbs[ts[j].Text] {
					return true
				}
			}
		case t.Text == "nothing":
			for j := max(0, i-2); j < len(ts) && j <= i+3; j++ {
				if j != i && reportVerbs[ts[j].Text] {
					return true
				}
			}
		case t.Text == "silent":
			return true
		case t.Text == "only":
			// "The price list only lists discounts up to 199 boxes": what
			// the source says, not a fact of its own.
			for j := i + 1; j < len(ts) && j <= i+2; j++ {
				if reportVerbs[ts[j].Text] || ts[j].Text == "cover" || ts[j].Text == "covers" {
					return true
				}
			}
		}
	}
	return false
}

// declinePhrase: "unknown" inside prose, "I don't know", "unable to",
// "cannot answer/determine/say/tell/find", "unclear", "not known".
func declinePhrase(v textnorm.Value) bool {
	ts := v.Tokens
	for i, t := range ts {
		switch t.Text {
		case "unknown", "unclear", "unable", "unanswerable", "undetermined":
			return true
		case "know", "known":
			for j := max(0, i-2); j < i; j++ {
				if negators[ts[j].Text] {
					return true
				}
			}
		case "cannot", "cant":
			if i+1 < len(ts) {
				switch ts[i+1].Text {
				case "answer", "determine", "say", "tell", "find", "be":
					return true
				}
			}
		}
	}
	return false
}

// hedged: a hedge word anywhere.
func hedged(v textnorm.Value) bool {
	for _, t := range v.Tokens {
		if t.Kind == textnorm.TokWord && hedges[t.Text] {
			return true
		}
	}
	return false
}

// factualZero: the prose asserts a zero ("No discount applies", "free of
// charge", "0%"), which is a fact about the source, not its silence.
func factualZero(v textnorm.Value) bool {
	for _, t := range v.Tokens {
		switch {
		case t.Kind == textnorm.TokNegation:
			return true
		case t.Kind == textnorm.TokNumber && textnorm.SameNumber(t.Text, "0"):
			return true
		case t.Kind == textnorm.TokWord && zeroWords[t.Text]:
			return true
		}
	}
	return false
}
