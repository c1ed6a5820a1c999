//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// llmfs ws import: a host directory copied into a workspace, planned and checked whole
// before anything is written.

// An import commits after importBatchFiles entries or importBatchBytes bytes of content,
// whichever comes first, so other writers of the database wait for a batch, not the import.
// On PostgreSQL other writers do not wait for an import's transaction (its new rows are its
// own, and the directories above them are locked FOR SHARE, which writers share), and each
// commit drained the import's pipeline (the last statements and object puts finished before
// it, the next batch's reading started after it): batches there are larger.
const (
	importBatchFiles   = 4096
	importBatchBytes   = 64 << 20
	pgImportBatchFiles = 32768
	pgImportBatchBytes = 512 << 20
)

// importLimits returns the entries and bytes of content an import's batch holds at most.
func importLimits(d sqlstore.Dialect) (files int, bytes int64) {
	if d == sqlstore.Postgres {
		return pgImportBatchFiles, pgImportBatchBytes
	}
	return importBatchFiles, importBatchBytes
}

type importOptions struct {
	force         bool
	deny          []string
	noDefaultDeny bool
}

func wsImport(ctx context.Context, e *env, dsn, id, dir string, o importOptions) error {
	if err := llmfs.ValidateDeny(o.deny); err != nil {
		return usagef("%v", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return usagef("%s is not a directory", dir)
	}
	s, err := openWorkspaceStoreAs(ctx, dsn, id, useBulk)
	if err != nil {
		return err
	}
	defer s.Close()
	ckpt := newCheckpointer(s.DB())
	// A workspace over the store only answers which paths the deny rules deny.
	rules := llmfs.New(s, &llmfs.Options{Deny: append(o.deny, configName), NoDefaultDeny: o.noDefaultDeny})

	// Plan: walk the whole directory first, so nothing is written unless all of it can be.
	items, skipped, err := planImport(e, dir, rules)
	if err != nil {
		return fmt.Errorf("reading %s: %w; nothing imported", dir, err)
	}

	// Check: conflicts and the quota, before writing anything.
	if err := checkImport(ctx, s, id, items, o.force); err != nil {
		return err
	}

	// Copy: directories first where the walk met them (parents before children), in
	// transactions of up to maxFiles entries or maxBytes bytes (importLimits): one
	// transaction per file made an import of the Go tree run at 500 files/s (issue 18.6).
	pr := newProgress(e.stderr, "import", items)
	done := 0
	maxFiles, maxBytes := importLimits(s.DB().Dialect())
	for start := 0; start < len(items); {
		if err := ctx.Err(); err != nil {
			return err
		}
		end, size := start, int64(0)
		for end < len(items) && end-start < maxFiles && (end == start || size+items[end].size <= maxBytes) {
			size += items[end].size
			end++
		}
		batch := items[start:end]
		err := importBatch(ctx, s, dir, batch, pr)
		if errors.Is(err, store.ErrQuota) {
			return partial("import", done, errors.New("the workspace's quota is exhausted (another writer used it since the check)"))
		}
		if err != nil {
			return partial("import", done, err)
		}
		ckpt.start(ctx)
		for _, it := range batch {
			if !it.dir {
				done++
				pr.fileDone(it.rel, it.size)
			}
		}
		start = end
	}
	if err := ckpt.wait(); err != nil {
		return err
	}
	pr.finish()
	note := ""
	if skipped > 0 {
		note = " (named above)"
	}
	_, err = fmt.Fprintf(e.stdout, "imported %d files and %d directories (%s) into workspace %s; skipped %d%s\n",
		countFiles(items), len(items)-countFiles(items), human(pr.total), id, skipped, note)
	return err
}

// planImport walks the directory dir of an import and returns the entries to copy,
// parents before children, and the number skipped (git's files, denied names, and what
// is neither a regular file nor a directory), each named on e's stderr.
func planImport(e *env, dir string, rules *llmfs.Workspace) ([]copyItem, int, error) {
	var items []copyItem
	skipped := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.Name() == ".git" || rules.Paths().Denied(rel) {
			skipped++
			why := "denied by the deny rules"
			if d.Name() == ".git" {
				why = "git's own files are never imported"
			}
			if d.IsDir() {
				fmt.Fprintf(e.stderr, "llmfs: skipping %s/: %s\n", termtext.Name(rel), why)
				return filepath.SkipDir
			}
			fmt.Fprintf(e.stderr, "llmfs: skipping %s: %s\n", termtext.Name(rel), why)
			return nil
		}
		switch {
		case d.IsDir():
			items = append(items, copyItem{rel: rel, dir: true})
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			items = append(items, copyItem{rel: rel, size: info.Size()})
		default: // symbolic links, devices, sockets: not files a workspace holds
			skipped++
			fmt.Fprintf(e.stderr, "llmfs: skipping %s: not a regular file or directory\n", termtext.Name(rel))
		}
		return nil
	})
	return items, skipped, err
}

