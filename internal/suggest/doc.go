// Package suggest finds what a user probably meant when a name they gave
// (a document, a question id, an arm, a JSON key) is not one of the names
// that exist: the "did you mean" of every message that refuses a name.
//
// A candidate is near a key when it equals the key but for letter case,
// when either holds the other (the shorter of three characters or more)
// once both are lower-cased (and, for
// document names, rid of ".pdf"), or when the two are at most two edits
// apart (one edit for keys of three or four characters, none for shorter
// ones) and differ in no
// digit: "Q1" is not offered for "Q7". Near returns at most MaxNear names,
// sorted. It never guesses between equally near names: it lists them.
package suggest
