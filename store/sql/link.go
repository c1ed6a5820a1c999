package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Symbolic links and attributes. A link is a row of dir = 2 holding its target as written
// (column target; its size is the target's length). Names are resolved through links with
// [store.FollowLinks] only when a lookup meets one (errLinkOnPath), so a workspace without
// links pays nothing for them; the core's deny rules ask RealName of every name, which
// first asks whether the workspace has any link at all (an index answers; the answer "no"
// is kept for a second).

var (
	_ store.Symlinker  = (*Store)(nil)
	_ store.Resolver   = (*Store)(nil)
	_ store.AttrSetter = (*Store)(nil)
)

// errLinkOnPath says a lookup met a symbolic link: a caller that follows links resolves the
// name and looks again; to any other it is a non-directory on the way.
var errLinkOnPath = fmt.Errorf("%w: a symbolic link on the way", store.ErrNotDir)

// noLinksFor is how long a workspace found without links is taken to have none.
const noLinksFor = time.Second

// linkState is what a DB knows of a workspace's links.
type linkState struct {
	mu      sync.Mutex
	some    bool      // a link was seen or made: it is never forgotten
	checked time.Time // when none was found
}

func (s *Store) linkState() *linkState {
	v, _ := s.x.links.LoadOrStore(s.ws, new(linkState))
	return v.(*linkState)
}

// hasLinks reports whether the workspace may hold a symbolic link.
func (s *Store) hasLinks(ctx context.Context) (bool, error) {
	ls := s.linkState()
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.some || time.Since(ls.checked) < noLinksFor {
		return ls.some, nil
	}
	var one int
	err := s.read(ctx).queryRow(`SELECT 1 FROM llmfs_nodes WHERE ws = ? AND dir = 2 LIMIT 1`, s.ws).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		ls.checked = time.Now()
		return false, nil
	case err != nil:
		return false, err
	}
	ls.some = true
	return true, nil
}

// followed runs fn on the name name really leads to, for an operation that follows links.
func followed[T any](s *Store, ctx context.Context, op, name string, fn func(real string) (T, error)) (T, error) {
	var zero T
	real, err := s.resolve(ctx, name)
	if err != nil {
		return zero, pathErr(op, name, unwrapPath(err))
	}
	if real == name {
		return zero, pathErr(op, name, fs.ErrNotExist)
	}
	v, err := fn(real)
	if err != nil {
		return zero, pathErr(op, name, unwrapPath(err))
	}
	return v, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// resolve follows every link in name.
func (s *Store) resolve(ctx context.Context, name string) (string, error) {
	t := s.read(ctx)
	return store.FollowLinks(ctx, name, func(n string) (bool, error) {
		row, err := s.get(t, n, "")
		if err != nil {
			return false, err
		}
		if row == nil {
			return false, fs.ErrNotExist
		}
		return row.link, nil
	}, func(n string) (string, error) { return s.target(t, n) })
}

// target returns the target of the link n.
func (s *Store) target(t *txn, n string) (string, error) {
	var target []byte
	err := t.queryRow(`SELECT target FROM llmfs_nodes WHERE ws = ? AND path = ? AND dir = 2`, s.ws, []byte(n)).Scan(&target)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fs.ErrInvalid
	}
	return string(target), err
}

// RealName implements [store.Resolver].
func (s *Store) RealName(ctx context.Context, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", pathErr("realname", name, store.ErrInvalidName)
	}
	some, err := s.hasLinks(ctx)
	if err != nil {
		return "", pathErr("realname", name, err)
	}
	if !some || name == "." {
		return name, nil
	}
	return s.resolve(ctx, name)
}

// lrow returns the row name names itself (a final link not followed), or nil.
func (s *Store) lrow(ctx context.Context, op, name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	n, err := s.get(t, name, "")
	if err == nil && n == nil {
		err = s.missing(t, name)
	}
	if errors.Is(err, errLinkOnPath) {
		dir, err := s.resolve(ctx, parentOf(name))
		if err != nil {
			return nil, pathErr(op, name, unwrapPath(err))
		}
		return s.lrow(ctx, op, path.Join(dir, path.Base(name)))
	}
	if err != nil {
		return nil, pathErr(op, name, err)
	}
	return n, nil
}

// Lstat implements [store.Lstater].
func (s *Store) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	n, err := s.lrow(ctx, "lstat", name)
	if err != nil {
		return nil, err
	}
	e := n.info()
	if name == "." {
		return store.NewDir(".", e.ModTime()), nil
	}
	return e, nil
}

// Readlink implements [store.Symlinker].
func (s *Store) Readlink(ctx context.Context, name string) (string, error) {
	n, err := s.lrow(ctx, "readlink", name)
	if err != nil {
		return "", err
	}
	if !n.link {
		return "", pathErr("readlink", name, fs.ErrInvalid)
	}
	target, err := s.target(s.read(ctx), n.path)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	return target, nil
}

// Symlink implements [store.Symlinker]. The link counts as a file of its target's length
// against the quota.
func (s *Store) Symlink(ctx context.Context, target, name string) error {
	if !fs.ValidPath(name) {
		return pathErr("symlink", name, store.ErrInvalidName)
	}
	if target == "" {
		return pathErr("symlink", name, fs.ErrInvalid)
	}
	if name == "." {
		return pathErr("symlink", name, fs.ErrExist)
	}
	err := s.change(ctx, true, func(t *txn) error {
		if err := s.checkAncestors(t, name, t.d.forShare); err != nil {
			return err
		}
		var id int64
		err := t.queryRow(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, target)
			VALUES (?, ?, ?, ?, 2, ?, ?, '', ?) ON CONFLICT (ws, path) DO NOTHING RETURNING id`,
			s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)), len(target), time.Now().UnixNano(),
			[]byte(target)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fs.ErrExist
		}
		if err != nil {
			return err
		}
		return s.account(t, int64(len(target)), 1, 0)
	})
	if err != nil {
		return pathErr("symlink", name, err)
	}
	ls := s.linkState()
	ls.mu.Lock()
	ls.some = true
	ls.mu.Unlock()
	return nil
}

// Chmod implements [store.AttrSetter].
func (s *Store) Chmod(ctx context.Context, name string, perm fs.FileMode) error {
	return s.setColumn(ctx, "chmod", name, `UPDATE llmfs_nodes SET mode = ? WHERE ws = ? AND path = ? AND dir <> 2`, int64(perm&fs.ModePerm))
}

// Chtimes implements [store.AttrSetter].
func (s *Store) Chtimes(ctx context.Context, name string, mtime time.Time) error {
	return s.setColumn(ctx, "chtimes", name, `UPDATE llmfs_nodes SET mtime = ? WHERE ws = ? AND path = ? AND dir <> 2`, mtime.UnixNano())
}

// setColumn runs update (value, ws, path) on the row name leads to.
func (s *Store) setColumn(ctx context.Context, op, name, update string, value int64) error {
	real, err := s.RealName(ctx, name)
	if err != nil {
		return pathErr(op, name, unwrapPath(err))
	}
	err = s.change(ctx, true, func(t *txn) error {
		res, err := t.exec(update, value, s.ws, []byte(real))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		if real == "." {
			return nil // the root has no row
		}
		return s.missing(t, real)
	})
	if err != nil {
		return pathErr(op, name, err)
	}
	return nil
}
