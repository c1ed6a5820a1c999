// Package pgcopy lets package store/sql write rows with PostgreSQL's COPY through the driver
// that package store/sql/postgres registers, without store/sql depending on that driver
// (a SQLite-only program links no PostgreSQL code). database/sql has no COPY: the driver's
// own connection does it, reached with [database/sql.Conn.Raw].
package pgcopy

import "context"

// A Func copies rows into the columns of table over driverConn, the driver's connection
// that [database/sql.Conn.Raw] hands over, in the transaction open there, and returns the
// number of rows copied. Each row holds a value per column, in their order.
type Func func(ctx context.Context, driverConn any, table string, columns []string, rows [][]any) (int64, error)

var from Func

// Register sets the function that copies rows; store/sql/postgres registers its driver's.
// It is called from an init function, before any store is opened.
func Register(f Func) { from = f }

// From returns the registered function, or nil when no driver registered one.
func From() Func { return from }
