//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// driverPackages are the packages that register each dialect's driver, by blank import;
// this package imports none, so a program links only the databases it uses.
var driverPackages = map[Dialect]string{
	SQLite:   "github.com/llmfs/llmfs/store/sql/sqlite",
	Postgres: "github.com/llmfs/llmfs/store/sql/postgres",
}

// Connect opens the database a DSN names and brings its schema up to date (see [New]):
//
//   - "sqlite:PATH" is a SQLite database file, created if missing, opened in WAL mode with a
//     busy timeout so several processes can share it, its transactions begun IMMEDIATE
//     (_txlock=immediate, unless PATH sets _txlock: then writes run on a connection of
//     their own, with statements unprepared). PATH may carry modernc.org/sqlite
//     query parameters after a '?' ("sqlite:/var/lib/llmfs.db?_pragma=synchronous(FULL)"),
//     so PATH itself cannot hold a '?'.
//     "sqlite::memory:" is a private in-memory database, gone when the DB is closed; it
//     uses a single connection, so a write must not read its content from a file of the
//     same database.
//   - "postgres://..." or "postgresql://..." is a PostgreSQL database, in any form pgx accepts.
//
// The driver must be registered: import github.com/llmfs/llmfs/store/sql/sqlite or
// github.com/llmfs/llmfs/store/sql/postgres for its side effect.
//
// Closing the DB closes the database handle.
func Connect(ctx context.Context, dsn string) (*DB, error) {
	driver, d, source, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(sql.Drivers(), driver) {
		return nil, fmt.Errorf("sqlstore: no %s driver registered: import _ %q", d, driverPackages[d])
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: open %s database: %w", d, err)
	}
	// database/sql keeps 2 idle connections by default: a busy server would keep opening
	// new ones (a PostgreSQL backend process, or a SQLite handle running its pragmas).
	db.SetMaxIdleConns(8)
	if strings.HasPrefix(source, "file::memory:") {
		// Each connection to ":memory:" is a database of its own: keep to one.
		db.SetMaxOpenConns(1)
	}
	x, err := New(ctx, db, d)
	if err != nil {
		db.Close()
		return nil, err
	}
	x.owned = true
	x.freshBlobs = true // modernc.org/sqlite and pgx's stdlib (see ownBlob)
	x.single = strings.HasPrefix(source, "file::memory:")
	// parseDSN adds _txlock=immediate unless the caller chose a mode of their own.
	x.immediate = d == SQLite && strings.Contains(source, "_txlock=immediate")
	return x, nil
}

// OpenDSN connects to the database dsn names (see [Connect]) and returns the store of
// workspace id. Closing the store closes the database handle.
func OpenDSN(ctx context.Context, dsn, id string, opts *Options) (*Store, error) {
	x, err := Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	s, err := x.Workspace(ctx, id, opts)
	if err != nil {
		x.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// parseDSN returns the database/sql driver name, the dialect and the driver's data source.
func parseDSN(dsn string) (driver string, d Dialect, source string, err error) {
	switch {
	case strings.HasPrefix(dsn, "sqlite:"):
		p := strings.TrimPrefix(dsn, "sqlite:")
		p = strings.TrimPrefix(p, "//") // tolerate sqlite://PATH
		if p == "" {
			return "", "", "", fmt.Errorf("sqlstore: DSN %q names no database file", dsn)
		}
		file, query, _ := strings.Cut(p, "?")
		q, err := url.ParseQuery(query)
		if err != nil {
			return "", "", "", fmt.Errorf("sqlstore: DSN %q: %w", dsn, err)
		}
		have := strings.Join(q["_pragma"], ",")
		for _, p := range []string{
			"busy_timeout(" + strconv.Itoa(busyTimeoutMS) + ")",
			// Only a database file not yet written takes a page size; one made before
			// keeps its own (see newPageSize).
			"page_size(" + strconv.Itoa(newPageSize) + ")",
			// In WAL mode NORMAL loses no committed transaction when a process dies, only,
			// possibly, the last ones on power loss.
			"synchronous(NORMAL)",
		} {
			key, _, _ := strings.Cut(p, "(")
			if !strings.Contains(have, key) {
				q.Add("_pragma", p)
			}
		}
		// The driver runs the _pragma list sorted by name, so journal_mode(WAL) there
		// would come before page_size and fix the page size of a new file at 4 KiB; the
		// driver's _journal_mode runs after the list.
		if !strings.Contains(have, "journal_mode") && q.Get("_journal_mode") == "" && q.Get("_journal") == "" {
			q.Set("_journal_mode", "WAL")
		}
		if q.Get("_txlock") == "" {
			// Every transaction takes the write lock at its start (see writeSQLite), and
			// is a database/sql transaction, which reuses prepared statements.
			q.Set("_txlock", "immediate")
		}
		// The driver reads "file:" URIs, where '%' escapes and '#' starts a fragment.
		file = strings.NewReplacer("%", "%25", "#", "%23").Replace(file)
		return "sqlite", SQLite, "file:" + file + "?" + q.Encode(), nil
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return "pgx", Postgres, dsn, nil
	}
	return "", "", "", fmt.Errorf("sqlstore: DSN %q: want sqlite:PATH or a postgres:// URL", dsn)
}
