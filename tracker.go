package llmfs

import "sync"

// readTracker remembers, for one agent session, the content hash of each file it has read,
// so that edits and overwrites can require a read first and detect changes since. Keys are
// store names, so a virtual view and the host view of one session agree.
type readTracker struct {
	mu     sync.Mutex
	hashes map[string]string // store name -> SHA-256 of the content last read or written
}

func newReadTracker() *readTracker { return &readTracker{hashes: map[string]string{}} }

func (t *readTracker) record(path, hash string) {
	t.mu.Lock()
	t.hashes[path] = hash
	t.mu.Unlock()
}

func (t *readTracker) lookup(path string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.hashes[path]
	return h, ok
}

func (t *readTracker) forget(path string) {
	t.mu.Lock()
	delete(t.hashes, path)
	t.mu.Unlock()
}
