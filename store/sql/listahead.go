package sqlstore

import (
	"context"
	"database/sql"
	"io/fs"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

var _ store.TreeContentLister = (*Store)(nil)

// walkBudget bounds the content one query of a [treeWalk] brings, and that its listings
// waiting for the walk hold, on top of what the walk holds (search/walk.go, aheadBytes).
// A grep's heap is held to 32 MiB (cmd/llmfs, storeSearchLimit): at 8 MiB the listings
// waiting kept its live heap near 14 MiB and the collector ran 55-76 times in a grep of
// the Go tree's PostgreSQL workspace instead of 11.
const walkBudget = 2 << 20

// listAheadRows bounds the rows one query of a [treeWalk] brings, so that its metadata
// stays small in a workspace of any size.
const listAheadRows = 4096

// ContentWalk implements [store.TreeContentLister]. A grep lists every directory of the
// tree once, in about the order of their paths: a query per directory was a round trip
// each on PostgreSQL (1,323 for the Go tree, most of a grep's statements) and the
// scheduling of a goroutine woken for each. A directory the walk asks for and the walk
// does not hold yet is listed by one query with the directories below it, in path order:
// every entry, and the first chunk of the small files, until their sizes add up to
// walkBudget or the rows to listAheadRows. The listings that came whole wait for the walk
// to ask for them, each given once; the walk brings no more ahead while they hold a
// budget's worth. A directory the query stopped within is listed, when asked, from where
// it stopped (see from).
//
// On SQLite, where a statement is no round trip, the walk lists directory by directory
// (the store itself): the walk's queries made a grep of the Go tree's workspace 1.10x as
// costly (9 pairs, load 13).
func (s *Store) ContentWalk() store.DirContentLister {
	if s.x.d.name != Postgres {
		return s
	}
	return s.treeWalk()
}

// treeWalk returns a new walk's lister, on any dialect.
func (s *Store) treeWalk() *treeWalk {
	return &treeWalk{s: s, dirs: map[string]*aheadDir{}, given: map[string]bool{}, past: map[string]string{}}
}

// A treeWalk serves one walk's listings (see [Store.ContentWalk]).
type treeWalk struct {
	s     *Store
	mu    sync.Mutex
	dirs  map[string]*aheadDir // the listings brought ahead and not yet asked for
	bytes int                  // the content they hold
	given map[string]bool      // the directories asked for: not brought again
	past  map[string]string    // the directories a query stopped within, and where
}

// An aheadDir is a directory's listing being gathered.
type aheadDir struct {
	entries []fs.DirEntry
	bytes   int
}

// ReadDirContent lists name as [Store.ReadDirContent] does, from the listings brought
// ahead when it is among them.
func (w *treeWalk) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	w.mu.Lock()
	d, ok := w.dirs[name]
	if ok {
		delete(w.dirs, name)
		w.bytes -= d.bytes
	}
	w.given[name] = true
	full := w.bytes >= walkBudget
	w.mu.Unlock()
	switch {
	case ok:
		return d.entries, nil
	case full || !fs.ValidPath(name):
		// Listings the walk skipped (hidden or ignored directories) hold what they brought
		// until the walk ends: bring no more while they hold a budget's worth.
		return w.s.ReadDirContent(ctx, name)
	}
	des, err := w.from(ctx, name)
	if err != nil || des == nil {
		// Cut short within it, empty, missing, not a directory: ReadDirContent lists it
		// with a budget of its own, or tells which.
		return w.s.ReadDirContent(ctx, name)
	}
	return des, nil
}

