package llmfs

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"hash/maphash"
	"io"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// readTracker remembers, for one agent session, what each file held when the session last
// read or wrote it, so that edits and overwrites can require a read first and detect
// changes since. Keys are store names, so a virtual view and the host view of one session
// agree.
//
// It holds at most max files: a long session over a large tree would otherwise keep an
// entry for every file it ever read. Past that, the files recorded longest ago are
// forgotten first; an edit of one asks for a read again, as for a file never read.
type readTracker struct {
	mu    sync.Mutex
	files map[string]tracked
	order []recordedAt // oldest first; an entry is stale once its file is recorded again
	gen   uint64       // of the latest record
	max   int
}

// tracked is a file's entry: what the session knows of it, and when it was recorded.
type tracked struct {
	seen
	gen uint64
}

// recordedAt is one record of name, in the order of records.
type recordedAt struct {
	name string
	gen  uint64
}

// maxTrackedFiles bounds the files one session's tracker remembers.
const maxTrackedFiles = 1 << 16

// seen is what a session knows of a file's content: a fast keyed hash and, when it was
// cheap to get, the store's content hash ([store.Hash], the one conditional writes
// compare). SHA-256 costs some twenty times what the fast hash does, so a read of a file
// too big to edit (over [Limits.MaxEditBytes]) skips it; an overwrite of such a file
// computes it then, from the file, after checking that it is the one the session read.
//
// Such a file is not hashed at all when its metadata can stand for its content (see
// [identityOf]): then byID is set and id, not fast, is what the session knows, so that a
// read deep into a huge file need not pass over all of it.
type seen struct {
	fast uint64
	sha  string // "" when not computed
	id   fileID // set when byID
	byID bool
}

// holds reports whether content is what s knows the file held. A file known by identity
// was too large to edit, so any content small enough to have been loaded differs.
func (s seen) holds(content []byte) bool {
	return !s.byID && s.fast == maphash.Bytes(trackSeed, content)
}

// trackSeed keys the fast hashes of every tracker in the process. Hashes never leave the
// process, so a per-process seed is enough, and it keeps them unpredictable.
var trackSeed = maphash.MakeSeed()

func newReadTracker() *readTracker { return newReadTrackerMax(maxTrackedFiles) }

func newReadTrackerMax(max int) *readTracker {
	return &readTracker{files: map[string]tracked{}, max: max}
}

func (t *readTracker) record(name string, s seen) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	t.files[name] = tracked{s, t.gen}
	t.order = append(t.order, recordedAt{name, t.gen})
	for len(t.files) > t.max {
		oldest := t.order[0]
		t.order = t.order[1:]
		if e, ok := t.files[oldest.name]; ok && e.gen == oldest.gen {
			delete(t.files, oldest.name)
		}
	}
	if len(t.order) > 2*len(t.files)+64 {
		t.compact()
	}
}

// compact drops the stale records of order (files recorded again, or forgotten), so that
// a session that reads a few files over and over keeps a short order.
func (t *readTracker) compact() {
	live := t.order[:0:0]
	for _, r := range t.order {
		if e, ok := t.files[r.name]; ok && e.gen == r.gen {
			live = append(live, r)
		}
	}
	t.order = live
}

func (t *readTracker) lookup(name string) (seen, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.files[name]
	return e.seen, ok
}

func (t *readTracker) forget(name string) {
	t.mu.Lock()
	delete(t.files, name)
	t.mu.Unlock()
}

// size returns how many files the tracker holds and how many records its order keeps.
func (t *readTracker) size() (files, records int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.files), len(t.order)
}

// seenOf returns both hashes of content the session has in hand.
func seenOf(content []byte) seen {
	return seen{fast: maphash.Bytes(trackSeed, content), sha: store.Hash(content)}
}

// contentHasher computes a [seen] over a stream: the fast hash always, SHA-256 if asked.
type contentHasher struct {
	fast maphash.Hash
	sha  hash.Hash // nil when not asked for
}

func newContentHasher(withSHA bool) *contentHasher {
	h := &contentHasher{}
	h.fast.SetSeed(trackSeed)
	if withSHA {
		h.sha = sha256.New()
	}
	return h
}

func (h *contentHasher) Write(p []byte) (int, error) {
	h.fast.Write(p)
	if h.sha != nil {
		h.sha.Write(p)
	}
	return len(p), nil
}

func (h *contentHasher) sum() seen {
	s := seen{fast: h.fast.Sum64()}
	if h.sha != nil {
		s.sha = hex.EncodeToString(h.sha.Sum(nil))
	}
	return s
}

// hashStream returns both hashes of everything r yields.
func hashStream(r io.Reader) (seen, error) {
	h := newContentHasher(true)
	if _, err := io.Copy(h, r); err != nil {
		return seen{}, err
	}
	return h.sum(), nil
}
