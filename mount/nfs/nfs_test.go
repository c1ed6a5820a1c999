//go:build !js

package nfs_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	nfsc "github.com/willscott/go-nfs-client/nfs"
	"github.com/willscott/go-nfs-client/nfs/rpc"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/mount/nfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	_ "github.com/llmfs/llmfs/store/sql/sqlite"
)

// The NFS face, tested with a userspace NFSv3 client (go-nfs-client) over TCP: no kernel
// NFS client, no /dev/fuse.

type backend struct {
	name string
	open func(t *testing.T, opts *llmfs.Options, files map[string]string) *llmfs.Workspace
}

func backends() []backend { return []backend{{"host", hostWS}, {"sqlite", sqliteWS}} }

func hostWS(t *testing.T, opts *llmfs.Options, files map[string]string) *llmfs.Workspace {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := *opts
	o.Root = dir
	ws, err := host.Open(&o)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func sqliteWS(t *testing.T, opts *llmfs.Options, files map[string]string) *llmfs.Workspace {
	t.Helper()
	ctx := context.Background()
	s, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(t.TempDir(), "ws.db"), "w", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for name, content := range files {
		if dir := path.Dir(name); dir != "." {
			s.Mkdir(ctx, dir)
		}
		if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return llmfs.New(s, opts)
}

// served is a workspace served over NFS on a session layer, and a client mounted on it.
type served struct {
	t   *testing.T
	srv *nfs.Server
	c   *nfsc.Target
}

func serve(t *testing.T, ws *llmfs.Workspace, opts nfs.Options) *served {
	t.Helper()
	ctx := context.Background()
	sess, err := mount.NewSession(ctx, ws, &opts.Options)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := nfs.Serve(ctx, sess.WS, "127.0.0.1:0", opts)
	if err != nil {
		sess.Close()
		t.Fatal(err)
	}
	c, err := dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	mnt := &nfsc.Mount{Client: c}
	target, err := mnt.Mount("/", rpc.AuthNull)
	if err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, srv: srv, c: target}
	t.Cleanup(func() {
		target.Close()
		c.Close()
		s.close()
		sess.Close()
	})
	return s
}

// dial connects an NFS client to addr. The client binds a random local port of its own
// choosing, which may be taken: it tries again then.
func dial(addr string) (*rpc.Client, error) {
	var err error
	for i := 0; i < 10; i++ {
		var c *rpc.Client
		if c, err = rpc.DialTCP("tcp", addr, false); err == nil {
			return c, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// close stops the server, applying the session: one change set.
func (s *served) close() {
	s.t.Helper()
	if err := s.srv.Close(); err != nil {
		s.t.Errorf("close: %v", err)
	}
}

func (s *served) write(p, content string) error {
	f, err := s.c.OpenFile(p, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write([]byte(content)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (s *served) read(p string) (string, error) {
	f, err := s.c.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

func (s *served) list(dir string) []string {
	s.t.Helper()
	es, err := s.c.ReadDirPlus(dir)
	if err != nil {
		s.t.Fatalf("readdir %s: %v", dir, err)
	}
	var names []string
	for _, e := range es {
		if e.Name() != "." && e.Name() != ".." {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// nfsErr is the NFS status of err, 0 when it has none.
func nfsErr(err error) uint32 {
	var e *nfsc.Error
	if errors.As(err, &e) {
		return e.ErrorNum
	}
	return 0
}

func content(t *testing.T, ws *llmfs.Workspace, p string) string {
	t.Helper()
	b, err := ws.ReadFile(context.Background(), p, 1<<20)
	if err != nil {
		return "<" + string(llmfs.CodeOf(err)) + ">"
	}
	return string(b)
}

func journal(t *testing.T, ws *llmfs.Workspace) []llmfs.Change {
	t.Helper()
	cs, err := ws.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(cs)
	return cs
}

const (
	errNoEnt = 2
	errAcces = 13
	errROFS  = 30
	errDQuot = 69
)

// TestNFS: create, write, read, rename over an existing file, remove, mkdir, listing and
// the deny rules through an NFS client; then the journal: one entry per file, by
// "nfs:127.0.0.1", temporaries leaving none, and one change set that undo takes back.
func TestNFS(t *testing.T) {
	files := map[string]string{"keep.txt": "keep\n", "target.txt": "target\n", ".env": "SECRET=1\n", "sub/x.txt": "x\n"}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.ReadWrite}, files)
			s := serve(t, ws, nfs.Options{})
			if err := s.write("/new.txt", "hello "); err != nil {
				t.Fatal(err)
			}
			f, err := s.c.OpenFile("/new.txt", 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.Seek(6, io.SeekStart)
			if _, err := f.Write([]byte("world\n")); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if got, err := s.read("/new.txt"); err != nil || got != "hello world\n" {
				t.Fatalf("read back: %q %v", got, err)
			}
			// An editor's save: a temporary renamed over the file.
			if err := s.write("/target.txt.tmp", "saved\n"); err != nil {
				t.Fatal(err)
			}
			if err := s.c.Rename("/target.txt.tmp", "/target.txt"); err != nil {
				t.Fatal(err)
			}
			// A lock file: made and removed, no entry.
			if err := s.write("/lock", "1"); err != nil {
				t.Fatal(err)
			}
			if err := s.c.Remove("/lock"); err != nil {
				t.Fatalf("remove what the mount made: %v", err)
			}
			if err := s.c.Remove("/keep.txt"); nfsErr(err) != errAcces {
				t.Errorf("read-write removal of a file that was there: %v, want NFS3ERR_ACCES", err)
			}
			if _, err := s.c.Mkdir("/dir", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := s.write("/dir/a.txt", "a\n"); err != nil {
				t.Fatal(err)
			}
			if got, want := s.list("/"), []string{"dir", "keep.txt", "new.txt", "sub", "target.txt"}; !slices.Equal(got, want) {
				t.Errorf("listing: %v, want %v (no .env, no lock)", got, want)
			}
			if got, want := s.list("/dir"), []string{"a.txt"}; !slices.Equal(got, want) {
				t.Errorf("listing of dir: %v, want %v", got, want)
			}
			if _, _, err := s.c.Lookup("/.env", false); !os.IsNotExist(err) && nfsErr(err) != errNoEnt {
				t.Errorf("lookup of a denied name: %v, want not found", err)
			}
			if _, err := s.read("/.env"); err == nil {
				t.Error("a denied name was read")
			}
			if err := s.write("/.env", "x"); err == nil {
				t.Error("a denied name was created")
			}
			s.close()

			if got := content(t, ws, "new.txt"); got != "hello world\n" {
				t.Errorf("new.txt on the workspace: %q", got)
			}
			if got := content(t, ws, "target.txt"); got != "saved\n" {
				t.Errorf("target.txt on the workspace: %q", got)
			}
			if got := content(t, ws, ".env"); got == "x" {
				t.Error(".env overwritten")
			}
			cs := journal(t, ws)
			var got []string
			for _, c := range cs {
				if c.Actor != "nfs:127.0.0.1" {
					t.Errorf("entry by %q, want nfs:127.0.0.1: %+v", c.Actor, c)
				}
				if c.Set != cs[0].Set {
					t.Errorf("entry in set %d, want one set %d", c.Set, cs[0].Set)
				}
				got = append(got, ws.Paths().Rel(c.Path))
			}
			slices.Sort(got)
			if want := []string{"dir", "dir/a.txt", "new.txt", "target.txt"}; !slices.Equal(got, want) {
				t.Errorf("journal: %v, want one entry for each of %v", got, want)
			}
			// Undo removes what the set made: a read-write workspace may not, a full one may.
			full := llmfs.New(ws.Store(), &llmfs.Options{})
			if _, err := full.History().UndoSet(context.Background(), cs[0].Set); err != nil {
				t.Fatal(err)
			}
			if got := content(t, ws, "target.txt"); got != "target\n" {
				t.Errorf("target.txt after undo: %q", got)
			}
			if got := content(t, ws, "new.txt"); got == "hello world\n" {
				t.Errorf("new.txt after undo: %q", got)
			}
		})
	}
}

// TestNFSReadOnly: every change is NFS3ERR_ROFS; reading works.
func TestNFSReadOnly(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.ReadOnly}, map[string]string{"a.txt": "a\n"})
			s := serve(t, ws, nfs.Options{})
			if got, err := s.read("/a.txt"); err != nil || got != "a\n" {
				t.Fatalf("read: %q %v", got, err)
			}
			if _, err := s.c.Create("/b.txt", 0o644); nfsErr(err) != errROFS {
				t.Errorf("create: %v, want NFS3ERR_ROFS", err)
			}
			if err := s.write("/a.txt", "x"); nfsErr(err) != errROFS {
				t.Errorf("write: %v, want NFS3ERR_ROFS", err)
			}
			if err := s.c.Remove("/a.txt"); nfsErr(err) != errROFS {
				t.Errorf("remove: %v, want NFS3ERR_ROFS", err)
			}
			if _, err := s.c.Mkdir("/d", 0o755); nfsErr(err) != errROFS {
				t.Errorf("mkdir: %v, want NFS3ERR_ROFS", err)
			}
			s.close()
			if got := content(t, ws, "a.txt"); got != "a\n" {
				t.Errorf("a.txt: %q", got)
			}
			if cs := journal(t, ws); len(cs) != 0 {
				t.Errorf("journal of a read-only mount: %+v", cs)
			}
		})
	}
}

// TestNFSQuota: a WRITE past the file quota is NFS3ERR_DQUOT and the file keeps its
// content: nothing half-written.
func TestNFSQuota(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Quota: llmfs.Quota{MaxFileBytes: 16}}, map[string]string{"a.txt": "small\n"})
			s := serve(t, ws, nfs.Options{})
			if err := s.write("/a.txt", strings.Repeat("x", 64)); nfsErr(err) != errDQuot {
				t.Errorf("write past the quota: %v, want NFS3ERR_DQUOT", err)
			}
			if err := s.srv.Flush(context.Background()); err == nil {
				t.Log("flush after the refusal: no error")
			}
			if got, err := s.read("/a.txt"); err != nil || got != "small\n" {
				t.Errorf("a.txt through NFS after the refusal: %q %v", got, err)
			}
			s.close()
			if got := content(t, ws, "a.txt"); got != "small\n" {
				t.Errorf("a.txt on the workspace: %q", got)
			}
		})
	}
}

