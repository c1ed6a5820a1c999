package sqlstore

import (
	"context"
	"database/sql"
)

// maxPrepared bounds the statements a DB keeps prepared. The store's queries are a fixed
// set of constant strings, well below it; a query built at run time past the bound runs
// unprepared instead of growing the cache.
const maxPrepared = 256

// prepared returns q (already rebound) prepared on x.db, preparing it on first use. Reads
// ran every query text through the database's parser again: for a grep of a SQLite
// workspace, one Open per file, that was 45% of the CPU (issue 18.4). database/sql keeps the
// statement prepared on each connection it runs on, so the readers stay parallel.
func (x *DB) prepared(ctx context.Context, q string) (*sql.Stmt, bool) {
	if v, ok := x.stmts.Load(q); ok {
		return v.(*sql.Stmt), true
	}
	if x.nstmts.Load() >= maxPrepared {
		return nil, false
	}
	st, err := x.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, false // the plain query reports the error
	}
	if v, loaded := x.stmts.LoadOrStore(q, st); loaded {
		st.Close()
		return v.(*sql.Stmt), true
	}
	x.nstmts.Add(1)
	return st, true
}

// closeStatements closes the prepared statements; x.db outlives them.
func (x *DB) closeStatements() {
	x.stmts.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		x.stmts.Delete(k)
		return true
	})
	x.nstmts.Store(0)
}
