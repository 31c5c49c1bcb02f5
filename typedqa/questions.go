package typedqa

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Type is a question's answer type.
type Type string

const (
	TypeBoolean       Type = "boolean"        // Y, N, illegible or blank (docs/typed.md, Booleans)
	TypeInteger       Type = "integer"        // non-negative integer, exact (docs/typed.md, Integers)
	TypePairedInteger Type = "paired_integer" // "N | N", both exact (docs/typed.md, Paired integers)
	TypeString        Type = "string"         // character accuracy (docs/typed.md, String)
	TypeList          Type = "list"           // "|"-separated entries, F1 (docs/typed.md, Text arrays)
)

func (t Type) valid() bool {
	switch t {
	case TypeBoolean, TypeInteger, TypePairedInteger, TypeString, TypeList:
		return true
	}
	return false
}

// Condition makes a question blank in the ground truth of a document when
// another question's ground truth there equals a value, as Q2 is blank
// when Q1 = N (docs/typed.md, Question types).
type Condition struct {
	Question string `json:"question"`
	Equals   string `json:"equals"`
}

// Question is one entry of the questions file.
type Question struct {
	ID        string     `json:"id"`
	Type      Type       `json:"type"`
	BlankWhen *Condition `json:"blank_when,omitempty"`
	// Order is required for lists and absent otherwise.
	Order Order `json:"order,omitempty"`
	// FirstWords, for lists, keeps only the first N words of each entry;
	// nil keeps them all.
	FirstWords *int `json:"first_words,omitempty"`
	// PartialCreditMarker, for integers: an answer containing it is scored
	// by character accuracy instead of exactly, as "?" on Q2 is
	// (docs/typed.md, Question marks in answers).
	PartialCreditMarker string `json:"partial_credit_marker,omitempty"`

	equalsKey string // BlankWhen.Equals in the referenced question's canonical form
}

// Questions is a validated questions file, in file order; that order is
// also the order of questions in every output.
type Questions struct {
	list []Question
	byID map[string]int
}

// All returns the questions in file order.
func (qs *Questions) All() []Question { return append([]Question(nil), qs.list...) }

// Lookup returns the question with the given id.
func (qs *Questions) Lookup(id string) (Question, bool) {
	i, ok := qs.byID[id]
	if !ok {
		return Question{}, false
	}
	return qs.list[i], true
}

func (qs *Questions) lookup(id string) *Question {
	if i, ok := qs.byID[id]; ok {
		return &qs.list[i]
	}
	return nil
}

//go:embed questions-default.json
var defaultQuestionsJSON []byte

// DefaultQuestionsJSON returns the shipped questions-default.json: Q1–Q22
// as the rubric assigns them (docs/typed.md, Question types).
func DefaultQuestionsJSON() []byte { return bytes.Clone(defaultQuestionsJSON) }

// DefaultQuestions parses the shipped questions-default.json.
func DefaultQuestions() *Questions {
	qs, err := ReadQuestions(bytes.NewReader(defaultQuestionsJSON), "questions-default.json")
	if err != nil {
		panic("typedqa: embedded questions-default.json is invalid: " + err.Error()) // a build defect, caught by tests
	}
	return qs
}

// questionShape lists the keys of a question (docs/schema/typed-questions.schema.json).
var questionShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{
	"id": nil, "type": nil, "order": nil, "first_words": nil, "partial_credit_marker": nil,
	"blank_when": {Keys: map[string]*strictjson.Shape{"question": nil, "equals": nil}},
}}

// decodeQuestion fills q from its tree as encoding/json would.
func decodeQuestion(d *strictjson.TreeDecoder, v *strictjson.Value, q *Question) {
	for _, m := range v.Members {
		switch m.Key {
		case "id":
			q.ID = d.Str(m.Value, m.Key)
		case "type":
			q.Type = Type(d.Str(m.Value, m.Key))
		case "order":
			q.Order = Order(d.Str(m.Value, m.Key))
		case "first_words":
			q.FirstWords = d.IntPtr(m.Value, m.Key)
		case "partial_credit_marker":
			q.PartialCreditMarker = d.Str(m.Value, m.Key)
		case "blank_when":
			if m.Value.Kind == strictjson.Null || !d.Want(m.Value, m.Key, strictjson.Object, "typedqa.Condition") {
				continue
			}
			q.BlankWhen = &Condition{}
			for _, c := range m.Value.Members {
				switch p := strictjson.JoinKey(m.Key, c.Key); c.Key {
				case "question":
					q.BlankWhen.Question = d.Str(c.Value, p)
				case "equals":
					q.BlankWhen.Equals = d.Str(c.Value, p)
				}
			}
		}
	}
}

var questionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// ReadQuestions reads and validates a questions file (schema:
// docs/schema/typed-questions.schema.json). file names the input in errors.
func ReadQuestions(r io.Reader, file string) (*Questions, error) {
	data, err := readAll(r, file, MaxConfigFileBytes)
	if err != nil {
		return nil, err
	}
	list, lines, err := decodeTopArray(data, file, "questions", questionShape, decodeQuestion)
	if err != nil {
		return nil, err
	}
	var errs errorList
	qs := &Questions{list: list, byID: map[string]int{}}
	if len(list) == 0 {
		errs.addf(file, 1, "questions", "no questions")
	}
	if len(list) > MaxQuestions {
		errs.addf(file, 1, "questions", "%d questions, more than %d", len(list), MaxQuestions)
	}
	for i := range list {
		q := &list[i]
		if !questionIDPattern.MatchString(q.ID) {
			errs.addf(file, lines[i], "id", "%q is not a question id (1-64 letters, digits, '_', '.', '-', starting with a letter or digit)", q.ID)
			continue
		}
		if j, dup := qs.byID[q.ID]; dup {
			errs.addf(file, lines[i], "id", "%q is declared twice (also on line %d)", q.ID, lines[j])
			continue
		}
		qs.byID[q.ID] = i
	}
	for i := range list {
		validateQuestion(qs, &list[i], file, lines[i], &errs)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	for i := range list {
		if err := checkConditionCycle(qs, &list[i]); err != nil {
			errs.add(file, lines[i], "blank_when", err)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return qs, nil
}

func validateQuestion(qs *Questions, q *Question, file string, line int, errs *errorList) {
	if !q.Type.valid() {
		errs.addf(file, line, "type", "%q is not one of boolean, integer, paired_integer, string, list", q.Type)
		return
	}
	if q.Type == TypeList {
		if q.Order != OrderAny && q.Order != OrderDocument {
			errs.addf(file, line, "order", "a list needs order \"any\" or \"document\", not %q", q.Order)
		}
		if q.FirstWords != nil && *q.FirstWords < 1 {
			errs.addf(file, line, "first_words", "must be at least 1, not %d", *q.FirstWords)
		}
	} else {
		if q.Order != "" {
			errs.addf(file, line, "order", "applies to lists only, not to %s", q.Type)
		}
		if q.FirstWords != nil {
			errs.addf(file, line, "first_words", "applies to lists only, not to %s", q.Type)
		}
	}
	if q.Type != TypeInteger && q.PartialCreditMarker != "" {
		errs.addf(file, line, "partial_credit_marker", "applies to integers only, not to %s", q.Type)
	}
	if m := q.PartialCreditMarker; m != "" {
		if len(m) > 8 || strings.IndexFunc(m, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsDigit(r) || r == '|' }) >= 0 {
			errs.addf(file, line, "partial_credit_marker", "%q must be at most 8 bytes with no white space, digit or '|'", m)
		}
	}
	if c := q.BlankWhen; c != nil {
		ref := qs.lookup(c.Question)
		switch {
		case ref == nil:
			errs.addf(file, line, "blank_when", "refers to unknown question %q", c.Question)
			return
		case ref.ID == q.ID:
			errs.addf(file, line, "blank_when", "refers to the question itself")
			return
		}
		key, err := conditionKey(ref.Type, c.Equals)
		if err != nil {
			errs.add(file, line, "blank_when", fmt.Errorf("equals %q: %w", c.Equals, err))
			return
		}
		q.equalsKey = key
	}
}

// conditionKey is the canonical form in which a condition's value and the
// referenced question's ground truth are compared: Y/N for booleans, the
// number for integers, the pre-processed text for strings.
func conditionKey(t Type, value string) (string, error) {
	switch t {
	case TypeBoolean:
		switch normalize(value, true) {
		case "y":
			return "Y", nil
		case "n":
			return "N", nil
		}
		return "", errors.New("a boolean condition is Y or N")
	case TypeInteger:
		n, ok := parseInteger(normalize(value, true))
		if !ok {
			return "", errors.New("an integer condition is a non-negative integer")
		}
		return n, nil
	case TypeString:
		s := normalize(value, true)
		if s == "" {
			return "", errors.New("a string condition is not empty")
		}
		return s, nil
	}
	return "", fmt.Errorf("a condition may refer to a boolean, integer or string question, not to a %s", t)
}

// checkConditionCycle refuses Q1 blank when Q2 ..., Q2 blank when Q1 ...:
// the ground truth could not satisfy it consistently.
func checkConditionCycle(qs *Questions, q *Question) error {
	seen := map[string]bool{q.ID: true}
	for c := q.BlankWhen; c != nil; {
		if seen[c.Question] {
			return fmt.Errorf("conditions form a cycle through %q", c.Question)
		}
		seen[c.Question] = true
		ref := qs.lookup(c.Question)
		if ref == nil {
			return nil
		}
		c = ref.BlankWhen
	}
	return nil
}

// parseInteger accepts ASCII decimal digits only (no sign, no separators,
// no other scripts' digits) and returns the number without leading zeros.
func parseInteger(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		s = "0"
	}
	return s, true
}
