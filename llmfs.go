// Package llmfs gives AI agents a file system: a [Workspace] confined to a root, with the
// operations agents use (read, write, edit, list, find, grep, mkdir, delete, move, copy),
// every failure a coded [*Error], and every write atomic and journaled:
//
//	ws, err := host.Open(&llmfs.Options{Root: dir}) // nothing reaches outside dir
//	if err != nil {
//		log.Fatal(err)
//	}
//	res, err := ws.Read(ctx, "hello.txt", llmfs.ReadOptions{})
//	if err != nil {
//		log.Fatal(err)
//	}
//	fmt.Print(res.Content)
//	if _, err := ws.Edit(ctx, "hello.txt", "world", "llmfs", false); err != nil {
//		log.Fatal(err)
//	}
//	changes, _ := ws.History().List(ctx, llmfs.HistoryFilter{Path: "hello.txt", Limit: 1})
//	if _, err := ws.History().Undo(ctx, changes[0].ID); err != nil { // only if nobody changed it since
//		log.Fatal(err)
//	}
//	_, err = ws.Read(ctx, "../etc/passwd", llmfs.ReadOptions{})
//	fmt.Println(llmfs.CodeOf(err))
//
// That is the package's Example (example_test.go), which go test runs; its output shows
// each step. The reference for every face of llmfs is in the docs/ directory of the
// repository.
//
// A workspace sits on a [store.Store]: a host directory (package store/osdir, opened
// through [os.Root] so nothing escapes; package host opens one as above), memory
// (store/mem), or a database (store/sql). This package imports none of them, nor any
// database driver: a program links only the stores it imports.
// The faces of llmfs (tool definitions for models in package tools, the MCP server, the ACP
// methods, the CLI) all call the Workspace API and nothing below it.
package llmfs