// from lists name and the directories below it in path order in one query, keeps the
// listings that came whole, and returns name's own, or nil when it did not come whole or
// is empty. When an earlier query stopped within name at the path past, the rows up to
// past are there (kept, or given) but for name's own entries: it brings only those and
// the rows after past.
func (w *treeWalk) from(ctx context.Context, name string) ([]fs.DirEntry, error) {
	w.mu.Lock()
	past, resume := w.past[name]
	w.mu.Unlock()
	// The rows: those below name ("name/" < path < "name0", '0' following '/'), from
	// past on when resuming, the first listAheadRows in path order, which the (ws, path)
	// index gives without reading the rest of the subtree; and name's own entries up to
	// past when resuming.
	const cols = `parent, name, dir, size, mtime, blob, hash, path`
	where, args := `ws = ?`, []any{w.s.ws}
	if name != "." {
		where += ` AND path > ? AND path < ?`
		args = append(args, []byte(name+"/"), []byte(name+"0"))
	}
	if resume {
		where += ` AND path > ?`
		args = append(args, []byte(past))
	}
	src := `SELECT * FROM (SELECT ` + cols + ` FROM llmfs_nodes WHERE ` + where + ` ORDER BY path LIMIT ?) r`
	args = append(args, listAheadRows)
	if resume {
		src += ` UNION ALL SELECT ` + cols + ` FROM llmfs_nodes WHERE ws = ? AND parent = ? AND path <= ?`
		args = append(args, w.s.ws, []byte(name), []byte(past))
	}
	t := w.s.read(ctx)
	// small is the size of a file of one chunk (0 for any other entry) and run their sum
	// so far in path order, this row's included. The rows stop at the first that takes
	// run past the budget (listed without its content) or at the row bound: the last row
	// tells where the listings stop being whole. As in ReadDirContent, the first chunk
	// comes by a join and the content the journal's blobs keep by a subquery.
	rows, err := t.query(`SELECT l.parent, l.name, l.dir, l.size, l.mtime, l.small, l.run, c.data,
			CASE WHEN l.small > 0 AND l.run <= CAST(? AS BIGINT) AND l.blob = 0 THEN (SELECT data FROM llmfs_jblobs j WHERE j.hash = l.hash) END
		FROM (SELECT parent, name, dir, size, mtime, blob, hash, small,
				SUM(small) OVER (ORDER BY path ROWS UNBOUNDED PRECEDING) AS run
			FROM (SELECT parent, name, dir, size, mtime, blob, hash, path,
					CASE WHEN dir = 0 AND size > 0 AND size <= CAST(? AS BIGINT) THEN size ELSE 0 END AS small
				FROM (`+src+`) s) n) l
		LEFT JOIN llmfs_chunks c ON l.small > 0 AND l.run <= CAST(? AS BIGINT) AND c.blob = l.blob AND c.seq = 0
		WHERE l.run - l.small <= CAST(? AS BIGINT)`,
		append(append([]any{walkBudget, ChunkSize}, args...), walkBudget, walkBudget)...)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	defer rows.Close()
	g := gather{dirs: map[string]*aheadDir{}}
	for rows.Next() {
		if g.rows%checkRows == checkRows-1 && ctx.Err() != nil {
			return nil, pathErr("readdir", name, ctx.Err())
		}
		if err := g.add(w.s.x, rows); err != nil {
			return nil, pathErr("readdir", name, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, pathErr("readdir", name, err)
	}
	if !resume {
		past = ""
	}
	return w.keep(name, past, &g), nil
}

// gather collects the rows of a query of [treeWalk.from] into listings.
type gather struct {
	dirs map[string]*aheadDir
	rows int
	last string // the greatest path among the rows
	cut  bool   // rows stopped at the budget or the row bound
}

// add adds a row to the listing of its parent.
func (g *gather) add(x *DB, rows *sql.Rows) error {
	var dir, size, mtime, small, run int64
	var parent, base, raw, kept sql.RawBytes
	if err := rows.Scan(&parent, &base, &dir, &size, &mtime, &small, &run, &raw, &kept); err != nil {
		return err
	}
	g.rows++
	if g.rows >= listAheadRows || run > walkBudget {
		g.cut = true
	}
	if len(parent) == 0 {
		return nil // the root's own row
	}
	if raw == nil {
		raw = kept
	}
	d := g.dirs[string(parent)]
	if d == nil {
		d = &aheadDir{}
		g.dirs[string(parent)] = d
	}
	n := node{path: string(base), size: size, mtime: mtime}
	n.setKind(dir)
	p := joinPath(string(parent), n.path)
	if p > g.last {
		g.last = p
	}
	if n.dir && g.dirs[p] == nil {
		// A directory with no entries has no rows: it lists as empty.
		g.dirs[p] = &aheadDir{}
	}
	if small > 0 && run <= walkBudget && int64(len(raw)) == size {
		d.entries = append(d.entries, contentEntry{n.info(), x.ownBlob(raw)})
		d.bytes += len(raw)
		return nil
	}
	d.entries = append(d.entries, n.info())
	return nil
}

// joinPath returns the store name of base in the directory dir.
func joinPath(dir, base string) string {
	if dir == "." {
		return base
	}
	return dir + "/" + base
}

// whole reports whether the rows of a query of name held every entry of directory p:
// when they left out those up to past ("" for none) but name's own, p's entries are all
// past it, and the rows did not stop among p's entries.
func (g *gather) whole(p, name, past string) bool {
	if p != name && past != "" && p+"/" < past {
		return false
	}
	return !g.cut || !(p == "." || strings.HasPrefix(g.last, p+"/"))
}

// keep files the listings that came whole for the walk to ask for, but those it asked for
// already, and returns name's own (nil if it did not come whole or is empty).
func (w *treeWalk) keep(name, past string, g *gather) []fs.DirEntry {
	var own []fs.DirEntry
	w.mu.Lock()
	defer w.mu.Unlock()
	if g.cut {
		// The directories above the last row, from name down, are not whole: their
		// listings are queried when asked, from the last row on.
		for p := parentOf(g.last); ; p = parentOf(p) {
			w.past[p] = g.last
			if p == name || p == "." {
				break
			}
		}
	}
	for p, d := range g.dirs {
		if !g.whole(p, name, past) {
			continue
		}
		sortEntries(d.entries)
		if d.entries == nil {
			d.entries = []fs.DirEntry{}
		}
		if p == name {
			own = d.entries
			continue
		}
		if _, ok := w.dirs[p]; ok || w.given[p] {
			continue
		}
		w.dirs[p] = d
		w.bytes += d.bytes
	}
	if len(own) == 0 {
		return nil
	}
	return own
}
