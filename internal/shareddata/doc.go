// Package shareddata finds the test data that lives beside the checkout, in
// ../shared next to the module root: the PDF corpora, the reference
// vectors, the specifications. It is never copied into the repository, so
// a test that needs it calls Path, which skips the test with a message
// naming the missing path when it is absent. Only tests import this
// package.
package shareddata
