package grade

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/citecheck/citecheck/absence"
	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/textnorm"
)

// FieldVerdict is the verdict on one required field of an answerable
// question.
type FieldVerdict struct {
	Verdict Outcome `json:"verdict"` // correct, incorrect or unresolved
	// Reasons are machine-readable codes: for a correct field what made it
	// so (exact, accepted_alternative, implicit_limit, ...), otherwise what
	// is wrong or open (missing_condition, wrong_number, ...).
	Reasons []string `json:"reasons"`
	// Value is the answer's value for the field, as parsed.
	Value string `json:"value"`
	// Target is the reference value the answer was compared with.
	Target string `json:"target,omitempty"`
	// Rules are the value profile's rules that changed the answer's value.
	Rules []string `json:"rules,omitempty"`
	// Details say in words what the reasons found ("'per batch' dropped").
	Details []string `json:"details,omitempty"`
}

// The field reasons.
const (
	FieldExact               = "exact"                // the normalized value is the canonical value
	FieldAcceptedAlternative = "accepted_alternative" // ... an accepted alternative
	FieldAcceptedValue       = "accepted_value"       // ... a claim's value or legacy accepted value
	FieldImplicitLimit       = "implicit_limit"       // a bound left implicit where the question asks it
	FieldScopeShortening     = "scope_shortening"     // a trailing of/for/between/in/on phrase the question states
	FieldDispatchBatchScope  = "dispatch_batch_scope" // dispatch-batch scope after named weekdays
	FieldStageFromLabel      = "stage_from_label"     // a stage the field label states
	FieldNeutralWording      = "neutral_question_wording"
	FieldSourceWithSupport   = "source_passage_with_support"
	FieldSourceNoSupport     = "source_passage_without_support"
	FieldDuplicateSame       = "duplicate_label_same"
	FieldMissing             = "missing_field"
	FieldUnknownOnAnswerable = "unknown_on_answerable"
	FieldDecline             = "decline_on_answerable"
	FieldMissingLabel        = "missing_label"
	FieldConflictingLabels   = "conflicting_duplicate_label"
	FieldUnregistered        = "unregistered_equivalent"
	FieldAdditionalWording   = "additional_wording"
)

// target is one reference value a field may be compared with.
type target struct {
	text   string
	reason string // FieldExact, FieldAcceptedAlternative or FieldAcceptedValue
	value  textnorm.Value
	opt    []string // optional(value.Tokens, ctx), once
}

// fieldRef is what grading one field needs from the reference, computed
// once per question.
type fieldRef struct {
	field   string
	label   string
	targets []target
	ctx     context
	claims  []int // indexes of the question's essential claims for the field
}

// context is the question wording a field is graded in.
type context struct {
	neutral map[string]bool // token texts of the selected question clause and the label
	// evidence holds the value tokens (kind and text) of the field's
	// declared evidence: an answer that adds one adds what the source says
	// beside the value, not an unsupported value.
	evidence map[string]bool
	clause   []textnorm.Token
	label    []textnorm.Token
	askedDir int8 // +1 the question asks an upper bound (maximum), -1 a lower one
}

func newFieldRefs(q *spans.Question) []fieldRef {
	var out []fieldRef
	for _, f := range q.RequiredFields {
		fr := fieldRef{field: f.Field, label: f.Label}
		seen := map[string]bool{}
		add := func(text, reason string) {
			v := textnorm.NormalizeValue(text)
			if text == "" || seen[v.Key()] {
				return
			}
			seen[v.Key()] = true
			fr.targets = append(fr.targets, target{text: text, reason: reason, value: v})
		}
		add(q.AnswerFields[f.Field], FieldExact)
		for _, a := range q.AcceptedAlternatives[f.Field] {
			add(a, FieldAcceptedAlternative)
		}
		for ci, c := range q.EssentialClaims {
			if c.Field == f.Field {
				fr.claims = append(fr.claims, ci)
			}
		}
		// A claim's compact value stands for the whole field only when the
		// field has that one claim: "4.75 per piece" is half of
		// "4.75 EUR per piece, excluding VAT".
		if len(fr.claims) == 1 {
			c := q.EssentialClaims[fr.claims[0]]
			add(c.Value, FieldAcceptedValue)
			for _, a := range c.AcceptedValues {
				add(a, FieldAcceptedValue)
			}
		}
		out = append(out, fr)
	}
	for i := range out {
		out[i].ctx = newContext(q, out[i])
		for k := range out[i].targets {
			out[i].targets[k].opt = optional(out[i].targets[k].value.Tokens, out[i].ctx)
		}
	}
	return out
}

