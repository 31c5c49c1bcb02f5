package runs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Gemini generateContent response with grounding, in the REST API's
// camelCase names or the snake_case ones google-genai's Python
// model_dump() writes (never both for one key): candidates[0] holds the
// answer parts and groundingMetadata. Each groundingSupport ties a segment
// of the answer (UTF-8 byte offsets into a part) to groundingChunks; a
// chunk from a retrieval tool (retrievedContext) names its document (the
// uri or title the run's documents maps, else the title, else the uri) and
// gives its text (or Vertex RAG's ragChunk.text), the quote, without the
// page markers File Search writes into it. Its pages are 1-based by
// contract: pageNumber, else ragChunk.pageSpan, else the page markers. A
// web (or maps) chunk is an external source. One citation per chunk that a
// support references, in order of first reference, with the chunk and its
// supports verbatim as native; a support into a chunk the response lacks
// cites an unknown document "groundingChunks[N]". Chunks no support
// references are retrieval results, not citations, and go verbatim to the
// record's Retrieval.
func adaptGemini(rec *Record, raw json.RawMessage) (string, error) {
	v, err := strictjson.Parse(raw, "", strictjson.Limits{})
	if err != nil { // checked by the envelope's reader already
		return "", fmt.Errorf("%w: %v", strictjson.ErrValue, err)
	}
	t := &vtree{data: raw}
	cands, cpaths := t.list(t.get(v, "", "candidates"))
	if t.err != nil {
		return t.result()
	}
	if len(cands) == 0 {
		return ".candidates", strictjson.ErrMissing
	}
	cand, cp := cands[0], cpaths[0]
	content, contentPath := t.get(cand, cp, "content")
	parts, ppaths := t.list(t.get(content, contentPath, "parts"))
	// partTexts are by part index, as supports address them; a thought
	// part (Gemini 2.5 with includeThoughts) is the model's reasoning, not
	// its answer, and stays out of the response.
	var partTexts, answer []string
	for i, p := range parts {
		text := t.str(t.get(p, ppaths[i], "text"))
		partTexts = append(partTexts, text)
		if !t.bool(t.get(p, ppaths[i], "thought")) {
			answer = append(answer, text)
		}
	}
	rec.Response = strings.Join(answer, "")
	if finish := t.str(t.get(cand, cp, "finishReason", "finish_reason")); rec.StopReason == "" {
		rec.StopReason = finish
	}
	gm, gp := t.get(cand, cp, "groundingMetadata", "grounding_metadata")
	chunks, chpaths := t.list(t.get(gm, gp, "groundingChunks", "grounding_chunks"))
	supports, spaths := t.list(t.get(gm, gp, "groundingSupports", "grounding_supports"))
	if t.err != nil {
		return t.result()
	}
	g := &geminiGrounding{t: t, rec: rec, chunks: chunks, chunkPaths: chpaths, byChunk: map[int]int{}}
	for s, sup := range supports {
		if !g.support(sup, spaths[s], partTexts) {
			return t.result()
		}
	}
	for k := range rec.Citations {
		rec.Citations[k].Native = wrapNative([]string{"chunk", "supports"}, []json.RawMessage{g.natives[k].chunk, rawList(g.natives[k].supports)})
	}
	for ci, ch := range chunks {
		if _, cited := g.byChunk[ci]; !cited {
			rec.Retrieval = append(rec.Retrieval, t.raw(ch))
		}
	}
	return "", nil
}

// geminiGrounding turns a candidate's grounding supports into citations,
// one per chunk, as the supports reference the chunks.
type geminiGrounding struct {
	t          *vtree
	rec        *Record
	chunks     []*strictjson.Value
	chunkPaths []string
	byChunk    map[int]int // chunk index -> citation index
	natives    []geminiNative
}

// geminiNative is what a citation keeps verbatim: its chunk and the
// supports that reference it.
type geminiNative struct {
	chunk    json.RawMessage
	supports []json.RawMessage
}

// support reads the support sup at path sp: the segment of the answer it
// supports becomes a claim of each chunk it references. It reports false
// at the first fault, which g.t holds.
func (g *geminiGrounding) support(sup *strictjson.Value, sp string, partTexts []string) bool {
	t := g.t
	seg, segp := t.get(sup, sp, "segment")
	pi := t.int(t.get(seg, segp, "partIndex", "part_index"))
	start := t.int(t.get(seg, segp, "startIndex", "start_index"))
	end := t.int(t.get(seg, segp, "endIndex", "end_index"))
	segText := t.str(t.get(seg, segp, "text"))
	indices, ipaths := t.list(t.get(sup, sp, "groundingChunkIndices", "grounding_chunk_indices"))
	if t.err != nil {
		return false
	}
	partText, okPart := "", pi >= 0 && pi < len(partTexts)
	if okPart {
		partText = partTexts[pi]
	}
	claim := geminiSegment(partText, start, end, segText, okPart)
	for i, iv := range indices {
		ci := t.int(iv, ipaths[i])
		if t.err == nil && ci < 0 {
			t.fail(ipaths[i], fmt.Errorf("%w: chunk index %d (indices are 0-based)", strictjson.ErrValue, ci))
		}
		if t.err != nil {
			return false
		}
		k, ok := g.citation(ci)
		if !ok {
			return false
		}
		if claim != "" {
			c := &g.rec.Citations[k]
			if c.Claim != "" {
				c.Claim += " | "
			}
			c.Claim += claim
		}
		g.natives[k].supports = append(g.natives[k].supports, t.raw(sup))
	}
	return true
}

