//go:build linux

package mount

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/overlay"
)

// Options configure a mount.
type Options struct {
	// Actor, when set, is the journal's actor of every change ("run:<command>"); otherwise
	// each change is "mount:<pid>:<command name>" of the process that made it.
	Actor string
	// Layer is the session layer the workspace given to [Mount] works on; nil: the changes
	// go straight to the workspace (under --review the workspace is a pending layer already).
	Layer *overlay.Overlay
	// Base is the workspace beneath Layer, where applied changes land. Required with Layer.
	Base *llmfs.Workspace
	// Quiet is how long the file system must be quiet before the layer is applied; 0 means
	// only at fsync and at unmount (llmfs run: one change set).
	Quiet time.Duration
	// JournalIgnore are globs (path.Match, matched against the path and each of its
	// parents) of paths never journaled: changes to them go straight to the workspace's
	// store, through its rules but without a journal entry.
	JournalIgnore []string
	// SpillDir is where write buffers are kept (default: the OS temporary directory).
	SpillDir string
	// Log receives one line per applied change set and per conflict; nil: discard.
	Log func(format string, args ...any)
	// Debug logs every FUSE request.
	Debug bool
}

// A Server is a mounted workspace.
type Server struct {
	srv  *fuse.Server
	m    *mfs
	dir  string
	gone chan struct{} // closed once the kernel has let go (unmounted by anyone)
	once sync.Once
	err  error
}

// Mount mounts ws at dir and serves it in the background until [Server.Unmount].
func Mount(ctx context.Context, ws *llmfs.Workspace, dir string, opts Options) (*Server, error) {
	if opts.Layer != nil && opts.Base == nil {
		return nil, errors.New("mount: a session layer needs its base workspace")
	}
	if err := CheckMountpoint(dir); err != nil {
		return nil, err
	}
	m, err := newFS(ws, opts)
	if err != nil {
		return nil, err
	}
	sec := time.Second
	fo := &fs.Options{
		EntryTimeout: &sec,
		AttrTimeout:  &sec,
		MountOptions: fuse.MountOptions{
			FsName:        "llmfs",
			Name:          "llmfs",
			Debug:         opts.Debug,
			MaxBackground: 64,
			DisableXAttrs: true,
			// Requests of up to 1 MiB rather than 128 KiB: a large file is written in an
			// eighth of the round trips. (Reads stay within the read-ahead the kernel
			// offers: 128 KiB on Linux 6.18.)
			MaxWrite:     1 << 20,
			MaxReadAhead: 1 << 20,
		},
	}
	srv, err := fs.Mount(dir, &node{m: m}, fo)
	if err != nil {
		m.close()
		return nil, fmt.Errorf("mount %s: %w", dir, err)
	}
	s := &Server{srv: srv, m: m, dir: dir, gone: make(chan struct{})}
	go func() { srv.Wait(); close(s.gone) }()
	m.start()
	return s, nil
}

// Wait returns when the file system is unmounted (by [Server.Unmount] or fusermount3 -u).
func (s *Server) Wait() { <-s.gone }

// Unmount applies what is left in the session layer and unmounts. It tries for a few
// seconds while the mountpoint is busy (a process still has its working directory there).
func (s *Server) Unmount() error {
	s.once.Do(func() {
		var err error
		for i := 0; i < 50; i++ {
			select {
			case <-s.gone: // unmounted already: never unmount again what may be another mount now
				err = nil
			default:
				err = s.srv.Unmount()
			}
			if err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		<-s.gone
		aerr := s.m.stop()
		s.m.close()
		s.err = errors.Join(err, aerr)
	})
	return s.err
}

// Flush applies the session layer now (what 'llmfs run' does when the command ends).
func (s *Server) Flush(ctx context.Context) error { return s.m.applyAll(ctx) }

// Dir is the mountpoint.
func (s *Server) Dir() string { return s.dir }

// StaleError reports a mountpoint left by a mount whose process was killed.
type StaleError struct{ Dir string }

func (e *StaleError) Error() string {
	return fmt.Sprintf("%s is a stale mount left by a killed llmfs mount; clear it with: fusermount3 -u %s", e.Dir, e.Dir)
}

// CheckMountpoint returns a *StaleError when dir is a mount whose server is gone
// (ENOTCONN), and an error when dir is not a directory.
func CheckMountpoint(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, syscall.ENOTCONN) || errors.Is(err, syscall.ECONNABORTED) {
		return &StaleError{Dir: dir}
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("mount: %s is not a directory", dir)
	}
	return nil
}

// ignored reports whether p is never journaled (Options.JournalIgnore).
func (m *mfs) ignored(p string) bool {
	for _, g := range m.opts.JournalIgnore {
		for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(g, q); ok {
				return true
			}
			if ok, _ := path.Match(g, path.Base(q)); ok {
				return true
			}
		}
	}
	return false
}
