//go:build !js && !wasip1

package sqlstore

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// The crash test runs this test binary again as a writer process and kills it with SIGKILL
// in the middle of its writes.
const (
	crashDSNEnv = "LLMFS_CRASH_CHILD_DSN"
	crashWSEnv  = "LLMFS_CRASH_CHILD_WS"
	crashFiles  = 20
	crashWrites = 1000
)

// crashContent is what write i puts in its file: a header naming the write, then filler
// derived from it, from nothing up to three chunks.
func crashContent(i int) string {
	size := (i * 7919) % (3 * ChunkSize)
	head := fmt.Sprintf("write %d of f%d, %d bytes\n", i, i%crashFiles, size)
	if size < len(head) {
		size = len(head)
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(head)
	for b.Len() < size {
		b.WriteByte(byte('a' + (i+b.Len())%26))
	}
	return b.String()
}

// TestCrashChild is the writer process of TestCrash; run alone it does nothing.
func TestCrashChild(t *testing.T) {
	dsn := os.Getenv(crashDSNEnv)
	if dsn == "" {
		t.Skip("the writer process of TestCrash")
	}
	s, err := OpenDSN(ctx, dsn, os.Getenv(crashWSEnv), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	for i := range crashWrites {
		name := fmt.Sprintf("f%d", i%crashFiles)
		var err error
		if i%3 == 0 {
			_, err = s.WriteFile(ctx, "log", strings.NewReader(fmt.Sprintf("append %d\n", i)), store.WriteOptions{Mode: store.Append})
		} else {
			_, err = s.WriteFile(ctx, name, strings.NewReader(crashContent(i)), store.WriteOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(out, "done %d\n", i)
		out.Flush()
	}
}

// TestCrash kills a process with SIGKILL in the middle of 1,000 writes, then checks that
// every file holds the content of one whole write, no older than the last acknowledged one,
// that the appended log has no torn or lost line, and that the usage counters are exact.
func TestCrash(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		dsn := os.Getenv(postgresEnv)
		if b.name == "SQLite" {
			dsn = "sqlite:" + filepath.Join(testDir(t), "llmfs.db")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDSNEnv+"="+dsn, crashWSEnv+"="+s.ID())
		cmd.Stderr = os.Stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Acknowledged writes: the last one per file, and the number of appends.
		acked := map[string]int{}
		appends := 0
		last := -1
		// Lines the writer printed before it died count as acknowledged, those still in the
		// pipe when it was killed included; at most one more write may have committed
		// without being reported.
		sc := bufio.NewScanner(stdout)
		const killAfter = 150
		killed := false
		for sc.Scan() {
			i, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "done "))
			if err != nil {
				continue // test framework output
			}
			last = i
			if i%3 == 0 {
				appends++
			} else {
				acked[fmt.Sprintf("f%d", i%crashFiles)] = i
			}
			if i >= killAfter && !killed {
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		}
		cmd.Wait()
		if !killed || last == crashWrites-1 {
			t.Fatalf("writer finished (last write %d) before it could be killed", last)
		}
		t.Logf("killed after write %d", last)

		for f := range crashFiles {
			name := fmt.Sprintf("f%d", f)
			want, ok := acked[name]
			content, err := readFileErr(s, name)
			if !ok {
				continue // may or may not exist
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var i int
			if _, err := fmt.Sscanf(content, "write %d of", &i); err != nil {
				t.Fatalf("%s starts %.40q", name, content)
			}
			if i < want {
				t.Errorf("%s holds write %d, older than the acknowledged write %d", name, i, want)
			}
			if content != crashContent(i) {
				t.Errorf("%s holds a torn write %d (%d bytes)", name, i, len(content))
			}
			fi, err := s.Stat(ctx, name)
			if err != nil || fi.Size() != int64(len(content)) {
				t.Errorf("%s: Stat = %v, %v; content has %d bytes", name, fi, err, len(content))
			}
			h := store.Hash([]byte(content))
			if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{IfMatch: h}); err != nil {
				t.Errorf("%s: IfMatch with the content's hash: %v", name, err)
			}
		}
		log, err := readFileErr(s, "log")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
		if len(lines) < appends || len(lines) > appends+1 || !strings.HasSuffix(log, "\n") {
			t.Errorf("log has %d lines (%d bytes), %d appends were acknowledged", len(lines), len(log), appends)
		}
		for k, l := range lines {
			if l != fmt.Sprintf("append %d", 3*k) {
				t.Fatalf("log line %d = %q", k, l)
			}
		}
		checkUsage(t, s)
	})
}

func readFileErr(s store.Store, name string) (string, error) {
	f, err := s.Open(ctx, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}
