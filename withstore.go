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

// Quota returns the bounds w enforces itself (not those a store enforces on its own, such
// as store/sql's).
func (w *Workspace) Quota() Quota {
	if w.quota == nil {
		return Quota{}
	}
	return w.quota.q
}

// WithQuota returns a workspace like w that enforces q, its usage counted anew: for a
// store that wraps one enforcing a quota of its own (the review layer over a store/sql
// workspace), so that the bounds hold over what the wrapper shows. An invalid q makes every
// operation fail, as in [New].
func (w *Workspace) WithQuota(q Quota) *Workspace {
	c := *w
	c.quota = newQuotaState(q)
	if err := q.validate(); err != nil && c.bad == nil {
		c.bad = err
	}
	return &c
}
