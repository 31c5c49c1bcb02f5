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
	Reasons []FieldReason `json:"reasons"`
	// Value is the answer's value for the field, as parsed.
	Value string `json:"value"`
	// Target is the reference value the answer was compared with.
	Target string `json:"target,omitempty"`
	// Rules are the value profile's rules that changed the answer's value.
	Rules []string `json:"rules,omitempty"`
	// Details say in words what the reasons found ("'per batch' dropped").
	Details []string `json:"details,omitempty"`
}

// target is one reference value a field may be compared with.
type target struct {
	text   string
	reason FieldReason // FieldExact, FieldAcceptedAlternative or FieldAcceptedValue
	value  textnorm.Value
	opt    []FieldReason // optional(value.Tokens, ctx), once
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
		add := func(text string, reason FieldReason) {
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

func setOf[T comparable](ws ...T) map[T]bool {
	m := make(map[T]bool, len(ws))
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
func optional(t []textnorm.Token, ctx context) []FieldReason {
	opt := make([]FieldReason, len(t))
	for i, tok := range t {
		if (tok.Kind == textnorm.TokComparison || tok.Kind == textnorm.TokQualifier) && !tok.Strict && tok.Dir != 0 && tok.Dir == ctx.askedDir {
			opt[i] = FieldImplicitLimit
		}
	}
	// Scope shortening: the longest trailing phrase introduced by
	// of/for/between/in/on whose words the question clause or label holds
	// contiguously. Values, conditions, bases, stages and dates are never
	// shortened (policy: "Event/condition/basis words ... cannot be
	// removed"), nor is a phrase holding an identifier ("for bracket
	// QA-7731").
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
	reason  FieldReason
	detail  string
}

// comparison is one answer value aligned with one target value.
type comparison struct {
	answer, target []textnorm.Token
	// optional holds, per target token, the rule that lets an answer leave
	// it out, or "".
	optional []FieldReason
	// neutral marks the answer tokens that assert nothing of their own:
	// the question's wording, filler, every token of a source passage.
	neutral []bool
	ctx     context
	source  bool // the answer is a passage of the source (compare)
}

// compare grades an answer value against one target. In source mode the
// answer is a passage of the source itself: its own wording is not an
// additional assertion, so only missing and contrary elements count.
func compare(ans textnorm.Value, tg *target, ctx context, source bool) (Outcome, []finding) {
	pair := &comparison{answer: ans.Tokens, target: tg.value.Tokens, optional: tg.opt,
		neutral: make([]bool, len(ans.Tokens)), ctx: ctx, source: source}
	for i, tok := range pair.answer {
		pair.neutral[i] = source || ctx.neutral[tok.Text] || tok.Kind == textnorm.TokWord && fillerWords[tok.Text]
	}
	ops := align(pair.answer, pair.target, pair.optional, pair.neutral)
	var fs []finding
	movedTarget, movedAnswer := map[int]bool{}, map[int]bool{}
	if !source {
		fs = pair.moved(ops, movedTarget, movedAnswer)
	}
	var dropped, inserted []int
	flush := func() {
		if len(dropped) > 0 || len(inserted) > 0 {
			fs = append(fs, pair.block(dropped, inserted)...)
		}
		dropped, inserted = dropped[:0], inserted[:0]
	}
	for _, op := range ops {
		switch {
		case op.kind == opMatch:
			flush()
		case op.kind == opDelete && !movedTarget[op.j]:
			dropped = append(dropped, op.j)
		case op.kind == opInsert && !movedAnswer[op.i]:
			inserted = append(inserted, op.i)
		}
	}
	flush()
	if !source && sameElements(pair.answer, pair.target, pair.optional, pair.neutral) {
		fs = reordered(fs)
	}
	worst := Correct
	for _, f := range fs {
		worst = worse(worst, f.outcome)
	}
	return worst, fs
}

// moved finds the target elements deleted in one place and inserted in
// another: the answer says them, in another order ("Friday and Tuesday"
// for "Tuesday and Friday"), which may say the same. It marks them in movedTarget and
// movedAnswer, which the differences then leave out.
func (c *comparison) moved(ops []op, movedTarget, movedAnswer map[int]bool) []finding {
	var fs []finding
	for _, del := range ops {
		if del.kind != opDelete || c.optional[del.j] != "" {
			continue
		}
		want := c.target[del.j]
		for _, ins := range ops {
			if ins.kind != opInsert || movedAnswer[ins.i] {
				continue
			}
			got := c.answer[ins.i]
			if got.Kind == want.Kind && got.Text == want.Text {
				movedTarget[del.j], movedAnswer[ins.i] = true, true
				fs = append(fs, finding{Unresolved, FieldReordered, "'" + want.Raw + "' in another place"})
				break
			}
			// The date's day as an ordinal ("31st March", "March
			// 31st"), before or after the month.
			if ordinalOfDay(got, c.target, del.j) {
				movedTarget[del.j], movedAnswer[ins.i] = true, true
				fs = append(fs, finding{Unresolved, FieldDateFormat, "'" + got.Raw + "' for '" + want.Raw + "'"})
				break
			}
		}
	}
	return fs
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
func sameElements(a, t []textnorm.Token, opt []FieldReason, neutral []bool) bool {
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
var orderReasons = setOf(FieldWrongNumber, FieldWrongUnit, FieldWrongIdentifier, FieldWrongWeekday, FieldWrongMonth, FieldWrongDate, FieldWrongTime,
	FieldMissingDate, FieldMissingTime,
	FieldOppositeDirection, FieldStrictVsInclusive, FieldExactVsLimit, FieldContraryCondition, FieldWrongDayBasis,
	FieldContraryStage, FieldUnitConversion, FieldUnsupportedNumber, FieldUnsupportedIdentifier, FieldUnsupportedDate,
	FieldUnsupportedUnit, FieldAddedComparison, FieldMissingNumber, FieldMissingUnit, FieldMissingIdentifier,
	FieldMissingLimitQualifier, FieldMissingCondition, FieldMissingWeekday, FieldMissingMonth, FieldMissingDayBasis,
	FieldMissingBasis, FieldMissingNegation, FieldMissingStage, FieldReplacedWeekday, FieldReplacedMonth, FieldReplacedDay)

// reordered turns the findings of elements that only moved into one
// unresolved "reordered": the same elements in another order may say the
// same, so they are neither correct nor incorrect.
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
		out = append(out, finding{Unresolved, FieldReordered, "the same elements in another order"})
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

func align(a, t []textnorm.Token, opt []FieldReason, neutral []bool) []op {
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

// missingReason is the finding of a target element dropped with nothing in
// its place.
var missingReason = map[textnorm.TokenKind]FieldReason{
	textnorm.TokNumber: FieldMissingNumber, textnorm.TokUnit: FieldMissingUnit, textnorm.TokIdentifier: FieldMissingIdentifier,
	textnorm.TokComparison: FieldMissingLimitQualifier, textnorm.TokQualifier: FieldMissingLimitQualifier,
	textnorm.TokCondition: FieldMissingCondition, textnorm.TokWeekday: FieldMissingWeekday, textnorm.TokMonth: FieldMissingMonth,
	textnorm.TokDayBasis: FieldMissingDayBasis, textnorm.TokBasis: FieldMissingBasis, textnorm.TokNegation: FieldMissingNegation,
	textnorm.TokStage: FieldMissingStage, textnorm.TokWord: FieldMissingWord,
	textnorm.TokDate: FieldMissingDate, textnorm.TokTime: FieldMissingTime,
}

// contraryReason is the finding of an element replaced by another of its
// kind that is not the same one; numbers, bounds and dates are graded
// apart (contrary).
var contraryReason = map[textnorm.TokenKind]FieldReason{
	textnorm.TokUnit: FieldWrongUnit, textnorm.TokIdentifier: FieldWrongIdentifier, textnorm.TokWeekday: FieldWrongWeekday,
	textnorm.TokMonth: FieldWrongMonth, textnorm.TokCondition: FieldContraryCondition, textnorm.TokDayBasis: FieldWrongDayBasis,
	textnorm.TokStage: FieldContraryStage, textnorm.TokTime: FieldWrongTime,
}

// gap is one run of differences between two matched tokens of a
// comparison: the target tokens dropped with nothing matching them and
// the answer tokens inserted there. Each kind of finding marks the tokens
// it accounts for as paired, so that the next kind sees only the rest.
type gap struct {
	*comparison
	dropped, inserted             []int // indexes into target and answer
	droppedPaired, insertedPaired []bool
	findings                      []finding
}

func (g *gap) add(outcome Outcome, reason FieldReason, detail string) {
	g.findings = append(g.findings, finding{outcome, reason, detail})
}

// block grades one gap, the kinds of finding in the order they claim its
// tokens: an identifier written another way accounts for the whole gap;
// then dates, contrary elements, added elements, what is left unmatched,
// and last what was allowed.
func (c *comparison) block(dropped, inserted []int) []finding {
	run := &gap{comparison: c, dropped: dropped, inserted: inserted,
		droppedPaired: make([]bool, len(dropped)), insertedPaired: make([]bool, len(inserted))}
	if run.identifierVariant() {
		return run.findings
	}
	run.wordDates()
	run.contraryElements()
	// Another number in another unit is a converted value, incorrect:
	// values are never converted from one unit to another.
	if hasReason(run.findings, FieldWrongNumber) && hasReason(run.findings, FieldWrongUnit) {
		run.add(Incorrect, FieldUnitConversion, "")
	}
	run.addedElements()
	run.unmatched()
	run.allowances()
	return run.findings
}

// identifierVariant finds an identifier written another way ("QA 7735"
// for "QA-7735", an unregistered variant: unresolved): the inserted tokens
// spell a dropped identifier but for hyphens.
func (g *gap) identifierVariant() bool {
	if len(g.inserted) == 0 {
		return false
	}
	var spelled strings.Builder
	for _, i := range g.inserted {
		spelled.WriteString(g.answer[i].Text)
	}
	unhyphenated := strings.ReplaceAll(spelled.String(), "-", "")
	for _, j := range g.dropped {
		if id := g.target[j]; id.Kind == textnorm.TokIdentifier && unhyphenated == strings.ReplaceAll(id.Text, "-", "") {
			g.add(Unresolved, FieldIdentifierVariant, quoteTexts(g.answer, g.inserted)+" for "+id.Raw)
			return true
		}
	}
	return false
}

// wordDates finds a date in digits for a date in words ("31.03.2025" for
// "31 March 2025"): the same day written another way, or another day.
func (g *gap) wordDates() {
	for k, i := range g.inserted {
		got := g.answer[i]
		if got.Kind != textnorm.TokDate || g.neutral[i] && !g.source {
			continue
		}
		year, month, day, used, ok := wordDate(g.target, g.dropped)
		if !ok {
			continue
		}
		detail := "'" + got.Raw + "' for " + quoteTexts(g.target, used)
		if textnorm.SameDate(got.Text, fmt.Sprintf("%04d-%02d-%02d", year, month, day)) {
			g.add(Unresolved, FieldDateFormat, detail)
		} else {
			g.add(Incorrect, FieldWrongDate, detail)
		}
		g.insertedPaired[k] = true
		for n, j := range g.dropped {
			if slices.Contains(used, j) {
				g.droppedPaired[n] = true
			}
		}
	}
}

// contraryElements pairs each dropped closed-class element with the first
// inserted one of its family and grades what the answer says in its place
// (docs/grading.md, "Field values": dropped with nothing in its place or
// replaced by another of its class is incorrect, other wording that may
// say the same unresolved).
func (g *gap) contraryElements() {
	for n, j := range g.dropped {
		want := g.target[j]
		if want.Kind == textnorm.TokWord {
			continue
		}
		for k, i := range g.inserted {
			got := g.answer[i]
			if g.insertedPaired[k] || (g.neutral[i] && !g.source) || family(got.Kind) != family(want.Kind) {
				continue
			}
			g.droppedPaired[n], g.insertedPaired[k] = true, true
			if outcome, reason := contrary(got, want, g.source); reason != "" {
				g.add(outcome, reason, "'"+got.Raw+"' for '"+want.Raw+"'")
			}
			break
		}
	}
}

// ambiguousComma reports whether a number literal holds a comma that may
// be a decimal comma (A03): one comma and no point ("0,5", "1,200");
// "1,200,000" groups thousands, so "1200000" beside it is only another
// spelling (number_format).
func ambiguousComma(lit string) bool {
	return strings.Count(lit, ",") == 1 && !strings.Contains(lit, ".")
}

// contrary grades got in place of want, an element of its family: another
// spelling of the same element is unresolved, another element incorrect.
// The reason is "" for a difference a source passage may have (a bound in
// its own words).
func contrary(got, want textnorm.Token, source bool) (Outcome, FieldReason) {
	switch want.Kind {
	case textnorm.TokNumber:
		switch {
		case !textnorm.SameNumber(got.Text, want.Text):
			return Incorrect, FieldWrongNumber
		case ambiguousComma(got.Text) || ambiguousComma(want.Text):
			return Unresolved, FieldAmbiguousComma
		}
		return Unresolved, FieldNumberFormat
	case textnorm.TokComparison, textnorm.TokQualifier:
		switch {
		case got.Class == want.Class && source:
			return "", ""
		case got.Class == want.Class:
			return Unresolved, FieldUnregisteredComparison
		case got.Dir == 0 || want.Dir == 0:
			return Incorrect, FieldExactVsLimit
		case got.Dir != want.Dir:
			return Incorrect, FieldOppositeDirection
		}
		return Incorrect, FieldStrictVsInclusive
	case textnorm.TokCondition, textnorm.TokDayBasis:
		if got.Class == want.Class {
			return Unresolved, FieldUnregistered
		}
	case textnorm.TokDate:
		if textnorm.SameDate(got.Text, want.Text) {
			return Unresolved, FieldDateFormat
		}
		return Incorrect, FieldWrongDate
	}
	if reason, ok := contraryReason[want.Kind]; ok {
		return Incorrect, reason
	}
	return Unresolved, FieldUnregistered
}

// addedElements grades the closed-class elements the answer adds where
// the target has none.
func (g *gap) addedElements() {
	for k, i := range g.inserted {
		if g.insertedPaired[k] || g.neutral[i] {
			continue
		}
		got := g.answer[i]
		outcome, reason := g.added(got)
		if reason == "" {
			continue
		}
		g.add(outcome, reason, "'"+got.Raw+"' added")
		g.insertedPaired[k] = true
	}
}

// added grades one added element; the reason is "" for what adds no
// element: a word (unmatched grades those), or a bound the question asks.
func (c *comparison) added(got textnorm.Token) (Outcome, FieldReason) {
	switch {
	case got.Kind == textnorm.TokWord:
		return "", ""
	case hasToken(c.target, got):
		// An element of the target said twice ("12 samples per batch, 12
		// samples in all").
		return Unresolved, FieldRepeatedElement
	case c.ctx.evidence[tokenKey(got)]:
		// What the declared passage says beside the value ("no discount
		// (orders below 10 boxes)"): an additional assertion, grounded,
		// not an unsupported value.
		return Unresolved, FieldAdditionalGrounded
	}
	switch got.Kind {
	case textnorm.TokNumber:
		return Incorrect, FieldUnsupportedNumber
	case textnorm.TokIdentifier:
		return Incorrect, FieldUnsupportedIdentifier
	case textnorm.TokWeekday, textnorm.TokMonth, textnorm.TokDate, textnorm.TokTime:
		return Incorrect, FieldUnsupportedDate
	case textnorm.TokUnit:
		return Incorrect, FieldUnsupportedUnit
	case textnorm.TokComparison, textnorm.TokQualifier:
		if got.Dir != 0 && got.Dir == c.ctx.askedDir && !got.Strict {
			return "", ""
		}
		return Incorrect, FieldAddedComparison
	case textnorm.TokStage:
		if hasKind(c.target, textnorm.TokStage) {
			return Incorrect, FieldContraryStage
		}
	case textnorm.TokCondition:
		return Unresolved, FieldAdditionalCondition
	}
	return Unresolved, FieldAdditionalAssertion
}

// unmatched grades the required target elements nothing accounts for and
// the answer's words left over: elements replaced by wording, elements
// dropped, or wording added.
func (g *gap) unmatched() {
	var words []int
	for k, i := range g.inserted {
		if !g.insertedPaired[k] && !g.neutral[i] {
			words = append(words, i)
		}
	}
	var missing []int
	for n, j := range g.dropped {
		if !g.droppedPaired[n] && g.optional[j] == "" {
			missing = append(missing, j)
		}
	}
	switch {
	case len(missing) > 0 && len(words) > 0:
		g.replacedElements(missing, words)
	case len(missing) > 0:
		g.droppedElements(missing)
	case len(words) > 0 && !g.source:
		g.add(Unresolved, FieldAdditionalWording, quoteTexts(g.answer, words)+" added")
	}
}

// replacedElements grades target elements with answer words in their
// place. A weekday, month or date's day is an element no wording can stand
// in for: wording in its place removes it (incorrect) unless the wording
// still names it, which leaves it open like other wording.
func (g *gap) replacedElements(missing, words []int) {
	var other []int
	removed := map[FieldReason][]int{}
	var order []FieldReason
	for _, j := range missing {
		reason, ok := g.removal(j, words)
		if !ok {
			other = append(other, j)
			continue
		}
		if removed[reason] == nil {
			order = append(order, reason)
		}
		removed[reason] = append(removed[reason], j)
	}
	for _, reason := range order {
		g.add(Incorrect, reason, quoteTexts(g.answer, words)+" in place of "+quoteTexts(g.target, removed[reason]))
	}
	if len(other) > 0 {
		g.add(Unresolved, FieldUnregistered, quoteTexts(g.answer, words)+" for "+quoteTexts(g.target, other))
	}
}

// droppedElements grades target elements dropped with nothing in their
// place.
func (g *gap) droppedElements(missing []int) {
	for _, j := range missing {
		want := g.target[j]
		detail := "'" + want.Raw + "' dropped"
		switch {
		case want.Kind != textnorm.TokWord:
			g.add(Incorrect, missingReason[want.Kind], detail)
		case functionWords[want.Text]:
			g.add(Unresolved, FieldDroppedFunctionWord, detail)
		case g.ctx.neutral[want.Text]:
			g.add(Unresolved, FieldDroppedSubjectWord, detail)
		default:
			g.add(Incorrect, FieldMissingWord, detail)
		}
	}
}

// allowances record what made the rest acceptable: the optional target
// tokens left out and the question's wording in the answer.
func (g *gap) allowances() {
	for _, j := range g.dropped {
		if g.optional[j] != "" {
			g.add(Correct, g.optional[j], "'"+g.target[j].Raw+"' left out")
		}
	}
	for k, i := range g.inserted {
		if !g.insertedPaired[k] && g.neutral[i] && !g.source {
			g.add(Correct, FieldNeutralWording, "'"+g.answer[i].Raw+"' from the question")
		}
	}
}

// removal grades target element elem, dropped with the answer words in
// its place. ok is false when elem is no weekday, month or date's day, or
// when the words still name it: an abbreviation ("Tue", "Mar", "mid-March"
// for the month), an ordinal of the day ("31st"), or the month's end or
// start for its last or first day ("the end of March" for 31 March). An
// ordinal or end of another day is a wrong date.
func (c *comparison) removal(elem int, words []int) (reason FieldReason, ok bool) {
	want := c.target[elem]
	switch want.Kind {
	case textnorm.TokWeekday, textnorm.TokMonth:
		for _, i := range words {
			if abbreviates(c.answer[i].Text, want.Text) {
				return "", false
			}
		}
		if want.Kind == textnorm.TokWeekday {
			return FieldReplacedWeekday, true
		}
		return FieldReplacedMonth, true
	}
	day, month, year, isDay := dateDay(c.target, elem)
	if !isDay {
		return "", false
	}
	// The word that names the day stands next to the month: the last
	// content word before it, or the first after it in "March 31"; an
	// abbreviated month among the words ("the end of Mar") is not it.
	var content []string
	for _, i := range words {
		if word := c.answer[i].Text; !functionWords[word] && word != "day" && !abbreviates(word, monthNames[month-1]) {
			content = append(content, word)
		}
	}
	if len(content) == 0 {
		return FieldReplacedDay, true
	}
	word := content[len(content)-1]
	if elem > 0 && c.target[elem-1].Kind == textnorm.TokMonth {
		word = content[0]
	}
	said := ordinal(word)
	switch word {
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
		return FieldWrongDate, true
	}
	return FieldReplacedDay, true
}

func hasKind(ts []textnorm.Token, kind textnorm.TokenKind) bool {
	return slices.ContainsFunc(ts, func(tok textnorm.Token) bool { return tok.Kind == kind })
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
// at the indexes among: day month year or month day year.
func wordDate(target []textnorm.Token, among []int) (year, month, day int, used []int, ok bool) {
	number := func(k int) (int, bool) {
		if k < 0 || k >= len(among) || target[among[k]].Kind != textnorm.TokNumber {
			return 0, false
		}
		value, err := strconv.Atoi(target[among[k]].Text)
		return value, err == nil
	}
	for k, j := range among {
		if target[j].Kind != textnorm.TokMonth {
			continue
		}
		month = monthNumbers[target[j].Text]
		if day, ok := number(k - 1); ok {
			if year, ok := number(k + 1); ok {
				return year, month, day, []int{among[k-1], j, among[k+1]}, true
			}
		}
		if day, ok := number(k + 1); ok {
			if year, ok := number(k + 2); ok {
				return year, month, day, []int{j, among[k+1], among[k+2]}, true
			}
		}
	}
	return 0, 0, 0, nil, false
}

func hasReason(fs []finding, r FieldReason) bool {
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
		fv.Verdict, fv.Reasons = Incorrect, []FieldReason{FieldMissing}
		return fv
	case v.Unknown():
		fv.Verdict, fv.Reasons = Incorrect, []FieldReason{FieldUnknownOnAnswerable}
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
		fv.Verdict, fv.Reasons = Unresolved, []FieldReason{FieldNoReferenceValue}
		return fv
	}
	fv.Target = fr.targets[best].text
	fv.Verdict = bestOut
	fv.Reasons, fv.Details = reasonsOf(bestOut, fr.targets[best].reason, bestFs)
	if bestOut != Correct && absence.Declines(v) && !onlyAdded(bestFs) {
		fv.Verdict, fv.Reasons, fv.Details = Incorrect, []FieldReason{FieldDecline}, nil
	}
	return fv
}

// onlyAdded reports whether every finding is something the answer adds
// beside the reference's value, which it then gives in full: decline words
// there ("12 samples per batch (the method is not specified)") are a
// remark, unresolved as added wording (A25), not a decline.
func onlyAdded(fs []finding) bool {
	n := 0
	for _, f := range fs {
		if f.outcome == Correct {
			continue // a difference allowed ("neutral_question_wording")
		}
		n++
		switch f.reason {
		case FieldAdditionalAssertion, FieldAdditionalWording, FieldAdditionalCondition, FieldAdditionalGrounded:
		default:
			return false
		}
	}
	return n > 0
}

// reasonsOf lists the findings that decide the outcome (for a correct
// value: how the target matched and what was allowed).
func reasonsOf(o Outcome, matched FieldReason, fs []finding) (reasons []FieldReason, details []string) {
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
