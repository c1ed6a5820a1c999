package sqlstore

import (
	"context"
	"sync"
)

// The content a batch keeps in the database (every file under a chunk, with --blobs; all of
// it without) is compressed by PostgreSQL as it stores it (TOAST), by default with pglz:
// most of the server's CPU in an import of the Go tree went there (2.2 s of its 3.8 s
// for the INSERTs of chunks, loaded). A batch has PostgreSQL compress with lz4 instead,
// several times faster to compress and to read back, where the server has it (PostgreSQL
// 14 and later, built with lz4, as Debian's and the official images are): a setting of
// the batch's transaction alone, so the schema stays as it is and a database without lz4
// (or a PostgreSQL-compatible one without the setting) is written as before. Values
// compressed either way read back alike.

// lz4Probe remembers whether the server offers lz4, asked once per DB.
type lz4Probe struct {
	once sync.Once
	ok   bool
}

// serverLZ4 says whether the PostgreSQL server offers lz4 for TOAST compression. It takes
// a connection of the pool: call it outside a transaction.
func (x *DB) serverLZ4(ctx context.Context) bool {
	x.lz4.once.Do(func() {
		err := x.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_settings
			WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))`).Scan(&x.lz4.ok)
		if err != nil {
			x.lz4.ok = false
		}
	})
	return x.lz4.ok
}

// compressLZ4 has PostgreSQL compress what the batch's transaction stores with lz4, until
// it ends.
func (b *Batch) compressLZ4() error {
	_, err := b.t.q.ExecContext(b.ctx, `SET LOCAL default_toast_compression = lz4`)
	return err
}
