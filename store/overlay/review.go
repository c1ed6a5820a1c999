package overlay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Kind says what a pending change does to a base path.
type Kind = store.PendingKind

// The kinds of pending change.
const (
	Created  Kind = "created"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
	Moved    Kind = "moved"
)

// DiffContext is the number of context lines of review diffs; hunk numbers count the hunks
// of diffs with this context.
const DiffContext = 3

// A Change is one pending change, per file: directories follow their files.
type Change = store.PendingChange

// A ConflictError reports a pending change whose base file changed since the agent first
// read or wrote it: the change is not applied. It wraps [store.ErrChanged]; llmfs reports
// it as FILE_CHANGED.
type ConflictError struct {
	Path string // the base path that changed
	What string // what changed: "modified", "deleted" or "created" behind the agent
	Diff string // both sides where they overlap, marked as git merge-file does; else the base now against the pending version
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("FILE_CHANGED: %s was %s on the base since the agent first read or wrote it; not applied", e.Path, e.What)
}

func (e *ConflictError) Unwrap() error { return store.ErrChanged }

// A Resolution is what [Overlay.Apply] or [Overlay.Discard] did with one change.
type Resolution = store.Resolved

// OnResolve, when set, is called after each change is applied or discarded, with the lock
// held, to tell a caller as it goes (the journal needs no hook: see the package's
// journaling notes). An error stops the operation.
type OnResolve func(ctx context.Context, r Resolution) error

// SetOnResolve sets the hook called after each change is applied or discarded.
func (o *Overlay) SetOnResolve(fn OnResolve) {
	o.mu.Lock()
	o.onResolve = fn
	o.mu.Unlock()
}

// pending is a Change with the two versions it goes between.
type pending struct {
	Change
	old, new []byte
	hasBase  bool   // old is the merge base the agent started from (not the base as it is)
	large    *large // a large file: old and new are not read (see large.go)
}

// Pending lists the pending changes, sorted by path. It reads the state again first: the
// agent may be working in another process on the same upper store.
func (o *Overlay) Pending(ctx context.Context) ([]Change, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	ps, err := o.pending(ctx, true)
	if err != nil {
		return nil, err
	}
	out := make([]Change, len(ps))
	for i, p := range ps {
		out[i] = p.Change
	}
	return out, nil
}

// Diff returns the unified diff of the pending changes below or at paths (all if none),
// reading the state again first, as [Overlay.Pending] does.
func (o *Overlay) Diff(ctx context.Context, paths ...string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return "", err
	}
	ps, err := o.pending(ctx, true)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, p := range ps {
		if match(p.Path, paths) {
			sb.WriteString(diffOf(p))
		}
	}
	return sb.String(), nil
}

func diffOf(p pending) string {
	from := p.Path
	if p.Kind == Moved {
		from = p.From
	}
	// A patch git apply takes: git's headers, /dev/null for a created or deleted file's
	// missing side.
	var sb strings.Builder
	fmt.Fprintf(&sb, "diff --git a/%s b/%s\n", from, p.Path)
	oldName, newName := "a/"+from, "b/"+p.Path
	switch p.Kind {
	case Created:
		sb.WriteString("new file mode 100644\n")
		oldName = "/dev/null"
	case Deleted:
		sb.WriteString("deleted file mode 100644\n")
		newName = "/dev/null"
	case Moved:
		fmt.Fprintf(&sb, "rename from %s\nrename to %s\n", p.From, p.Path)
	}
	if p.Binary {
		fmt.Fprintf(&sb, "Binary files %s and %s differ\n", oldName, newName)
		return sb.String()
	}
	d := textdiff.Renamed(from, p.Path, string(p.old), string(p.new), DiffContext, 0)
	if bytes.Equal(p.old, p.new) {
		return sb.String() // a rename alone, or an empty file made or removed
	}
	_, body, _ := strings.Cut(d, "\n")
	_, body, _ = strings.Cut(body, "\n")
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n%s", oldName, newName, body)
	return sb.String()
}

