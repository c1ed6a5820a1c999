//go:build !js

package mount

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	_ "github.com/llmfs/llmfs/store/sql/sqlite" // the session layer's database
)

// A Session is the session layer of a mount: an overlay over the workspace's store, kept
// in a SQLite file in a private temporary directory (also where the write buffers go).
type Session struct {
	// WS is the workspace to mount: ws's rules over the layer.
	WS  *llmfs.Workspace
	dir string
	db  *sqlstore.Store
}

// NewSession makes a session layer over ws and sets opts to use it.
func NewSession(ctx context.Context, ws *llmfs.Workspace, opts *Options) (*Session, error) {
	dir, err := os.MkdirTemp("", "llmfs-session-*")
	if err != nil {
		return nil, err
	}
	db, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(dir, "layer.db"), "session", &sqlstore.Options{Create: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("the mount's session layer: %w", err)
	}
	s := &Session{dir: dir, db: db}
	ov, err := overlay.NewPrivate(ctx, ws.Store(), db)
	if err != nil {
		s.Close()
		return nil, err
	}
	lws := ws.With(llmfs.OnStore(ov))
	if st, ok := ws.Store().(*sqlstore.Store); ok {
		// As under review: the store's quota binds the layer too, so that a refusal comes
		// at the write, not when the layer is applied.
		q, _, err := st.Quota(ctx)
		if err != nil {
			s.Close()
			return nil, err
		}
		lws = lws.With(llmfs.EnforceQuota(tighter(lws.Settings().Quota, llmfs.Quota{MaxBytes: q.MaxBytes, MaxFileBytes: q.MaxFileBytes, MaxFiles: q.MaxFiles})))
	}
	s.WS = lws
	opts.Layer, opts.Base, opts.SpillDir = ov, ws, dir
	return s, nil
}

// Close removes the layer; call it after [Server.Unmount] applied it.
func (s *Session) Close() error {
	err := s.db.Close()
	if rerr := os.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	return err
}

// tighter returns the tighter bound of a and b in each field (0: none).
func tighter(a, b llmfs.Quota) llmfs.Quota {
	lower := func(x, y int64) int64 {
		if x == 0 || (y != 0 && y < x) {
			return y
		}
		return x
	}
	return llmfs.Quota{MaxBytes: lower(a.MaxBytes, b.MaxBytes), MaxFileBytes: lower(a.MaxFileBytes, b.MaxFileBytes), MaxFiles: lower(a.MaxFiles, b.MaxFiles)}
}