// newContext selects the question clause most clearly associated with the
// field (the policy: "Context selection uses the question clause most
// clearly associated with the field"): for a one-field question the whole
// question; otherwise the clause, cut at commas, semicolons and " and ",
// that holds the label's last word, then most of the label's and the
// canonical value's words.
func newContext(q *spans.Question, fr fieldRef) context {
	label := textnorm.NormalizeValue(fr.label).Tokens
	clause := textnorm.NormalizeValue(q.Question).Tokens
	if len(q.RequiredFields) > 1 {
		var target []textnorm.Token
		if len(fr.targets) > 0 {
			target = fr.targets[0].value.Tokens
		}
		best, bestScore := clause, -1
		for _, c := range clauses(q.Question) {
			toks := textnorm.NormalizeValue(c).Tokens
			score := 0
			if len(label) > 0 && hasText(toks, label[len(label)-1].Text) {
				score += 3
			}
			for _, t := range label {
				if hasText(toks, t.Text) {
					score++
				}
			}
			for _, t := range target {
				if hasText(toks, t.Text) {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = toks, score
			}
		}
		clause = best
	}
	ctx := context{neutral: map[string]bool{}, evidence: map[string]bool{}, clause: clause, label: label}
	for _, ci := range fr.claims {
		for _, sp := range q.EssentialClaims[ci].Evidence {
			for _, t := range textnorm.NormalizeValue(sp.Text).Tokens {
				ctx.evidence[tokenKey(t)] = true
			}
		}
	}
	for _, t := range append(slices.Clone(clause), label...) {
		ctx.neutral[t.Text] = true
		dir := int8(0)
		switch {
		case (t.Kind == textnorm.TokComparison || t.Kind == textnorm.TokQualifier) && !t.Strict:
			dir = t.Dir
		case upperWords[t.Text]:
			dir = 1
		case lowerWords[t.Text]:
			dir = -1
		}
		if dir != 0 {
			if ctx.askedDir != 0 && ctx.askedDir != dir {
				ctx.askedDir = 2 // both: neither bound is implicit
			} else if ctx.askedDir == 0 {
				ctx.askedDir = dir
			}
		}
	}
	if ctx.askedDir == 2 {
		ctx.askedDir = 0
	}
	return ctx
}

var upperWords = setOf("maximum", "max", "highest", "longest", "latest", "upper", "within")
var lowerWords = setOf("minimum", "min", "lowest", "shortest", "earliest")

// functionWords may be dropped or changed without changing a value's facts
// by themselves; a change to them is unresolved, never incorrect.
var functionWords = setOf("of", "to", "for", "from", "with", "by", "at", "in", "on", "and", "or", "as", "is", "are",
	"be", "been", "being", "was", "were", "has", "have", "had", "will", "shall", "must", "should", "would", "can",
	"could", "may", "might", "do", "does", "did", "that", "which", "who", "it", "its", "this", "these", "those",
	"there", "their", "then", "than", "so", "such", "into", "onto", "each", "all")

// fillerWords are a subject pronoun and forms of "be" an answer may put
// around a value ("They are rechecked ..."): they assert nothing.
var fillerWords = setOf("it", "they", "these", "those", "this", "is", "are", "be", "been", "being")

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func clauses(q string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(q, func(r rune) bool { return r == ',' || r == ';' }) {
		for _, p := range strings.Split(part, " and ") {
			if strings.TrimSpace(p) != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func tokenKey(t textnorm.Token) string { return t.Kind.String() + "\x00" + t.Text }

func hasText(ts []textnorm.Token, s string) bool {
	for _, t := range ts {
		if t.Text == s {
			return true
		}
	}
	return false
}

// optional marks the target tokens an answer may leave out, with the rule
// that allows it: an implicit bound the question asks for, a trailing
// subject phrase the question states (scope shortening), dispatch-batch
// scope after named weekdays, a stage the label states.
func optional(t []textnorm.Token, ctx context) []string {
	opt := make([]string, len(t))
	for i, tok := range t {
		if (tok.Kind == textnorm.TokComparison || tok.Kind == textnorm.TokQualifier) && !tok.Strict && tok.Dir != 0 && tok.Dir == ctx.askedDir {
			opt[i] = FieldImplicitLimit
		}
	}
	// Scope shortening: the longest trailing phrase introduced by
	// of/for/between/in/on whose words the question clause or label holds
	// contiguously. Values, conditions, bases, stages and dates are never
	// shortened (policy: "Event/condition/basis words ... cannot be
	// removed"; reading A15 for identifiers).
	for k := 0; k < len(t)-1; k++ {
		if t[k].Kind != textnorm.TokWord || !scopePrepositions[t[k].Text] {
			continue
		}
		tail := t[k+1:]
		if allWords(tail) && (containsRun(ctx.clause, tail) || containsRun(ctx.label, tail)) {
			for j := k; j < len(t); j++ {
				if opt[j] == "" {
					opt[j] = FieldScopeShortening
				}
			}
			break
		}
	}
	// Dispatch-batch scope after the last named weekday.
	last := -1
	for i, tok := range t {
		if tok.Kind == textnorm.TokWeekday {
			last = i
		}
	}
	if last >= 0 && last < len(t)-1 {
		tail := t[last+1:]
		batch := false
		ok := true
		for _, tok := range tail {
			switch {
			case tok.Kind == textnorm.TokStage && tok.Text == "dispatch", tok.Kind == textnorm.TokWord && tok.Text == "batch":
				batch = true
			case tok.Kind == textnorm.TokWord:
			default:
				ok = false
			}
		}
		if ok && batch && (containsRun(ctx.clause, tail) || containsRun(ctx.label, tail)) {
			for j := last + 1; j < len(t); j++ {
				if opt[j] == "" {
					opt[j] = FieldDispatchBatchScope
				}
			}
		}
	}
	// A stage the field label states ("Seal width at final inspection"),
	// with its preposition; never an event after a condition.
	for i, tok := range t {
		if tok.Kind != textnorm.TokStage || i == 0 || t[i-1].Kind != textnorm.TokWord || !stagePrepositions[t[i-1].Text] {
			continue
		}
		if !hasStage(ctx.label, tok.Text) {
			continue
		}
		opt[i], opt[i-1] = FieldStageFromLabel, FieldStageFromLabel
	}
	return opt
}

var scopePrepositions = setOf("of", "for", "between", "in", "on")
var stagePrepositions = setOf("at", "during", "on", "in")

func hasStage(ts []textnorm.Token, s string) bool {
	for _, t := range ts {
		if t.Kind == textnorm.TokStage && t.Text == s {
			return true
		}
	}
	return false
}

func allWords(ts []textnorm.Token) bool {
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if t.Kind != textnorm.TokWord {
			return false
		}
	}
	return true
}

// containsRun reports whether hay holds needle's texts contiguously.
func containsRun(hay, needle []textnorm.Token) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j := range needle {
			if hay[i+j].Text != needle[j].Text {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// finding is one difference between an answer and a target.
type finding struct {
	outcome Outcome
	reason  string
	detail  string
}

// compare grades an answer value against one target. In source mode the
// answer is a passage of the source itself: its own wording is not an
// additional assertion, so only missing and contrary elements count.
func compare(ans textnorm.Value, tg *target, ctx context, source bool) (Outcome, []finding) {
	a, t, opt := ans.Tokens, tg.value.Tokens, tg.opt
	neutral := make([]bool, len(a))
	for i, tok := range a {
		neutral[i] = source || ctx.neutral[tok.Text] || tok.Kind == textnorm.TokWord && fillerWords[tok.Text]
	}
	ops := align(a, t, opt, neutral)
	var fs []finding
	// An element deleted in one place and inserted in another moved: the
	// answer says it, in another order (reading A07's "the weekdays in the
	// other order").
	movedD, movedI := map[int]bool{}, map[int]bool{}
	if !source {
		for _, del := range ops {
			if del.kind != opDelete || opt[del.j] != "" {
				continue
			}
			for _, ins := range ops {
				if ins.kind != opInsert || movedI[ins.i] {
					continue
				}
				if a[ins.i].Kind == t[del.j].Kind && a[ins.i].Text == t[del.j].Text {
					movedD[del.j], movedI[ins.i] = true, true
					fs = append(fs, finding{Unresolved, "reordered", "'" + t[del.j].Raw + "' in another place"})
					break
				}
				// The date's day as an ordinal ("31st March", "March
				// 31st"), before or after the month.
				if ordinalOfDay(a[ins.i], t, del.j) {
					movedD[del.j], movedI[ins.i] = true, true
					fs = append(fs, finding{Unresolved, "date_format", "'" + a[ins.i].Raw + "' for '" + t[del.j].Raw + "'"})
					break
				}
			}
		}
	}
	var D, I []int
	flush := func() {
		if len(D) > 0 || len(I) > 0 {
			fs = append(fs, block(a, t, D, I, opt, neutral, ctx, source)...)
		}
		D, I = D[:0], I[:0]
	}
	for _, op := range ops {
		switch {
		case op.kind == opMatch:
			flush()
		case op.kind == opDelete && !movedD[op.j]:
			D = append(D, op.j)
		case op.kind == opInsert && !movedI[op.i]:
			I = append(I, op.i)
		}
	}
	flush()
	if !source && sameElements(a, t, opt, neutral) {
		fs = reordered(fs)
	}
	worst := Correct
	for _, f := range fs {
		worst = worse(worst, f.outcome)
	}
	return worst, fs
}

// ordinalOfDay reports whether x is the ordinal of the date's day t[j]
// ("March 31st" for "31 March").
func ordinalOfDay(x textnorm.Token, t []textnorm.Token, j int) bool {
	if x.Kind != textnorm.TokWord {
		return false
	}
	day, _, _, ok := dateDay(t, j)
	return ok && ordinal(x.Text) == day
}

// sameElements reports whether the answer holds exactly the target's
// closed-class elements (numbers, units, weekdays, conditions, ...), as a
// multiset: the target's required ones and the optional ones the answer
// kept. Then differences between them are of order, not of fact.
func sameElements(a, t []textnorm.Token, opt []string, neutral []bool) bool {
	key := func(x textnorm.Token) string { return x.Kind.String() + "\x00" + x.Text }
	var ka, kt []string
	have := map[string]int{}
	for i, x := range a {
		if x.Kind != textnorm.TokWord && !(neutral[i] && !hasToken(t, x)) {
			ka = append(ka, key(x))
			have[key(x)]++
		}
	}
	for j, x := range t {
		if x.Kind == textnorm.TokWord {
			continue
		}
		if opt[j] != "" && have[key(x)] == 0 {
			continue
		}
		kt = append(kt, key(x))
	}
	slices.Sort(ka)
	slices.Sort(kt)
	return len(ka) > 0 && slices.Equal(ka, kt)
}

func hasToken(ts []textnorm.Token, x textnorm.Token) bool {
	for _, t := range ts {
		if t.Kind == x.Kind && t.Text == x.Text {
			return true
		}
	}
	return false
}

// orderReasons are the findings an element in another place produces.
var orderReasons = setOf("wrong_number", "wrong_unit", "wrong_identifier", "wrong_weekday", "wrong_month", "wrong_date", "wrong_time",
	"missing_date", "missing_time",
	"opposite_direction", "strict_vs_inclusive", "exact_vs_limit", "contrary_condition", "wrong_day_basis",
	"contrary_stage", "unit_conversion", "unsupported_number", "unsupported_identifier", "unsupported_date",
	"unsupported_unit", "added_comparison", "missing_number", "missing_unit", "missing_identifier",
	"missing_limit_qualifier", "missing_condition", "missing_weekday", "missing_month", "missing_day_basis",
	"missing_basis", "missing_negation", "missing_stage", "replaced_weekday", "replaced_month", "replaced_day")

// reordered turns the findings of elements that only moved into one
// unresolved "reordered" (reading A07: "the weekdays in the other order").
func reordered(fs []finding) []finding {
	var out []finding
	moved := false
	for _, f := range fs {
		if f.outcome == Incorrect && orderReasons[f.reason] {
			moved = true
			continue
		}
		out = append(out, f)
	}
	if moved {
		out = append(out, finding{Unresolved, "reordered", "the same elements in another order"})
	}
	return out
}

func worse(a, b Outcome) Outcome {
	rank := func(o Outcome) int {
		switch o {
		case Incorrect, Fail:
			return 2
		case Unresolved:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

type opKind uint8

const (
	opMatch opKind = iota
	opDelete
	opInsert
)

type op struct {
	kind opKind
	i, j int
}

// align is an edit alignment of answer a and target t: matching equal
// tokens; deleting an optional target token and inserting a neutral answer
// token are free, every other edit costs 1. Among the cheapest it keeps the
// most matches; ties prefer a match, then a deletion.
type cell struct{ cost, matches int32 }

// cells recycles alignment tables: grading aligns every value with every
// target, and the tables were most of the grader's garbage.
var cells = sync.Pool{New: func() any { return new([]cell) }}

func align(a, t []textnorm.Token, opt []string, neutral []bool) []op {
	n, m := len(a), len(t)
	w := m + 1
	buf := cells.Get().(*[]cell)
	defer cells.Put(buf)
	if cap(*buf) < (n+1)*w {
		*buf = make([]cell, (n+1)*w)
	}
	dp := (*buf)[:(n+1)*w]
	dp[0] = cell{}
	better := func(x, y cell) bool { return x.cost < y.cost || x.cost == y.cost && x.matches > y.matches }
	for i := 0; i <= n; i++ {
		for j := 0; j <= m; j++ {
			if i == 0 && j == 0 {
				continue
			}
			best := cell{cost: 1 << 30}
			if i > 0 && j > 0 && a[i-1].Kind == t[j-1].Kind && a[i-1].Text == t[j-1].Text {
				c := dp[(i-1)*w+j-1]
				best = cell{c.cost, c.matches + 1}
			}
			if j > 0 {
				c := dp[i*w+j-1]
				if opt[j-1] == "" {
					c.cost++
				}
				if better(c, best) {
					best = c
				}
			}
			if i > 0 {
				c := dp[(i-1)*w+j]
				if !neutral[i-1] {
					c.cost++
				}
				if better(c, best) {
					best = c
				}
			}
			dp[i*w+j] = best
		}
	}
	var ops []op
	for i, j := n, m; i > 0 || j > 0; {
		cur := dp[i*w+j]
		if i > 0 && j > 0 && a[i-1].Kind == t[j-1].Kind && a[i-1].Text == t[j-1].Text {
			c := dp[(i-1)*w+j-1]
			if (cell{c.cost, c.matches + 1}) == cur {
				ops = append(ops, op{opMatch, i - 1, j - 1})
				i, j = i-1, j-1
				continue
			}
		}
		if j > 0 {
			c := dp[i*w+j-1]
			if opt[j-1] == "" {
				c.cost++
			}
			if c == cur {
				ops = append(ops, op{opDelete, i, j - 1})
				j--
				continue
			}
		}
		ops = append(ops, op{opInsert, i - 1, j})
		i--
	}
	slices.Reverse(ops)
	return ops
}

// family groups the kinds whose tokens may contradict each other: a
// comparison and a qualifier are both bounds.
func family(k textnorm.TokenKind) textnorm.TokenKind {
	if k == textnorm.TokQualifier {
		return textnorm.TokComparison
	}
	return k
}

var missingReason = map[textnorm.TokenKind]string{
	textnorm.TokNumber: "missing_number", textnorm.TokUnit: "missing_unit", textnorm.TokIdentifier: "missing_identifier",
	textnorm.TokComparison: "missing_limit_qualifier", textnorm.TokQualifier: "missing_limit_qualifier",
	textnorm.TokCondition: "missing_condition", textnorm.TokWeekday: "missing_weekday", textnorm.TokMonth: "missing_month",
	textnorm.TokDayBasis: "missing_day_basis", textnorm.TokBasis: "missing_basis", textnorm.TokNegation: "missing_negation",
	textnorm.TokStage: "missing_stage", textnorm.TokWord: "missing_word",
	textnorm.TokDate: "missing_date", textnorm.TokTime: "missing_time",
}

// block classifies one run of differences between two matched tokens: the
// target tokens D with nothing matching them and the answer tokens I.
func block(a, t []textnorm.Token, D, I []int, opt []string, neutral []bool, ctx context, source bool) []finding {
	var fs []finding
	add := func(o Outcome, reason, detail string) { fs = append(fs, finding{o, reason, detail}) }
	pairedD := make([]bool, len(D))
	pairedI := make([]bool, len(I))
	// An identifier written another way ("QA 7735" for "QA-7735", A04).
	for _, d := range D {
		if t[d].Kind != textnorm.TokIdentifier || len(I) == 0 {
			continue
		}
		var b strings.Builder
		for _, i := range I {
			b.WriteString(a[i].Text)
		}
		if strings.ReplaceAll(b.String(), "-", "") == strings.ReplaceAll(t[d].Text, "-", "") {
			add(Unresolved, "identifier_variant", quoteTexts(a, I)+" for "+t[d].Raw)
			return fs
		}
	}
	// A date in digits for a date in words ("31.03.2025" for "31 March
	// 2025"): the same day written another way, or another day.
	for ii, i := range I {
		if a[i].Kind != textnorm.TokDate || neutral[i] && !source {
			continue
		}
		if y, m, d, used, ok := wordDate(t, D); ok {
			if textnorm.SameDate(a[i].Text, fmt.Sprintf("%04d-%02d-%02d", y, m, d)) {
				add(Unresolved, "date_format", "'"+a[i].Raw+"' for "+quoteTexts(t, used))
			} else {
				add(Incorrect, "wrong_date", "'"+a[i].Raw+"' for "+quoteTexts(t, used))
			}
			pairedI[ii] = true
			for di, dj := range D {
				if slices.Contains(used, dj) {
					pairedD[di] = true
				}
			}
		}
	}
	// Contrary values of one closed kind.
	for di, d := range D {
		td := t[d]
		if td.Kind == textnorm.TokWord {
			continue
		}
		for ii, i := range I {
			ti := a[i]
			if pairedI[ii] || (neutral[i] && !source) || family(ti.Kind) != family(td.Kind) {
				continue
			}
			pairedD[di], pairedI[ii] = true, true
			detail := "'" + ti.Raw + "' for '" + td.Raw + "'"
			switch td.Kind {
			case textnorm.TokNumber:
				if textnorm.SameNumber(ti.Text, td.Text) {
					if strings.Contains(ti.Text+td.Text, ",") {
						add(Unresolved, "ambiguous_comma", detail)
					} else {
						add(Unresolved, "number_format", detail)
					}
				} else {
					add(Incorrect, "wrong_number", detail)
				}
			case textnorm.TokUnit:
				add(Incorrect, "wrong_unit", detail)
			case textnorm.TokIdentifier:
				add(Incorrect, "wrong_identifier", detail)
			case textnorm.TokWeekday:
				add(Incorrect, "wrong_weekday", detail)
			case textnorm.TokMonth:
				add(Incorrect, "wrong_month", detail)
			case textnorm.TokComparison, textnorm.TokQualifier:
				switch {
				case ti.Class == td.Class:
					if !source {
						add(Unresolved, "unregistered_comparison", detail)
					}
				case ti.Dir == 0 || td.Dir == 0:
					add(Incorrect, "exact_vs_limit", detail)
				case ti.Dir != td.Dir:
					add(Incorrect, "opposite_direction", detail)
				default:
					add(Incorrect, "strict_vs_inclusive", detail)
				}
			case textnorm.TokCondition:
				if ti.Class == td.Class {
					add(Unresolved, FieldUnregistered, detail)
				} else {
					add(Incorrect, "contrary_condition", detail)
				}
			case textnorm.TokDayBasis:
				if ti.Class == td.Class {
					add(Unresolved, FieldUnregistered, detail)
				} else {
					add(Incorrect, "wrong_day_basis", detail)
				}
			case textnorm.TokStage:
				add(Incorrect, "contrary_stage", detail)
			case textnorm.TokDate:
				if textnorm.SameDate(ti.Text, td.Text) {
					add(Unresolved, "date_format", detail)
				} else {
					add(Incorrect, "wrong_date", detail)
				}
			case textnorm.TokTime:
				add(Incorrect, "wrong_time", detail)
			default:
				add(Unresolved, FieldUnregistered, detail)
			}
			break
		}
	}
	if hasReason(fs, "wrong_number") && hasReason(fs, "wrong_unit") {
		fs = append(fs, finding{Incorrect, "unit_conversion", ""})
	}
	// Closed-kind values the answer adds.
	targetHasStage := false
	for _, tok := range t {
		targetHasStage = targetHasStage || tok.Kind == textnorm.TokStage
	}
	for ii, i := range I {
		if pairedI[ii] || neutral[i] {
			continue
		}
		ti := a[i]
		detail := "'" + ti.Raw + "' added"
		if ti.Kind != textnorm.TokWord && hasToken(t, ti) {
			// An element of the target said twice ("12 (twelve)").
			add(Unresolved, "repeated_element", detail)
			pairedI[ii] = true
			continue
		}
		if ti.Kind != textnorm.TokWord && ctx.evidence[tokenKey(ti)] {
			// What the declared passage says beside the value ("no
			// discount (orders below 10 boxes)"): an additional assertion,
			// grounded, not an unsupported value.
			add(Unresolved, "additional_grounded", detail)
			pairedI[ii] = true
			continue
		}
		switch ti.Kind {
		case textnorm.TokNumber:
			add(Incorrect, "unsupported_number", detail)
		case textnorm.TokIdentifier:
			add(Incorrect, "unsupported_identifier", detail)
		case textnorm.TokWeekday, textnorm.TokMonth, textnorm.TokDate, textnorm.TokTime:
			add(Incorrect, "unsupported_date", detail)
		case textnorm.TokUnit:
			add(Incorrect, "unsupported_unit", detail)
		case textnorm.TokComparison, textnorm.TokQualifier:
			if ti.Dir != 0 && ti.Dir == ctx.askedDir && !ti.Strict {
				continue
			}
			add(Incorrect, "added_comparison", detail)
		case textnorm.TokStage:
			if targetHasStage {
				add(Incorrect, "contrary_stage", detail)
			} else {
				add(Unresolved, "additional_assertion", detail)
			}
		case textnorm.TokCondition:
			add(Unresolved, "additional_condition", detail)
		case textnorm.TokWord:
			continue
		default:
			add(Unresolved, "additional_assertion", detail)
		}
		pairedI[ii] = true
	}
	// Target elements with nothing matching them.
	var words []int // answer words left in place of them
	for ii, i := range I {
		if !pairedI[ii] && !neutral[i] {
			words = append(words, i)
		}
	}
	var missing []int
	for di, d := range D {
		if pairedD[di] || opt[d] != "" {
			continue
		}
		missing = append(missing, d)
	}
	switch {
	case len(missing) > 0 && len(words) > 0:
		// A weekday, month or date's day is an element no wording can stand
		// in for: wording in its place removes it (incorrect) unless the
		// wording still names it, which leaves it open like other wording.
		var other []int
		replaced := map[string][]int{}
		var order []string
		for _, d := range missing {
			reason, named := replacedElement(a, t, d, words)
			if !named {
				other = append(other, d)
				continue
			}
			if replaced[reason] == nil {
				order = append(order, reason)
			}
			replaced[reason] = append(replaced[reason], d)
		}
		for _, r := range order {
			add(Incorrect, r, quoteTexts(a, words)+" in place of "+quoteTexts(t, replaced[r]))
		}
		if len(other) > 0 {
			add(Unresolved, FieldUnregistered, quoteTexts(a, words)+" for "+quoteTexts(t, other))
		}
	case len(missing) > 0:
		for _, d := range missing {
			td := t[d]
			detail := "'" + td.Raw + "' dropped"
			switch {
			case td.Kind != textnorm.TokWord:
				add(Incorrect, missingReason[td.Kind], detail)
			case functionWords[td.Text]:
				add(Unresolved, "dropped_function_word", detail)
			case ctx.neutral[td.Text]:
				add(Unresolved, "dropped_subject_word", detail)
			default:
				add(Incorrect, "missing_word", detail)
			}
		}
	case len(words) > 0 && !source:
		add(Unresolved, FieldAdditionalWording, quoteTexts(a, words)+" added")
	}
	// What made the rest acceptable.
	for _, d := range D {
		if opt[d] != "" {
			fs = append(fs, finding{Correct, opt[d], "'" + t[d].Raw + "' left out"})
		}
	}
	for ii, i := range I {
		if !pairedI[ii] && neutral[i] && !source {
			fs = append(fs, finding{Correct, FieldNeutralWording, "'" + a[i].Raw + "' from the question"})
		}
	}
	return fs
}

// replacedElement grades target element d, dropped with the answer words
// in its place. named is false when d is no weekday, month or date's day,
// or when the words still name it: an abbreviation ("Tue", "Mar",
// "mid-March" for the month), an ordinal of the day ("31st"), or the
// month's end or start for its last or first day ("the end of March" for
// 31 March). An ordinal or end of another day is a wrong date.
func replacedElement(a, t []textnorm.Token, d int, words []int) (reason string, named bool) {
	switch t[d].Kind {
	case textnorm.TokWeekday, textnorm.TokMonth:
		for _, i := range words {
			if abbreviates(a[i].Text, t[d].Text) {
				return "", false
			}
		}
		if t[d].Kind == textnorm.TokWeekday {
			return "replaced_weekday", true
		}
		return "replaced_month", true
	}
	day, month, year, ok := dateDay(t, d)
	if !ok {
		return "", false
	}
	// The word that names the day stands next to the month: the last
	// content word before it, or the first after it in "March 31"; an
	// abbreviated month among the words ("the end of Mar") is not it.
	var content []string
	for _, i := range words {
		if w := a[i].Text; !functionWords[w] && w != "day" && !abbreviates(w, monthNames[month-1]) {
			content = append(content, w)
		}
	}
	if len(content) == 0 {
		return "replaced_day", true
	}
	w := content[len(content)-1]
	if d > 0 && t[d-1].Kind == textnorm.TokMonth {
		w = content[0]
	}
	said := ordinal(w)
	switch w {
	case "end", "last":
		said = daysIn(month, year)
		if month == 2 && year == 0 && day == 28 {
			said = 28
		}
	case "beginning", "start":
		said = 1
	}
	switch {
	case said == day:
		return "", false
	case said > 0:
		return "wrong_date", true
	}
	return "replaced_day", true
}

// abbreviates reports whether word, or a hyphenated part of it
// ("mid-march"), is the weekday or month name or a prefix of it of at least
// three letters.
func abbreviates(word, name string) bool {
	for _, p := range strings.Split(word, "-") {
		if len(p) >= 3 && strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// dateDay reports whether target token j is the day of a date written with
// a month name ("31 March 2025", "March 31"): a whole number 1-31 next to
// the month. year is 0 when the date has none.
func dateDay(t []textnorm.Token, j int) (day, month, year int, ok bool) {
	if t[j].Kind != textnorm.TokNumber {
		return 0, 0, 0, false
	}
	day, err := strconv.Atoi(t[j].Text)
	if err != nil || day < 1 || day > 31 {
		return 0, 0, 0, false
	}
	yearAt := func(k int) int {
		if k < len(t) && t[k].Kind == textnorm.TokNumber && len(t[k].Text) == 4 {
			y, _ := strconv.Atoi(t[k].Text)
			return y
		}
		return 0
	}
	switch {
	case j+1 < len(t) && t[j+1].Kind == textnorm.TokMonth:
		return day, monthNumbers[t[j+1].Text], yearAt(j + 2), true
	case j > 0 && t[j-1].Kind == textnorm.TokMonth:
		return day, monthNumbers[t[j-1].Text], yearAt(j + 1), true
	}
	return 0, 0, 0, false
}

// daysIn is the last day of the month; February has 29 when the year is
// not known.
func daysIn(month, year int) int {
	if year == 0 {
		year = 2024
	}
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// ordinalWords are the spelled ordinals of the days of a month.
var ordinalWords = func() map[string]int {
	m := map[string]int{}
	ones := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"}
	teens := []string{"tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
		"seventeenth", "eighteenth", "nineteenth", "twentieth"}
	for i, w := range ones {
		m[w] = i + 1
		m["twenty-"+w] = 21 + i
	}
	for i, w := range teens {
		m[w] = 10 + i
	}
	m["thirtieth"], m["thirty-first"] = 30, 31
	return m
}()

// ordinal is the value of a day's ordinal ("31st", "thirty-first"), or 0.
func ordinal(w string) int {
	if n, ok := ordinalWords[w]; ok {
		return n
	}
	if len(w) < 3 || w[0] < '0' || w[0] > '9' {
		return 0
	}
	n, err := strconv.Atoi(w[:len(w)-2])
	if err != nil || n < 1 || n > 31 {
		return 0
	}
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	if w[len(w)-2:] != suffix {
		return 0
	}
	return n
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september",
	"october", "november", "december"}

var monthNumbers = func() map[string]int {
	m := make(map[string]int, len(monthNames))
	for i, n := range monthNames {
		m[n] = i + 1
	}
	return m
}()

// wordDate reads a date written with a month name among the target tokens
// D: day month year or month day year.
func wordDate(t []textnorm.Token, D []int) (y, m, d int, used []int, ok bool) {
	for k, j := range D {
		if t[j].Kind != textnorm.TokMonth {
			continue
		}
		num := func(x int) (int, bool) {
			if x < 0 || x >= len(D) || t[D[x]].Kind != textnorm.TokNumber {
				return 0, false
			}
			n, err := strconv.Atoi(t[D[x]].Text)
			return n, err == nil
		}
		if day, ok1 := num(k - 1); ok1 {
			if year, ok2 := num(k + 1); ok2 {
				return year, monthNumbers[t[j].Text], day, []int{D[k-1], j, D[k+1]}, true
			}
		}
		if day, ok1 := num(k + 1); ok1 {
			if year, ok2 := num(k + 2); ok2 {
				return year, monthNumbers[t[j].Text], day, []int{j, D[k+1], D[k+2]}, true
			}
		}
	}
	return 0, 0, 0, nil, false
}

func hasReason(fs []finding, r string) bool {
	for _, f := range fs {
		if f.reason == r {
			return true
		}
	}
	return false
}

func quoteTexts(ts []textnorm.Token, idx []int) string {
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = ts[i].Raw
	}
	return "'" + strings.Join(parts, " ") + "'"
}

// gradeValue grades one field value against every target and keeps the
// best verdict (correct over unresolved over incorrect; the first target
// on a tie).
func gradeValue(fr *fieldRef, value string) FieldVerdict {
	return gradeNormalized(fr, value, textnorm.NormalizeValue(value))
}

// gradeNormalized is gradeValue with the value already normalized.
func gradeNormalized(fr *fieldRef, value string, v textnorm.Value) FieldVerdict {
	fv := FieldVerdict{Value: value, Rules: v.Rules}
	switch {
	case len(v.Tokens) == 0:
		fv.Verdict, fv.Reasons = Incorrect, []string{FieldMissing}
		return fv
	case v.Unknown():
		fv.Verdict, fv.Reasons = Incorrect, []string{FieldUnknownOnAnswerable}
		return fv
	}
	// The best target: the best outcome, then the fewest findings of it
	// (the most precise reasons), then reference order.
	best, bestN := -1, 0
	var bestOut Outcome
	var bestFs []finding
	for k := range fr.targets {
		o, fs := compare(v, &fr.targets[k], fr.ctx, false)
		n := 0
		for _, f := range fs {
			if f.outcome == o {
				n++
			}
		}
		if best < 0 || rankOutcome(o) < rankOutcome(bestOut) || rankOutcome(o) == rankOutcome(bestOut) && n < bestN {
			best, bestOut, bestFs, bestN = k, o, fs, n
		}
	}
	if best < 0 {
		fv.Verdict, fv.Reasons = Unresolved, []string{"no_reference_value"}
		return fv
	}
	fv.Target = fr.targets[best].text
	fv.Verdict = bestOut
	fv.Reasons, fv.Details = reasonsOf(bestOut, fr.targets[best].reason, bestFs)
	if bestOut != Correct && absence.Declines(v) {
		fv.Verdict, fv.Reasons, fv.Details = Incorrect, []string{FieldDecline}, nil
	}
	return fv
}

// reasonsOf lists the findings that decide the outcome (for a correct
// value: how the target matched and what was allowed).
func reasonsOf(o Outcome, matched string, fs []finding) (reasons, details []string) {
	if o == Correct {
		reasons = append(reasons, matched)
	}
	for _, f := range fs {
		if f.outcome != o {
			continue
		}
		if !slices.Contains(reasons, f.reason) {
			reasons = append(reasons, f.reason)
		}
		if f.detail != "" {
			details = append(details, f.detail)
		}
	}
	return reasons, details
}

func rankOutcome(o Outcome) int {
	switch o {
	case Correct, Pass:
		return 0
	case Unresolved:
		return 1
	}
	return 2
}
