//go:build !js

package mount

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// A Session is the session layer of a mount: an overlay over the workspace's store, kept
// in a private temporary directory (also where the write buffers go).
//
// The layer's files are files of that directory (an [osdir.NewScratch] store, not synced:
// a crash discards the layer whole). It was a SQLite file: each file a process closed was
// a transaction of its own there, and with its write to the WAL and the checkpoint the
// layer took a third of the mount's CPU time in a git clone of 3,400 files.
type Session struct {
	// WS is the workspace to mount: ws's rules over the layer.
	WS  *llmfs.Workspace
	dir string
	up  *osdir.Store
}

// NewSession makes a session layer over ws and sets opts to use it.
func NewSession(ctx context.Context, ws *llmfs.Workspace, opts *Options) (*Session, error) {
	dir, err := os.MkdirTemp("", "llmfs-session-*")
	if err != nil {
		return nil, err
	}
	up, err := newLayerDir(filepath.Join(dir, "layer"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("the mount's session layer: %w", err)
	}
	s := &Session{dir: dir, up: up}
	ov, err := overlay.NewPrivate(ctx, ws.Store(), up)
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
	err := s.up.Close()
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

// newLayerDir makes the directory of a session layer's files and opens it.
func newLayerDir(dir string) (*osdir.Store, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	return osdir.NewScratch(dir)
}
