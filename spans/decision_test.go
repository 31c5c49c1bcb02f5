package spans_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/spans"
)

// The ambiguities the package documentation lists, one test each.

func TestDecisionAbstentionDataOptional(t *testing.T) {
	q := unknown()
	delete(q, "absence_audit")
	delete(q, "abstention_evidence")
	_, rep := validate(t, refJSON(q), spans.Options{})
	if rep.HasErrors() || rep.Count(spans.Warning) != 1 || rep.Problems[0].Code != spans.CodeAbstentionMissing {
		t.Errorf("the policy says unknown references *may* include abstention data: a warning, not an error\n%s", problems(rep))
	}
}

func TestDecisionPageBreakIsNewline(t *testing.T) {
	for _, tc := range []struct {
		join string
		ok   bool
	}{{"\n", true}, {" ", false}, {"", false}, {"\f", false}} {
		q := unknown()
		s := abst(q, 0)
		s["start"], s["end"], s["end_page"], s["text"] = footer1At, len(heading2), 2, footer1+tc.join+heading2
		_, rep := validate(t, refJSON(q), spans.Options{})
		if rep.HasErrors() == tc.ok {
			t.Errorf("page break written %q: ok=%v, want %v\n%s", tc.join, !rep.HasErrors(), tc.ok, problems(rep))
		}
	}
}

func TestDecisionMissingOffsetsAreErrors(t *testing.T) {
	q := answerable()
	noOffsets(ev(q, 0, 0))
	_, rep := validate(t, refJSON(q), spans.Options{})
	if !rep.HasErrors() || rep.Problems[0].Code != spans.CodeOffsetsMissing {
		t.Errorf("a span without offsets must not be frozen as is\n%s", problems(rep))
	}
	_, rep = validate(t, refJSON(q), spans.Options{Fill: true})
	if rep.HasErrors() || len(rep.Fills) != 1 {
		t.Errorf("with Fill it is filled, not an error\n%s", problems(rep))
	}
}

func TestDecisionFixFillsOnlyMissing(t *testing.T) {
	good := answerable()
	noOffsets(ev(good, 0, 0))
	wrong := answerable()
	wrong["id"] = "Q02"
	ev(wrong, 0, 0)["start"] = ordersAt + 1 // wrong offsets, right text
	ev(wrong, 0, 0)["end"] = ordersAt + 1 + len(orders)
	ref, rep := validate(t, refJSON(good, wrong), spans.Options{Fill: true})
	fixed, err := spans.Fix(ref, rep)
	if err != nil {
		t.Fatal(err)
	}
	_, after := validate(t, fixed, spans.Options{})
	if len(after.Problems) != 1 || after.Problems[0].Code != spans.CodeTextMismatch || after.Problems[0].Question != "Q02" {
		t.Errorf("Fix must fill Q01's span and leave Q02's wrong offsets for the author\n%s", problems(after))
	}
	if !strings.Contains(string(fixed), `"start": 244`) {
		t.Errorf("Q02's wrong offsets were rewritten:\n%s", fixed)
	}
}

func TestDecisionDuplicateSpanPerList(t *testing.T) {
	q := answerable()
	q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "basis", "label": "Basis"})
	q["answer_fields"].(obj)["basis"] = "purchase order date"
	q["essential_claims"] = append(q["essential_claims"].([]any), obj{"field": "basis", "value": "purchase order date", "evidence": []any{goodSpan()}})
	if _, rep := validate(t, refJSON(q), spans.Options{}); len(rep.Problems) != 0 {
		t.Errorf("one passage may support two claims\n%s", problems(rep))
	}
}

func TestDecisionUnknownAnswerIsUNKNOWN(t *testing.T) {
	for _, v := range []string{"unknown", "Not stated", ""} {
		q := unknown()
		q["answer_fields"] = obj{"warranty": v}
		if _, rep := validate(t, refJSON(q), spans.Options{}); !rep.HasErrors() || rep.Problems[0].Code != spans.CodeUnknownAnswerValue {
			t.Errorf("answer %q on an unknown question\n%s", v, problems(rep))
		}
	}
	q := unknown()
	delete(q, "answer_fields")
	if _, rep := validate(t, refJSON(q), spans.Options{}); len(rep.Problems) != 0 {
		t.Errorf("answer_fields may be left out of an unknown question\n%s", problems(rep))
	}
}

func TestDecisionRequiredFieldsList(t *testing.T) {
	q := answerable()
	q["required_fields"] = obj{"deadline": "Deadline"}
	_, err := spans.Decode(refJSON(q), "refs.json")
	if !errors.Is(err, spans.ErrType) || !strings.Contains(err.Error(), "required_fields: wrong type: expected an array") {
		t.Errorf("a field -> label object loses the label order; got %v", err)
	}
}

func TestDecisionEmptyEqualsAbsent(t *testing.T) {
	a := answerable()
	b := answerable()
	b["accepted_alternatives"] = obj{}
	claim(b, 0)["accepted_values"] = []any{}
	ra, _ := spans.Decode(refJSON(a), "a")
	rb, _ := spans.Decode(refJSON(b), "b")
	if string(ra.Canonical()) != string(rb.Canonical()) {
		t.Errorf("empty lists and maps must encode like absent ones:\n%s\n%s", ra.Canonical(), rb.Canonical())
	}
}
