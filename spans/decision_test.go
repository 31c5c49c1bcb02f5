package spans_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/strictjson"
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
	if !errors.Is(err, strictjson.ErrType) || !strings.Contains(err.Error(), "required_fields: wrong type: expected an array") {
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
	c := unknown()
	d := unknown()
	audit(d)["source_names"] = []any{}
	rc, _ := spans.Decode(refJSON(c), "c")
	rd, _ := spans.Decode(refJSON(d), "d")
	if string(rc.Canonical()) != string(rd.Canonical()) {
		t.Errorf("an empty source_names must encode like an absent one:\n%s\n%s", rc.Canonical(), rd.Canonical())
	}
}

func TestDecisionStatementsByField(t *testing.T) {
	two := func(statements any) obj {
		q := unknown()
		q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "claim_deadline", "label": "Claim deadline"})
		audit(q)["statements"] = statements
		return q
	}
	// The object form may leave a required field without statements:
	// nothing is registered for it.
	ref, rep := validate(t, refJSON(two(obj{"warranty": []any{"The policy does not state a warranty."}})), spans.Options{})
	if len(rep.Problems) != 0 {
		t.Errorf("a field without statements in the object form is fine\n%s", problems(rep))
	}
	st := ref.Questions[0].AbsenceAudit.Statements
	if got := st.For("warranty"); len(got) != 1 || got[0] != "The policy does not state a warranty." || st.For("claim_deadline") != nil {
		t.Errorf("For: %q, %q", st.For("warranty"), st.For("claim_deadline"))
	}
	// A plain list on two fields does not say which field it is about.
	_, rep = validate(t, refJSON(two([]any{"The policy does not state a warranty."})), spans.Options{})
	if len(rep.Problems) != 1 || rep.Problems[0].Code != spans.CodeStatementsNeedFields || !rep.HasErrors() {
		t.Errorf("a plain list on a two-field question must be an error\n%s", problems(rep))
	}
	// An empty list registers nothing, so it names no field wrongly: only
	// the no_statements warning.
	_, rep = validate(t, refJSON(two([]any{})), spans.Options{})
	if len(rep.Problems) != 1 || rep.Problems[0].Code != spans.CodeNoStatements {
		t.Errorf("an empty list on a two-field question\n%s", problems(rep))
	}
	// On a one-field question the list is that field's.
	ref, rep = validate(t, refJSON(unknown()), spans.Options{})
	if len(rep.Problems) != 0 || len(ref.Questions[0].AbsenceAudit.Statements.For("warranty")) != 1 {
		t.Errorf("the list form on a one-field question\n%s", problems(rep))
	}
}
