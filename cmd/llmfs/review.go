//go:build !js && !wasip1

package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Review: with --review, a workspace command works on a copy-on-write layer over the root
// (package store/overlay): the agent reads the real tree, and every change it makes stays
// pending in the layer until 'llmfs apply' writes it onto the root or 'llmfs discard'
// drops it. The layer is a SQLite file under the cache directory, one per root, or the
// workspace of --review-store DSN, so it outlives the process.

// reviewFlags are the review flags of every workspace command.
type reviewFlags struct {
	on    bool
	store string
	ov    *overlay.Overlay // the layer open() opened, for the review commands
}

func (f *wsFlags) registerReview(fs *flag.FlagSet) {
	fs.BoolVar(&f.review.on, "review", false, "keep every change pending for review ('llmfs review', 'llmfs apply', 'llmfs discard'); the files under the root are untouched")
	fs.StringVar(&f.review.store, "review-store", "", "keep the pending changes of --review in the database `DSN` (default: a SQLite file per root under $LLMFS_CACHE_DIR or ~/.cache/llmfs)")
}

// reviewKey names the base the pending layer belongs to: the root, or the workspace of
// --store.
func (f *wsFlags) reviewKey(ws *llmfs.Workspace) string {
	key := "root:" + ws.Root()
	if f.storeDSN != "" {
		key = "store:" + f.storeDSN + "\x00" + f.workspace
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:12])
}

// reviewDSN returns the database of the pending layer.
func (f *wsFlags) reviewDSN(key string) (string, error) {
	if f.review.store != "" {
		return f.review.store, nil
	}
	dir, err := osdir.CacheDir()
	if err != nil {
		return "", fmt.Errorf("no directory for the pending changes of --review (set --review-store): %w", err)
	}
	dir = filepath.Join(dir, "review")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("the directory of the pending changes: %w", err)
	}
	return "sqlite:" + filepath.Join(dir, key+".db") + "?_pragma=" + reviewMmap, nil
}

// reviewMmap has SQLite read the pending layer's file through a memory map rather than a
// read call per page: each review command is a new process whose page cache starts empty,
// and listing 1,000 pending changes read every page of the file that way (issue 40.4:
// 'llmfs review' of 1,000 changes 0.79x the CPU, median of 11 pairs, loaded). The size
// bounds the map, not memory: pages come from the system's file cache as they are read.
const reviewMmap = "mmap_size(268435456)"

// wrapReview puts ws over the pending layer when --review is on.
func (f *wsFlags) wrapReview(ws *llmfs.Workspace) (*llmfs.Workspace, error) {
	if !f.review.on && f.review.store == "" {
		return ws, nil
	}
	ctx := context.Background()
	key := f.reviewKey(ws)
	dsn, err := f.reviewDSN(key)
	if err != nil {
		return nil, err
	}
	upper, err := sqlstore.OpenDSN(ctx, dsn, "review-"+key, &sqlstore.Options{Create: true})
	if err != nil {
		return nil, fmt.Errorf("opening the pending changes of --review: %w", err)
	}
	*f.closers = append(*f.closers, upper.Close)
	ov, err := overlay.New(ctx, ws.Store(), upper)
	if err != nil {
		return nil, err
	}
	// Applying and discarding are journaled in the root's journal, actor "review": the
	// overlay records them there itself, as the base keeps a journal.
	f.review.ov = ov
	rws := ws.With(llmfs.OnStore(ov))
	if s, ok := ws.Store().(*sqlstore.Store); ok {
		// A store workspace's quota is the store's, which sees only applied changes: the
		// workspace enforces it over the layer too, base and pending together, so that an
		// agent under review cannot pass it (and apply then fail).
		q, _, err := s.Quota(ctx)
		if err != nil {
			return nil, err
		}
		rws = rws.With(llmfs.EnforceQuota(tighter(rws.Settings().Quota, llmfs.Quota{MaxBytes: q.MaxBytes, MaxFileBytes: q.MaxFileBytes, MaxFiles: q.MaxFiles})))
	}
	return rws, nil
}

