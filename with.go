package llmfs

import "github.com/llmfs/llmfs/store"

// An Option is one way a workspace made by [Workspace.With] differs from the one it
// comes from. The options are [Actor], [NewSession], [RequireRead], [VirtualPaths],
// [OnStore] and [EnforceQuota].
type Option struct {
	apply func(w *Workspace)
}

// With returns a workspace like w, changed by opts in the order given. It shares w's
// store, root, rules and read-tracking session unless an option says otherwise; w itself
// is unchanged, so a face derives one workspace per agent session from a shared one.
func (w *Workspace) With(opts ...Option) *Workspace {
	c := *w
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	return &c
}

// NewSession gives the workspace a read tracker of its own: give each agent session one,
// so that one agent's reads never vouch for another's edits. When the workspace does not
// require reads, the session does not either.
func NewSession() Option {
	return Option{func(w *Workspace) {
		if w.tracker != nil {
			w.tracker = newReadTracker()
		}
	}}
}

// Actor makes a new session (see [NewSession]) whose changes are journaled as made by
// name: "cli", "mcp:<session>", "acp:<session>", "web", "review", or any name.
func Actor(name string) Option {
	return Option{func(w *Workspace) {
		NewSession().apply(w)
		w.actor = name
	}}
}

// RequireRead switches read-before-edit on or off (see [Options.RequireRead]). Switching
// it on when the workspace already requires reads keeps its session; otherwise the result
// is a new session with a tracker of its own.
func RequireRead(on bool) Option {
	return Option{func(w *Workspace) {
		switch {
		case !on:
			w.tracker = nil
		case w.tracker == nil:
			w.tracker = newReadTracker()
		}
	}}
}

// VirtualPaths gives the workspace virtual paths, as the rtc tool dialect uses them: "/"
// is the workspace root and every path, with or without a leading slash, lies below it; a
// path with a ".." element is refused with [CodeInvalidPath] before anything else. Paths
// in results are virtual ("/src/a.go"), and messages name paths as the caller wrote them,
// so no host path ever shows. The view keeps the store, rules and read-tracking session.
func VirtualPaths() Option {
	return Option{func(w *Workspace) { w.virtual = true }}
}

// OnStore puts the workspace, with its root, rules and limits, over the store s instead
// of its own: for a store that wraps the workspace's own, such as the copy-on-write layer
// of review (package store/overlay), so that sandbox, deny rules, quotas and
// read-before-edit behave exactly as on the store beneath. Quota usage is counted anew,
// over s, and reads are tracked in a new session. Changes are journaled only if s keeps a
// journal of its own.
func OnStore(s store.Store) Option {
	return Option{func(w *Workspace) {
		journaled := w.jr != nil
		w.store = s
		// A journal records the changes made through its own store: over another store,
		// only that store's journal can (none for an overlay, whose changes are pending,
		// not made).
		w.jr = nil
		if j, ok := s.(store.Journaler); ok && journaled {
			w.jr = j
		}
		if w.tracker != nil {
			w.tracker = newReadTracker()
		}
		if w.quota != nil {
			w.quota = newQuotaState(w.quota.q)
		}
	}}
}

// EnforceQuota makes the workspace enforce q, its usage counted anew: for a store that
// wraps one enforcing a quota of its own (the review layer over a store/sql workspace), so
// that the bounds hold over what the wrapper shows. An invalid q makes every operation
// fail, as in [New].
func EnforceQuota(q Quota) Option {
	return Option{func(w *Workspace) {
		w.quota = newQuotaState(q)
		if err := q.validate(); err != nil && w.bad == nil {
			w.bad = err
		}
	}}
}
