package storetest

import (
	"errors"
	"io/fs"
	"runtime"

	"github.com/llmfs/llmfs/store"
)

// testMetadata checks [store.Metadata]: values round-trip, "" removes, and nothing of it
// shows in the tree. Stores without it are skipped.
func testMetadata(e *env) {
	m, ok := e.s.(store.Metadata)
	if !ok {
		e.t.Skip("the store keeps no metadata")
	}
	// Stores that keep metadata on the host (store/osdir) keep it here during the test,
	// not in the user's cache directory. The browser has no directories to offer.
	if runtime.GOOS != "js" {
		e.t.Setenv("LLMFS_CACHE_DIR", e.t.TempDir())
	}
	e.write("f", "x")
	before := e.snapshot()
	_, err := m.GetMeta(ctx, "k")
	e.wantErr("GetMeta of an unset key", err, fs.ErrNotExist)
	e.noErr("SetMeta", m.SetMeta(ctx, "k", "v1"))
	e.noErr("SetMeta", m.SetMeta(ctx, "sysfiles:a/b.md", "v2"))
	if v, err := m.GetMeta(ctx, "k"); err != nil || v != "v1" {
		e.t.Errorf("GetMeta(k) = %q, %v; want v1", v, err)
	}
	e.noErr("SetMeta", m.SetMeta(ctx, "k", "v3"))
	if v, _ := m.GetMeta(ctx, "k"); v != "v3" {
		e.t.Errorf("GetMeta(k) after a second SetMeta = %q, want v3", v)
	}
	e.noErr("SetMeta to remove", m.SetMeta(ctx, "k", ""))
	_, err = m.GetMeta(ctx, "k")
	e.wantErr("GetMeta of a removed key", err, fs.ErrNotExist)
	if v, _ := m.GetMeta(ctx, "sysfiles:a/b.md"); v != "v2" {
		e.t.Errorf("removing one key lost another: %q", v)
	}
	e.sameTree("metadata calls", before)
}

// testRealName checks [store.RealName]: a name without links is its own real name, a
// missing name keeps its missing elements, and, for stores with links, every link on the
// way is followed and one leading out is [store.ErrEscape].
func testRealName(e *env) {
	e.mkdir("d")
	e.write("d/f", "x")
	for _, name := range []string{".", "d", "d/f", "d/missing", "missing/deeper"} {
		if got, err := store.RealName(ctx, e.s, name); err != nil || got != name {
			e.t.Errorf("RealName(%q) = %q, %v; want itself", name, got, err)
		}
	}
	if !e.opt.Symlinks {
		return
	}
	e.symlink("d", "ln-dir")
	e.symlink("d/f", "ln-file")
	e.symlink("d/gone", "dangling")
	e.symlink(e.hostPath("d"), "abs-dir")
	for name, want := range map[string]string{"ln-dir": "d", "ln-dir/f": "d/f", "ln-file": "d/f", "dangling": "d/gone", "abs-dir/new": "d/new"} {
		got, err := store.RealName(ctx, e.s, name)
		if _, isResolver := e.s.(store.Resolver); !isResolver {
			want = name // the fallback cannot see links
		}
		if err != nil || got != want {
			e.t.Errorf("RealName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, ok := e.s.(store.Resolver); ok && !e.opt.Unconfined {
		e.symlink(e.t.TempDir(), "out")
		_, err := store.RealName(ctx, e.s, "out/x")
		if !errors.Is(err, store.ErrEscape) {
			e.t.Errorf("RealName(out/x) = %v, want ErrEscape", err)
		}
	}
}
