//go:build linux

package mount_test

import (
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