// checkImport notes which of the import's items exist in the workspace id of s already,
// and fails, before anything is written, on a file or directory where the other is, on
// files that exist unless force, and when the import would pass the workspace's quota.
func checkImport(ctx context.Context, s *sqlstore.Store, id string, items []copyItem, force bool) error {
	var conflicts []string
	var addBytes, addFiles int64
	have := existingEntries(ctx, s)
	for i := range items {
		it := &items[i]
		fi, err := have(it.rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			addFiles++
			addBytes += it.size
			continue
		case err != nil:
			return err
		case it.dir != fi.IsDir() || !it.dir && !fi.Mode().IsRegular():
			return fmt.Errorf("cannot import %s: the workspace has a %s there; nothing imported", it.rel, kindOf(fi))
		}
		it.exists, it.old = true, fi.Size()
		if !it.dir {
			conflicts = append(conflicts, it.rel)
			addBytes += it.size - it.old
		}
	}
	if len(conflicts) > 0 && !force {
		return conflictError("workspace "+id, conflicts, "imported")
	}
	q, u, err := s.Quota(ctx)
	if err != nil {
		return err
	}
	if err := checkQuota(q, u, items, addBytes, addFiles); err != nil {
		return fmt.Errorf("import into workspace %q: %w; nothing imported", id, err)
	}
	return nil
}

// importBatch copies a batch of the import's items from dir into s, in one transaction,
// the files' content read ahead (see [prefetch]) and counted into pr. A transaction
// PostgreSQL aborts for a deadlock or a serialization failure is run again, reading the
// files again.
func importBatch(ctx context.Context, s *sqlstore.Store, dir string, batch []copyItem, pr *progress) error {
	read := pr.done
	return s.RetryBatch(ctx, func(b *sqlstore.Batch) error {
		pr.done = read // what an aborted run read is read again
		stop := make(chan struct{})
		defer close(stop)
		next := prefetch(dir, batch, stop)
		for _, it := range batch {
			if it.dir {
				if err := b.Mkdir(it.rel); err != nil {
					return err
				}
				continue
			}
			p := next()
			r, done, err := openImported(p, filepath.Join(dir, filepath.FromSlash(it.rel)))
			if err != nil {
				return err
			}
			if p.hashed {
				_, err = b.WriteFileSum(it.rel, pr.reader(r), p.sum)
			} else {
				_, err = b.WriteFile(it.rel, pr.reader(r))
			}
			done()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// existingEntries returns a stat for the paths of an import, walked parents first. It lists
// each directory of the workspace once, and not at all below a directory the workspace
// lacks: a Stat per entry was a quarter of an import's CPU (issue 18.6).
func existingEntries(ctx context.Context, s store.Store) func(rel string) (fs.FileInfo, error) {
	dirs := map[string]map[string]fs.DirEntry{} // listed directory -> its entries; nil if absent
	var list func(dir string) (map[string]fs.DirEntry, error)
	list = func(dir string) (map[string]fs.DirEntry, error) {
		if m, ok := dirs[dir]; ok {
			return m, nil
		}
		if dir != "." {
			up, err := list(path.Dir(dir))
			if err != nil {
				return nil, err
			}
			if de := up[path.Base(dir)]; de == nil || !de.IsDir() {
				dirs[dir] = nil
				return nil, nil
			}
		}
		des, err := s.ReadDir(ctx, dir)
		if err != nil {
			return nil, err
		}
		m := make(map[string]fs.DirEntry, len(des))
		for _, de := range des {
			m[de.Name()] = de
		}
		dirs[dir] = m
		return m, nil
	}
	return func(rel string) (fs.FileInfo, error) {
		m, err := list(path.Dir(rel))
		if err != nil {
			return nil, err
		}
		de := m[path.Base(rel)]
		if de == nil {
			return nil, fs.ErrNotExist
		}
		return de.Info()
	}
}

// checkQuota refuses an import the workspace's quota would stop midway.
func checkQuota(q sqlstore.Quota, u sqlstore.Usage, items []copyItem, addBytes, addFiles int64) error {
	if q.MaxFiles > 0 && u.Files+addFiles > q.MaxFiles {
		return fmt.Errorf("it adds %d entries to the %d there, past the quota of %d (QUOTA_EXCEEDED)", addFiles, u.Files, q.MaxFiles)
	}
	if q.MaxBytes > 0 && addBytes > 0 && u.Bytes+addBytes > q.MaxBytes {
		return fmt.Errorf("it adds %d bytes to the %d there, past the quota of %d (QUOTA_EXCEEDED)", addBytes, u.Bytes, q.MaxBytes)
	}
	if q.MaxFileBytes > 0 {
		for _, it := range items {
			if !it.dir && it.size > q.MaxFileBytes {
				return fmt.Errorf("%s has %d bytes, past the quota of %d per file (QUOTA_EXCEEDED)", it.rel, it.size, q.MaxFileBytes)
			}
		}
	}
	return nil
}
