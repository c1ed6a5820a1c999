package sqlstore

import (
	"context"
	"fmt"
)

// CheckpointWAL copies what SQLite's write-ahead log holds into the database file, as far as
// no reader still needs the log, without waiting for readers or writers (a PASSIVE
// checkpoint). SQLite does this itself after a commit that leaves the log over 1,000 pages,
// in the committing call; a bulk load that opens its database with
// _pragma=wal_autocheckpoint(0) can call it from another goroutine instead, so the copy
// and its fsyncs overlap the next batch (`llmfs ws import`). On PostgreSQL it does nothing.
func (x *DB) CheckpointWAL(ctx context.Context) error {
	if x.d.name != SQLite {
		return nil
	}
	if _, err := x.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		return fmt.Errorf("sqlstore: checkpoint: %w", err)
	}
	return nil
}
