//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

const secret = "TOP SECRET"

// attackSite is a workspace root with neighbours worth stealing from: a sibling directory
// whose name has the root's as a prefix, and an outside directory with a secret.
type attackSite struct {
	parent, root, evil, outside string
}

// newAttackSite lays out
//
//	parent/ws/            the workspace root: a.txt, dir/b.txt, fifo, and links out
//	parent/ws-evil/       secret
//	parent/outside/       secret.txt, sub/deep.txt
func newAttackSite(t *testing.T) *attackSite {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &attackSite{
		parent:  parent,
		root:    filepath.Join(parent, "ws"),
		evil:    filepath.Join(parent, "ws-evil"),
		outside: filepath.Join(parent, "outside"),
	}
	mkdirs(t, s.root+"/dir", s.evil, s.outside+"/sub")
	writeFiles(t, map[string]string{
		s.root + "/a.txt":                "inside a\n",
		s.root + "/dir/b.txt":            "inside b\n",
		s.evil + "/secret":               secret,
		s.outside + "/secret.txt":        secret,
		s.outside + "/sub/deep.txt":      secret,
		s.root + "/dir/subdir/.keep.txt": "",
	})
	links := map[string]string{
		"ln-secret":          s.outside + "/secret.txt",
		"ln-outdir":          s.outside,
		"ln-rel-secret":      "../outside/secret.txt",
		"ln-rel-dir":         "../outside",
		"ln-dangling":        s.outside + "/nothing.txt",
		"ln-rel-dangling":    "../outside/newdir/nothing.txt",
		"ln-dangling-dir":    s.outside + "/newdir",
		"ln-chain":           "ln-secret",
		"ln-chain-dir":       "ln-rel-dir",
		"ln-evil":            "../ws-evil",
		"ln-evil-abs":        s.evil,
		"ln-root-up":         "..",
		"dir/ln-up":          "../..",
		"dir/ln-rel-secret":  "../../outside/secret.txt",
		"dir/subdir/ln-deep": "../../../outside/sub",
		"ln-etc":             "/etc",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(s.root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := mkfifo(filepath.Join(s.root, "fifo")); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return s
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for p, c := range files {
		mkdirs(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotOutside describes everything under s.parent but the root: each entry's type,
// mode, size, content or link target.
func (s *attackSite) snapshotOutside(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(s.parent, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == s.root {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d", fi.Mode(), fi.Size())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(b)
		}
		m[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func diffSnapshots(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, "removed "+k)
		} else if v != w {
			out = append(out, fmt.Sprintf("changed %s: %q -> %q", k, v, w))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "created "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// An attack is one operation that must fail with INVALID_PATH.
type attack struct {
	name string
	op   func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error
}

func read(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		res, err := w.Read(ctx, expand(p, s), llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err == nil && strings.Contains(res.Content, secret) {
			return fmt.Errorf("read the secret: %q", res.Content)
		}
		return err
	}
}

func write(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Write(ctx, expand(p, s), "pwned", llmfs.WriteOptions{})
		return err
	}
}

func appendTo(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Write(ctx, expand(p, s), "pwned", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		return err
	}
}

func create(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Write(ctx, expand(p, s), "pwned", llmfs.WriteOptions{Mode: llmfs.Create})
		return err
	}
}

func edit(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Edit(ctx, expand(p, s), "SECRET", "pwned", false)
		return err
	}
}

func list(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		entries, err := w.List(ctx, expand(p, s))
		if err == nil {
			return fmt.Errorf("listed %d entries", len(entries))
		}
		return err
	}
}

func mkdir(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Mkdir(ctx, expand(p, s))
		return err
	}
}

func del(p string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Delete(ctx, expand(p, s))
		return err
	}
}

func move(src, dst string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Move(ctx, expand(src, s), expand(dst, s))
		return err
	}
}

func cp(src, dst string) func(context.Context, *llmfs.Workspace, *attackSite) error {
	return func(ctx context.Context, w *llmfs.Workspace, s *attackSite) error {
		_, err := w.Copy(ctx, expand(src, s), expand(dst, s))
		return err
	}
}

// expand replaces $ROOT, $EVIL and $OUT in p.
func expand(p string, s *attackSite) string {
	return strings.NewReplacer("$ROOT", s.root, "$EVIL", s.evil, "$OUT", s.outside).Replace(p)
}

var attacks = []attack{
	// .. chains and hard-to-normalize names.
	{"read ../outside", read("../outside/secret.txt")},
	{"read ../../..", read("../../../../../../../../etc/passwd")},
	{"read dir/../../outside", read("dir/../../outside/secret.txt")},
	{"read a/../../x", read("a/../../outside/secret.txt")},
	{"read ./../x", read("./../outside/secret.txt")},
	{"read trailing slash", read("../outside/secret.txt/")},
	{"read ..", read("..")},
	{"read ../", read("../")},
	{"read .././..", read(".././..")},
	{"read many ./", read("././dir/./../.././outside/./secret.txt")},
	{"read ../ws-evil", read("../ws-evil/secret")},
	{"write ../outside", write("../outside/new.txt")},
	{"write a/../../x", write("a/../../x.txt")},
	{"mkdir ..", mkdir("../newdir")},
	{"delete ../outside", del("../outside/secret.txt")},
	{"list ..", list("..")},
	// Absolute paths outside, and the sibling with the root as a prefix.
	{"read /etc/passwd", read("/etc/passwd")},
	{"read //x", read("//etc/passwd")},
	{"read /", read("/")},
	{"read absolute outside", read("$OUT/secret.txt")},
	{"read absolute sibling", read("$ROOT-evil/secret")},
	{"read absolute root/../sibling", read("$ROOT/../ws-evil/secret")},
	{"write absolute sibling", write("$EVIL/new")},
	{"write absolute outside", write("$OUT/new.txt")},
	{"list absolute sibling", list("$EVIL")},
	{"list /", list("/")},
	{"mkdir absolute sibling", mkdir("$EVIL/newdir")},
	{"delete absolute sibling", del("$EVIL/secret")},
	{"copy absolute sibling in", cp("$EVIL/secret", "stolen.txt")},
	{"copy out to sibling", cp("a.txt", "$EVIL/copy")},
	{"move out to sibling", move("a.txt", "$EVIL/moved")},
	{"move in from outside", move("$OUT/secret.txt", "stolen.txt")},
	// Symbolic links to outside: file, directory, dangling, chained, relative, absolute.
	{"read link to file", read("ln-secret")},
	{"read relative link", read("ln-rel-secret")},
	{"read chained link", read("ln-chain")},
	{"read through dir link", read("ln-outdir/secret.txt")},
	{"read through relative dir link", read("ln-rel-dir/sub/deep.txt")},
	{"read through chained dir link", read("ln-chain-dir/secret.txt")},
	{"read through link to sibling", read("ln-evil/secret")},
	{"read through absolute link to sibling", read("ln-evil-abs/secret")},
	{"read through link to ..", read("ln-root-up/outside/secret.txt")},
	{"read through nested link to ../..", read("dir/ln-up/outside/secret.txt")},
	{"read nested relative link", read("dir/ln-rel-secret")},
	{"read deep relative link", read("dir/subdir/ln-deep/deep.txt")},
	{"read dangling link", read("ln-dangling")},
	{"read /etc through link", read("ln-etc/passwd")},
	{"list dir link", list("ln-outdir")},
	{"list relative dir link", list("ln-rel-dir")},
	{"list link to ..", list("ln-root-up")},
	{"list deep link", list("dir/subdir/ln-deep")},
	{"write through file link", write("ln-secret")},
	{"write through relative file link", write("ln-rel-secret")},
	{"write through chained link", write("ln-chain")},
	{"append through file link", appendTo("ln-secret")},
	{"create through dangling link", create("ln-dangling")},
	{"write through dangling link", write("ln-dangling")},
	{"write through relative dangling link", write("ln-rel-dangling")},
	{"write into dir link", write("ln-outdir/new.txt")},
	{"write into relative dir link", write("ln-rel-dir/new.txt")},
	{"write into link to sibling", write("ln-evil/new")},
	{"write deep into dir link", write("ln-outdir/a/b/c.txt")},
	{"write into dangling dir link", write("ln-dangling-dir/new.txt")},
	{"edit through file link", edit("ln-secret")},
	{"edit through dir link", edit("ln-outdir/secret.txt")},
	{"mkdir in dir link", mkdir("ln-outdir/newdir")},
	{"mkdir deep in dir link", mkdir("ln-rel-dir/x/y/z")},
	{"mkdir dangling dir link", mkdir("ln-dangling-dir")},
	{"mkdir below dangling dir link", mkdir("ln-dangling-dir/x")},
	{"delete through dir link", del("ln-outdir/secret.txt")},
	{"delete through relative dir link", del("ln-rel-dir/sub/deep.txt")},
	{"delete through link to sibling", del("ln-evil/secret")},
	{"move from dir link", move("ln-outdir/secret.txt", "stolen.txt")},
	{"move file link", move("ln-secret", "stolen.txt")},
	{"move into dir link", move("a.txt", "ln-outdir/a.txt")},
	{"move into link to ..", move("a.txt", "ln-root-up/a.txt")},
	{"copy file link", cp("ln-secret", "stolen.txt")},
	{"copy chained link", cp("ln-chain", "stolen.txt")},
	{"copy from dir link", cp("ln-rel-dir/secret.txt", "stolen.txt")},
	{"copy into dir link", cp("a.txt", "ln-outdir/copy.txt")},
	{"copy into dangling dir link", cp("a.txt", "ln-dangling-dir/copy.txt")},
	// NUL bytes and empty paths.
	{"read empty path", read("")},
	{"read NUL", read("a.txt\x00")},
	{"read NUL in the middle", read("dir\x00/../a.txt")},
	{"write NUL", write("new\x00.txt")},
	{"mkdir NUL", mkdir("d\x00")},
	{"delete NUL", del("a.txt\x00")},
	{"move NUL", move("a.txt", "b\x00")},
	{"copy NUL", cp("a.txt\x00", "b")},
	{"list NUL", list("\x00")},
	// FIFOs: never opened, never blocking.
	{"read FIFO", read("fifo")},
	{"write FIFO", write("fifo")},
	{"append FIFO", appendTo("fifo")},
	{"edit FIFO", edit("fifo")},
	{"copy FIFO", cp("fifo", "fifo-copy")},
	{"move FIFO", move("fifo", "fifo-moved")},
	// Targets that are not files.
	{"delete the root", del(".")},
	{"delete a directory", del("dir")},
}

// TestSandboxAttacks runs every attack on a sandboxed workspace: each must fail with
// INVALID_PATH, promptly, and leave everything outside the root as it was.
func TestSandboxAttacks(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	if err != nil {
		t.Fatal(err)
	}
	if len(attacks) < 40 {
		t.Fatalf("only %d attacks", len(attacks))
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			before := site.snapshotOutside(t)
			errc := make(chan error, 1)
			go func() { errc <- a.op(context.Background(), w, site) }()
			select {
			case err = <-errc:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s blocked", a.name)
			}
			if code := llmfs.CodeOf(err); code != llmfs.CodeInvalidPath {
				t.Errorf("%s: error %v (code %q), want INVALID_PATH", a.name, err, code)
			}
			if d := diffSnapshots(before, site.snapshotOutside(t)); d != "" {
				t.Errorf("%s changed the outside:\n%s", a.name, d)
			}
		})
	}
	// Nothing inside may hold the secret either (a copy or a move of it).
	filepath.WalkDir(site.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})
}

