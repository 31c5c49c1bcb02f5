package spans_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/assert"
)

// Passages of the fixture PDFs as citecheck's extractor stores them, and
// where. TestFixtureOffsets checks them, so a change to the extractor that
// moves text fails there first, clearly.
const (
	orders    = "Orders must be delivered within 10 working days of the purchase order date."
	ordersAt  = 243 // supplier-policy.pdf page 1
	scope     = "This policy applies to every supplier of machined parts, castings and\nelectronic assemblies delivered to the Northwind plant in Leeds."
	scopeAt   = 96 // supplier-policy.pdf page 1
	footer1   = "supplier-policy.pdf Page 1"
	footer1At = 461 // the end of supplier-policy.pdf page 1 (487 code points)
	heading2  = "3. Inspection"
	invoices  = "Invoices are paid within 45 calendar days of receipt."
	invoiceAt = 223 // supplier-policy.pdf page 2
)

func TestFixtureOffsets(t *testing.T) {
	c := demoCorpus(t)
	for _, tc := range []struct {
		doc   string
		page  int
		at    int
		text  string
		whole bool // the text ends the page
	}{
		{"supplier-policy.pdf", 1, ordersAt, orders, false},
		{"supplier-policy.pdf", 1, scopeAt, scope, false},
		{"supplier-policy.pdf", 1, footer1At, footer1, true},
		{"supplier-policy.pdf", 2, 0, heading2, false},
		{"supplier-policy.pdf", 2, invoiceAt, invoices, false},
	} {
		text, err := corpus.TextOf(c, tc.doc, tc.page)
		if err != nil {
			t.Fatal(err)
		}
		r := []rune(text)
		end := tc.at + len([]rune(tc.text))
		if end > len(r) || string(r[tc.at:end]) != tc.text || tc.whole && end != len(r) {
			t.Errorf("%s page %d: %q is not at %d (the extractor changed? update the constants and fixtures/reference.json)", tc.doc, tc.page, tc.text, tc.at)
		}
	}
}

type obj = map[string]any

func span(doc string, page, start, end int, text string) obj {
	return obj{"document": doc, "page": page, "start": start, "end": end, "text": text}
}

func goodSpan() obj {
	return span("supplier-policy.pdf", 1, ordersAt, ordersAt+len([]rune(orders)), orders)
}

// answerable is a sound answerable question over goodSpan.
func answerable() obj {
	return obj{
		"id":                  "Q01",
		"question":            "Within how many days must orders be delivered?",
		"required_fields":     []any{obj{"field": "deadline", "label": "Deadline"}},
		"expected_abstention": false,
		"answer_fields":       obj{"deadline": "within 10 working days of the purchase order date"},
		"essential_claims": []any{obj{
			"field": "deadline", "value": "10 working days",
			"evidence": []any{goodSpan()},
		}},
	}
}

// unknown is a sound unknown question with its abstention data.
func unknown() obj {
	return obj{
		"id":                  "U01",
		"question":            "What warranty applies to castings?",
		"required_fields":     []any{obj{"field": "warranty", "label": "Warranty"}},
		"expected_abstention": true,
		"answer_fields":       obj{"warranty": "UNKNOWN"},
		"abstention_evidence": []any{span("supplier-policy.pdf", 1, scopeAt, scopeAt+len([]rune(scope)), scope)},
		"absence_audit": obj{
			"topic": "warranty", "sources": []any{"supplier-policy.pdf"},
			"statements": []any{"The policy does not state a warranty."},
		},
	}
}

func claim(q obj, i int) obj   { return q["essential_claims"].([]any)[i].(obj) }
func ev(q obj, c, i int) obj   { return claim(q, c)["evidence"].([]any)[i].(obj) }
func abst(q obj, i int) obj    { return q["abstention_evidence"].([]any)[i].(obj) }
func audit(q obj) obj          { return q["absence_audit"].(obj) }
func field(q obj, i int) obj   { return q["required_fields"].([]any)[i].(obj) }
func noOffsets(s obj) obj      { delete(s, "start"); delete(s, "end"); return s }
func refJSON(qs ...obj) []byte { return mustJSON(obj{"format": spans.Format, "questions": toAny(qs)}) }
func toAny(qs []obj) []any {
	out := make([]any, len(qs))
	for i, q := range qs {
		out[i] = q
	}
	return out
}
func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
}

