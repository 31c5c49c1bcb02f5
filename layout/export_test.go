package layout

// SameBarWhiteSpace exposes sameBarWhiteSpace to the tests.
var SameBarWhiteSpace = sameBarWhiteSpace