// match reports whether name is one of paths or below one; no paths match everything.
func match(name string, paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/")
		if p == "." || p == "" || name == p || strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// pending computes the pending changes. Callers hold o.mu.
func (o *Overlay) pending(ctx context.Context, counts bool) ([]pending, error) {
	done, err := o.startScan(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	upperFiles := map[string]bool{}
	var out []pending
	if err := o.pendingUpper(ctx, ".", upperFiles, &out); err != nil {
		return nil, err
	}
	if err := o.pendingDeleted(ctx, upperFiles, &out); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if counts {
		for i := range out {
			if out[i].large == nil {
				countLines(&out[i])
			}
			out[i].Version = o.version(out[i])
		}
	}
	return out, nil
}

// pendingUpper adds to out the changes of the files the upper layer holds at or below dir,
// and notes each file in upperFiles.
func (o *Overlay) pendingUpper(ctx context.Context, dir string, upperFiles map[string]bool, out *[]pending) error {
	es, err := o.readUpperDir(ctx, up(dir))
	if err != nil {
		return err
	}
	for _, e := range es {
		name := join(dir, e.Name())
		if e.IsDir() {
			if err := o.pendingUpper(ctx, name, upperFiles, out); err != nil {
				return err
			}
			continue
		}
		upperFiles[name] = true
		p, ok, err := o.pendingEntry(ctx, e, name)
		if err != nil {
			return err
		}
		if ok {
			*out = append(*out, p)
		}
	}
	return nil
}

// pendingEntry is the change of the upper layer's file name, listed as e, if it is one.
// The base side is stated once, for both the large check and baseHolds.
func (o *Overlay) pendingEntry(ctx context.Context, e fs.DirEntry, name string) (pending, bool, error) {
	side := name
	if from, ok := o.st.From[name]; ok {
		side = from
	}
	bfi, berr := o.baseStat(ctx, side)
	if isLargeEntry(e, bfi, berr) {
		return o.pendingLarge(ctx, name)
	}
	nb, err := o.upperContent(ctx, e, name)
	if err != nil {
		return pending{}, false, err
	}
	return o.pendingFile(ctx, name, nb, bfi, berr)
}

// pendingFile is the change of the upper layer's file name, holding nb, if it is one; bfi
// and berr are the base's Stat of name (of the source, for a moved file).
func (o *Overlay) pendingFile(ctx context.Context, name string, nb []byte, bfi fs.FileInfo, berr error) (pending, bool, error) {
	p := pending{Change: Change{Path: name}, new: nb}
	mb, hasBase, err := o.mergeBase(ctx, name)
	if err != nil {
		return pending{}, false, err
	}
	if from, ok := o.st.From[name]; ok {
		p.Kind, p.From = Moved, from
		if p.old, p.hasBase, err = o.mergeBase(ctx, from); err != nil {
			return pending{}, false, err
		}
		if !p.hasBase {
			if p.old, err = readBase(ctx, o.base, from); err != nil {
				return pending{}, false, err
			}
		}
		return p, true, nil
	}
	if hasBase {
		// The agent's change against what it started from, whatever the base holds now: a
		// person's later edit is not the agent's.
		if bytes.Equal(mb, nb) {
			return pending{}, false, nil
		}
		// The base holding the agent's version already (an apply a crash cut short, or a
		// person's same edit) leaves nothing to review.
		same, err := o.baseHolds(ctx, name, nb, bfi, berr)
		if err != nil {
			return pending{}, false, err // unreadable: the change cannot be merged or checked
		}
		if same {
			return pending{}, false, nil
		}
		p.Kind, p.old, p.hasBase = Modified, mb, true
		return p, true, nil
	}
	if seen, ok := o.st.Seen[name]; ok && seen == "" {
		p.Kind = Created // by the agent, whatever the base holds now
		return p, true, nil
	}
	ob, err := readAll(ctx, o.base, name)
	switch {
	case err == nil && bytes.Equal(ob, nb):
		return pending{}, false, nil
	case err == nil:
		p.Kind, p.old = Modified, ob
	case absent(err):
		p.Kind = Created
	default:
		return pending{}, false, err // unreadable is not absent: the change would pass for a creation
	}
	return p, true, nil
}

// pendingDeleted adds to out the deletions: the base files under the whiteouts that the
// upper layer holds no file for and no move came from.
func (o *Overlay) pendingDeleted(ctx context.Context, upperFiles map[string]bool, out *[]pending) error {
	sources := map[string]bool{}
	for _, from := range o.st.From {
		sources[from] = true
	}
	deleted := map[string]bool{}
	var walkBase func(name string) error
	walkBase = func(name string) error {
		fi, err := store.Lstat(ctx, o.base, name)
		if absent(err) {
			return nil // gone from the base already
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			es, err := o.base.ReadDir(ctx, name)
			if err != nil {
				return rename(err, name)
			}
			for _, e := range es {
				if err := walkBase(join(name, e.Name())); err != nil {
					return err
				}
			}
			return nil
		}
		if upperFiles[name] || sources[name] || deleted[name] {
			return nil
		}
		deleted[name] = true
		ob, hasBase, err := o.mergeBase(ctx, name)
		if err != nil {
			return err
		}
		if !hasBase {
			if ob, err = readBase(ctx, o.base, name); err != nil {
				return err
			}
		}
		*out = append(*out, pending{Change: Change{Path: name, Kind: Deleted}, old: ob, hasBase: hasBase})
		return nil
	}
	for w := range o.st.Whiteouts {
		if err := walkBase(w); err != nil {
			return err
		}
	}
	return nil
}

// countLines sets p's counts of added and removed lines and hunks.
func countLines(p *pending) {
	if bytes.IndexByte(p.old, 0) >= 0 || bytes.IndexByte(p.new, 0) >= 0 {
		p.Binary = true
		p.Hunks = 1
		return
	}
	p.Added, p.Removed, p.Hunks = textdiff.HunkCounts(string(p.old), string(p.new), DiffContext)
}

func readAll(ctx context.Context, s store.Store, name string) ([]byte, error) {
	f, err := s.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// readBase reads the base file name; one that does not exist (any more) reads as empty.
func readBase(ctx context.Context, s store.Store, name string) ([]byte, error) {
	b, err := readAll(ctx, s, name)
	if absent(err) {
		return nil, nil
	}
	return b, err
}

// pick returns the version of a change with the chosen hunks (1-based) taken from the new
// version and the others from the old, and whether that is the whole change.
func pick(p pending, hunks []int) ([]byte, bool, error) {
	if len(hunks) == 0 {
		return p.new, true, nil
	}
	if p.Kind != Modified && p.Kind != Created || p.Binary {
		return nil, false, fmt.Errorf("%s: %s %w: only text changes apply or discard by hunk", p.Path, p.Kind, fs.ErrInvalid)
	}
	n := len(textdiff.Hunks(string(p.old), string(p.new), DiffContext))
	all := true
	for i := 1; i <= n; i++ {
		all = all && slices.Contains(hunks, i)
	}
	for _, h := range hunks {
		if h < 1 || h > n {
			return nil, false, fmt.Errorf("%s has %d hunks, no hunk %d: %w", p.Path, n, h, fs.ErrInvalid)
		}
	}
	if all {
		return p.new, true, nil
	}
	out := textdiff.Pick(string(p.old), string(p.new), DiffContext, func(i int) bool { return slices.Contains(hunks, i+1) })
	return []byte(out), false, nil
}