// validate decodes data and validates it against the fixture corpus.
func validate(t *testing.T, data []byte, opts spans.Options) (*spans.Reference, *spans.Report) {
	t.Helper()
	ref, err := spans.Decode(data, "refs.json")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	rep, err := spans.Validate(ref, demoCorpus(t), opts)
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	return ref, rep
}

func TestSoundReferenceHasNoProblems(t *testing.T) {
	_, rep := validate(t, refJSON(answerable(), unknown()), spans.Options{})
	if len(rep.Problems) != 0 {
		t.Errorf("problems in a sound reference:\n%s", problems(rep))
	}
	assert.Equal(t, []int{2, 1, 1, 1, 2}, []int{rep.Questions, rep.Answerable, rep.Unknown, rep.Claims, rep.Spans}, "questions, answerable, unknown, claims, spans")
	// The shipped fixture reference is sound too.
	_, rep = validate(t, fixtures.Reference(), spans.Options{})
	if len(rep.Problems) != 0 {
		t.Errorf("problems in fixtures/reference.json:\n%s", problems(rep))
	}
}

func problems(rep *spans.Report) string {
	var b strings.Builder
	for _, p := range rep.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// TestValidationChecks: every check of the issue, one reason per case, on
// the text extracted from the fixture PDFs. Each case must produce exactly
// its one problem; want is a substring of its message or hint.
func TestValidationChecks(t *testing.T) {
	tests := []struct {
		name   string
		qs     func() []obj
		fill   bool
		code   string
		path   string
		want   string
		reason string
	}{
		// Question ids.
		{"id with a space", func() []obj { q := answerable(); q["id"] = "Q 1"; return []obj{q} },
			false, spans.CodeBadID, "questions[0].id", "white space", "ids must print and match unambiguously"},
		{"duplicate id", func() []obj { return []obj{answerable(), answerable()} },
			false, spans.CodeDuplicateID, "questions[1].id", "already used by questions[0]", "question ids are unique"},
		{"empty question", func() []obj { q := answerable(); q["question"] = " "; return []obj{q} },
			false, spans.CodeEmptyQuestion, "questions[0].question", "empty", "a system must be asked something"},
		// Required fields and labels.
		{"no required fields", func() []obj {
			q := unknown()
			q["required_fields"] = []any{}
			delete(q, "answer_fields")
			return []obj{q}
		},
			false, spans.CodeNoRequiredFields, "questions[0].required_fields", "no required field", "the contract needs required_fields"},
		{"field name with a space", func() []obj {
			q := unknown()
			field(q, 0)["field"] = "warranty period"
			delete(q, "answer_fields")
			return []obj{q}
		}, false, spans.CodeBadField, "questions[0].required_fields[0].field", "white space", "field names are identifiers"},
		{"field listed twice", func() []obj {
			q := unknown()
			q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "warranty", "label": "Warranty term"})
			return []obj{q}
		}, false, spans.CodeDuplicateField, "questions[0].required_fields[1].field", "listed twice", "fields are unique"},
		{"empty label", func() []obj { q := unknown(); field(q, 0)["label"] = ""; return []obj{q} },
			false, spans.CodeEmptyLabel, "questions[0].required_fields[0].label", "no label", "required_fields carry display labels"},
		{"labels equal up to case", func() []obj {
			q := unknown()
			q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "term", "label": "WARRANTY"})
			q["answer_fields"].(obj)["term"] = "UNKNOWN"
			audit(q)["statements"] = obj{"warranty": audit(q)["statements"]}
			return []obj{q}
		}, false, spans.CodeDuplicateLabel, "questions[0].required_fields[1].label", "also the label", "labelled answers could not be parsed"},
		// answer_fields.
		{"answer for a field not required", func() []obj { q := answerable(); q["answer_fields"].(obj)["place"] = "Leeds"; return []obj{q} },
			false, spans.CodeAnswerFieldNotReq, "questions[0].answer_fields.place", "not a required field", "answer_fields keys are required fields"},
		{"required field without answer", func() []obj { q := answerable(); q["answer_fields"] = obj{}; return []obj{q} },
			false, spans.CodeAnswerFieldMissing, "questions[0].required_fields[0]", "no canonical value", "every field has a canonical complete value"},
		{"unknown question with a value", func() []obj { q := unknown(); q["answer_fields"] = obj{"warranty": "12 months"}; return []obj{q} },
			false, spans.CodeUnknownAnswerValue, "questions[0].answer_fields.warranty", `"12 months"`, "an unknown question is answered by declining"},
		// accepted_alternatives and accepted_values.
		{"alternative for a field not required", func() []obj {
			q := answerable()
			q["accepted_alternatives"] = obj{"place": []any{"in Leeds"}}
			return []obj{q}
		}, false, spans.CodeAlternativeNotReq, `questions[0].accepted_alternatives.place`, "not a required field", "accepted_alternatives is field -> strings"},
		{"alternative listed twice", func() []obj {
			q := answerable()
			q["accepted_alternatives"] = obj{"deadline": []any{"10 working days from the order", "10 working days from the order"}}
			return []obj{q}
		}, false, spans.CodeDuplicateAlternative, "questions[0].accepted_alternatives.deadline[1]", "listed twice", "a repeated alias is a slip"},
		{"empty accepted value", func() []obj { q := answerable(); claim(q, 0)["accepted_values"] = []any{" "}; return []obj{q} },
			false, spans.CodeEmptyValue, "questions[0].essential_claims[0].accepted_values[0]", "empty", "an empty alias would accept anything"},
		// Claims.
		{"claim field not required", func() []obj {
			q := answerable()
			q["essential_claims"] = append(q["essential_claims"].([]any), obj{"field": "place", "value": "10 working days", "evidence": []any{goodSpan()}})
			return []obj{q}
		}, false, spans.CodeClaimFieldNotReq, "questions[0].essential_claims[1].field", "not a required field", "claim fields must be required fields"},
		{"claim without evidence", func() []obj {
			q := answerable()
			q["essential_claims"] = append(q["essential_claims"].([]any), obj{"field": "deadline", "value": "purchase order date", "evidence": []any{}})
			return []obj{q}
		}, false, spans.CodeClaimWithoutEvidence, "questions[0].essential_claims[1].evidence", "no evidence span", "each essential claim has exact evidence spans"},
		{"answerable without claims", func() []obj { q := answerable(); delete(q, "essential_claims"); return []obj{q} },
			false, spans.CodeNoEvidence, "questions[0]", "no claim with evidence", "every answerable question has a claim with evidence"},
		{"field without claim", func() []obj {
			q := answerable()
			q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "basis", "label": "Basis"})
			q["answer_fields"].(obj)["basis"] = "working days"
			return []obj{q}
		}, false, spans.CodeFieldWithoutClaim, "questions[0].required_fields[1]", `"basis"`, "no span supports that field's value"},
		{"abstention data on an answerable question", func() []obj { q := answerable(); q["absence_audit"] = audit(unknown()); return []obj{q} },
			false, spans.CodeAbstentionOnAnswer, "questions[0].absence_audit", "answerable", "abstention data belongs to unknown questions"},
		// Unknown questions.
		{"claims on an unknown question", func() []obj {
			q := unknown()
			q["essential_claims"] = answerable()["essential_claims"]
			return []obj{q}
		},
			false, spans.CodeClaimsOnUnknown, "questions[0].essential_claims", "1 essential claims", "an unknown question expects a decline"},
		{"unknown question without abstention data", func() []obj {
			q := unknown()
			delete(q, "absence_audit")
			delete(q, "abstention_evidence")
			return []obj{q}
		}, false, spans.CodeAbstentionMissing, "questions[0]", "only a clean UNKNOWN", "the policy makes it optional: a warning"},
		{"audit without topic", func() []obj { q := unknown(); audit(q)["topic"] = ""; return []obj{q} },
			false, spans.CodeEmptyTopic, "questions[0].absence_audit.topic", "no topic", "absence prose must match a topic"},
		{"audit without sources", func() []obj {
			q := unknown()
			audit(q)["sources"] = []any{}
			delete(q, "abstention_evidence")
			return []obj{q}
		}, false, spans.CodeNoSources, "questions[0].absence_audit.sources", "no source", "absence prose must match a named source"},
		{"audit source not in the corpus", func() []obj {
			q := unknown()
			audit(q)["sources"] = []any{"supplier-policy.pdf", "warranty.pdf"}
			return []obj{q}
		}, false, spans.CodeUnknownDocument, "questions[0].absence_audit.sources[1]", `"warranty.pdf"`, "a named source is a corpus document"},
		{"audit without statements", func() []obj { q := unknown(); audit(q)["statements"] = []any{}; return []obj{q} },
			false, spans.CodeNoStatements, "questions[0].absence_audit.statements", "no statement", "nothing registered: a warning"},
		{"statements list on a question with two fields", func() []obj {
			q := unknown()
			q["required_fields"] = append(q["required_fields"].([]any), obj{"field": "claim_deadline", "label": "Claim deadline"})
			return []obj{q}
		}, false, spans.CodeStatementsNeedFields, "questions[0].absence_audit.statements", "use the object form", "a list does not say which field a statement is about"},
		{"statements for a field not required", func() []obj {
			q := unknown()
			audit(q)["statements"] = obj{"warranty": []any{"The policy does not state a warranty."}, "warranty_period": []any{"The policy does not state a warranty period."}}
			return []obj{q}
		}, false, spans.CodeStatementFieldNotReq, "questions[0].absence_audit.statements.warranty_period", "not a required field", "statements keys are required fields"},
		{"empty statement in the object form", func() []obj {
			q := unknown()
			audit(q)["statements"] = obj{"warranty": []any{""}}
			return []obj{q}
		}, false, spans.CodeEmptyValue, "questions[0].absence_audit.statements.warranty[0]", "an empty statement", "an empty statement would match any prose"},
		{"white-space statement in the list form", func() []obj { q := unknown(); audit(q)["statements"] = []any{"\u00a0\t"}; return []obj{q} },
			false, spans.CodeEmptyValue, "questions[0].absence_audit.statements[0]", "empty but for white space", "white space is no statement"},
		{"white-space source name", func() []obj { q := unknown(); audit(q)["source_names"] = []any{"the policy", " "}; return []obj{q} },
			false, spans.CodeEmptyValue, "questions[0].absence_audit.source_names[1]", "source name", "a blank name would match any prose"},
		{"source name listed twice", func() []obj {
			q := unknown()
			audit(q)["source_names"] = []any{"the policy", "the policy"}
			return []obj{q}
		},
			false, spans.CodeDuplicateAlternative, "questions[0].absence_audit.source_names[1]", "listed twice", "a repeated name is a slip"},
		{"abstention evidence outside the sources", func() []obj { q := unknown(); audit(q)["sources"] = []any{"price-list.pdf"}; return []obj{q} },
			false, spans.CodeEvidenceOutsideSource, "questions[0].abstention_evidence[0].document", "not among", "the passages show what the named source says"},
		// Spans: document and page.
		{"document not in the corpus", func() []obj { q := answerable(); ev(q, 0, 0)["document"] = "Supplier-Policy.pdf"; return []obj{q} },
			false, spans.CodeUnknownDocument, "questions[0].essential_claims[0].evidence[0].document", "did you mean supplier-policy.pdf", "the document exists"},
		{"document without text", func() []obj { q := answerable(); ev(q, 0, 0)["document"] = "broken.pdf"; return []obj{q} },
			false, spans.CodeNoText, "questions[0].essential_claims[0].evidence[0].document", "malformed", "a document that did not extract has no spans"},
		{"page out of range", func() []obj { q := answerable(); ev(q, 0, 0)["page"] = 4; return []obj{q} },
			false, spans.CodePageOutOfRange, "questions[0].essential_claims[0].evidence[0].page", "pages 1..3", "the page is in range"},
		{"page out of range, text elsewhere", func() []obj { q := answerable(); ev(q, 0, 0)["page"] = 4; return []obj{q} },
			false, spans.CodePageOutOfRange, "questions[0].essential_claims[0].evidence[0].page", `"page": 1, "start": 243, "end": 318`, "the hint names the page the text is on"},
		// Spans: offsets.
		{"start without end", func() []obj { q := answerable(); delete(ev(q, 0, 0), "end"); return []obj{q} },
			false, spans.CodeBadOffsets, "questions[0].essential_claims[0].evidence[0].start", "only one of start and end", "both or neither"},
		{"start not before end", func() []obj { q := answerable(); ev(q, 0, 0)["end"] = ordersAt; return []obj{q} },
			false, spans.CodeBadOffsets, "questions[0].essential_claims[0].evidence[0].start", "not before end", "spans are non-empty"},
		{"end_page not the next page", func() []obj { q := answerable(); ev(q, 0, 0)["end_page"] = 3; return []obj{q} },
			false, spans.CodeBadOffsets, "questions[0].essential_claims[0].evidence[0].end_page", "not the page after", "a span crosses one break at most"},
		{"end beyond the page", func() []obj { q := answerable(); ev(q, 0, 0)["end"] = 9999; return []obj{q} },
			false, spans.CodeOffsetsOutOfRange, "questions[0].essential_claims[0].evidence[0].end", "487 code points", "offsets lie within the page"},
		{"empty text", func() []obj { q := answerable(); ev(q, 0, 0)["text"] = ""; return []obj{q} },
			false, spans.CodeEmptyText, "questions[0].essential_claims[0].evidence[0].text", "empty", "a span quotes something"},
		// Spans: the text at the offsets.
		{"offsets off by one", func() []obj {
			q := answerable()
			ev(q, 0, 0)["start"] = ordersAt - 1
			ev(q, 0, 0)["end"] = ordersAt - 1 + len(orders)
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", `set "start": 243, "end": 318`, "the hint gives the nearest true offsets"},
		{"mismatch shows what is there", func() []obj {
			q := answerable()
			ev(q, 0, 0)["end"] = ordersAt + 6
			ev(q, 0, 0)["text"] = "Orderz"
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", `is "Orders", not the declared "Orderz"`, "the message shows the stored text"},
		{"text on another page", func() []obj {
			q := answerable()
			s := ev(q, 0, 0)
			s["start"], s["end"], s["text"] = 0, len(invoices), invoices
			claim(q, 0)["value"] = "45 calendar days"
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", `page 2 at [223,276)`, "the hint names other pages"},
		{"text in another document", func() []obj {
			q := answerable()
			s := ev(q, 0, 0)
			s["document"] = "price-list.pdf"
			s["start"], s["end"] = 0, len(orders)
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", "another document: supplier-policy.pdf page 1 at [243,318)", "the hint names other documents"},
		{"text with other white space", func() []obj {
			q := answerable()
			ev(q, 0, 0)["text"] = strings.Replace(orders, "within 10", "within  10", 1)
			ev(q, 0, 0)["end"] = ordersAt + len(orders) + 1
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", "quote/v2 level whitespace) at [243,318)", "a copy with other spacing is found after normalization"},
		{"long text with other white space", func() []obj {
			q := answerable()
			long := orders + "\nDeliveries are accepted Monday to Friday between 07:00 and 15:30."
			ev(q, 0, 0)["text"] = strings.ReplaceAll(long, "\n", " ")
			ev(q, 0, 0)["end"] = ordersAt + len(long)
			return []obj{q}
		}, false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text",
			`copy the stored text exactly: "Orders must be delivered within 10 working days of the purchase order date.\nDeliveries are accepted Monday to Friday between 07:00 and 15:30."`,
			"the text to copy is quoted whole, never cut where the author needs it"},
		{"text nowhere", func() []obj {
			q := answerable()
			ev(q, 0, 0)["text"] = strings.Replace(orders, "10", "12", 1)
			return []obj{q}
		},
			false, spans.CodeTextMismatch, "questions[0].essential_claims[0].evidence[0].text", "nowhere in the corpus", "a changed digit is never normalized away"},
		// Spans: page breaks.
		{"undeclared page break", func() []obj {
			q := unknown()
			s := abst(q, 0)
			s["start"], s["end"], s["text"] = footer1At, footer1At+len(footer1)+1+len(heading2), footer1+"\n"+heading2
			return []obj{q}
		}, false, spans.CodeCrossesPage, "questions[0].abstention_evidence[0].end", `add "end_page": 2 and set "end": 13`, "a span over a page break declares it"},
		{"page break without offsets", func() []obj {
			q := unknown()
			s := noOffsets(abst(q, 0))
			s["text"] = footer1 + "\n" + heading2
			return []obj{q}
		}, false, spans.CodeOffsetsMissing, "questions[0].abstention_evidence[0]", `"start": 461, "end": 13, "end_page": 2`, "a crossing text is located, with its end_page"},
		// Spans without offsets.
		{"offsets missing", func() []obj { q := answerable(); noOffsets(ev(q, 0, 0)); return []obj{q} },
			false, spans.CodeOffsetsMissing, "questions[0].essential_claims[0].evidence[0]", `add "start": 243, "end": 318`, "a frozen reference holds its offsets"},
		{"offsets filled", func() []obj { q := answerable(); noOffsets(ev(q, 0, 0)); return []obj{q} },
			true, spans.CodeOffsetsFilled, "questions[0].essential_claims[0].evidence[0]", `filled "start": 243, "end": 318`, "--fix fills a unique text"},
		{"text not on its page", func() []obj {
			q := answerable()
			s := noOffsets(ev(q, 0, 0))
			s["page"] = 2
			return []obj{q}
		}, false, spans.CodeTextNotFound, "questions[0].essential_claims[0].evidence[0].text", `page 1 at [243,318)`, "the hint names the right page"},
		{"ambiguous text", func() []obj {
			q := answerable()
			s := noOffsets(ev(q, 0, 0))
			s["page"], s["text"] = 2, "calendar days"
			claim(q, 0)["value"] = "calendar days"
			return []obj{q}
		}, false, spans.CodeAmbiguousText, "questions[0].essential_claims[0].evidence[0].text", "occurs 2 times on page 2", "an ambiguous text is not filled"},
		// Duplicates and values.
		{"duplicate span", func() []obj {
			q := answerable()
			claim(q, 0)["evidence"] = []any{goodSpan(), goodSpan()}
			return []obj{q}
		}, false, spans.CodeDuplicateSpan, "questions[0].essential_claims[0].evidence[1]", "evidence[0]", "the same span twice is a slip"},
		{"value number not in span", func() []obj { q := answerable(); claim(q, 0)["value"] = "11 working days"; return []obj{q} },
			false, spans.CodeValueNotInSpan, "questions[0].essential_claims[0].evidence[0]", "number 11", "the span must state the value's numbers"},
		{"value words not in span", func() []obj { q := answerable(); claim(q, 0)["value"] = "weekly"; return []obj{q} },
			false, spans.CodeValueNotInSpan, "questions[0].essential_claims[0].evidence[0]", "word weekly", "a value without numbers needs its words"},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, rep := validate(t, refJSON(tc.qs()...), spans.Options{Fill: tc.fill})
			if len(rep.Problems) != 1 {
				t.Fatalf("want exactly one problem (%s), got:\n%s", tc.reason, problems(rep))
			}
			p := rep.Problems[0]
			if p.Code != tc.code || p.Path != tc.path {
				t.Errorf("got %s at %s, want %s at %s (%s)\n%s", p.Code, p.Path, tc.code, tc.path, tc.reason, p)
			}
			if !strings.Contains(p.Message+" "+p.Hint, tc.want) {
				t.Errorf("%q not in %s (%s)", tc.want, p, tc.reason)
			}
			if p.Pos.Line == 0 || p.Pos.File != "refs.json" {
				t.Errorf("no file position: %s", p)
			}
		})
		seen[tc.code] = true
	}
	for _, c := range spans.Codes {
		if !seen[c.Code] {
			t.Errorf("no test case for code %s", c.Code)
		}
	}
}

// TestValueCheckAccepts: values the check must not warn about.
func TestValueCheckAccepts(t *testing.T) {
	for _, value := range []string{
		"10 working days",  // verbatim
		"ten working days", // cardinal word
		"10 Working Days",  // case
		"within 10 working days of the purchase order date", // the whole sentence's words
		"the purchase orders",                               // article and plural
	} {
		q := answerable()
		claim(q, 0)["value"] = value
		if _, rep := validate(t, refJSON(q), spans.Options{}); len(rep.Problems) != 0 {
			t.Errorf("value %q: %s", value, problems(rep))
		}
	}
}

// TestProblemLine pins the one-line format.
func TestProblemLine(t *testing.T) {
	q := answerable()
	ev(q, 0, 0)["start"] = ordersAt - 1
	ev(q, 0, 0)["end"] = ordersAt - 1 + len(orders)
	_, rep := validate(t, refJSON(q), spans.Options{})
	want := `refs.json:16:23: error: questions[0].essential_claims[0].evidence[0].text: text_mismatch: the stored text at [242,317) of page 1 is "\nOrders must be delivered within 10 working days of the pur"…, not the declared "Orders must be delivered within 10 working days of the purc"…; fix: the declared text is at [243,318) of page 1: set "start": 243, "end": 318`
	if got := rep.Problems[0].String(); got != want {
		t.Errorf("line\n got %s\nwant %s", got, want)
	}
}