// tighter returns the tighter bound of a and b in each field (0: none).
func tighter(a, b llmfs.Quota) llmfs.Quota {
	lower := func(x, y int64) int64 {
		if x == 0 || (y != 0 && y < x) {
			return y
		}
		return x
	}
	return llmfs.Quota{MaxBytes: lower(a.MaxBytes, b.MaxBytes), MaxFileBytes: lower(a.MaxFileBytes, b.MaxFileBytes), MaxFiles: lower(a.MaxFiles, b.MaxFiles)}
}

// openReview opens the workspace's pending layer for a review command.
func (e *env) openReview() (*llmfs.Workspace, *overlay.Overlay, error) {
	e.ws.review.on = true
	e.ws.noSysfiles = true // reviewing is not working in the workspace
	ws, err := e.ws.open()
	if err != nil {
		return nil, nil, err
	}
	return ws, e.ws.review.ov, nil
}

// intList is a repeatable integer flag.
type intList []int

func (l *intList) String() string { return fmt.Sprint([]int(*l)) }
func (l *intList) Set(s string) error {
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("want a hunk number from 1, got %q", f)
		}
		*l = append(*l, n)
	}
	return nil
}

var reviewCmd = &command{
	name:  "review",
	args:  "[diff [PATH...]] [--json] [workspace flags]",
	short: "list the changes pending under --review, or show their diff",
	long: `The changes an agent made under --review stay pending in a layer of their own, outside the
root. 'llmfs review' lists them, one per file: its kind (created, modified, deleted or moved),
the lines added and removed, and the path. 'llmfs review diff [PATH...]' prints their unified
diff against the files under the root; hunks are numbered in order from 1 within each file,
for 'llmfs apply --hunk N' and 'llmfs discard --hunk N'. Each change is the agent's against the
file as it was when the agent first changed it (its merge base), never a person's edits made
under the root since. 'llmfs review --json' gives each file's version, for
'llmfs apply --expect VERSION'.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		asJSON := fs.Bool("json", false, "print the changes as a JSON array of {path, kind, from, added, removed, hunks, version, origin}")
		return func(ctx context.Context, args []string) error {
			diff := len(args) > 0 && args[0] == "diff"
			if !diff && len(args) > 0 {
				return usagef("want no argument, or diff [PATH...]")
			}
			ws, _, err := e.openReview()
			if err != nil {
				return err
			}
			rv := ws.Review()
			if diff {
				d, _, err := rv.Diff(ctx, args[1:]...)
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(e.stdout, d)
				return err
			}
			cs, err := rv.List(ctx)
			if err != nil {
				return err
			}
			if *asJSON {
				type withOrigin struct {
					llmfs.PendingChange
					Origin string `json:"origin"` // "agent", or "fork ID" for 'llmfs ws merge'
				}
				out := []withOrigin{}
				for _, c := range cs {
					out = append(out, withOrigin{c, origin(ctx, ws.Store(), c.Path)})
				}
				b, err := json.Marshal(out)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(e.stdout, "%s\n", b)
				return err
			}
			// One write for the listing, not one per change (1,000 system calls for 1,000).
			w := bufio.NewWriterSize(e.stdout, 64<<10)
			for _, c := range cs {
				fmt.Fprintf(w, "%-8s +%d -%d\t%s", c.Kind, c.Added, c.Removed, c.Path)
				if c.From != "" {
					fmt.Fprintf(w, " (from %s)", c.From)
				}
				w.WriteByte('\n')
			}
			return w.Flush()
		}
	},
}

var applyCmd = &command{
	name:  "apply",
	args:  "[PATH...] [--hunk N...] [--expect VERSION] [workspace flags]",
	short: "write changes pending under --review onto the root",
	long: `Writes the pending changes at or below each PATH (all if none) onto the files under the root,
each file atomically. A file that changed under the root since the agent first read or wrote it
merges three-way: the agent's change lands beside the other edits; where both changed the same
lines it is a conflict: FILE_CHANGED, not applied, reported with both sides between markers (as
git merge-file writes them); the others apply, and the exit status is 1. --expect VERSION (from
'llmfs review --json') applies only if the change is still the one seen: otherwise FILE_CHANGED,
nothing applied. Each apply is journaled under the root, actor cli. --hunk N (repeatable) applies only those hunks of each text file, as
'llmfs review diff' numbers them. An apply cut short can be run again: it resumes.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return resolveSetup(fs, e, "apply")
	},
}