// TestSandboxDeleteLinkKeepsTarget checks that deleting a link to outside removes the
// link and never its target.
func TestSandboxDeleteLinkKeepsTarget(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	if err != nil {
		t.Fatal(err)
	}
	before := site.snapshotOutside(t)
	for _, name := range []string{"ln-secret", "ln-outdir", "ln-dangling"} {
		if _, err := w.Delete(context.Background(), name); err != nil {
			t.Errorf("Delete(%s): %v", name, err)
		}
		if _, err := os.Lstat(filepath.Join(site.root, name)); err == nil {
			t.Errorf("%s still exists", name)
		}
	}
	if d := diffSnapshots(before, site.snapshotOutside(t)); d != "" {
		t.Errorf("deleting links changed the outside:\n%s", d)
	}
}

// TestSandboxSymlinkSwap flips a directory inside the root to a symbolic link to outside
// and back while operations run through it: nothing outside may ever be read, created or
// changed.
func TestSandboxSymlinkSwap(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	if err != nil {
		t.Fatal(err)
	}
	before := site.snapshotOutside(t)
	flip := filepath.Join(site.root, "flip")
	stop := make(chan struct{})
	var flips atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.RemoveAll(flip)
			if os.Mkdir(flip, 0o755) == nil {
				os.WriteFile(filepath.Join(flip, "secret.txt"), []byte("harmless"), 0o644)
			}
			os.RemoveAll(flip)
			os.Symlink(site.outside, flip)
			flips.Add(1)
		}
	})
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Second)
	var ops, leaks atomic.Int64
	for g := range 4 {
		wg.Go(func() {
			for i := 0; time.Now().Before(deadline); i++ {
				ops.Add(1)
				switch (g + i) % 8 {
				case 0:
					if res, err := w.Read(ctx, "flip/secret.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit}); err == nil && strings.Contains(res.Content, secret) {
						leaks.Add(1)
					}
				case 1:
					w.Write(ctx, "flip/new.txt", "pwned", llmfs.WriteOptions{})
				case 2:
					w.Write(ctx, "flip/secret.txt", "pwned", llmfs.WriteOptions{Mode: llmfs.AppendTo})
				case 3:
					w.Mkdir(ctx, "flip/newdir/deeper")
				case 4:
					w.Delete(ctx, "flip/secret.txt")
				case 5:
					w.Copy(ctx, "flip/secret.txt", fmt.Sprintf("copies/%d-%d", g, i))
				case 6:
					w.Move(ctx, "flip/secret.txt", fmt.Sprintf("moved/%d-%d", g, i))
					w.Move(ctx, "a.txt", "flip/a.txt")
					w.Move(ctx, "flip/a.txt", "a.txt")
				case 7:
					if entries, err := w.List(ctx, "flip"); err == nil {
						for _, e := range entries {
							if e.Name == "sub" {
								leaks.Add(1)
							}
						}
					}
					w.Edit(ctx, "flip/secret.txt", "SECRET", "pwned", false)
				}
			}
		})
	}
	time.Sleep(time.Until(deadline))
	close(stop)
	wg.Wait()
	t.Logf("%d operations during %d flips", ops.Load(), flips.Load())
	if leaks.Load() > 0 {
		t.Errorf("%d operations saw outside content", leaks.Load())
	}
	if d := diffSnapshots(before, site.snapshotOutside(t)); d != "" {
		t.Errorf("operations during symlink swaps changed the outside:\n%s", d)
	}
	filepath.WalkDir(site.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})
}
