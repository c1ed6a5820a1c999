//go:build unix

package osdir_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// crashChunk is what the child of the crash tests writes per call: big enough that a
// kill lands in the middle of a write most of the time.
const crashChunk = 8 << 20

// TestCrashChild is the child process of the crash tests; it does nothing unless run by
// one. It writes to the file f.txt of the store at $LLMFS_CRASH_DIR in a loop, in the
// mode $LLMFS_CRASH_MODE, until it is killed, after saying "ready" on stdout.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("LLMFS_CRASH_DIR")
	if dir == "" {
		t.Skip("run by the crash tests only")
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	mode := store.Append
	if os.Getenv("LLMFS_CRASH_MODE") == "replace" {
		mode = store.Replace
	}
	if n, _ := strconv.Atoi(os.Getenv("LLMFS_CRASH_COUNT")); n > 0 {
		// Not killed: append n small chunks, then exit.
		for range n {
			if _, err := s.WriteFile(context.Background(), "f.txt", strings.NewReader(strings.Repeat("x", 1023)+"\n"), store.WriteOptions{Mode: mode}); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	os.Stdout.WriteString("ready\n")
	for i := 0; ; i++ {
		content := bytes.Repeat([]byte{'a' + byte(i%26)}, crashChunk)
		if _, err := s.WriteFile(context.Background(), "f.txt", bytes.NewReader(content), store.WriteOptions{Mode: mode}); err != nil {
			t.Fatal(err)
		}
	}
}

// crashLoop runs the child in mode n times, killing it with SIGKILL at a random moment,
// and calls check with the directory after each kill.
func crashLoop(t *testing.T, mode string, n int, check func(dir string)) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LLMFS_CRASH_DIR="+dir, "LLMFS_CRASH_MODE="+mode)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child did not start: %q, %v", buf, err)
		}
		time.Sleep(time.Duration(rand.IntN(150)+5) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		check(dir)
	}
}

// Issue 12.3: osdir appended in place, so a kill -9 during a 12 MiB append left 2, 4 or
// 8 MiB of it. After a crash the file holds whole appends only.
func TestAppendAtomicUnderKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes in a loop")
	}
	crashLoop(t, "append", 25, func(dir string) {
		data, err := os.ReadFile(filepath.Join(dir, "f.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(data)%crashChunk != 0 {
			t.Fatalf("after a kill the file holds %d bytes: %d of an append", len(data), len(data)%crashChunk)
		}
		for k := 0; k < len(data); k += crashChunk {
			want := bytes.Repeat([]byte{'a' + byte(k/crashChunk%26)}, crashChunk)
			if !bytes.Equal(data[k:k+crashChunk], want) {
				t.Fatalf("append %d is not whole", k/crashChunk)
			}
		}
	})
}

// Issue 12.4: a kill -9 during an overwrite left .NAME.llmfs-XXXX behind. On Linux the
// new content has no name until it is in place (O_TMPFILE), so nothing is left; the file
// holds one whole write.
func TestNoTempFileAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes in a loop")
	}
	crashLoop(t, "replace", 15, func(dir string) {
		data, err := os.ReadFile(filepath.Join(dir, "f.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != 0 && (len(data) != crashChunk || bytes.Count(data, data[:1]) != len(data)) {
			t.Fatalf("after a kill the file holds %d bytes, not one whole write", len(data))
		}
		des, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var others []string
		for _, de := range des {
			if de.Name() != "f.txt" {
				others = append(others, de.Name())
			}
		}
		if len(others) > 0 && (runtime.GOOS == "linux" || !onlyTemps(others)) {
			t.Fatalf("after a kill the directory holds %v besides f.txt", others)
		}
	})
}

func onlyTemps(names []string) bool {
	for _, n := range names {
		if !strings.Contains(n, ".llmfs-") {
			return false
		}
	}
	return true
}

// Appends copy the old content, so two processes appending to one file at once could
// both copy the same old content and one append be lost; they take turns by flock.
func TestAppendsFromTwoProcessesAllLand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 100
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(exe, "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LLMFS_CRASH_DIR="+dir, "LLMFS_CRASH_MODE=append", "LLMFS_CRASH_COUNT="+strconv.Itoa(n))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 2*n*1024 {
		t.Errorf("two processes appended %d chunks each; the file holds %d bytes, %d chunks", n, len(data), len(data)/1024)
	}
}
