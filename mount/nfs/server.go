// Package nfs is the NFSv3 face of a mount (package github.com/willscott/go-nfs): a
// loopback NFS server over the shared session of package mount, which macOS mounts with
// its own NFS client. Every operation goes through the [mount.Core], exactly as through
// the FUSE face: the deny rules, the work mode, the quotas, the journal once per file.
//
// NFS carries no process id: each change is journaled as made by "nfs:<client address>"
// (the host the client mounted from, 127.0.0.1 on a loopback mount), or by the actor the
// options name ("run:<command>" under 'llmfs run').
//
// NFSv3 has no open and no close: a client sends WRITEs. The server keeps a file written
// through NFS open (its spill file) until no WRITE came for [Options.Idle], then commits
// it as one write: so a file is journaled once, not once per WRITE.
package nfs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	billy "github.com/go-git/go-billy/v5"
	gonfs "github.com/willscott/go-nfs"
	"github.com/willscott/go-nfs/helpers"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// Options configure an NFS mount.
type Options struct {
	mount.Options
	// Idle is how long a file written through NFS stays open after its last WRITE before
	// it is committed (default 1s).
	Idle time.Duration
}

// A Server serves a workspace over NFSv3.
type Server struct {
	core  *mount.Core
	opts  Options
	ln    net.Listener
	files *held

	mu   sync.Mutex
	fss  map[string]*fsys // one file system per actor, so handles keep their actor
	stop chan struct{}
	done chan struct{}
	once sync.Once
	err  error
}

// Serve serves ws over NFSv3 on addr ("127.0.0.1:0": any free port) in the background
// until [Server.Close].
func Serve(ctx context.Context, ws *llmfs.Workspace, addr string, opts Options) (*Server, error) {
	if opts.Idle <= 0 {
		opts.Idle = time.Second
	}
	core, err := mount.NewCore(ws, opts.Options)
	if err != nil {
		return nil, err
	}
	tl, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("nfs: %w", err)
	}
	ln := newListener(tl)
	s := &Server{core: core, opts: opts, ln: ln, fss: map[string]*fsys{}, stop: make(chan struct{}), done: make(chan struct{})}
	s.files = newHeld(core)
	if opts.Debug {
		gonfs.Log.SetLevel(gonfs.DebugLevel)
	} else {
		quiet()
	}
	handler := helpers.NewCachingHandler(&handler{s: s}, 1<<16)
	go func() { _ = gonfs.Serve(ln, handler) }()
	core.Start()
	go s.sweep()
	return s, nil
}

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// MountArgs are the arguments of macOS's mount(8) that mount the server at dir: NFSv3
// over TCP, the mount protocol on the same port (go-nfs serves both), and locks kept by
// the client (go-nfs has no lock manager).
func (s *Server) MountArgs(dir string) []string {
	host, _, _ := net.SplitHostPort(s.Addr())
	opts := fmt.Sprintf("vers=3,tcp,port=%d,mountport=%d,nolocks,locallocks", s.Port(), s.Port())
	return []string{"-t", "nfs", "-o", opts, host + ":/", dir}
}

// MountCommand is the macOS command that mounts the server at dir.
func (s *Server) MountCommand(dir string) string {
	args := s.MountArgs(dir)
	for i, a := range args {
		if strings.ContainsAny(a, " '\"$\\") {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return "mount " + strings.Join(args, " ")
}

// sweep commits the files no WRITE came for in opts.Idle.
func (s *Server) sweep() {
	defer close(s.done)
	t := time.NewTicker(s.opts.Idle / 4)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.files.closeIdle(s.opts.Idle)
		}
	}
}

// Flush commits every file written through NFS and applies the session now.
func (s *Server) Flush(ctx context.Context) error {
	s.files.closeAll()
	return s.core.Flush(ctx)
}

// Close stops serving, commits what is open and applies what is left of the session.
func (s *Server) Close() error {
	s.once.Do(func() {
		lerr := s.ln.Close()
		close(s.stop)
		<-s.done
		s.files.closeAll()
		s.err = errors.Join(s.core.Stop())
		if lerr != nil && !errors.Is(lerr, net.ErrClosed) {
			s.err = errors.Join(s.err, lerr)
		}
	})
	return s.err
}

// quiet keeps go-nfs's log to errors of its own: the refusals it logs (a denied name, the
// quota) are the workspace's answers, which the client gets.
func quiet() {
	if os.Getenv("LOG_LEVEL") == "" && gonfs.Log.GetLevel() > gonfs.FatalLevel {
		gonfs.Log.SetLevel(gonfs.FatalLevel)
	}
}

// fsFor returns the file system of actor.
func (s *Server) fsFor(actor string) *fsys {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.fss[actor]
	if f == nil {
		f = &fsys{s: s, actor: actor}
		s.fss[actor] = f
	}
	return f
}

// handler answers the mount protocol; go-nfs's caching handler wraps it for file handles.
type handler struct{ s *Server }

// Mount gives each client the file system of its actor: "nfs:<client host>".
func (h *handler) Mount(ctx context.Context, conn net.Conn, req gonfs.MountRequest) (gonfs.MountStatus, billy.Filesystem, []gonfs.AuthFlavor) {
	return gonfs.MountStatusOk, h.s.fsFor(h.s.actorOf(conn)), []gonfs.AuthFlavor{gonfs.AuthFlavorNull}
}

// actorOf is the actor of the changes made through conn.
func (s *Server) actorOf(conn net.Conn) string {
	if s.opts.Actor != "" {
		return s.opts.Actor
	}
	host, _, err := net.SplitHostPort(conn.RemoteAddr().String())
	if err != nil {
		host = conn.RemoteAddr().String()
	}
	return "nfs:" + host
}

func (h *handler) Change(f billy.Filesystem) billy.Change {
	if c, ok := f.(billy.Change); ok {
		return c
	}
	return nil
}

// FSStat reports the room the workspace's quota leaves.
func (h *handler) FSStat(ctx context.Context, f billy.Filesystem, st *gonfs.FSStat) error {
	sp := h.s.core.Space(ctx)
	st.TotalSize, st.FreeSize, st.AvailableSize = uint64(sp.Bytes), uint64(sp.FreeBytes), uint64(sp.FreeBytes)
	st.TotalFiles, st.FreeFiles, st.AvailableFiles = uint64(sp.Files), uint64(sp.FreeFiles), uint64(sp.FreeFiles)
	return nil
}

// The caching handler answers these.
func (h *handler) ToHandle(billy.Filesystem, []string) []byte            { return nil }
func (h *handler) FromHandle([]byte) (billy.Filesystem, []string, error) { return nil, nil, nil }
func (h *handler) InvalidateHandle(billy.Filesystem, []byte) error       { return nil }
func (h *handler) HandleLimit() int                                      { return -1 }