import (
	"cmp"
	"fmt"
	"path"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// Limits bound what one operation hands back, so a read never floods a model.
// A zero field takes its default.
type Limits struct {
	// MaxReadLines caps the lines a read returns when the caller gives no limit. Default 2000.
	MaxReadLines int
	// MaxReadBytes caps the bytes of content a read returns. Default 256 KiB.
	MaxReadBytes int
	// MaxLineLength cuts longer lines in reads, in characters. Default 2000; negative: never cut.
	MaxLineLength int
	// MaxEditBytes is the largest file Edit loads. Default 64 MiB.
	MaxEditBytes int64
}

// Default limits.
const (
	DefaultMaxReadLines  = 2000
	DefaultMaxReadBytes  = 256 << 10
	DefaultMaxLineLength = 2000
	DefaultMaxEditBytes  = 64 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxReadLines <= 0 {
		l.MaxReadLines = DefaultMaxReadLines
	}
	if l.MaxReadBytes <= 0 {
		l.MaxReadBytes = DefaultMaxReadBytes
	}
	if l.MaxLineLength == 0 {
		l.MaxLineLength = DefaultMaxLineLength
	}
	if l.MaxEditBytes <= 0 {
		l.MaxEditBytes = DefaultMaxEditBytes
	}
	return l
}

// Options configure a workspace. The zero value (or nil) gives a sandboxed workspace on the
// current directory.
type Options struct {
	// Root is the workspace root. For a host workspace (package host) it is a directory, made
	// absolute and canonicalized at open; empty means the current directory. Absolute
	// paths may spell it either way: canonical, or as given (through a symbolic link). For a store
	// given to [New] it is only the name shown in absolute paths; empty means "/".
	Root string
	// Relaxed turns off the containment check: absolute paths and paths with ".." may leave
	// the root. Relative paths still join the root.
	Relaxed bool
	// Limits bound reads and edits.
	Limits Limits
	// Mode is the work mode; empty means [Full].
	Mode Mode
	// Deny lists globs of paths, relative to the root, that the workspace hides from
	// listings and searches and refuses with [CodePermissionDenied] everywhere else; they
	// are added to [DefaultDeny]. See [Paths.Denied].
	Deny []string
	// NoDefaultDeny drops [DefaultDeny], leaving only Deny.
	NoDefaultDeny bool
	// Quota bounds the size and number of files; the zero value sets no bound.
	Quota Quota
	// RequireRead makes edits and overwrites of an existing file fail with
	// [CodeFileNotRead] unless this workspace read the file first, and with
	// [CodeFileChanged] if the file changed since. See [NewSession].
	RequireRead bool
	// Actor names who makes this workspace's changes in the journal (see
	// [Actor]); empty means [ActorAPI].
	Actor string
	// NoJournal turns journaling off even when the store keeps a journal.
	NoJournal bool
	// Retention bounds the history kept; the zero value means [DefaultRetention], and a
	// negative field no bound. History never counts against the quota.
	Retention store.Retention
	// UndoMaxFileBytes is the largest file whose content the journal keeps, before and
	// after each change, so that the change can be undone; a change to a larger file is
	// recorded by hash and size alone and cannot be undone. 0 means
	// [DefaultUndoMaxFileBytes]. The journal holds such content in memory while it
	// records it.
	UndoMaxFileBytes int64

	// Host describes how the store maps onto the host's file system. Package host sets it
	// for a store over a host directory; leave it zero for any other store.
	Host HostLayout
}

// HostLayout describes a workspace over a host directory (see [Options.Host]). The zero
// value means no host: the store's root is the workspace root and paths follow only the
// slash-separated rules every store shares.
type HostLayout struct {
	// Alias is another absolute, slash-separated spelling of Root, through a symbolic link
	// (for the current directory, the $PWD the shell went by): paths spelled through it are
	// inside the root too. Empty means none.
	Alias string
	// Base is the store name of Root when the store is rooted above it, as a relaxed host
	// workspace's store is the whole host ("/"); empty means ".", the store's root.
	Base string
	// Windows applies the Windows path rules too (reserved device names, trailing dots
	// and spaces, alternate data streams), for a store on a Windows host.
	Windows bool
}

// Workspace is a file system for an agent: a store, a root, and the rules for paths.
// It is safe for concurrent use.
type Workspace struct {
	store   store.Store
	root    string // absolute, slash-separated; what paths are shown relative to
	alias   string // the root as opened, when a symbolic link leads to it; "" otherwise
	base    string // the store name of root: "." unless the store is rooted above it
	relaxed bool
	limits  Limits
	mode    Mode
	tracker *readTracker // nil unless reads are tracked
	virtual bool         // paths are virtual: "/" is the root, ".." refused (see Virtual)
	windows bool         // paths follow the Windows rules too (path_windows_rules.go)
	deny    *denyRules   // nil: nothing denied
	// reserved are the store names llmfs keeps for itself, case-folded (reserved.go).
	reserved []string
	quota    *quotaState // nil: no quota; shared by sessions
	bad      error       // invalid options: every operation fails with it

	actor     string          // who makes the changes, for the journal (journal.go)
	jr        store.Journaler // nil: changes are not journaled
	inJournal bool            // a view inside a change set: do not start another
	keep      store.Retention // Options.Retention
	undoMax   int64           // Options.UndoMaxFileBytes, default filled in
}

// New returns a workspace over s. Store names map to absolute paths under opts.Root
// ("/" by default): the store's "a/b" is the workspace's "/a/b".
func New(s store.Store, opts *Options) *Workspace {
	if opts == nil {
		opts = &Options{}
	}
	var tracker *readTracker
	if opts.RequireRead {
		tracker = newReadTracker()
	}
	root := opts.Root
	if root == "" {
		root = "/"
	}
	w := &Workspace{
		store:   s,
		root:    path.Clean("/" + strings.TrimPrefix(root, "/")),
		base:    ".",
		relaxed: opts.Relaxed,
		limits:  opts.Limits.withDefaults(),
		mode:    opts.Mode,
		tracker: tracker,
		quota:   newQuotaState(opts.Quota),
		actor:   opts.Actor,
		keep:    opts.Retention,
		undoMax: cmp.Or(opts.UndoMaxFileBytes, DefaultUndoMaxFileBytes),
	}
	if j, ok := s.(store.Journaler); ok && !opts.NoJournal {
		w.jr = j
	}
	w.setHost(opts.Host)
	w.bad = w.setPolicy(opts)
	return w
}

// setHost applies the host layout h (see [HostLayout]).
func (w *Workspace) setHost(h HostLayout) {
	w.windows = h.Windows
	if h.Alias != "" {
		if alias := path.Clean(h.Alias); alias != w.root {
			w.alias = alias
		}
	}
	if h.Base != "" {
		w.base = path.Clean(h.Base)
	}
}

// setPolicy compiles the deny rules and checks the options that New cannot refuse: a
// workspace with invalid ones fails every operation with the reason, rather than run
// with rules other than those asked for.
func (w *Workspace) setPolicy(opts *Options) error {
	if !opts.Mode.Valid() {
		return &Error{Code: CodeInvalidArgument, Msg: fmt.Sprintf("invalid work mode %q: want read-only, read-write or full", opts.Mode)}
	}
	if err := opts.Quota.validate(); err != nil {
		return err
	}
	if opts.UndoMaxFileBytes < 0 {
		return &Error{Code: CodeInvalidArgument, Msg: fmt.Sprintf("invalid UndoMaxFileBytes %d: want 0 (the default, %d) or a positive size in bytes", opts.UndoMaxFileBytes, DefaultUndoMaxFileBytes)}
	}
	d, err := newDenyRules(opts)
	if err != nil {
		return err
	}
	w.deny = d
	return w.setReserved()
}

// Err returns the error that makes every operation of w fail, if its options were invalid.
func (w *Workspace) Err() error { return w.bad }

// Root returns the workspace root as an absolute path.
func (w *Workspace) Root() string { return w.root }

// Store returns the store under the workspace.
func (w *Workspace) Store() store.Store { return w.store }

// workMode returns the work mode, [Full] when none was set.
func (w *Workspace) workMode() Mode {
	if w.mode == "" {
		return Full
	}
	return w.mode
}

// tracksReads reports whether edits and overwrites need a read first in this session.
func (w *Workspace) tracksReads() bool { return w.tracker != nil }
