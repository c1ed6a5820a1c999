//go:build linux

package mount_test

import (
	"context"
	"io/fs"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/store"
)

// TestLinksAndAttrsPersist: ln -s, chmod +x and touch -d made in a mount are in the
// workspace after it is unmounted, and a second mount shows them: a link as a link, the
// execute bit, the time.
func TestLinksAndAttrsPersist(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n", "d/f.txt": "f\n"})
			m := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
			m.must(`ln -s d/f.txt link
ln -s d dirlink
mkdir new && ln -s ../a.txt new/up
printf '#!/bin/sh\necho ran\n' > run.sh && chmod +x run.sh
touch -d 2001-02-03T04:05:06Z a.txt`)
			m.unmount()
			sl := ws.Store().(store.Symlinker)
			for name, want := range map[string]string{"link": "d/f.txt", "dirlink": "d", "new/up": "../a.txt"} {
				if got, err := sl.Readlink(ctx, name); err != nil || got != want {
					t.Errorf("Readlink(%s) on the workspace = %q, %v; want %q", name, got, err, want)
				}
			}
			if fi, err := ws.Store().Stat(ctx, "run.sh"); err != nil || fi.Mode().Perm()&0o100 == 0 {
				t.Errorf("run.sh on the workspace: %v, %v; want the execute bit", fi, err)
			}
			if fi, err := ws.Store().Stat(ctx, "a.txt"); err != nil || fi.ModTime().Year() != 2001 {
				t.Errorf("a.txt on the workspace: %v, %v; want the time touch set", fi, err)
			}
			m2 := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
			if out := m2.must("readlink link; cat link dirlink/f.txt new/up; ./run.sh; date -u -r a.txt +%Y; test -L link && echo is-a-link"); out != "d/f.txt\nf\nf\na\nran\n2001\nis-a-link\n" {
				t.Errorf("in a second mount: %q", out)
			}
			m2.unmount()
			var made []string
			for _, c := range history(t, ws) {
				if c.Op == llmfs.ChangeSymlink {
					made = append(made, c.Path)
				}
			}
			if len(made) != 3 {
				t.Errorf("symlink entries in the journal: %v, want 3", made)
			}
		})
	}
}

// TestGoBuildPersists: go build in a mount of a SQLite workspace; after unmount and a
// second mount the binary still runs (its execute bit was kept by the store).
func TestGoBuildPersists(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{
				"go.mod":  "module hello\n\ngo 1.21\n",
				"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built in the mount\") }\n",
			})
			m := mountWS(t, ws, mount.Options{Quiet: 200 * time.Millisecond})
			m.must(gocmd + " build -o hello .")
			m.unmount()
			fi, err := ws.Store().Stat(context.Background(), "hello")
			if err != nil || fi.Mode().Perm()&0o111 == 0 {
				t.Fatalf("hello on the workspace: %v, %v; want an executable", fi, err)
			}
			m2 := mountWS(t, ws, mount.Options{Quiet: 200 * time.Millisecond})
			if out := m2.must("./hello"); !strings.Contains(out, "built in the mount") {
				t.Errorf("the binary after a remount said %q", out)
			}
		})
	}
}

// TestLinkOutsideStaysOutside: a link to /etc/passwd made in the mount is stored as written;
// the workspace's tools never read through it.
func TestLinkOutsideStaysOutside(t *testing.T) {
	ws := hostWS(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
	m := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
	if out := m.must("ln -s /etc/passwd pw && ln -s nowhere dangling && ln -s a.txt in && ls && find . -type l | sort"); out != "a.txt\ndangling\nin\npw\n./dangling\n./in\n./pw\n" {
		t.Errorf("ls lists the links that lead nowhere in the workspace: %q", out)
	}
	m.unmount()
	if got, err := ws.Store().(store.Symlinker).Readlink(context.Background(), "pw"); err != nil || got != "/etc/passwd" {
		t.Fatalf("Readlink(pw) = %q, %v", got, err)
	}
	if res, err := ws.Read(context.Background(), "pw", llmfs.ReadOptions{}); err == nil {
		t.Fatalf("Read(pw) through the workspace = %.40q, want a refusal", res.Content)
	}
	if fi, err := store.Lstat(context.Background(), ws.Store(), "pw"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat(pw) = %v, %v", fi, err)
	}
}

// TestLinkMoveAndGit: mv of a link moves the link (the session layer, which keeps contents,
// once turned it into a copy of its target); git commits a link as a link (mode 120000).
func TestLinkMoveAndGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, gitOptions(), map[string]string{"a.txt": "a\n"})
			m := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
			if out := m.must("ln -s a.txt l1 && mv l1 l2 && test -L l2 && readlink l2"); out != "a.txt\n" {
				t.Errorf("mv of a link: %q", out)
			}
			out := m.must(`git init -q . && git add -A && git -c user.email=a@b -c user.name=n commit -qm x && git ls-files -s l2`)
			if !strings.HasPrefix(out, "120000 ") {
				t.Errorf("git ls-files -s l2 = %q, want a link (120000)", out)
			}
			m.unmount()
			if got, err := ws.Store().(store.Symlinker).Readlink(context.Background(), "l2"); err != nil || got != "a.txt" {
				t.Errorf("Readlink(l2) on the workspace = %q, %v", got, err)
			}
		})
	}
}

// TestRemovedLinkStaysRemoved: a link made and removed in a mount that applies as it goes
// (git init's probe of symbolic links does this in every clone) came back when the
// applier ran, in the mount and on the workspace, so `rm -rf` of a fresh clone failed with
// "Directory not empty".
func TestRemovedLinkStaysRemoved(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
			m := mountWS(t, ws, mount.Options{Quiet: 50 * time.Millisecond})
			m.must(`mkdir d && echo x > d/t && rm d/t && ln -s testing d/t && rm d/t && ln -s a.txt l && rm l`)
			time.Sleep(500 * time.Millisecond) // the applier runs after 50 ms of quiet
			if out := m.must("ls -A d; ls -A"); out != "a.txt\nd\n" {
				t.Errorf("after the apply the mount lists %q, want only a.txt and d", out)
			}
			m.must("rmdir d")
			m.unmount()
			for _, name := range []string{"d/t", "l", "d"} {
				if _, err := store.Lstat(ctx, ws.Store(), name); err == nil {
					t.Errorf("%s is on the workspace after it was removed in the mount", name)
				}
			}
		})
	}
}