// citation returns the index in the record's citations of chunk ci's
// citation, adding it at the chunk's first reference. It reports false at
// a fault in the chunk, which g.t holds.
func (g *geminiGrounding) citation(ci int) (int, bool) {
	if k, seen := g.byChunk[ci]; seen {
		return k, true
	}
	var rc Citation
	var chunkRaw json.RawMessage
	if ci < len(g.chunks) {
		chunkRaw = g.t.raw(g.chunks[ci])
		rc = geminiChunk(g.t, g.chunks[ci], g.chunkPaths[ci], g.rec.Documents)
		if g.t.err != nil {
			return 0, false
		}
	} else {
		// The response names a chunk it lacks (supports into an empty
		// groundingChunks): this citation's document is unknown, the
		// others stand.
		rc.Document = fmt.Sprintf("groundingChunks[%d]", ci)
	}
	k := len(g.rec.Citations)
	g.byChunk[ci] = k
	g.rec.Citations = append(g.rec.Citations, rc)
	g.natives = append(g.natives, geminiNative{chunk: chunkRaw})
	return k, true
}

// geminiChunk turns one grounding chunk into a citation.
func geminiChunk(t *vtree, ch *strictjson.Value, path string, m Mapping) Citation {
	var rc Citation
	if rctx, rp := t.get(ch, path, "retrievedContext", "retrieved_context"); rctx != nil {
		uri := t.str(t.get(rctx, rp, "uri"))
		title := t.str(t.get(rctx, rp, "title"))
		switch {
		case mapped(m, uri):
			rc.Document = uri
		case mapped(m, title):
			rc.Document = title
		default:
			rc.Document = firstOf(title, uri, path[strings.LastIndex(path, ".")+1:])
		}
		quote := t.strPtr(t.get(rctx, rp, "text"))
		rag, ragp := t.get(rctx, rp, "ragChunk", "rag_chunk")
		if quote == nil || strings.TrimSpace(*quote) == "" {
			quote = t.strPtr(t.get(rag, ragp, "text"))
		}
		var first, last int
		if quote != nil {
			q, pages := stripPageMarkers(*quote)
			quote = &q
			if len(pages) > 0 {
				first, last = pages[0], pages[1]
			}
			rc.QuoteFrom = QuoteFromRetrieval
		}
		span, sp := t.get(rag, ragp, "pageSpan", "page_span")
		if fp := t.int(t.get(span, sp, "firstPage", "first_page")); fp > 0 {
			first, last = fp, t.int(t.get(span, sp, "lastPage", "last_page"))
		}
		if pn := t.intPtr(t.get(rctx, rp, "pageNumber", "page_number")); pn != nil && *pn > 0 {
			first, last = *pn, 0
		}
		if first > 0 {
			rc.Page, rc.PagePhysical = ptr(first), true
			if last > first {
				rc.LastPage = ptr(last)
			}
		}
		rc.Quote = quote
		return rc
	}
	// A web page, a place on Google Maps or any other source no retrieval
	// over the corpus returned: outside the corpus.
	rc.External = true
	for _, kind := range ch.Members {
		if kind.Value.Kind != strictjson.Object {
			continue
		}
		kp := strictjson.JoinKey(path, kind.Key)
		uri := t.str(t.get(kind.Value, kp, "uri"))
		rc.Title = t.str(t.get(kind.Value, kp, "title"))
		rc.Document = firstOf(uri, rc.Title)
		break
	}
	if rc.Document == "" {
		rc.Document = path[strings.LastIndex(path, ".")+1:]
	}
	return rc
}

// pageMarker is the line File Search writes into a chunk's text where a
// page of the document begins: "--- PAGE 3 ---".
var pageMarker = regexp.MustCompile(`(?m)^[ \t]*-{3} PAGE (\d{1,6}) -{3}[ \t]*$`)

// stripPageMarkers removes the page markers of a chunk's text, joining
// what is between them by a line break, and returns the pages the text
// spans (first, last; last 0 for one page), none when it has no marker:
// text before the first marker is on the page before it.
func stripPageMarkers(s string) (string, []int) {
	locs := pageMarker.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, nil
	}
	var pieces []string
	prev := 0
	first, last := 0, 0
	// The last page is the last one whose marker some text follows: a
	// marker at the chunk's end opens a page the chunk holds nothing of.
	for i, l := range locs {
		n, _ := strconv.Atoi(s[l[2]:l[3]])
		before := strings.TrimSpace(s[prev:l[0]])
		if before != "" {
			pieces = append(pieces, before)
		}
		if i == 0 {
			first = n
			if before != "" && n > 1 {
				first = n - 1
			}
			last = first
		}
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if strings.TrimSpace(s[l[1]:end]) != "" {
			last = n
		}
		prev = l[1]
	}
	if rest := strings.TrimSpace(s[prev:]); rest != "" {
		pieces = append(pieces, rest)
	}
	if last == first {
		last = 0
	}
	return strings.Join(pieces, "\n"), []int{first, last}
}

// geminiSegment cuts the supported answer text from a part by UTF-8 byte
// offsets when they are valid and agree with the segment's own text, else
// returns the segment's text: the offsets are checked, not trusted.
func geminiSegment(part string, start, end int, text string, ok bool) string {
	if ok && start >= 0 && start <= end && end <= len(part) && utf8.ValidString(part[start:end]) &&
		(start == len(part) || utf8.RuneStart(part[start])) && (end == len(part) || utf8.RuneStart(part[end])) {
		if s := part[start:end]; text == "" || s == text {
			return s
		}
	}
	return text
}
