package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A dialect holds what differs between SQLite and PostgreSQL. Queries are written once with
// "?" placeholders and rebound to "$n" for PostgreSQL.
type dialect struct {
	name      Dialect
	dollar    bool   // placeholders are $1, $2, ...
	forUpdate string // row lock suffix for a row about to change, "" where writers are serialized
	forShare  string // row lock suffix for a row that must not change until commit
	// concat is the expression for prefix ($1) followed by column from byte $2 (1-based).
	concat func(prefix, col, from string) string
	// nextBlob is a query returning a content id never returned before, "" where content
	// ids are random (randomBlob).
	nextBlob string
	cache    sync.Map // query -> rebound query
}

var (
	sqliteDialect = &dialect{
		name: SQLite,
		concat: func(prefix, col, from string) string {
			// || yields text in SQLite; cast back so the column keeps comparing as bytes.
			return "CAST(" + prefix + " || substr(" + col + ", " + from + ") AS BLOB)"
		},
		// Writers are serialized, so a counter row costs no contention.
		nextBlob: `UPDATE llmfs_counters SET value = value + 1 WHERE name = 'blob' RETURNING value`,
	}
	postgresDialect = &dialect{
		name:      Postgres,
		dollar:    true,
		forUpdate: " FOR UPDATE",
		forShare:  " FOR SHARE",
		concat: func(prefix, col, from string) string {
			return "(CAST(" + prefix + " AS BYTEA) || substr(" + col + ", CAST(" + from + " AS INTEGER)))"
		},
	}
)

func dialectOf(d Dialect) (*dialect, error) {
	switch d {
	case SQLite:
		return sqliteDialect, nil
	case Postgres, "postgresql", "pgx":
		return postgresDialect, nil
	}
	return nil, fmt.Errorf("sqlstore: unknown dialect %q (want %q or %q)", d, SQLite, Postgres)
}

