//go:build linux

package mount_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// TestGoBuild: go build of a small program in the mount, running what it built (the
// execute bit the linker set), go vet and a test runner (go test).
func TestGoBuild(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{
				"go.mod":       "module hello\n\ngo 1.21\n",
				"main.go":      "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello from the mount\") }\n",
				"main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {}\n",
			})
			m := mountWS(t, ws, mount.Options{Quiet: 200 * time.Millisecond})
			out := m.must(gocmd + " build -o hello . && ./hello")
			if !strings.Contains(out, "hello from the mount") {
				t.Errorf("the built program said %q", out)
			}
			if out := m.must(gocmd + " vet ."); out != "" {
				t.Errorf("go vet: %q", out)
			}
			if out := m.must(gocmd + " test -count=1 ."); !strings.HasPrefix(out, "ok") {
				t.Errorf("go test: %q", out)
			}
		})
	}
}

// TestShellTools: sed -i (a temporary file renamed over the original), mv, rm, touch -d,
// chmod +x, ln -s, and ln (a hard link: passed to a host directory, EPERM elsewhere).
func TestShellTools(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "one\ntwo\n", "old.txt": "old\n", "gone.txt": "x\n"})
			m := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
			m.must(`sed -i s/two/three/ a.txt
mv old.txt new.txt
rm gone.txt
mkdir -p d/e && echo deep > d/e/f.txt
printf '#!/bin/sh\necho script ran\n' > run.sh && chmod +x run.sh
touch -d 2001-02-03T04:05:06Z a.txt`)
			if out := m.must("./run.sh"); out != "script ran\n" {
				t.Errorf("./run.sh: %q", out)
			}
			if out := m.must("date -u -r a.txt +%Y"); out != "2001\n" {
				t.Errorf("mtime after touch -d: %q", out)
			}
			if out := m.must("ln -s d/e/f.txt link && readlink link && cat link"); out != "d/e/f.txt\ndeep\n" {
				t.Errorf("ln -s, readlink, cat: %q", out)
			}
			out, err := m.sh("ln a.txt hard && cat hard")
			if b.name == "host" && (err != nil || out != "one\nthree\n") {
				t.Errorf("ln on a host directory: %v %q", err, out)
			}
			if b.name != "host" && (err == nil || !strings.Contains(out, "not permitted")) {
				t.Errorf("ln on a virtual store: %v %q, want EPERM", err, out)
			}
			m.unmount()
			want := map[string]string{"a.txt": "one\nthree\n", "new.txt": "old\n", "old.txt": "", "gone.txt": "", "d/e/f.txt": "deep\n"}
			for p, w := range want {
				if got := read(t, ws, p); got != w {
					t.Errorf("%s on the workspace: %q, want %q", p, got, w)
				}
			}
		})
	}
}

// TestModes: read-only refuses every change with EROFS; read-write refuses to remove a file
// that existed before (EPERM) and lets the mount remove what it created.
func TestModes(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.ReadOnly}, map[string]string{"a.txt": "a\n"})
			m := mountWS(t, ws, mount.Options{})
			for _, script := range []string{"echo x > a.txt", "echo x > b.txt", "rm a.txt", "mkdir d", "mv a.txt c.txt"} {
				if out, err := m.sh(script); err == nil || !strings.Contains(out, "Read-only file system") {
					t.Errorf("%s in a read-only mount: %v %q", script, err, out)
				}
			}
			if out := m.must("cat a.txt"); out != "a\n" {
				t.Errorf("cat: %q", out)
			}

			ws = b.open(t, &llmfs.Options{Mode: llmfs.ReadWrite}, map[string]string{"a.txt": "a\n"})
			m = mountWS(t, ws, mount.Options{})
			if out, err := m.sh("rm a.txt"); err == nil || !strings.Contains(out, "not permitted") {
				t.Errorf("rm of a file that existed in a read-write mount: %v %q", err, out)
			}
			m.must("echo tmp > made.lock && rm made.lock && mkdir tmpdir && rmdir tmpdir && echo b > b.txt")
			m.unmount()
			if read(t, ws, "a.txt") != "a\n" || read(t, ws, "b.txt") != "b\n" || read(t, ws, "made.lock") != "" {
				t.Error("the read-write mount left the wrong files")
			}
		})
	}
}

// TestQuota: a write past the workspace's quota fails with EDQUOT and leaves the file as
// it was, nothing half-written.
func TestQuota(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Quota: llmfs.Quota{MaxFileBytes: 1000, MaxBytes: 4000}}, map[string]string{"a.txt": "small\n"})
			m := mountWS(t, ws, mount.Options{})
			out, err := m.sh("head -c 5000 /dev/zero > a.txt")
			if err == nil || !strings.Contains(out, "quota exceeded") {
				t.Errorf("a write past the per-file quota: %v %q", err, out)
			}
			out, err = m.sh("for i in 1 2 3 4 5; do head -c 900 /dev/zero > f$i; done")
			if err == nil || !strings.Contains(out, "quota exceeded") {
				t.Errorf("writes past the total quota: %v %q", err, out)
			}
			if out := m.must("cat a.txt"); out != "small\n" {
				t.Errorf("a.txt in the mount after the refusal: %q", out)
			}
			m.unmount()
			if got := read(t, ws, "a.txt"); got != "small\n" {
				t.Errorf("a.txt on the workspace: %q", got)
			}
		})
	}
}

// TestTemporariesLeaveNoEntry: a file created and removed while mounted, and a file under
// --journal-ignore, leave no journal entry; a file written many times is one entry.
func TestTemporariesLeaveNoEntry(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, nil)
			m := mountWS(t, ws, mount.Options{Quiet: time.Hour, JournalIgnore: []string{"bin", "*.o"}})
			m.must(`echo lock > x.lock && echo data > data.txt && rm x.lock
for i in 1 2 3 4 5; do echo $i >> data.txt; done
mkdir bin && echo built > bin/tool && echo obj > main.o`)
			m.unmount()
			cs := history(t, ws)
			log := paths(ws, cs)
			if strings.Contains(log, "x.lock") || strings.Contains(log, "bin") || strings.Contains(log, "main.o") {
				t.Errorf("entries of temporaries or ignored paths:\n%s", log)
			}
			if strings.Count(log, "data.txt") != 1 {
				t.Errorf("data.txt is not one entry:\n%s", log)
			}
			if read(t, ws, "bin/tool") != "built\n" || read(t, ws, "main.o") != "obj\n" {
				t.Error("ignored paths did not reach the workspace")
			}
		})
	}
}

// TestConflict: a file changed on the workspace by someone else while the mount holds its
// own change to it: the later (the mount's) wins when applied, and the other's version stays
// in the journal, undoable.
func TestConflict(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "base\n"})
			m := mountWS(t, ws, mount.Options{Quiet: time.Hour})
			m.must("echo mount > a.txt")
			other := ws.With(llmfs.Actor("other"))
			if _, err := other.Write(t.Context(), "a.txt", "other\n", llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			m.unmount()
			if got := read(t, ws, "a.txt"); got != "mount\n" {
				t.Fatalf("a.txt after the conflict: %q", got)
			}
			cs, err := ws.History().List(t.Context(), llmfs.HistoryFilter{Actor: "other"})
			if err != nil || len(cs) != 1 {
				t.Fatalf("the other's change: %v %v", cs, err)
			}
			last := history(t, ws)
			t.Logf("journal:\n%s", paths(ws, last))
			if _, err := ws.History().Undo(t.Context(), last[len(last)-1].ID); err != nil {
				t.Fatal(err)
			}
			if got := read(t, ws, "a.txt"); got != "other\n" {
				t.Errorf("after undoing the mount's write: %q", got)
			}
		})
	}
}
