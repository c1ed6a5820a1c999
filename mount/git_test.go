//go:build linux

package mount_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/mount"
)

// TestGit: git init, add, commit and log in a mount, with the deny rules that let git
// work and keep .env denied; the journal names git and holds no lock file.
func TestGit(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, gitOptions(), map[string]string{"main.go": "package main\n", ".env": "SECRET=1\n"})
			m := mountWS(t, ws, mount.Options{Quiet: 200 * time.Millisecond})
			m.must(`git init -q . && git config user.email a@b.c && git config user.name T
git add main.go && git commit -qm one
echo '// two' >> main.go && git commit -qam two`)
			if out := m.must("git log --oneline"); strings.Count(out, "\n") != 2 {
				t.Errorf("git log: %q", out)
			}
			if out := m.must("git status --short"); out != "" {
				t.Errorf("git status after the commits: %q", out)
			}
			if out, err := m.sh("cat .env"); err == nil {
				t.Errorf("cat .env in the mount read %q", out)
			}
			if _, err := m.sh("echo x > .env.local"); err == nil {
				t.Error("a denied name was created")
			}
			m.unmount()
			if got := read(t, ws, "main.go"); got != "package main\n// two\n" {
				t.Errorf("main.go on the workspace: %q", got)
			}
			if got := read(t, ws, ".git/HEAD"); !strings.HasPrefix(got, "ref: refs/heads/") {
				t.Errorf(".git/HEAD on the workspace: %q", got)
			}
			log := paths(ws, history(t, ws))
			if !strings.Contains(log, ":git apply .git/HEAD") {
				t.Errorf("no entry of git for .git/HEAD:\n%s", log)
			}
			if strings.Contains(log, ".lock") {
				t.Errorf("lock files in the journal:\n%s", log)
			}
		})
	}
}

// TestCloneSetsTimesWithContent: git clone of a local repository on another file system
// copies each object and then sets its time by path. On a mount that applies as it goes,
// the time waits with the copied content and lands in the same change set; setting it at
// once applied the file's content first, by a scan of the whole session layer, a change set
// per object (quadratic: a clone of this repository took minutes).
func TestCloneSetsTimesWithContent(t *testing.T) {
	src := t.TempDir()
	for _, c := range []string{"git init -q .", "git config user.email a@b.c", "git config user.name T"} {
		runIn(t, src, c)
	}
	for i := range 5 {
		writeHost(t, src, "f"+strconv.Itoa(i)+".txt", strings.Repeat("x", i+1)+"\n")
		runIn(t, src, "git add -A && git commit -qm c"+strconv.Itoa(i))
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, gitOptions(), nil)
			m := mountWS(t, ws, mount.Options{Quiet: 5 * time.Second})
			m.must("git clone -q " + src + " c && git -C c log --oneline | wc -l")
			m.unmount()
			cs := history(t, ws)
			if len(cs) < 20 {
				t.Fatalf("the clone left %d entries:\n%s", len(cs), paths(ws, cs))
			}
			sets := map[int64]bool{}
			for _, c := range cs {
				sets[c.Set] = true
			}
			// Nothing was quiet meanwhile; git's probe of symbolic links makes the only
			// boundaries: the link is made and removed beneath the layer, each applying what
			// precedes it (its removal was lost before TestRemovedLinkStaysRemoved). Before, 49.
			if len(sets) > 4 {
				t.Errorf("the clone made %d change sets, want at most 4:\n%s", len(sets), paths(ws, cs))
			}
			if got := read(t, ws, "c/f4.txt"); got != "xxxxx\n" {
				t.Errorf("c/f4.txt on the workspace: %q", got)
			}
		})
	}
}

func runIn(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func writeHost(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
