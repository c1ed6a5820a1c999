//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Virtual workspaces: --store DSN --workspace ID open a workspace kept in a database
// (package store/sql) instead of a host directory.

// checkStore refuses the flag combinations that make no sense with --store.
func (f *wsFlags) checkStore() error {
	switch {
	case f.blobs != "" && f.storeDSN == "":
		return usagef("--blobs needs --store DSN: it holds the content of a database's workspaces")
	case f.storeDSN == "" && f.workspace == "":
		return nil
	case f.storeDSN == "":
		return usagef("--workspace needs --store DSN")
	case f.workspace == "":
		return usagef("--store needs --workspace ID (list them with 'llmfs ws list --store DSN')")
	case f.root != "" || f.set("root"):
		return usagef("--root and --store exclude each other: a workspace in a store has its own root, /")
	case f.relaxed:
		return usagef("--relaxed has no meaning with --store: nothing lies outside a virtual workspace")
	}
	return nil
}

// openStore opens the workspace --workspace of the database --store. The quota flags (or
// the --config file's quotas) set the workspace's own quota, kept in the database and
// enforced inside each write's transaction, so it binds every process that shares the
// workspace; the core does not count usage again on top of it.
func (f *wsFlags) openStore(opts *llmfs.Options) (*llmfs.Workspace, error) {
	ctx := context.Background()
	use := useDefault
	if f.scan {
		use = useScan
	}
	s, err := openWorkspaceStoreAs(withBlobs(ctx, f.blobs), f.storeDSN, f.workspace, use)
	if err != nil {
		return nil, err
	}
	*f.closers = append(*f.closers, s.Close)
	if err := f.applyQuota(ctx, s, opts.Quota); err != nil {
		return nil, err
	}
	o := *opts
	o.Quota = llmfs.Quota{}
	ws := llmfs.New(s, &o)
	if err := ws.Err(); err != nil {
		return nil, err
	}
	return ws, nil
}

// applyQuota sets the bounds given by a flag or the configuration file on the store's
// quota, keeping the others as they are.
func (f *wsFlags) applyQuota(ctx context.Context, s *sqlstore.Store, q llmfs.Quota) error {
	cur, _, err := s.Quota(ctx)
	if err != nil {
		return fmt.Errorf("reading the quota of workspace %q: %w", f.workspace, err)
	}
	next := cur
	if f.set("quota-bytes") || f.cfg.QuotaBytes != nil {
		next.MaxBytes = q.MaxBytes
	}
	if f.set("max-file-bytes") || f.cfg.MaxFileBytes != nil {
		next.MaxFileBytes = q.MaxFileBytes
	}
	if f.set("max-files") || f.cfg.MaxFiles != nil {
		next.MaxFiles = q.MaxFiles
	}
	if next == cur {
		return nil
	}
	if err := s.SetQuota(ctx, next); err != nil {
		return fmt.Errorf("setting the quota of workspace %q: %w", f.workspace, err)
	}
	return nil
}

// openWorkspaceStore opens workspace id of the database dsn names. A missing workspace, or
// a missing SQLite file, is an error that says how to create one: opening never creates,
// so a typo in an id or a path cannot quietly start an empty workspace.
func openWorkspaceStore(ctx context.Context, dsn, id string) (*sqlstore.Store, error) {
	return openWorkspaceStoreAs(ctx, dsn, id, useDefault)
}

// A storeUse says how a command uses its database, which tunes a SQLite DSN.
type storeUse int

const (
	useDefault storeUse = iota
	useBulk             // a bulk load (ws import): automatic checkpoints off, see bulkDSN
	useScan             // a one-shot reading much of the workspace (grep, find): see scanDSN
)

// openWorkspaceStoreAs is openWorkspaceStore for a use of the database.
func openWorkspaceStoreAs(ctx context.Context, dsn, id string, use storeUse) (*sqlstore.Store, error) {
	if err := checkWorkspaceID(id); err != nil {
		return nil, err // 'ws create' would refuse it: do not suggest it
	}
	howTo := fmt.Sprintf("create it with 'llmfs ws create --store %s %s'", shellQuote(redactDSN(dsn)), shellQuote(id))
	if file, ok := sqliteFile(dsn); ok {
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database %s (so no workspace %q): %s", file, id, howTo)
		}
	}
	if err := checkDSN(dsn); err != nil {
		return nil, err
	}
	open := dsn
	switch use {
	case useBulk:
		open = bulkDSN(dsn)
	case useScan:
		open = scanDSN(dsn)
	}
	s, err := sqlstore.OpenDSN(ctx, open, id, nil)
	if err == nil {
		if err = attachBlobs(ctx, s.DB()); err != nil {
			s.Close()
			return nil, err
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no workspace %q in %s: %s", id, redactDSN(dsn), howTo)
	case errors.Is(err, fs.ErrInvalid):
		return nil, usagef("%v", err)
	case err != nil:
		return nil, fmt.Errorf("opening workspace %q in %s: %w", id, redactDSN(dsn), err)
	}
	return s, nil
}

// scanCacheKiB is the page cache, in KiB, of each SQLite connection of a search one-shot
// (scanDSN).
const scanCacheKiB = 256

// scanDSN returns a SQLite DSN whose connections keep a small page cache (PRAGMA
// cache_size), unless the DSN sets cache_size itself; other DSNs are returned as they are.
// A search reads each page once, mostly the overflow pages of file content: with SQLite's
// default cache of 2 MiB per connection, every page read went into a fresh cache slot that
// the allocator later gave back to the kernel (madvise), a tenth of a grep's CPU; at 256
// KiB the slots are reused. A grep of the Go tree's workspace took 0.82-0.93 s CPU at 74-81
// MiB peak RSS with the default cache and 0.52-0.59 s at 62-71 MiB with this one (load 16).
//
// The file is not read through a memory map (PRAGMA mmap_size) any more: that saved the
// pread per 4 KiB page, but every mapped page counted in the process's resident size, once
// per connection, 230 MiB for that grep where issue 40 allows 64.
func scanDSN(dsn string) string {
	if !strings.HasPrefix(dsn, "sqlite:") || strings.Contains(dsn, "cache_size") {
		return dsn
	}
	if _, ok := sqliteFile(dsn); !ok {
		return dsn // in memory: the cache is the database
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "_pragma=cache_size(-" + strconv.Itoa(scanCacheKiB) + ")"
}

// sqliteFile returns the file of a sqlite: DSN, unless it is an in-memory database.
func sqliteFile(dsn string) (string, bool) {
	p, ok := strings.CutPrefix(dsn, "sqlite:")
	if !ok {
		return "", false
	}
	p = strings.TrimPrefix(p, "//")
	p, _, _ = strings.Cut(p, "?")
	if p == "" || p == ":memory:" {
		return "", false
	}
	return p, true
}

// checkDSN refuses a DSN that names no database llmfs knows.
func checkDSN(dsn string) error {
	if !strings.HasPrefix(dsn, "sqlite:") && !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return usagef("--store %q: want sqlite:PATH or postgres://...", redactDSN(dsn))
	}
	return nil
}

// connect opens the database dsn names, creating a SQLite file if missing, and brings its
// schema up to date.
func connect(ctx context.Context, dsn string) (*sqlstore.DB, error) {
	if err := checkDSN(dsn); err != nil {
		return nil, err
	}
	db, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", redactDSN(dsn), err)
	}
	if err := attachBlobs(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// redactDSN hides the password of a postgres:// DSN, for messages.
func redactDSN(dsn string) string {
	if strings.HasPrefix(dsn, "sqlite:") {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
