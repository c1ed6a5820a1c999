//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// wsFork is `llmfs ws fork SRC DST --store DSN`.
func wsFork(ctx context.Context, e *env, dsn, src, dst string) error {
	db, err := existingDBFor(ctx, dsn, src, dst)
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.Fork(ctx, src, dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no workspace %q in %s (see 'llmfs ws list')", src, redactDSN(dsn))
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("workspace %q already exists in %s", dst, redactDSN(dsn))
	case errors.Is(err, fs.ErrInvalid):
		return usagef("%v", err)
	case err != nil:
		return err
	}
	if err := markFork(ctx, db, src, dst); err != nil {
		return fmt.Errorf("forked %s into %s, but marking the fork point for 'llmfs ws merge' failed: %w", src, dst, err)
	}
	_, err = fmt.Fprintf(e.stdout, "forked workspace %s into %s\n", src, dst)
	return err
}

// existingDBFor checks the workspace ids, then opens the existing database at dsn.
func existingDBFor(ctx context.Context, dsn string, ids ...string) (*sqlstore.DB, error) {
	for _, id := range ids {
		if err := checkWorkspaceID(id); err != nil {
			return nil, err
		}
	}
	return existingDB(ctx, dsn)
}
