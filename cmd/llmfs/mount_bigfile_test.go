//go:build linux

package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// bigFileBytes is the size of the large file TestMountBigFile writes: 1 GiB in CI or with
// LLMFS_TEST_LONG=1 (some 2 minutes for each store on a busy machine), else 256 MiB,
// still twice the memory bound.
func bigFileBytes() int64 {
	if os.Getenv("CI") == "true" || os.Getenv("LLMFS_TEST_LONG") == "1" {
		return 1 << 30
	}
	return 256 << 20
}

// mountMaxRSS bounds the memory of llmfs mount (issue 36): its peak resident set.
const mountMaxRSS = 128 << 20

// TestMountBigFile: a file larger than the mount's memory bound, written through the
// mount, reads back equal, lands on the workspace whole, and its change undoes to the old
// content; the llmfs mount process's peak memory stays under 128 MiB all along (the file
// goes from the write buffer to the store as a stream, never whole in memory).
func TestMountBigFile(t *testing.T) {
	requireFUSE(t)
	for _, kind := range []string{"host", "sqlite"} {
		t.Run(kind, func(t *testing.T) { testMountBigFile(t, kind) })
	}
}

func testMountBigFile(t *testing.T, kind string) {
	ctx := context.Background()
	dir, mp := t.TempDir(), t.TempDir()
	var wsFlags []string
	var readBase func() (io.ReadCloser, error)
	switch kind {
	case "host":
		if err := os.WriteFile(filepath.Join(dir, "big.bin"), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		readBase = func() (io.ReadCloser, error) { return os.Open(filepath.Join(dir, "big.bin")) }
	case "sqlite":
		dsn := "sqlite:" + filepath.Join(dir, "ws.db")
		s, err := sqlstore.OpenDSN(ctx, dsn, "w", &sqlstore.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.WriteFile(ctx, "big.bin", strings.NewReader("old\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		wsFlags = []string{"--store", dsn, "--workspace", "w"}
		readBase = func() (io.ReadCloser, error) {
			s, err := sqlstore.OpenDSN(ctx, dsn, "w", nil)
			if err != nil {
				return nil, err
			}
			f, err := s.Open(ctx, "big.bin")
			if err != nil {
				s.Close()
				return nil, err
			}
			return closeBoth{f, s}, nil
		}
	}
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"mount", mp, "--apply-after", "200ms"}, wsFlags...)...)
	cmd.Dir = dir
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
			exec.Command("fusermount3", "-u", "-z", mp).Run()
		}
	}()
	for i := 0; i < 200 && !strings.Contains(errb.String(), "mounted at"); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(errb.String(), "mounted at") {
		t.Fatalf("llmfs mount did not mount:\n%s", errb.String())
	}

	hwm := watchHWM(cmd.Process.Pid)
	size := bigFileBytes()
	start := time.Now()
	want := writeRandom(t, filepath.Join(mp, "big.bin"), size)
	t.Logf("wrote %d MiB through the mount in %v", size>>20, time.Since(start))
	if got := sumFile(t, func() (io.ReadCloser, error) { return os.Open(filepath.Join(mp, "big.bin")) }); got != want {
		t.Fatalf("read back through the mount: sha256 %s, want %s", got, want)
	}
	cmd.Process.Signal(syscall.SIGTERM) // unmounting applies what is left
	if err := cmd.Wait(); err != nil {
		t.Fatalf("llmfs mount: %v\n%s", err, errb.String())
	}
	// The kernel's VmHWM of the process, watched until it exited (its rusage would count
	// the test process it was forked from, whatever that held then).
	peak := hwm()
	t.Logf("llmfs mount: peak RSS %d MiB, %v in all", peak>>20, time.Since(start))
	if peak > mountMaxRSS {
		t.Errorf("llmfs mount's peak RSS was %d MiB, over %d MiB", peak>>20, mountMaxRSS>>20)
	}
	if got := sumFile(t, readBase); got != want {
		t.Fatalf("the workspace's file: sha256 %s, want %s", got, want)
	}

	out, stderr, code := llmfsIn(t, dir, append([]string{"log", "big.bin", "--json"}, wsFlags...)...)
	var changes []struct {
		ID    int64         `json:"id"`
		After store.Version `json:"after"`
	}
	if err := json.Unmarshal([]byte(out), &changes); err != nil || code != 0 || len(changes) == 0 {
		t.Fatalf("llmfs log: %v (exit %d) %s %s", err, code, out, stderr)
	}
	if changes[0].After.Size != size {
		t.Errorf("the journal's newest change of big.bin: %+v", changes[0])
	}
	// Its lines are not counted (the journal keeps no content of a file this large), and
	// the log says so rather than print +0 -0.
	if out, _, _ := llmfsIn(t, dir, append([]string{"log", "big.bin", "--limit", "1"}, wsFlags...)...); !strings.Contains(out, "+? -?") {
		t.Errorf("llmfs log of the large change: %q, want +? -?", out)
	}
	if _, stderr, code := llmfsIn(t, dir, append([]string{"undo", fmt.Sprint(changes[0].ID)}, wsFlags...)...); code != 0 {
		t.Fatalf("llmfs undo: exit %d: %s", code, stderr)
	}
	f, err := readBase()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<10))
	f.Close()
	if err != nil || string(b) != "old\n" {
		t.Errorf("after undo the workspace's file holds %q (%v), want the old content", b, err)
	}
}

// watchHWM polls the peak resident memory (VmHWM) of process pid until it exits; the
// function it returns stops and gives the largest seen, in bytes.
func watchHWM(pid int) func() int64 {
	var peak int64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					var kb int64
					if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
						peak = max(peak, kb<<10)
					}
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		return peak
	}
}

type closeBoth struct {
	io.ReadCloser
	c io.Closer
}

func (c closeBoth) Close() error {
	err := c.ReadCloser.Close()
	c.c.Close()
	return err
}

// writeRandom writes size pseudo-random bytes to p in 1 MiB writes and returns their
// sha256.
func writeRandom(t *testing.T, p string, size int64) string {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.NewChaCha8([32]byte{36})
	h := sha256.New()
	buf := make([]byte, 1<<20)
	for left := size; left > 0; left -= int64(len(buf)) {
		b := buf[:min(left, int64(len(buf)))]
		rng.Read(b)
		h.Write(b)
		if _, err := f.Write(b); err != nil {
			f.Close()
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// sumFile returns the sha256 of what open's reader yields.
func sumFile(t *testing.T, open func() (io.ReadCloser, error)) string {
	t.Helper()
	f, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