// TestNFSSetattr: a truncation (SETATTR size, what "> file" sends) and a new content
// reach the workspace as one write; chmod holds in the mount and on the workspace (its own
// entry, after the write it needed applied).
func TestNFSSetattr(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a long first content\n"})
			s := serve(t, ws, nfs.Options{})
			if err := s.c.Setattr("/a.txt", nfsc.Sattr3{Size: nfsc.SetSize{SetIt: true, Size: 0}}); err != nil {
				t.Fatal(err)
			}
			if err := s.write("/a.txt", "short\n"); err != nil {
				t.Fatal(err)
			}
			if got, err := s.read("/a.txt"); err != nil || got != "short\n" {
				t.Errorf("a.txt through NFS: %q %v", got, err)
			}
			if err := s.c.Setattr("/a.txt", nfsc.Sattr3{Mode: nfsc.SetMode{SetIt: true, Mode: 0o755}}); err != nil {
				t.Fatal(err)
			}
			if fi, err := s.c.Getattr("/a.txt"); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("mode after chmod 755: %v %v", fi, err)
			}
			s.close()
			if got := content(t, ws, "a.txt"); got != "short\n" {
				t.Errorf("a.txt on the workspace: %q", got)
			}
			if cs := journal(t, ws); len(cs) != 2 || cs[0].Op != overlay.OpApply || cs[1].Op != llmfs.ChangeChmod {
				t.Errorf("journal: %+v, want a write of a.txt, then its chmod", cs)
			}
		})
	}
}

