//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests of llmfs mount and llmfs run: the binary, as a person runs it.

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

// llmfsIn runs llmfs args in dir and returns its standard output, standard error and exit
// code.
func llmfsIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if xe, ok := err.(*exec.ExitError); ok {
		code = xe.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fileIs(t *testing.T, p, want string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if want == "" {
		if err == nil {
			t.Errorf("%s exists: %q", p, b)
		}
		return
	}
	if string(b) != want {
		t.Errorf("%s: %q (%v), want %q", p, b, err, want)
	}
}

// TestRunUndo: llmfs run prints what the command changed as one change set and the undo
// command; undoing that set takes back everything the command did; llmfs run exits with
// the command's status; llmfs log --actor finds the run.
func TestRunUndo(t *testing.T) {
	requireFUSE(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "one\ntwo\n", "old.txt": "old\n", ".env": "SECRET=1\n"})
	_, stderr, code := llmfsIn(t, dir, "run", "--", "sh", "-c", "sed -i s/two/three/ a.txt && mv old.txt new.txt && echo made > b.txt && echo tmp > t.lock && rm t.lock && exit 3")
	if code != 3 {
		t.Fatalf("exit %d, want the command's 3\n%s", code, stderr)
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "one\nthree\n")
	fileIs(t, filepath.Join(dir, "b.txt"), "made\n")
	m := regexp.MustCompile(`undo it with: llmfs undo --set (\d+) `).FindStringSubmatch(stderr)
	if m == nil || !strings.Contains(stderr, "change set "+m[1]+" by run:sh") {
		t.Fatalf("no change set and undo command:\n%s", stderr)
	}
	if !strings.Contains(stderr, "a.txt +1 -1") || strings.Contains(stderr, "t.lock") {
		t.Errorf("the summary:\n%s", stderr)
	}
	out, _, _ := llmfsIn(t, dir, "log", "--actor", "run:sh")
	if strings.Count(out, "\n") < 4 || strings.Contains(out, "t.lock") {
		t.Errorf("llmfs log --actor run:sh:\n%s", out)
	}
	if glob, _, _ := llmfsIn(t, dir, "log", "--actor", "run:*"); glob != out {
		t.Errorf("llmfs log --actor 'run:*':\n%s\nwant\n%s", glob, out)
	}
	if none, _, _ := llmfsIn(t, dir, "log", "--actor", "mount:*"); none != "" {
		t.Errorf("llmfs log --actor 'mount:*': %s", none)
	}
	if _, stderr, code := llmfsIn(t, dir, "undo", "--set", m[1]); code != 0 {
		t.Fatalf("undo: %s", stderr)
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "one\ntwo\n")
	fileIs(t, filepath.Join(dir, "old.txt"), "old\n")
	fileIs(t, filepath.Join(dir, "new.txt"), "")
	fileIs(t, filepath.Join(dir, "b.txt"), "")
}

// TestRunRefusals: cat .env is refused (the name does not exist in the mount), a
// read-only workspace gives EROFS, a quota EDQUOT.
func TestRunRefusals(t *testing.T) {
	requireFUSE(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a\n", ".env": "SECRET=1\n"})
	_, stderr, code := llmfsIn(t, dir, "run", "--", "cat", ".env")
	if code == 0 || strings.Contains(stderr, "SECRET") || !strings.Contains(stderr, "No such file") {
		t.Errorf("cat .env: exit %d\n%s", code, stderr)
	}
	_, stderr, code = llmfsIn(t, dir, "run", "--mode", "read-only", "--", "sh", "-c", "echo x > a.txt")
	if code == 0 || !strings.Contains(stderr, "Read-only file system") {
		t.Errorf("a write in read-only: exit %d\n%s", code, stderr)
	}
	_, stderr, code = llmfsIn(t, dir, "run", "--max-file-bytes", "100", "--", "sh", "-c", "head -c 1000 /dev/zero > a.txt")
	if code == 0 || !strings.Contains(stderr, "quota exceeded") {
		t.Errorf("a write past the quota: exit %d\n%s", code, stderr)
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "a\n")
}

// TestRunReview: under --review the run's changes stay pending; the files are untouched.
func TestRunReview(t *testing.T) {
	requireFUSE(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	_, stderr, code := llmfsIn(t, dir, "run", "--review", "--", "sh", "-c", "echo b > a.txt && echo new > n.txt")
	if code != 0 || !strings.Contains(stderr, "2 change(s) pending review") {
		t.Fatalf("run --review: exit %d\n%s", code, stderr)
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "a\n")
	fileIs(t, filepath.Join(dir, "n.txt"), "")
	out, stderr, _ := llmfsIn(t, dir, "review")
	if !strings.Contains(out, "a.txt") || !strings.Contains(out, "n.txt") {
		t.Errorf("llmfs review:\n%s%s", out, stderr)
	}
}

// TestMountSignalAndKill: SIGTERM unmounts cleanly with the changes applied; kill -9 in the
// middle of writes leaves every file old or new and the journal agreeing with the files;
// the next mount on the same mountpoint clears the stale one and works.
func TestMountSignalAndKill(t *testing.T) {
	requireFUSE(t)
	dir, mp := t.TempDir(), t.TempDir()
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "mount", mp, "--apply-after", "50ms")
		cmd.Dir = dir
		var errb strings.Builder
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100 && !strings.Contains(errb.String(), "mounted at"); i++ {
			time.Sleep(50 * time.Millisecond)
		}
		if !strings.Contains(errb.String(), "mounted at") {
			cmd.Process.Kill()
			t.Fatalf("llmfs mount did not mount:\n%s", errb.String())
		}
		return cmd
	}
	cmd := start()
	if err := os.WriteFile(filepath.Join(mp, "a.txt"), []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("llmfs mount after SIGTERM: %v", err)
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "first\n")

	cmd = start()
	content := strings.Repeat("0123456789abcdef", 4096)
	stop := make(chan struct{})
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(filepath.Join(mp, "f"+string(rune('a'+i%20))+".txt"), []byte(content), 0o644)
		}
	}()
	// Kill it once the applier has carried some of the writes onto the directory (it
	// applies at the latest 10 quiet periods after a change, 500 ms here; a loaded
	// machine takes longer), while the writes go on.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if entries, _ := os.ReadDir(dir); len(entries) >= 2 {
			break
		}
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	close(stop)
	entries, _ := os.ReadDir(dir)
	if len(entries) < 2 {
		t.Error("nothing was applied while the writes went on")
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if e.Name() != "a.txt" && string(b) != content {
			t.Errorf("%s is torn after kill -9: %d bytes", e.Name(), len(b))
		}
	}
	out, _, _ := llmfsIn(t, dir, "log")
	for _, e := range entries {
		if e.Name() != "a.txt" && !strings.Contains(out, e.Name()) {
			t.Errorf("%s is on disk and not in the journal:\n%s", e.Name(), out)
		}
	}
	cmd = start() // the stale mount is cleared
	if b, err := os.ReadFile(filepath.Join(mp, "a.txt")); err != nil || string(b) != "first\n" {
		t.Errorf("a.txt through the new mount: %q %v", b, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("llmfs mount after SIGINT: %v", err)
	}
}
