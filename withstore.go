package llmfs

import "github.com/llmfs/llmfs/store"

// WithStore returns a workspace with w's root, rules and limits over the store s instead
// of w's: for a store that wraps w's own, such as the copy-on-write layer of review
// (package store/overlay), so that sandbox, deny rules, quotas and read-before-edit behave
// exactly as on the store beneath. Quota usage is counted anew, over s. Changes are
// journaled only if s keeps a journal of its own.
func (w *Workspace) WithStore(s store.Store) *Workspace {
	c := *w
	c.store = s
	// A journal records the changes made through its own store: over another store, only
	// that store's journal can (none for an overlay, whose changes are pending, not made).
	c.jr = nil
	if j, ok := s.(store.Journaler); ok && w.jr != nil {
		c.jr = j
	}
	if w.tracker != nil {
		c.tracker = newReadTracker()
	}
	if w.quota != nil {
		c.quota = newQuotaState(w.quota.q)
	}
	return &c
}