// TestNFSIdle: a file written through NFS is committed once no WRITE came for Idle, and
// applied once the mount was quiet, while the server keeps serving: one entry.
func TestNFSIdle(t *testing.T) {
	ws := hostWS(t, &llmfs.Options{}, nil)
	s := serve(t, ws, nfs.Options{Options: mount.Options{Quiet: 50 * time.Millisecond}, Idle: 50 * time.Millisecond})
	f, err := s.c.OpenFile("/a.txt", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := f.Write([]byte("line\n")); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	deadline := time.Now().Add(5 * time.Second)
	for content(t, ws, "a.txt") != "line\nline\nline\n" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := content(t, ws, "a.txt"); got != "line\nline\nline\n" {
		t.Fatalf("a.txt while serving: %q", got)
	}
	if cs := journal(t, ws); len(cs) != 1 || cs[0].Actor != "nfs:127.0.0.1" {
		t.Errorf("journal: %+v, want one entry by nfs:127.0.0.1", cs)
	}
}

// TestNFSCloseEndsConnections: once the server is closed (its session applied), a client
// still connected gets no more service (go-nfs-client then waits for a reply that never
// comes), and a new one cannot connect: nothing reaches the session after it was applied.
func TestNFSCloseEndsConnections(t *testing.T) {
	ws := hostWS(t, &llmfs.Options{}, nil)
	s := serve(t, ws, nfs.Options{})
	if err := s.write("/a.txt", "a\n"); err != nil {
		t.Fatal(err)
	}
	addr := s.srv.Addr()
	s.close()
	done := make(chan error, 1)
	go func() { done <- s.write("/b.txt", "b\n") }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a write after the server closed succeeded")
		}
	case <-time.After(time.Second):
	}
	if c, err := dial(addr); err == nil {
		c.Close()
		t.Error("a client connected after the server closed")
	}
	if got := content(t, ws, "b.txt"); got == "b\n" {
		t.Error("b.txt reached the workspace after the server closed")
	}
	if got := content(t, ws, "a.txt"); got != "a\n" {
		t.Errorf("a.txt: %q", got)
	}
}
