package freeze

import (
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/internal/atomicfile"
	"github.com/citecheck/citecheck/internal/inputerr"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

// Inputs names what a lock freezes.
type Inputs struct {
	// LockPath is where the lock will be written. Its folder anchors every
	// path in the lock, so the lock, corpus, PDFs, reference and plan can
	// move together.
	LockPath      string
	CorpusDir     string
	ReferencePath string
	PlanPath      string // optional
	Toolchain     Toolchain
	// Reviews are decisions files to pin (package review), optional.
	Reviews []string
}

// Frozen is the outcome of Build.
type Frozen struct {
	Lock  *Lock
	Spans *spans.Report // the span validation freeze ran; set even when it refused
	Plan  *plan.Plan    // nil without a plan
}

// Refusals of Build: the inputs are not fit to freeze.
var (
	// ErrReferenceInvalid: span validation found errors (Frozen.Spans).
	ErrReferenceInvalid = errors.New("the reference has span errors")
	// ErrPlanMismatch: the plan was made for other questions.
	ErrPlanMismatch = inputerr.New("the plan does not match the reference")
	// ErrStaleCorpus: a PDF or folder of imported page texts is missing or
	// no longer matches its corpus entry, or a stored page text,
	// alternative text or glyph-box file is missing or no longer matches
	// its hash (corpus.ErrIntegrity).
	ErrStaleCorpus = errors.New("the corpus does not match its PDFs or page folders")
	// ErrReviewsTwice: one decisions file named twice.
	ErrReviewsTwice = inputerr.New("a decisions file is given twice")
)

// Build validates the reference against the corpus (spans.Validate; any
// error refuses), checks the plan against the reference, re-hashes every
// PDF (or folder of imported page texts), page text, alternative text and
// glyph-box file, and returns the lock. It writes nothing.
func Build(in Inputs) (*Frozen, error) {
	lockDir, err := filepath.Abs(filepath.Dir(in.LockPath))
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	store, err := corpus.Open(in.CorpusDir)
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	manifest, err := os.ReadFile(filepath.Join(in.CorpusDir, corpus.ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	ref, err := spans.ReadFile(in.ReferencePath)
	if err != nil {
		return nil, err
	}
	rep, err := spans.Validate(ref, store, spans.Options{})
	if err != nil {
		if errors.Is(err, corpus.ErrIntegrity) {
			return nil, fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
		}
		return nil, fmt.Errorf("freeze: %w", err)
	}
	fr := &Frozen{Spans: rep}
	if rep.HasErrors() {
		return fr, fmt.Errorf("freeze: %w: %s", ErrReferenceInvalid, plural(rep.Count(spans.Error), "error"))
	}

	b := &lockBuilder{lockDir: lockDir, lock: &Lock{}}
	if err := b.addCorpus(store, in.CorpusDir, manifest); err != nil {
		return nil, err
	}
	if err := b.addReference(in.ReferencePath, ref); err != nil {
		return nil, err
	}
	if in.PlanPath != "" {
		if fr.Plan, err = b.addPlan(in.PlanPath, ref); err != nil {
			return nil, err
		}
	}
	if err := b.addReviews(in.Reviews); err != nil {
		return nil, err
	}
	b.lock.Records = append(b.lock.Records, in.Toolchain.records()...)
	b.lock.seal()
	fr.Lock = b.lock
	return fr, nil
}

// lockBuilder gathers a lock's records, naming every file relative to the
// lock's folder lockDir.
type lockBuilder struct {
	lockDir string
	lock    *Lock
}

func (b *lockBuilder) add(kind string, fields ...string) {
	b.lock.Records = append(b.lock.Records, Record{kind, fields})
}

// rel names p relative to the lock's folder, with forward slashes.
func (b *lockBuilder) rel(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(b.lockDir, abs)
	if err != nil {
		return "", fmt.Errorf("freeze: %s cannot be named relative to the lock's folder %s: %w", p, b.lockDir, err)
	}
	return filepath.ToSlash(r), nil
}

// addCorpus pins the corpus in dir: its manifest, extractor, every
// document and page, and its quote index, each re-hashed first.
func (b *lockBuilder) addCorpus(store *corpus.Store, dir string, manifest []byte) error {
	corpusRel, err := b.rel(dir)
	if err != nil {
		return err
	}
	b.add("corpus", corpusRel, corpus.Hash(manifest))
	m := store.Manifest()
	b.add("extractor", m.Extractor.Name, m.Extractor.Version)
	for k, v := range m.Extractor.Limits {
		b.add("extractor.limit", k, strconv.FormatInt(v, 10))
	}
	for i := range m.Documents {
		d := &m.Documents[i]
		if err := b.addSource(dir, d); err != nil {
			return err
		}
		if err := b.addPages(store, d); err != nil {
			return err
		}
	}
	if q := m.QuoteIndex; q != nil {
		// Re-hashed as freeze --verify re-hashes it: a changed index is
		// not frozen.
		if err := store.CheckQuoteIndex(); err != nil {
			return fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
		}
		b.add("quote-index", q.File, q.Format, strconv.FormatInt(q.Bytes, 10), q.BLAKE3, q.Sources)
	}
	return nil
}

// addSource pins what document d was made from, in the corpus in dir: a
// folder of imported page texts or a PDF, refused when it changed since.
func (b *lockBuilder) addSource(dir string, d *corpus.Document) error {
	if folder, ok := corpus.TextSource(d.Source); ok {
		// Imported page texts: the folder is re-hashed as ImportText
		// hashed it.
		folderPath := filepath.Join(dir, filepath.FromSlash(folder))
		td, err := ingest.ReadTextDocument(folderPath, ingest.ImportOptions{})
		if err != nil {
			return fmt.Errorf("freeze: %w: %s: %w", ErrStaleCorpus, d.Name, err)
		}
		if td.BLAKE3 != d.BLAKE3 || td.Bytes != d.Bytes {
			return fmt.Errorf("freeze: %w: %s (%s) has changed since it was imported: run citecheck import-text again", ErrStaleCorpus, d.Name, folderPath)
		}
		fr, err := b.rel(folderPath)
		if err != nil {
			return err
		}
		b.add("text", d.Name, strconv.FormatInt(d.Bytes, 10), d.BLAKE3, fr)
		return nil
	}
	pdfPath := filepath.Join(dir, filepath.FromSlash(d.Source))
	size, sum, err := corpus.HashFile(pdfPath)
	if err != nil {
		return fmt.Errorf("freeze: %w: %s: %w", ErrStaleCorpus, d.Name, err)
	}
	if sum != d.BLAKE3 || size != d.Bytes {
		return fmt.Errorf("freeze: %w: %s (%s) has changed since it was extracted: run citecheck extract again", ErrStaleCorpus, d.Name, pdfPath)
	}
	pr, err := b.rel(pdfPath)
	if err != nil {
		return err
	}
	b.add("pdf", d.Name, string(d.Status), strconv.FormatInt(d.Bytes, 10), d.BLAKE3, pr)
	return nil
}

// addPages pins every page of d: its text, alternative texts, glyph boxes
// and reading orders, each read as the verbs read them, so that what is
// frozen is what they accept.
func (b *lockBuilder) addPages(store *corpus.Store, d *corpus.Document) error {
	for _, p := range d.Pages {
		if _, err := store.Text(d, p.Page); err != nil {
			return fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
		}
		b.add("page", d.Name, strconv.Itoa(p.Page), strconv.Itoa(p.Chars), p.BLAKE3)
		if _, err := store.AltTexts(d, p.Page); err != nil {
			return fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
		}
		for k, sum := range p.Alts {
			b.add("alt", d.Name, strconv.Itoa(p.Page), strconv.Itoa(k+1), sum)
		}
		if p.Boxes != "" {
			if _, err := store.Boxes(d, p.Page); err != nil {
				return fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
			}
			b.add("boxes", d.Name, strconv.Itoa(p.Page), p.Boxes)
		}
		if p.Orders != "" {
			if _, err := store.Orders(d, p.Page); err != nil {
				return fmt.Errorf("freeze: %w: %w", ErrStaleCorpus, err)
			}
			b.add("layout", d.Name, strconv.Itoa(p.Page), p.Orders)
		}
	}
	return nil
}

// addReference pins the reference at path, whole and question by
// question.
func (b *lockBuilder) addReference(path string, ref *spans.Reference) error {
	refRel, err := b.rel(path)
	if err != nil {
		return err
	}
	b.add("reference", refRel, corpus.Hash(ref.Raw()), corpus.Hash(ref.Canonical()))
	for i := range ref.Questions {
		q := &ref.Questions[i]
		b.add("question", q.ID, corpus.Hash(spans.CanonicalQuestion(q)))
		for part, sum := range spans.QuestionParts(q) {
			if part != "id" { // the question record names it already
				b.add("question.part", q.ID, part, corpus.Hash(sum))
			}
		}
	}
	return nil
}

// addPlan pins the plan at path, refused when it was made for other
// questions than ref's, and returns it.
func (b *lockBuilder) addPlan(path string, ref *spans.Reference) (*plan.Plan, error) {
	p, raw, err := plan.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := MatchPlan(p, ref); err != nil {
		return nil, fmt.Errorf("freeze: %w: %v", ErrPlanMismatch, err)
	}
	planRel, err := b.rel(path)
	if err != nil {
		return nil, err
	}
	b.add("plan", planRel, corpus.Hash(raw))
	for _, o := range p.Orders {
		b.add("plan.order", strconv.Itoa(o.Repetition), orderHash(o))
	}
	return p, nil
}

// Write builds the lock and writes it to in.LockPath through a temporary
// file and a rename, so a reader never sees half a lock.
func Write(in Inputs) (*Frozen, error) {
	fr, err := Build(in)
	if err != nil {
		return fr, err
	}
	if err := atomicfile.Write(in.LockPath, fr.Lock.Encode()); err != nil {
		return fr, fmt.Errorf("freeze: write %s: %w", in.LockPath, err)
	}
	return fr, nil
}

// MatchPlan requires the plan's questions and counts to be the reference's
// (Build refuses a lock otherwise). The error says what differs and wraps
// ErrPlanMismatch without its words.
func MatchPlan(p *plan.Plan, ref *spans.Reference) error {
	ids := make([]string, len(ref.Questions))
	for i, q := range ref.Questions {
		ids[i] = q.ID
	}
	slices.Sort(ids)
	if !slices.Equal(ids, p.Questions) {
		var missing, extra []string
		for _, id := range ids {
			if _, ok := slices.BinarySearch(p.Questions, id); !ok {
				missing = append(missing, id)
			}
		}
		for _, id := range p.Questions {
			if _, ok := slices.BinarySearch(ids, id); !ok {
				extra = append(extra, id)
			}
		}
		return &planMismatch{fmt.Sprintf("the plan lacks questions [%s] and has questions [%s] the reference does not: make the plan again", strings.Join(missing, " "), strings.Join(extra, " "))}
	}
	a, u := ref.Counts()
	if p.Counts != (plan.Counts{Answerable: a, Unknown: u}) {
		return &planMismatch{fmt.Sprintf("the plan counts %d answerable and %d unknown questions, the reference %d and %d: make the plan again", p.Counts.Answerable, p.Counts.Unknown, a, u)}
	}
	return nil
}

// planMismatch says what differs between a plan and a reference: it is
// ErrPlanMismatch, whose words it leaves to the caller.
type planMismatch struct{ msg string }

func (e *planMismatch) Error() string { return e.msg }
func (e *planMismatch) Unwrap() error { return ErrPlanMismatch }

// orderHash hashes one repetition's order: the ids, one per line.
func orderHash(o plan.Order) string {
	return corpus.Hash([]byte(strings.Join(o.Questions, "\n") + "\n"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
