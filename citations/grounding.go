package citations

// Grounding is what Ground says about one emitted citation, with no
// reference: whether its quote is in the document it names, and where.
type Grounding string

// The groundings, in the precedence Ground decides them by (see Ground).
const (
	GroundedUnique          Grounding = "unique"           // one location in the cited document (on the given page)
	GroundedAmbiguous       Grounding = "ambiguous"        // several locations, nothing settles which
	GroundedWrongPage       Grounding = "wrong_page"       // in the document, on no page the given one could mean
	GroundedPageConvention  Grounding = "page_convention"  // on the given page only read 0-based or as a label
	GroundedWrongDocument   Grounding = "wrong_document"   // in another document only
	GroundedFabricated      Grounding = "fabricated"       // in no corpus document
	GroundedUnknownDocument Grounding = "unknown_document" // the cited document is not in the corpus
	GroundedUnverifiable    Grounding = "unverifiable"     // no quote, an ambiguous document mapping, or no text to search
	GroundedExternal        Grounding = "external_source"  // a source outside the corpus (a web page): never looked up
)
