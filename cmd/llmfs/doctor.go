//go:build !js && !wasip1

package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/store/osdir"
)

var doctorCmd = &command{
	name:  "doctor",
	args:  "[--root DIR | --store DSN --workspace ID] [--addr ADDR] [workspace flags]",
	short: "check a setup (root, store, cache directory, permissions, port) and say what to fix",
	long: `doctor checks what llmfs mcp and llmfs serve need, with the same flags: that the workspace
root is a directory llmfs can list and (unless --mode read-only) write, that the workspace and
its configuration open, that the cache directory for llmfs's metadata ($LLMFS_CACHE_DIR, else
the user's cache directory) is writable, and that serve's address is free. Each check prints
"ok" or "FAIL" with what to do about it. It changes nothing but a temporary file it removes.
The exit status is 0 when every check passed, 1 otherwise.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		addr := fs.String("addr", "127.0.0.1:7700", "the address `ADDR` llmfs serve would listen on")
		return func(ctx context.Context, args []string) error {
			if len(args) != 0 {
				return usagef("doctor takes no arguments, only flags")
			}
			d := &doctor{w: e.stdout}
			d.run(ctx, &e.ws, *addr)
			if d.failed > 0 {
				return fmt.Errorf("%d of the checks failed; fix what they say and run llmfs doctor again", d.failed)
			}
			return nil
		}
	},
}

// doctor prints one line per check and counts the failures.
type doctor struct {
	w      io.Writer
	failed int
}

func (d *doctor) ok(what, format string, args ...any) {
	fmt.Fprintf(d.w, "ok    %-10s %s\n", what, oneLine(fmt.Sprintf(format, args...)))
}

// fail reports a failed check and, on the next line, what to do about it.
func (d *doctor) fail(what string, err error, fix string) {
	d.failed++
	fmt.Fprintf(d.w, "FAIL  %-10s %s\n      fix: %s\n", what, oneLine(err.Error()), oneLine(fix))
}

// oneLine escapes what a terminal would act on (an escape sequence, a carriage return, a
// newline that forges a check's line) in a message that may hold a path or an OS error
// about one. The paths themselves are quoted with [termtext.Name] where they are printed.
func oneLine(s string) string {
	return strings.ReplaceAll(termtext.Text(s), "\n", `\n`)
}

// warn reports something that works but should be changed, and how; it is no failure.
func (d *doctor) warn(what, msg, fix string) {
	fmt.Fprintf(d.w, "WARN  %-10s %s\n      fix: %s\n", what, msg, fix)
}

func (d *doctor) run(ctx context.Context, f *wsFlags, addr string) {
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	fmt.Fprintf(d.w, "llmfs %s, %s/%s, %s\n", version, runtime.GOOS, runtime.GOARCH, runtime.Version())
	// The workspace check would only repeat a broken root's failure in other words.
	if f.storeDSN != "" || d.checkRoot(f) {
		d.checkWorkspace(ctx, f)
	}
	d.checkCache(f)
	d.checkAddr(addr)
}

// checkRoot looks at the root directory itself, before llmfs opens it, to say plainly what
// is wrong with it. It reports whether the root is usable.
func (d *doctor) checkRoot(f *wsFlags) bool {
	root, err := filepath.Abs(cmp.Or(f.root, "."))
	if err != nil {
		d.fail("root", err, "pass --root with a directory")
		return false
	}
	name := termtext.Name(root)
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.fail("root", fmt.Errorf("%s does not exist", name), "create it (mkdir -p "+name+") or pass --root with an existing directory")
		return false
	case err != nil:
		d.fail("root", err, "pass --root with a directory you can read")
		return false
	case !fi.IsDir():
		d.fail("root", fmt.Errorf("%s is not a directory", name), "pass --root with a directory, not a file")
		return false
	}
	if _, err := os.ReadDir(root); err != nil {
		d.fail("root", err, "give your user read and execute permission on "+name)
		return false
	}
	if llmfs.Mode(f.mode) == llmfs.ReadOnly {
		d.ok("root", "%s is a readable directory (read-only mode: not checked for writing)", name)
		return true
	}
	if err := probeWrite(root); err != nil {
		d.fail("root", err, "give your user write permission on "+name+", or pass --mode read-only")
		return false
	}
	d.ok("root", "%s is a readable, writable directory", name)
	return true
}

// checkWorkspace opens the workspace as llmfs mcp would (configuration, deny rules, the
// store) and lists its root.
func (d *doctor) checkWorkspace(ctx context.Context, f *wsFlags) {
	f.noSysfiles = true // doctor must not create AGENT.md
	ws, err := f.open()
	if err != nil {
		fix := "check the flags and the configuration file (" + configName + " at the root, or --config)"
		if f.storeDSN != "" {
			fix = "check --store (sqlite:PATH or postgres://...), that the database is reachable, and that --workspace names a workspace made with 'llmfs ws create'"
		}
		d.fail("workspace", err, fix)
		return
	}
	entries, err := ws.List(ctx, ".")
	if err != nil {
		d.fail("store", err, "check that the store is reachable and that your user may read the root")
		return
	}
	p := ws.Settings().Policy
	d.ok("workspace", "opens in %s mode, %d entries at the root, %d deny rules", p.Mode, len(entries), len(p.Deny))
}

// checkCache checks the directory where a host workspace keeps its metadata.
func (d *doctor) checkCache(f *wsFlags) {
	dir, err := osdir.CacheDir()
	if err != nil {
		d.fail("cache", err, "set LLMFS_CACHE_DIR to a directory you own (or set HOME)")
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		d.fail("cache", err, "set LLMFS_CACHE_DIR to a directory you own")
		return
	}
	if err := probeWrite(dir); err != nil {
		d.fail("cache", err, "make "+termtext.Name(dir)+" writable, or set LLMFS_CACHE_DIR to a directory you own")
		return
	}
	d.ok("cache", "%s is writable", termtext.Name(dir))
	if f.storeDSN == "" {
		d.checkCacheInRoot(cmp.Or(f.root, "."), dir)
	}
}

// checkCacheInRoot warns when the cache directory lies inside the root (llmfs mcp --root ~):
// llmfs hides it from the agent and refuses every operation on it, but the user's own
// tools over the root (version control, backups, a search) see the journal.
func (d *doctor) checkCacheInRoot(root, cache string) {
	r, err1 := filepath.EvalSymlinks(root)
	c, err2 := filepath.EvalSymlinks(cache)
	if err1 != nil || err2 != nil {
		return
	}
	if rel, err := filepath.Rel(r, c); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		d.warn("cache", fmt.Sprintf("the cache directory %s lies inside the root %s: llmfs keeps it from the agent, but it is part of the tree your own tools see", termtext.Name(cache), termtext.Name(root)),
			"set LLMFS_CACHE_DIR to a directory outside the root, e.g. export LLMFS_CACHE_DIR=/var/tmp/llmfs-$USER")
	}
}

// portFix is what to do when serve's address is taken; doctor and serve both say it.
const portFix = "another program (perhaps another llmfs serve) listens there: stop it, or pass llmfs serve --addr 127.0.0.1:PORT with a free port (0 picks one); llmfs mcp needs no port"

// listen listens on addr for serve; an address in use fails with what to do about it.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%w\nfix: %s", err, portFix)
	}
	return ln, err
}

// checkAddr checks that serve could listen on addr.
func (d *doctor) checkAddr(addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		d.fail("port", err, portFix)
		return
	}
	ln.Close()
	d.ok("port", "%s is free for llmfs serve", termtext.Name(addr))
}

// probeWrite creates and removes a temporary file in dir.
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".llmfs-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
