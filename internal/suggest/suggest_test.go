package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNear(t *testing.T) {
	questions := []string{"Q01", "Q02", "Q10", "Q12"}
	docs := []string{"supplier-policy.pdf", "price-list.pdf", "3M_2022_10K.pdf", "AMAZON_2019_10K.pdf"}
	keys := []string{"arm", "session", "question", "status", "response", "citations"}
	for _, tc := range []struct {
		candidates []string
		key        string
		want       []string
		why        string
	}{
		{questions, "q01", []string{"Q01"}, "another case"},
		{questions, "Q1", nil, "digits differ: Q1 is not Q01 nor Q10 nor Q12"},
		{questions, "Q07", nil, "another number is another question, never a typo"},
		{docs, "Supplier-Policy.PDF", []string{"supplier-policy.pdf"}, "case and extension"},
		{docs, "price-list", []string{"price-list.pdf"}, "the extension left out"},
		{docs, "amazon_2019_10k", []string{"AMAZON_2019_10K.pdf"}, "case"},
		{docs, "AMAZON_2020_10K.pdf", nil, "another year is another filing"},
		{keys, "question_id", []string{"question"}, "a key that holds a known key"},
		{keys, "citation", []string{"citations"}, "one edit"},
		{keys, "respons", []string{"response"}, "one edit"},
		{keys, "sesion", []string{"session"}, "one edit"},
		{keys, "id", nil, "short and far from every key"},
		{[]string{"A", "B"}, "C", nil, "one-letter arms are one edit from any other: only case counts"},
		{[]string{"A", "B"}, "a", []string{"A"}, "case"},
	} {
		got := Near(tc.candidates, tc.key)
		if len(got) == 0 {
			got = nil
		}
		assert.Equal(t, tc.want, got, tc.why)
	}
	names := []string{"price-list.pdf", "supplier-policy.pdf", "Supplier-Policy-2.pdf", "manual-1.pdf", "manual-2.pdf", "manual-3.pdf", "manual-4.pdf", "manual-5.pdf", "manual-6.pdf"}
	for _, tc := range []struct {
		key  string
		want []string
		why  string
	}{
		{"PRICE-LIST.PDF", []string{"price-list.pdf"}, "a name in another case"},
		{"supplier-policy", []string{"Supplier-Policy-2.pdf", "supplier-policy.pdf"}, "names holding the key, sorted"},
		{"old/price-list.pdf", []string{"price-list.pdf"}, "a key holding a name"},
		{"zzz", nil, "no resemblance"},
		{"manual", []string{"manual-1.pdf", "manual-2.pdf", "manual-3.pdf", "manual-4.pdf", "manual-5.pdf"}, "at most MaxNear"},
	} {
		got := Near(names, tc.key)
		if len(got) == 0 {
			got = nil
		}
		assert.Equal(t, tc.want, got, tc.why)
	}
	assert.Equal(t, ` (did you mean "Q01"?)`, Phrase(questions, "q01"))
	assert.Equal(t, "", Phrase(questions, "Q99"))
}
