//go:build linux

package mount_test

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/internal/testcache"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

func TestMain(m *testing.M) { testcache.Main(m) }

// requireFUSE skips t where FUSE cannot run, and fails it in CI, where it must.
func requireFUSE(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := os.Stat("/dev/fuse"); err != nil {
		why = "no /dev/fuse: " + err.Error()
	} else if _, err := exec.LookPath("fusermount3"); err != nil {
		why = "no fusermount3 (apt-get install fuse3)"
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("FUSE must run in CI:", why)
	}
	t.Skip(why)
}

// backend makes a workspace with opts, on a host directory or in a SQLite store.
type backend struct {
	name string
	open func(t *testing.T, opts *llmfs.Options, files map[string]string) *llmfs.Workspace
}

func backends() []backend {
	return []backend{{"host", hostWS}, {"sqlite", sqliteWS}}
}

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
	ws := llmfs.New(s, opts)
	for name, content := range files {
		// Through the store: the deny rules refuse some of them (.env).
		if dir := path.Dir(name); dir != "." {
			s.Mkdir(ctx, dir)
		}
		if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// gitOptions let git work: no default deny rules, but .env and keys still denied.
func gitOptions() *llmfs.Options {
	return &llmfs.Options{NoDefaultDeny: true, Deny: []string{"**/.env", "**/.env.*", "**/*.pem", "**/*.key"}}
}

// mounted is a workspace mounted on a session layer.
type mounted struct {
	t   *testing.T
	ws  *llmfs.Workspace // the workspace beneath
	dir string           // the mountpoint
	srv *mount.Server
}

func mountWS(t *testing.T, ws *llmfs.Workspace, opts mount.Options) *mounted {
	t.Helper()
	requireFUSE(t)
	ctx := context.Background()
	sess, err := mount.NewSession(ctx, ws, &opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv, err := mount.Mount(ctx, sess.WS, dir, opts)
	if err != nil {
		sess.Close()
		t.Fatal(err)
	}
	m := &mounted{t: t, ws: ws, dir: dir, srv: srv}
	t.Cleanup(func() {
		m.unmount()
		sess.Close()
	})
	return m
}

func (m *mounted) unmount() {
	m.t.Helper()
	if err := m.srv.Unmount(); err != nil {
		m.t.Errorf("unmount: %v", err)
	}
}

// sh runs script with sh -e in the mount and returns its combined output.
func (m *mounted) sh(script string) (string, error) {
	// The shell changes into the mount itself: with cmd.Dir, the fork's child would wait
	// on this process's FUSE server while the forking thread blocks garbage collection
	// (see runCommand in cmd/llmfs), and the test hangs.
	cmd := exec.Command("sh", "-ec", `cd "$0"`+"\n"+script, m.dir)
	// A home of its own for git's configuration; go keeps the build cache it had.
	cmd.Env = append(os.Environ(), "HOME="+m.t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GOCACHE="+goEnv("GOCACHE"), "GOMODCACHE="+goEnv("GOMODCACHE"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		<-done
		m.t.Fatalf("%q hung", script)
	}
	return string(out), err
}

// must runs script and fails the test when it fails.
func (m *mounted) must(script string) string {
	m.t.Helper()
	out, err := m.sh(script)
	if err != nil {
		m.t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return out
}

// read returns the content of p in the workspace beneath, "" if absent.
func read(t *testing.T, ws *llmfs.Workspace, p string) string {
	t.Helper()
	b, err := ws.ReadFile(context.Background(), p, 1<<20)
	if err != nil {
		return ""
	}
	return string(b)
}

// history returns the workspace's journal, oldest first, as "actor op path" lines.
func history(t *testing.T, ws *llmfs.Workspace) []llmfs.Change {
	t.Helper()
	cs, err := ws.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
	return cs
}

func paths(ws *llmfs.Workspace, cs []llmfs.Change) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Actor + " " + c.Op + " " + ws.Paths().Rel(c.Path) + "\n")
	}
	return b.String()
}

// goEnv is the go command's value of the variable name, before a test changes HOME.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
