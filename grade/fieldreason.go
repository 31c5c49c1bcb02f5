package grade

// FieldReason is a machine-readable reason of a field verdict: for a
// correct value how it matched and what was allowed, otherwise what is
// wrong or open. In results.jsonl it is a plain string.
type FieldReason string

// The field reasons, by verdict; FieldReasons says what each means.
const (
	// correct: how the value matched
	FieldExact               FieldReason = "exact"
	FieldAcceptedAlternative FieldReason = "accepted_alternative"
	FieldAcceptedValue       FieldReason = "accepted_value"
	FieldSourceWithSupport   FieldReason = "source_passage_with_support"
	// correct: what was allowed
	FieldImplicitLimit      FieldReason = "implicit_limit"
	FieldScopeShortening    FieldReason = "scope_shortening"
	FieldDispatchBatchScope FieldReason = "dispatch_batch_scope"
	FieldStageFromLabel     FieldReason = "stage_from_label"
	FieldNeutralWording     FieldReason = "neutral_question_wording"
	FieldDuplicateSame      FieldReason = "duplicate_label_same"

	// incorrect: no value, or an attempt that did not answer
	FieldMissing             FieldReason = "missing_field"
	FieldUnknownOnAnswerable FieldReason = "unknown_on_answerable"
	FieldDecline             FieldReason = "decline_on_answerable"
	FieldAttemptError        FieldReason = "attempt_" + AttemptError
	FieldAttemptTimeout      FieldReason = "attempt_" + AttemptTimeout
	FieldAttemptInterrupted  FieldReason = "attempt_" + AttemptInterrupted
	FieldAttemptMissing      FieldReason = "attempt_" + AttemptMissing
	FieldAttemptDuplicate    FieldReason = "attempt_" + AttemptDuplicate
	FieldAttemptExtra        FieldReason = "attempt_" + AttemptExtra
	// incorrect: an element replaced by another of its kind
	FieldWrongNumber       FieldReason = "wrong_number"
	FieldWrongUnit         FieldReason = "wrong_unit"
	FieldUnitConversion    FieldReason = "unit_conversion"
	FieldWrongIdentifier   FieldReason = "wrong_identifier"
	FieldWrongWeekday      FieldReason = "wrong_weekday"
	FieldWrongMonth        FieldReason = "wrong_month"
	FieldWrongDate         FieldReason = "wrong_date"
	FieldWrongTime         FieldReason = "wrong_time"
	FieldExactVsLimit      FieldReason = "exact_vs_limit"
	FieldOppositeDirection FieldReason = "opposite_direction"
	FieldStrictVsInclusive FieldReason = "strict_vs_inclusive"
	FieldContraryCondition FieldReason = "contrary_condition"
	FieldWrongDayBasis     FieldReason = "wrong_day_basis"
	FieldContraryStage     FieldReason = "contrary_stage"
	// incorrect: a weekday, month or date's day replaced by wording
	FieldReplacedWeekday FieldReason = "replaced_weekday"
	FieldReplacedMonth   FieldReason = "replaced_month"
	FieldReplacedDay     FieldReason = "replaced_day"
	// incorrect: an element the target lacks
	FieldUnsupportedNumber     FieldReason = "unsupported_number"
	FieldUnsupportedIdentifier FieldReason = "unsupported_identifier"
	FieldUnsupportedDate       FieldReason = "unsupported_date"
	FieldUnsupportedUnit       FieldReason = "unsupported_unit"
	FieldAddedComparison       FieldReason = "added_comparison"
	// incorrect: an element dropped with nothing in its place
	FieldMissingNumber         FieldReason = "missing_number"
	FieldMissingUnit           FieldReason = "missing_unit"
	FieldMissingIdentifier     FieldReason = "missing_identifier"
	FieldMissingLimitQualifier FieldReason = "missing_limit_qualifier"
	FieldMissingCondition      FieldReason = "missing_condition"
	FieldMissingWeekday        FieldReason = "missing_weekday"
	FieldMissingMonth          FieldReason = "missing_month"
	FieldMissingDate           FieldReason = "missing_date"
	FieldMissingTime           FieldReason = "missing_time"
	FieldMissingDayBasis       FieldReason = "missing_day_basis"
	FieldMissingBasis          FieldReason = "missing_basis"
	FieldMissingNegation       FieldReason = "missing_negation"
	FieldMissingStage          FieldReason = "missing_stage"
	FieldMissingWord           FieldReason = "missing_word"

	// unresolved: what the answer's form or the reference leaves open
	FieldMissingLabel      FieldReason = "missing_label"
	FieldConflictingLabels FieldReason = "conflicting_duplicate_label"
	FieldNoReferenceValue  FieldReason = "no_reference_value"
	FieldSourceNoSupport   FieldReason = "source_passage_without_support"
	// unresolved: an element that may be the same one written otherwise
	FieldUnregistered           FieldReason = "unregistered_equivalent"
	FieldUnregisteredComparison FieldReason = "unregistered_comparison"
	FieldIdentifierVariant      FieldReason = "identifier_variant"
	FieldAmbiguousComma         FieldReason = "ambiguous_comma"
	FieldNumberFormat           FieldReason = "number_format"
	FieldDateFormat             FieldReason = "date_format"
	FieldReordered              FieldReason = "reordered"
	FieldRepeatedElement        FieldReason = "repeated_element"
	// unresolved: what the answer adds or drops beside the facts
	FieldAdditionalGrounded  FieldReason = "additional_grounded"
	FieldAdditionalAssertion FieldReason = "additional_assertion"
	FieldAdditionalCondition FieldReason = "additional_condition"
	FieldAdditionalWording   FieldReason = "additional_wording"
	FieldDroppedFunctionWord FieldReason = "dropped_function_word"
	FieldDroppedSubjectWord  FieldReason = "dropped_subject_word"
)

