package llmfs

import "github.com/llmfs/llmfs/store"

// WithStore returns a workspace with w's root, rules and limits over the store s instead
// of w's: for a store that wraps w's own, such as the copy-on-write layer of review
// (package store/overlay), so that sandbox, deny rules, quotas and read-before-edit behave
// exactly as on the store beneath. Quota usage is counted anew, over s.
func (w *Workspace) WithStore(s store.Store) *Workspace {
	c := *w
	c.store = s
	if w.tracker != nil {
		c.tracker = newReadTracker()
	}
	if w.quota != nil {
		c.quota = newQuotaState(w.quota.q)
	}
	return &c
}
