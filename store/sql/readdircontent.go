package sqlstore

import (
	"context"
	"database/sql"
	"io/fs"
	"slices"
	"strings"

	"github.com/llmfs/llmfs/store"
)

var _ store.ContentLister = (*Store)(nil)

// listContentBudget bounds the content one [Store.ReadDirContent] brings: the files of a
// listing, in name order, while their sizes add up to at most this. Later files are opened
// one by one. A search's walk lists no further ahead of its visit while the listings it
// holds brought 16 MiB (search/walk.go, aheadBytes), so it holds at most that plus one
// listing per thread. At 512 KiB, 1,972 files of the Go tree were left to an open each (a
// round trip on PostgreSQL); at 2 MiB 680 were, and a grep of a PostgreSQL workspace took
// 13% less CPU; at 8 MiB none are (its largest directory holds 5 MiB of small files), and
// a grep of its SQLite workspace takes 10% less CPU than at 2 MiB.
const listContentBudget = 8 << 20

// contentEntry is a file's directory entry with its content.
type contentEntry struct {
	*store.Entry
	data []byte
}

func (e contentEntry) Content() []byte { return e.data }

// ReadDirContent implements [store.ContentLister]: one query lists the directory and brings
// the first (and only) chunk of its files of at most one chunk, while the running total of
// their sizes stays within listContentBudget. For a grep of a SQLite workspace it replaced
// a query per file, the half of the CPU that was not the search.
func (s *Store) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("readdir", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	// keep: a file whose whole content is chunk 0, while the budget lasts. The window sum
	// runs over the small files in name order, which the (ws, parent, name) index gives.
	// There is no outer ORDER BY: with one, SQLite copied every row, blobs and all, into a
	// temporary b-tree to sort what is already sorted (a quarter of a grep's CPU went to
	// memmove); the rows come out in the window's order, and sortEntries makes sure.
	// Chunk 0 comes by a join, not a subquery: SQLite copies a subquery's blob once more
	// into the outer row. Content the journal's blobs keep (blob 0, SQLite only, rare)
	// still comes by a subquery, which looks up only those files.
	rows, err := t.query(`SELECT l.name, l.dir, l.size, l.mtime, c.data,
			CASE WHEN l.keep AND l.blob = 0 THEN (SELECT data FROM llmfs_jblobs j WHERE j.hash = l.hash) END
		FROM (SELECT name, dir, size, mtime, blob, hash,
				dir = 0 AND size > 0 AND size <= CAST(? AS BIGINT) AND SUM(CASE WHEN dir = 0 AND size <= CAST(? AS BIGINT) THEN size ELSE 0 END)
				OVER (ORDER BY name ROWS UNBOUNDED PRECEDING) <= CAST(? AS BIGINT) AS keep
			FROM llmfs_nodes WHERE ws = ? AND parent = ?) l
		LEFT JOIN llmfs_chunks c ON l.keep AND c.blob = l.blob AND c.seq = 0`,
		ChunkSize, ChunkSize, listContentBudget, s.ws, []byte(name))
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	defer rows.Close()
	// The names are copied by string(base); the content is kept without a second copy
	// (see ownBlob).
	out := []fs.DirEntry{}
	for rows.Next() {
		if len(out)%checkRows == checkRows-1 && ctx.Err() != nil {
			return nil, pathErr("readdir", name, ctx.Err())
		}
		var dir, size, mtime int64
		var base, raw, kept sql.RawBytes
		if err := rows.Scan(&base, &dir, &size, &mtime, &raw, &kept); err != nil {
			return nil, pathErr("readdir", name, err)
		}
		if raw == nil {
			raw = kept
		}
		n := node{path: string(base), size: size, mtime: mtime}
		n.setKind(dir)
		if int64(len(raw)) == size && size > 0 {
			out = append(out, contentEntry{n.info(), s.x.ownBlob(raw)})
			continue
		}
		out = append(out, n.info())
	}
	if err := rows.Err(); err != nil {
		return nil, pathErr("readdir", name, err)
	}
	if len(out) > 0 {
		sortEntries(out)
		return out, nil
	}
	return s.ReadDir(ctx, name) // empty, missing or not a directory: ReadDir tells which
}

// sortEntries sorts a listing by name (byte order) unless it already is, as it comes from
// the index.
func sortEntries(des []fs.DirEntry) {
	cmp := func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }
	if !slices.IsSortedFunc(des, cmp) {
		slices.SortFunc(des, cmp)
	}
}