// FieldReasons lists every field reason with the verdict it goes with and
// what it means, in the order of docs/grading.md's table (which a test
// holds to this list).
var FieldReasons = []struct {
	Reason  FieldReason
	Outcome Outcome
	Meaning string
}{
	{FieldExact, Correct, "the value, normalized, is the canonical value"},
	{FieldAcceptedAlternative, Correct, "the value, normalized, is an accepted alternative"},
	{FieldAcceptedValue, Correct, "the value, normalized, is the value or an accepted value of the field's one claim"},
	{FieldSourceWithSupport, Correct, "a passage of the evidence document holding the fact, inside a passing citation for the field's claim"},
	{FieldImplicitLimit, Correct, "a bound left implicit where the question or label asks it (\"maximum\" makes \"at most\" implicit)"},
	{FieldScopeShortening, Correct, "a trailing of/for/between/in/on phrase the question states, left out"},
	{FieldDispatchBatchScope, Correct, "dispatch-batch scope after named weekdays, left out"},
	{FieldStageFromLabel, Correct, "a stage the field's label states, left out"},
	{FieldNeutralWording, Correct, "the question's own wording in the answer"},
	{FieldDuplicateSame, Correct, "the field given twice with the same value: a review flag only"},

	{FieldMissing, Incorrect, "no value for the field"},
	{FieldUnknownOnAnswerable, Incorrect, "UNKNOWN for a field the sources answer"},
	{FieldDecline, Incorrect, "a decline for a field the sources answer"},
	{FieldAttemptError, Incorrect, "the attempt ended in an error"},
	{FieldAttemptTimeout, Incorrect, "the attempt timed out"},
	{FieldAttemptInterrupted, Incorrect, "the attempt was interrupted"},
	{FieldAttemptMissing, Incorrect, "the plan has the attempt, no run answered it"},
	{FieldAttemptDuplicate, Incorrect, "a second record for one planned attempt, which must not count"},
	{FieldAttemptExtra, Incorrect, "a record the plan does not have, which must not count"},
	{FieldWrongNumber, Incorrect, "another number in place of the target's"},
	{FieldWrongUnit, Incorrect, "another unit in place of the target's"},
	{FieldUnitConversion, Incorrect, "another number and another unit: a converted value"},
	{FieldWrongIdentifier, Incorrect, "another identifier in place of the target's"},
	{FieldWrongWeekday, Incorrect, "another weekday in place of the target's"},
	{FieldWrongMonth, Incorrect, "another month in place of the target's"},
	{FieldWrongDate, Incorrect, "another day: a date in digits, an ordinal or a month's end that names another day"},
	{FieldWrongTime, Incorrect, "another time of day in place of the target's"},
	{FieldExactVsLimit, Incorrect, "an exact value for a bound, or a bound for an exact value"},
	{FieldOppositeDirection, Incorrect, "a bound of the other direction: at least for at most"},
	{FieldStrictVsInclusive, Incorrect, "a strict bound for an inclusive one, or the reverse"},
	{FieldContraryCondition, Incorrect, "another condition: after for before"},
	{FieldWrongDayBasis, Incorrect, "calendar days for working days, or the reverse"},
	{FieldContraryStage, Incorrect, "another stage than the target's, in its place or beside it"},
	{FieldReplacedWeekday, Incorrect, "wording that does not name it in place of a named weekday (\"twice a week\")"},
	{FieldReplacedMonth, Incorrect, "wording that does not name it in place of a named month (\"in spring\")"},
	{FieldReplacedDay, Incorrect, "wording that does not name it in place of a date's day (\"mid-March\")"},
	{FieldUnsupportedNumber, Incorrect, "a number the target lacks"},
	{FieldUnsupportedIdentifier, Incorrect, "an identifier the target lacks"},
	{FieldUnsupportedDate, Incorrect, "a weekday, month, date or time the target lacks"},
	{FieldUnsupportedUnit, Incorrect, "a unit the target lacks"},
	{FieldAddedComparison, Incorrect, "a bound the target lacks and the question does not ask"},
	{FieldMissingNumber, Incorrect, "a number dropped with nothing in its place"},
	{FieldMissingUnit, Incorrect, "a unit dropped with nothing in its place"},
	{FieldMissingIdentifier, Incorrect, "an identifier dropped with nothing in its place"},
	{FieldMissingLimitQualifier, Incorrect, "a bound dropped with nothing in its place"},
	{FieldMissingCondition, Incorrect, "a condition (before, after, until, unless) dropped with nothing in its place"},
	{FieldMissingWeekday, Incorrect, "a weekday dropped with nothing in its place"},
	{FieldMissingMonth, Incorrect, "a month dropped with nothing in its place"},
	{FieldMissingDate, Incorrect, "a date in digits dropped with nothing in its place"},
	{FieldMissingTime, Incorrect, "a time of day dropped with nothing in its place"},
	{FieldMissingDayBasis, Incorrect, "a day basis (calendar, working) dropped with nothing in its place"},
	{FieldMissingBasis, Incorrect, "a \"per\" basis dropped with nothing in its place"},
	{FieldMissingNegation, Incorrect, "a negation dropped with nothing in its place"},
	{FieldMissingStage, Incorrect, "a stage dropped with nothing in its place"},
	{FieldMissingWord, Incorrect, "a content word dropped with nothing in its place"},

	{FieldMissingLabel, Unresolved, "several fields asked and none labelled: the values cannot be assigned"},
	{FieldConflictingLabels, Unresolved, "the field given twice with different values"},
	{FieldNoReferenceValue, Unresolved, "the reference has no value to compare the field with"},
	{FieldSourceNoSupport, Unresolved, "a passage of the evidence document holding the fact, with no passing citation that contains it"},
	{FieldUnregistered, Unresolved, "wording in place of an element, or an element in other words of its class"},
	{FieldUnregisteredComparison, Unresolved, "a bound in other words of the same direction (\"at or below\" for \"or colder\")"},
	{FieldIdentifierVariant, Unresolved, "an identifier written another way (\"QA 7735\" for \"QA-7735\")"},
	{FieldAmbiguousComma, Unresolved, "a decimal comma that may be the same number"},
	{FieldNumberFormat, Unresolved, "the same number spelled another way"},
	{FieldDateFormat, Unresolved, "the same day written another way: in digits, or the day as an ordinal"},
	{FieldReordered, Unresolved, "the same elements in another order"},
	{FieldRepeatedElement, Unresolved, "an element of the target said twice (\"12 samples per batch, 12 samples in all\")"},
	{FieldAdditionalGrounded, Unresolved, "an element the declared evidence states beside the value"},
	{FieldAdditionalAssertion, Unresolved, "a stage where the target has none, or a day basis, \"per\" basis or negation the target lacks"},
	{FieldAdditionalCondition, Unresolved, "a condition the target lacks"},
	{FieldAdditionalWording, Unresolved, "words the target lacks"},
	{FieldDroppedFunctionWord, Unresolved, "a function word dropped"},
	{FieldDroppedSubjectWord, Unresolved, "a word of the question dropped from the value (\"0%\" for \"0% discount\")"},
}
