//go:build linux

package mount

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
)

// fuseFS is the FUSE face of a mount: the kernel's protocol over the shared [Core].
type fuseFS struct {
	*Core
	pmu  sync.Mutex
	pids map[uint32]string // processes seen making changes, and their actors
}

// A Server is a mounted workspace.
type Server struct {
	srv  *fuse.Server
	m    *fuseFS
	dir  string
	gone chan struct{} // closed once the kernel has let go (unmounted by anyone)
	once sync.Once
	err  error
}

// Mount mounts ws at dir and serves it in the background until [Server.Unmount].
func Mount(ctx context.Context, ws *llmfs.Workspace, dir string, opts Options) (*Server, error) {
	if err := CheckMountpoint(dir); err != nil {
		return nil, err
	}
	core, err := NewCore(ws, opts)
	if err != nil {
		return nil, err
	}
	m := &fuseFS{Core: core, pids: map[uint32]string{}}
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
			// Requests of nearly 1 MiB rather than 128 KiB: a large file is read and
			// written in an eighth of the round trips (readahead.go).
			MaxWrite:     requestSize(),
			MaxReadAhead: readAheadWindow,
		},
	}
	srv, err := fs.Mount(dir, &node{m: m}, fo)
	if err != nil {
		return nil, fmt.Errorf("mount %s: %w", dir, err)
	}
	if err := widenReadAhead(dir, readAheadWindow); err != nil && opts.Debug {
		fmt.Fprintln(os.Stderr, "llmfs mount:", err)
	}
	s := &Server{srv: srv, m: m, dir: dir, gone: make(chan struct{})}
	go func() { srv.Wait(); close(s.gone) }()
	m.Start()
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
		aerr := s.m.Stop()
		s.err = errors.Join(err, aerr)
	})
	return s.err
}

// Flush applies the session layer now (what 'llmfs run' does when the command ends).
func (s *Server) Flush(ctx context.Context) error { return s.m.Core.Flush(ctx) }

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

// detach keeps the kernel's interrupts out of the workspace. The kernel interrupts a request
// whenever its process gets a signal, and Go programs get SIGURG all the time (preemption):
// a stat or a write cut short there would fail with EIO, or a commit stop half-way.
func detach(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }
