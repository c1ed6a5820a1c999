//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/sysfiles"
)

var wsCmd = &command{
	name:  "ws",
	args:  "create ID | list | rm ID | import ID DIR | export ID DIR | fork SRC DST | merge SRC DST | gc | token create|list|revoke ID [TOKEN-ID]  --store DSN [--blobs URL]",
	short: "manage the virtual workspaces of a database: create, list, rm, import, export, fork, merge, gc, tokens",
	long: `A database (--store sqlite:PATH or postgres://...) holds any number of workspaces, each a
file system of its own with its own quota. Serve one with --store DSN --workspace ID on mcp,
serve, call and the file commands; opening a workspace never creates it, 'ws create' does
(and creates a SQLite file if missing).

  create ID        make an empty workspace (ID: 1 to 64 of A-Z a-z 0-9 . _ -, not starting
                   with -, not . or ..; every command names workspaces by the same rule);
                   --quota-bytes, --max-file-bytes and --max-files
                   set its quota (the file commands can change it later with the same flags)
  list             the workspaces with their usage and quota
  rm ID            delete a workspace and everything in it
  import ID DIR    copy the directory DIR into the workspace. It never imports .git
                   directories, and skips what the deny rules deny (the defaults, plus
                   --deny) and symbolic links, naming each on standard error. It checks
                   the quota before writing anything.
  export ID DIR    copy the workspace into the directory DIR (created if missing); system
                   files llmfs generated (AGENT.md) and nobody edited stay behind
  fork SRC DST     make DST a copy of SRC, files and history (log, undo, checkpoints),
                   independent from then on; files share their content until written,
                   so a fork takes the same time whatever the workspace's size in bytes
  merge SRC DST    bring what DST changed since it was forked from SRC into SRC as changes
                   pending review (see 'llmfs review --store DSN --workspace SRC'), each
                   file merged three-way with SRC as it is now; where both changed the
                   same lines, both sides are marked in the pending file (exit status 1)
  gc               delete the objects of --blobs (content in object storage) that no
                   workspace of the database refers to and that are older than --grace
                   (default 1h, longer than any write in flight); it takes no lock and
                   runs beside writes, forks and undo
  token create ID  make an access token for 'llmfs serve --store DSN' (every workspace, at
                   /mcp/ID) and print it: it is shown once and kept only hashed. --mode
                   read-only|read-write|full (or ro, rw; default read-write) is what it
                   allows, --name a label
  token list ID    the workspace's tokens: id, name, mode, created (never the secret)
  token revoke ID TOKEN-ID
                   stop a token at once, in every server sharing the database

import and export refuse to overwrite an existing file unless --force, and check every
file before copying any. On a terminal they show a progress bar on standard error,
otherwise one line per file.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		dsn := fs.String("store", "", "the database `DSN`: sqlite:PATH or postgres://...")
		blobs := fs.String("blobs", "", blobsUsage)
		grace := fs.Duration("grace", sqlstore.DefaultGrace, "gc: delete only objects older than `DURATION` (longer than any write in flight)")
		var q struct{ bytes, fileBytes, files sizeValue }
		fs.Var(&q.bytes, "quota-bytes", "create: bound the total size of the files to `SIZE` (bytes, or with K, M, G; 0: none)")
		fs.Var(&q.fileBytes, "max-file-bytes", "create: bound the size of one file to `SIZE` (0: none)")
		fs.Var(&q.files, "max-files", "create: bound the number of files and directories to `N` (0: none)")
		force := fs.Bool("force", false, "import, export: overwrite files that exist")
		var deny stringList
		fs.Var(&deny, "deny", "import: also skip paths matching `GLOB` (repeatable)")
		noDefaultDeny := fs.Bool("no-default-deny", false, "import: drop the default deny rules (.git is still skipped)")
		tokMode := fs.String("mode", "read-write", "token create: the `MODE` the token allows: read-only (ro), read-write (rw) or full")
		tokName := fs.String("name", "", "token create: a `LABEL` for the token")
		return func(ctx context.Context, args []string) error {
			ctx = withBlobs(ctx, *blobs)
			if len(args) == 0 {
				return usagef("want a subcommand: create, list, rm, import, export, fork, merge, gc or token")
			}
			if args[0] == "token" {
				if *dsn == "" {
					return usagef("--store DSN is required")
				}
				return wsToken(ctx, e, *dsn, args[1:], *tokMode, *tokName)
			}
			want := map[string]int{"create": 2, "list": 1, "rm": 2, "import": 3, "export": 3, "fork": 3, "merge": 3, "gc": 1}
			n, ok := want[args[0]]
			if !ok {
				return usagef("unknown subcommand %q: want create, list, rm, import, export, fork, merge, gc or token", args[0])
			}
			if len(args) != n {
				return usagef("ws %s wants %d argument(s)", args[0], n-1)
			}
			if *dsn == "" {
				return usagef("--store DSN is required")
			}
			switch args[0] {
			case "create":
				return wsCreate(ctx, e, *dsn, args[1], sqlstore.Quota{MaxBytes: int64(q.bytes), MaxFiles: int64(q.files), MaxFileBytes: int64(q.fileBytes)})
			case "list":
				return wsList(ctx, e, *dsn)
			case "rm":
				return wsRemove(ctx, e, *dsn, args[1])
			case "fork":
				return wsFork(ctx, e, *dsn, args[1], args[2])
			case "merge":
				return wsMerge(ctx, e, *dsn, args[1], args[2])
			case "gc":
				return wsGC(ctx, e, *dsn, *grace)
			case "import":
				return wsImport(ctx, e, *dsn, args[1], args[2], importOptions{force: *force, deny: deny, noDefaultDeny: *noDefaultDeny})
			default:
				return wsExport(ctx, e, *dsn, args[1], args[2], *force)
			}
		}
	},
}

// checkWorkspaceID refuses an id no workspace can have ([sqlstore.CheckID], the one rule
// every command, server and the store itself apply), as a usage error.
func checkWorkspaceID(id string) error {
	if err := sqlstore.CheckID(id); err != nil {
		return usagef("%v", err)
	}
	return nil
}

func wsCreate(ctx context.Context, e *env, dsn, id string, q sqlstore.Quota) error {
	if err := checkWorkspaceID(id); err != nil {
		return err
	}
	db, err := connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.Create(ctx, id, q)
	switch {
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("workspace %q already exists in %s", id, redactDSN(dsn))
	case errors.Is(err, fs.ErrInvalid):
		return usagef("%v", err)
	case err != nil:
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "created workspace %s\n", id)
	return err
}

// existingDB opens the database dsn names, refusing to create a missing SQLite file.
func existingDB(ctx context.Context, dsn string) (*sqlstore.DB, error) {
	if file, ok := sqliteFile(dsn); ok {
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database %s: create a workspace in it with 'llmfs ws create --store %s ID'", file, shellQuote(dsn))
		}
	}
	return connect(ctx, dsn)
}

func wsList(ctx context.Context, e *env, dsn string) error {
	db, err := existingDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	wss, err := db.List(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFILES\tBYTES\tMAX-FILES\tMAX-BYTES\tMAX-FILE-BYTES\tCREATED")
	limit := func(n int64) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprint(n)
	}
	for _, w := range wss {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\n", w.ID, w.Usage.Files, w.Usage.Bytes,
			limit(w.Quota.MaxFiles), limit(w.Quota.MaxBytes), limit(w.Quota.MaxFileBytes),
			w.Created.UTC().Format(time.RFC3339))
	}
	return tw.Flush()
}

func wsRemove(ctx context.Context, e *env, dsn, id string) error {
	if err := checkWorkspaceID(id); err != nil {
		return err
	}
	db, err := existingDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Remove(ctx, id); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no workspace %q in %s", id, redactDSN(dsn))
		}
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "removed workspace %s\n", id)
	return err
}

// copyItem is one entry to copy: a directory or a regular file.
type copyItem struct {
	rel    string // slash-separated, relative to the top
	dir    bool
	size   int64
	mtime  time.Time
	exists bool  // the destination exists (a directory for a directory, a file for a file)
	old    int64 // the size of the file it replaces
}

func wsExport(ctx context.Context, e *env, dsn, id, dir string, force bool) error {
	s, err := openWorkspaceStore(ctx, dsn, id)
	if err != nil {
		return err
	}
	defer s.Close()

	// Plan: list the whole workspace first.
	var items []copyItem
	var walk func(name string) error
	walk = func(name string) error {
		des, err := s.ReadDir(ctx, name)
		if err != nil {
			return err
		}
		for _, de := range des {
			rel := path.Join(name, de.Name())
			info, err := de.Info()
			if err != nil {
				return err
			}
			switch {
			case de.IsDir():
				items = append(items, copyItem{rel: rel, dir: true, mtime: info.ModTime()})
				if err := walk(rel); err != nil {
					return err
				}
			case de.Type().IsRegular():
				// A system file as llmfs generated it (AGENT.md) describes the workspace
				// and is made again on open: exporting it would add a file that was never
				// imported. An edited one is the user's and goes out with the rest.
				if gen, err := sysfiles.Generated(ctx, s, rel); err != nil {
					return err
				} else if gen {
					fmt.Fprintf(e.stderr, "llmfs: skipping %s: generated by llmfs and never edited\n", termtext.Name(rel))
					continue
				}
				items = append(items, copyItem{rel: rel, size: info.Size(), mtime: info.ModTime()})
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return fmt.Errorf("listing workspace %q: %w; nothing exported", id, err)
	}

	// Check: what exists at the destination.
	var conflicts []string
	for i := range items {
		it := &items[i]
		target := filepath.Join(dir, filepath.FromSlash(it.rel))
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case it.dir && fi.IsDir():
			it.exists = true
		case !it.dir && fi.Mode().IsRegular():
			it.exists = true
			conflicts = append(conflicts, it.rel)
		default:
			return fmt.Errorf("cannot export %s: %s is a %s; nothing exported", it.rel, target, kindOf(fi))
		}
	}
	if len(conflicts) > 0 && !force {
		return conflictError(dir, conflicts, "exported")
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pr := newProgress(e.stderr, "export", items)
	done := 0
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(it.rel))
		if it.dir {
			if !it.exists {
				if err := os.Mkdir(target, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
					return partial("export", done, err)
				}
			}
			continue
		}
		if err := exportFile(ctx, s, it, target, pr); err != nil {
			return partial("export", done, err)
		}
		done++
		pr.fileDone(it.rel, it.size)
	}
	pr.finish()
	_, err = fmt.Fprintf(e.stdout, "exported %d files and %d directories (%s) from workspace %s to %s\n",
		countFiles(items), len(items)-countFiles(items), human(pr.total), id, dir)
	return err
}

// exportFile copies one file out of the store through a temporary file, so the target is
// either its old content or the whole new one.
func exportFile(ctx context.Context, s store.Store, it copyItem, target string, pr *progress) error {
	src, err := s.Open(ctx, it.rel)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Dir(target), ".llmfs-export-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	_, err = io.Copy(tmp, pr.reader(src))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Chtimes(tmp.Name(), it.mtime, it.mtime)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", it.rel, err)
	}
	return nil
}

func kindOf(fi fs.FileInfo) string {
	switch {
	case fi.IsDir():
		return "directory"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "symbolic link"
	case fi.Mode().IsRegular():
		return "file"
	}
	return "special file"
}

func conflictError(where string, conflicts []string, verb string) error {
	const show = 5
	list := conflicts
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(conflicts)-show)
	}
	names := make([]string, len(list))
	for i, c := range list {
		names[i] = termtext.Name(c)
	}
	return fmt.Errorf("%d files exist in %s (%s%s): use --force to overwrite them; nothing %s",
		len(conflicts), where, strings.Join(names, ", "), more, verb)
}

func partial(verb string, done int, err error) error {
	return fmt.Errorf("%w (%s stopped after %d files; each file is whole, old or new)", err, verb, done)
}

func countFiles(items []copyItem) int {
	n := 0
	for _, it := range items {
		if !it.dir {
			n++
		}
	}
	return n
}
