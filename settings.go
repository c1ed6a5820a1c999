package llmfs

// Settings are the rules a workspace runs under, as [Workspace.Settings] reports them.
type Settings struct {
	// Policy holds the work mode (never empty: [Full] when none was set), the deny rules
	// in force, defaults included, and the quota the workspace enforces itself (not one a
	// store enforces on its own, such as store/sql's).
	Policy
	Relaxed bool   // paths may leave the root ([Options.Relaxed])
	Limits  Limits // the limits in force, defaults filled in
	// Actor is the name the workspace's changes are journaled under; [ActorAPI] when
	// none was set.
	Actor       string
	Journaled   bool // changes are recorded in the store's journal
	RequireRead bool // edits and overwrites need a read first in this session
	Virtual     bool // paths are virtual (see [VirtualPaths])
}

// Settings returns the rules w runs under.
func (w *Workspace) Settings() Settings {
	return Settings{
		Policy:      w.policy(),
		Relaxed:     w.relaxed,
		Limits:      w.limits,
		Actor:       w.actorName(),
		Journaled:   w.hasJournal(),
		RequireRead: w.tracksReads(),
		Virtual:     w.virtual,
	}
}