// rebind rewrites "?" placeholders for the dialect. Queries never hold "?" in literals.
func (d *dialect) rebind(q string) string {
	if !d.dollar {
		return q
	}
	if v, ok := d.cache.Load(q); ok {
		return v.(string)
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	d.cache.Store(q, out)
	return out
}

// querier is what *sql.Tx and *sql.Conn have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// A txn is one transaction of a store operation.
type txn struct {
	ctx context.Context
	q   querier
	d   *dialect
	// x, when set, has queries run x's prepared statements: on x.db itself outside a
	// transaction, or, with tx set, in that transaction (database/sql keeps each statement
	// prepared on every connection it ran on, so a writer prepares a query once per
	// connection rather than once per run: on SQLite preparing costs about as much as
	// running a small statement).
	x  *DB
	tx *sql.Tx
	// detach has the statements run without ctx's cancellation on SQLite while ctx is
	// not done (see Store.read).
	detach bool
	// conn, for a writing transaction on PostgreSQL, is the connection it runs on: a
	// batch reaches the driver's COPY through it (see batchcopy.go).
	conn *sql.Conn
}

// runCtx returns the context a statement runs with: ctx without its cancellation for a
// read of SQLite whose ctx can be cancelled and is not yet (see Store.read), ctx
// otherwise (a done context fails the statement before it starts).
func (t *txn) runCtx() context.Context {
	if t.detach && t.d.name == SQLite && t.ctx.Done() != nil && t.ctx.Err() == nil {
		return context.WithoutCancel(t.ctx)
	}
	return t.ctx
}

// stmt returns the prepared statement to run q (already rebound) with, or nil to run it
// as text on t.q.
func (t *txn) stmt(q string) *sql.Stmt {
	if t.x == nil {
		return nil
	}
	st, ok := t.x.prepared(t.ctx, q)
	if !ok {
		return nil
	}
	if t.tx != nil {
		return t.tx.StmtContext(t.ctx, st)
	}
	return st
}

func (t *txn) exec(q string, args ...any) (sql.Result, error) {
	q = t.d.rebind(q)
	if st := t.stmt(q); st != nil {
		return st.ExecContext(t.runCtx(), args...)
	}
	return t.q.ExecContext(t.runCtx(), q, args...)
}

func (t *txn) query(q string, args ...any) (*sql.Rows, error) {
	q = t.d.rebind(q)
	if st := t.stmt(q); st != nil {
		return st.QueryContext(t.runCtx(), args...)
	}
	return t.q.QueryContext(t.runCtx(), q, args...)
}

func (t *txn) queryRow(q string, args ...any) *sql.Row {
	q = t.d.rebind(q)
	if st := t.stmt(q); st != nil {
		return st.QueryRowContext(t.runCtx(), args...)
	}
	return t.q.QueryRowContext(t.runCtx(), q, args...)
}

// busyTimeoutMS is how long a SQLite writer waits for another connection's write lock.
const busyTimeoutMS = 30000

// newPageSize is the page size of a SQLite database file this package creates. A page
// size is fixed when the file is first written and cannot change in WAL mode, so a file
// made before keeps its own; a DSN may choose another for a new file
// ("sqlite:PATH?_pragma=page_size(32768)"). Larger pages were measured for issue 18
// (BENCHMARKS.md): 32 KiB made a grep of the Go tree's workspace 2-7% cheaper and its
// import no faster, but each small write or edit cost about 55% more CPU (16 KiB: 25%,
// 8 KiB: 12%), every changed page going to the WAL whole; so SQLite's 4 KiB stays.
const newPageSize = 4096

// maxAttempts bounds the retries of a transaction that PostgreSQL aborted as a deadlock
// victim or a serialization failure.
const maxAttempts = 5

// write runs fn in one writing transaction and commits it if fn returns nil. When retry is
// set, fn must be safe to run again, and a transaction PostgreSQL aborts for a deadlock or a
// serialization failure is retried, after a backoff (see retry.go).
func (x *DB) write(ctx context.Context, retry bool, fn func(t *txn) error) error {
	for attempt := 1; ; attempt++ {
		err := x.write1(ctx, fn)
		if err == nil || !retry || attempt == maxAttempts || !retryable(err) {
			return err
		}
		if err := backoff(ctx, attempt+1); err != nil {
			return err
		}
	}
}

func (x *DB) write1(ctx context.Context, fn func(t *txn) error) error {
	if x.d.name == SQLite && !x.immediate {
		return x.writeSQLite(ctx, fn)
	}
	// PostgreSQL, or SQLite opened by Connect, whose DSN has database/sql begin every
	// transaction IMMEDIATE (see writeSQLite).
	var conn *sql.Conn
	if x.d.name == Postgres {
		c, err := x.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer c.Close()
		conn = c
	}
	var tx *sql.Tx
	var err error
	if conn != nil {
		tx, err = conn.BeginTx(ctx, nil)
	} else {
		tx, err = x.db.BeginTx(ctx, nil)
	}
	if err != nil {
		return err
	}
	t := &txn{ctx: ctx, q: tx, d: x.d, conn: conn}
	if x.immediate && !x.single {
		// SQLite's statements are prepared once per connection and reused: preparing one
		// costs about as much as running it (modernc.org/sqlite keeps no cache; pgx does).
		t.x, t.tx = x, tx
	}
	if err := fn(t); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// writeSQLite runs fn inside BEGIN IMMEDIATE on one connection: the write lock is taken at
// the start, so two writers never both read a row and then race to change it, whichever
// process they run in, and whatever transaction mode the caller's DSN chose. (A DB that
// [Connect] opened has every transaction begin IMMEDIATE and does not come here.)
func (x *DB) writeSQLite(ctx context.Context, fn func(t *txn) error) (err error) {
	conn, err := x.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.Itoa(busyTimeoutMS)); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	done := false
	defer func() {
		if done {
			return
		}
		// A context cancelled mid-transaction must not keep the rollback from running.
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			// The connection's state is unknown: have the pool drop it.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	if err := fn(&txn{ctx: ctx, q: conn, d: x.d}); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return err
	}
	done = true
	return nil
}

// retryable reports a PostgreSQL deadlock (40P01) or serialization failure (40001).
func retryable(err error) bool {
	s := sqlState(err)
	return s == "40P01" || s == "40001"
}

// sqlState returns the SQLSTATE code of a PostgreSQL error, or "".
func sqlState(err error) string {
	var e interface{ SQLState() string }
	if errors.As(err, &e) {
		return e.SQLState()
	}
	return ""
}

// isUniqueViolation reports an insert or update that collided with a unique key (23505):
// on PostgreSQL, another transaction created the same path first.
func isUniqueViolation(err error) bool { return sqlState(err) == "23505" }

func sortWorkspaces(ws []Workspace) {
	slices.SortFunc(ws, func(a, b Workspace) int { return strings.Compare(a.ID, b.ID) })
}
