//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/merge3"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Merging forks: `llmfs ws fork SRC DST` marks the fork point in DST's history (checkpoint
// "fork:SRC"); `llmfs ws merge SRC DST` brings what DST changed since into SRC as changes
// pending review (SRC's --review layer), each file merged three-way: the fork point is the
// base, SRC as it is now (applied and pending changes included) ours, DST theirs. Regions
// both changed differently are conflicts, marked in the pending file as git merge-file
// marks them. A person reviews and applies them as any agent's changes; a second fork
// merged after the first's changes were applied merges against them.

// forkCheckpoint names DST's checkpoint at the point it was forked from src.
func forkCheckpoint(src string) string { return "fork:" + src }

// markFork records in dst's history where it was forked from src.
func markFork(ctx context.Context, db *sqlstore.DB, src, dst string) error {
	s, err := db.Workspace(ctx, dst, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	j := s.Journal()
	last, err := j.Last(ctx)
	if err != nil {
		return err
	}
	return j.SetCheckpoint(ctx, forkCheckpoint(src), last)
}

// forkChange is one file DST changed since the fork: the fork point's version and DST's.
type forkChange struct {
	path           string
	base, theirs   []byte
	baseAbs, thAbs bool
}

// forkChanges returns the files dst changed since its fork from src, by path.
func forkChanges(ctx context.Context, s *sqlstore.Store, src, dst string) ([]forkChange, error) {
	j := s.Journal()
	cp, err := j.Checkpoint(ctx, forkCheckpoint(src))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("workspace %s was not forked from %s with 'llmfs ws fork' (no checkpoint %s)", dst, src, forkCheckpoint(src))
	}
	if err != nil {
		return nil, err
	}
	cs, err := j.Changes(ctx, store.ChangeFilter{After: cp.ID, States: []store.State{store.Committed}})
	if err != nil {
		return nil, err
	}
	first := map[string]store.Version{} // each path's version at the fork: before its oldest change
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		if c.Actor == llmfs.ActorSystem {
			continue // llmfs's own files (AGENT.md), kept current in each workspace
		}
		if _, ok := first[c.Path]; !ok && c.Before.Kind != store.Dir && c.After.Kind != store.Dir {
			first[c.Path] = c.Before
		}
	}
	var out []forkChange
	for p, v := range first {
		fc := forkChange{path: p, baseAbs: v.Kind != store.File}
		if !fc.baseAbs {
			if fc.base, err = j.Blob(ctx, v.Hash); err != nil {
				return nil, fmt.Errorf("%s: the fork point's content is not in the history (too large to keep?): %w", p, err)
			}
		}
		fc.theirs, fc.thAbs, err = readVersion(ctx, s, p)
		if err != nil {
			return nil, err
		}
		if fc.baseAbs == fc.thAbs && bytes.Equal(fc.base, fc.theirs) {
			continue // changed and changed back
		}
		out = append(out, fc)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].path < out[k].path })
	return out, nil
}

// readVersion reads the file name of s, and whether it is absent.
func readVersion(ctx context.Context, s store.Store, name string) ([]byte, bool, error) {
	f, err := s.Open(ctx, name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if errors.Is(err, store.ErrIsDir) {
		return nil, true, nil
	}
	return b, false, err
}

// wsMerge is `llmfs ws merge SRC DST --store DSN`.
func wsMerge(ctx context.Context, e *env, dsn, src, dst string) error {
	db, err := existingDBFor(ctx, dsn, src, dst)
	if err != nil {
		return err
	}
	defer db.Close()
	ds, err := db.Workspace(ctx, dst, nil)
	if err != nil {
		return fmt.Errorf("workspace %s: %w", dst, err)
	}
	defer ds.Close()
	changes, err := forkChanges(ctx, ds, src, dst)
	if err != nil {
		return err
	}
	// SRC's review layer, as 'llmfs review --store DSN --workspace SRC' opens it.
	e.ws.register(flag.NewFlagSet("merge", flag.ContinueOnError)) // the workspace flags' defaults
	e.ws.storeDSN, e.ws.workspace = dsn, src
	_, ov, err := e.openReview()
	if err != nil {
		return err
	}
	conflicts := 0
	for _, c := range changes {
		ours, oursAbs, err := readVersion(ctx, ov, c.path)
		if err != nil {
			return err
		}
		r := merge3.MergeFile(
			merge3.Version{Path: c.path, Data: c.base, Absent: c.baseAbs},
			merge3.Version{Path: c.path, Data: ours, Absent: oursAbs},
			merge3.Version{Path: c.path, Data: c.theirs, Absent: c.thAbs},
			merge3.Options{Ours: src, Base: "fork point", Theirs: dst})
		if r.Absent == oursAbs && (r.Absent || bytes.Equal(r.Data, ours)) && r.Clean() {
			continue // SRC has it already
		}
		if err := pend(ctx, ov, c.path, r); err != nil {
			return fmt.Errorf("%s: %w", c.path, err)
		}
		if err := ov.SetMeta(ctx, originKey(c.path), originValue("fork "+dst, r.Data, r.Absent)); err != nil {
			return err
		}
		if r.Clean() {
			fmt.Fprintf(e.stdout, "merged %s\n", c.path)
			continue
		}
		conflicts++
		fmt.Fprintf(e.stdout, "conflict %s (%s)\n", c.path, r.Why)
	}
	if conflicts > 0 {
		fmt.Fprintf(e.stderr, "llmfs ws merge: %d conflict(s) marked in the pending files; see 'llmfs review diff --store %s --workspace %s'\n", conflicts, shellQuote(dsn), src)
		return errReported
	}
	return nil
}

// pend makes r the pending version of name in the review layer s.
func pend(ctx context.Context, s store.Store, name string, r merge3.FileResult) error {
	if r.Absent {
		err := s.Remove(ctx, name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var dirs []string
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		if err := s.Mkdir(ctx, d); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	_, err := s.WriteFile(ctx, name, bytes.NewReader(r.Data), store.WriteOptions{})
	return err
}

// originKey is the review layer's metadata key that says where the pending change of name
// came from, when not from the agent working under --review.
func originKey(name string) string { return "origin:" + name }

// originValue is the metadata of a pending change's origin: who made it and the pending
// version it made, so that the origin is not claimed for a later change to the same file.
func originValue(who string, data []byte, absent bool) string {
	if absent {
		return who + "\x00"
	}
	return who + "\x00" + store.Hash(data)
}

// origin returns where the pending change of name came from: the origin recorded for the
// version pending now, or "agent".
func origin(ctx context.Context, s store.Store, name string) string {
	m, ok := s.(store.Metadata)
	if !ok {
		return "agent"
	}
	v, err := m.GetMeta(ctx, originKey(name))
	if err != nil || v == "" {
		return "agent"
	}
	who, h, _ := strings.Cut(v, "\x00")
	data, absent, err := readVersion(ctx, s, name)
	if err != nil || originValue(who, data, absent) != who+"\x00"+h {
		return "agent"
	}
	return who
}
