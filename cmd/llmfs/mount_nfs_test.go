//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	nfsc "github.com/willscott/go-nfs-client/nfs"
	"github.com/willscott/go-nfs-client/nfs/rpc"
)

// TestMountNFS: llmfs mount --nfs serves the workspace over NFSv3 and prints the mount
// command macOS runs; a userspace NFS client's changes are journaled as "nfs:127.0.0.1",
// and SIGINT stops serving with them applied.
func TestMountNFS(t *testing.T) {
	dir, mp := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mount", mp, "--nfs", "127.0.0.1:0", "--apply-after", "50ms")
	cmd.Dir = dir
	var errb syncBuilder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	re := regexp.MustCompile(`mount -t nfs -o vers=3,tcp,port=(\d+),mountport=(\d+),nolocks,locallocks 127\.0\.0\.1:/ (\S+)`)
	var m []string
	for i := 0; i < 200 && m == nil; i++ {
		time.Sleep(25 * time.Millisecond)
		m = re.FindStringSubmatch(errb.String())
	}
	if m == nil {
		t.Fatalf("no mount command printed:\n%s", errb.String())
	}
	if m[1] != m[2] || m[3] != mp {
		t.Fatalf("mount command %q: want port=mountport and the mountpoint %s", m[0], mp)
	}
	var c *rpc.Client
	for i := 0; i < 10; i++ { // the client binds a random local port, which may be taken
		if c, err = rpc.DialTCP("tcp", "127.0.0.1:"+m[1], false); !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	target, err := (&nfsc.Mount{Client: c}).Mount("/", rpc.AuthNull)
	if err != nil {
		t.Fatal(err)
	}
	f, err := target.OpenFile("/b.txt", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("b\n")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r, err := target.Open("/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt over NFS: %q %v", b, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("llmfs mount --nfs after SIGINT: %v\n%s", err, errb.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.txt")); err != nil || string(b) != "b\n" {
		t.Errorf("b.txt on the host: %q %v", b, err)
	}
	log := exec.Command(bin, "log", "--actor", "nfs:*")
	log.Dir = dir
	out, err := log.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "b.txt") || !strings.Contains(string(out), "nfs:127.0.0.1") {
		t.Errorf("llmfs log --actor 'nfs:*': %v\n%s", err, out)
	}
}

// syncBuilder is a strings.Builder a process writes while the test reads it.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
