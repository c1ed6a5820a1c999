package sqlstore

import (
	"bytes"
	"database/sql"
)

// Reading content through database/sql copies each blob twice: the driver copies it out
// of the database (or the network buffer), then Scan into a *[]byte copies it again. For a
// grep of a SQLite workspace the second copy and its garbage were a tenth of the CPU.
// Scanning into sql.RawBytes skips it; RawBytes is only promised until the next Next, but
// the two drivers [Connect] uses, modernc.org/sqlite and pgx's stdlib, make a new slice for
// every value they return, so the slice can be kept (TestRawBlobsOutliveNext checks it).
// With a driver the caller chose ([New]) the content is copied, once, as Scan would.

// ownBlob returns raw, scanned as sql.RawBytes, as a slice the caller may keep.
func (x *DB) ownBlob(raw sql.RawBytes) []byte {
	if raw == nil || x.freshBlobs {
		return raw
	}
	return bytes.Clone(raw)
}

// queryOne runs q and scans its first row into dest, as queryRow(q).Scan(dest...) does
// (sql.ErrNoRows when there is none), but scans *[]byte destinations without database/sql's
// copy (see ownBlob).
func (t *txn) queryOne(q string, args []any, dest ...any) error {
	rows, err := t.query(q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	// *[]byte destinations are scanned as sql.RawBytes in place: a RawBytes has a []byte's
	// layout, so the pointer is converted rather than a second destination allocated.
	scan := make([]any, len(dest))
	for i, d := range dest {
		if b, ok := d.(*[]byte); ok {
			scan[i] = (*sql.RawBytes)(b)
			continue
		}
		scan[i] = d
	}
	if err := rows.Scan(scan...); err != nil {
		return err
	}
	for _, d := range dest {
		if b, ok := d.(*[]byte); ok {
			*b = t.ownBlob(*b)
		}
	}
	return rows.Close()
}

// ownBlob is x.ownBlob, for a txn without a DB (the migrations': they read no content).
func (t *txn) ownBlob(raw sql.RawBytes) []byte {
	if t.x == nil {
		return bytes.Clone(raw)
	}
	return t.x.ownBlob(raw)
}