var discardCmd = &command{
	name:  "discard",
	args:  "[PATH...] [--hunk N...] [--expect VERSION] [workspace flags]",
	short: "drop changes pending under --review",
	long: `Drops the pending changes at or below each PATH (all if none): the root's files show through
again. --hunk N (repeatable) drops only those hunks of each text file.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return resolveSetup(fs, e, "discard")
	},
}

// resolveSetup is the body of apply and discard.
func resolveSetup(fs *flag.FlagSet, e *env, cmd string) func(context.Context, []string) error {
	e.ws.register(fs)
	var hunks intList
	var expects expectList
	fs.Var(&hunks, "hunk", "only hunk `N` of each file, counted from 1 (repeatable)")
	fs.Var(&expects, "expect", "refuse with FILE_CHANGED, nothing touched, unless the change is still at `VERSION` (from 'llmfs review --json'); PATH=VERSION names the file when several are given (repeatable)")
	return func(ctx context.Context, args []string) error {
		ws, _, err := e.openReview()
		if err != nil {
			return err
		}
		rv := ws.Review()
		expect, err := expects.byPath(args)
		if err != nil {
			return err
		}
		if len(args) > 0 {
			cs, err := rv.List(ctx)
			if err != nil {
				return err
			}
			for _, a := range args {
				n, err := ws.Paths().StoreName(a)
				if err != nil {
					return err
				}
				if !anyBelow(cs, n) {
					return fmt.Errorf("%s: no pending change", n)
				}
			}
		}
		req := llmfs.ReviewRequest{Paths: args, Hunks: hunks, Expect: expect}
		var done []llmfs.Resolved
		if cmd == "apply" {
			done, err = rv.Apply(ctx, req)
		} else {
			done, err = rv.Discard(ctx, req)
		}
		for _, r := range done {
			fmt.Fprintf(e.stdout, "%s %s\n", r.Action, r.Path)
		}
		if err == nil {
			return nil
		}
		if llmfs.CodeOf(err) != "" && !isJoined(err) {
			return err // refused as a whole: nothing was applied
		}
		for _, one := range unjoin(err) {
			var ce *overlay.ConflictError
			if errors.As(one, &ce) {
				// The CLI's convention: the code ends the first line.
				fmt.Fprintf(e.stderr, "llmfs %s: %s was %s on the base since the agent first read or wrote it; not applied (FILE_CHANGED)\n%s", cmd, ce.Path, ce.What, ce.Diff)
				continue
			}
			fmt.Fprintf(e.stderr, "llmfs: %v\n", one)
		}
		return errReported
	}
}

// expectList is the repeatable --expect flag: VERSION, or PATH=VERSION.
type expectList []string

func (l *expectList) String() string { return strings.Join(*l, ",") }
func (l *expectList) Set(s string) error {
	if s == "" {
		return fmt.Errorf("want a version")
	}
	*l = append(*l, s)
	return nil
}

// byPath returns the expected version of each path: a bare VERSION is the one PATH's.
func (l expectList) byPath(args []string) (map[string]string, error) {
	if len(l) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, x := range l {
		p, v, ok := strings.Cut(x, "=")
		if !ok {
			if len(args) != 1 {
				return nil, usagef("--expect VERSION names the version of one PATH; with %d, give PATH=VERSION", len(args))
			}
			p, v = args[0], x
		}
		out[p] = v
	}
	return out, nil
}

func isJoined(err error) bool {
	_, ok := err.(interface{ Unwrap() []error })
	return ok
}

// errReported ends a command whose failures it printed itself: exit status 1 and nothing
// more, as for a search without a match.
var errReported = fmt.Errorf("reported: %w", errNoMatch)

// anyBelow reports whether a change is at or below name.
func anyBelow(cs []llmfs.PendingChange, name string) bool {
	for _, c := range cs {
		if name == "." || c.Path == name || strings.HasPrefix(c.Path, name+"/") || c.From == name {
			return true
		}
	}
	return false
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
