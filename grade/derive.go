package grade

// Derive recomputes an answerable result's derived verdicts from its parts,
// by the rules Grade decides them with: Factual is the three-valued AND of
// the field verdicts (correct as pass, incorrect as fail), Supported the
// AND of Factual and each claim's support in Claims. A result of an
// unknown question, or of an attempt that did not answer, is left as it
// is: its derived verdicts are not a function of parts (none, or failed
// by its status).
//
// Package review calls it on results whose parts a person's review has
// resolved, so that the reviewed factual and supported verdicts follow
// from the same rules as the automatic ones, never from a separate
// judgment.
func (r *Result) Derive() {
	if r.Kind != KindAnswerable || r.Attempt != AttemptOK {
		return
	}
	factual := Pass
	for _, fv := range r.Fields {
		factual = and(factual, fieldOutcome(fv.Verdict))
	}
	supported := factual
	for _, c := range r.Claims {
		supported = and(supported, c.Supported)
	}
	r.Factual, r.Supported = &factual, &supported
}
