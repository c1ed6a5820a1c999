package overlay

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// Changes through the overlay: they land in the upper layer, the base untouched.

// WriteFile implements [store.Store]. A base file is copied up before an append.
func (o *Overlay) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return 0, err
	}
	if err := valid("write", name); err != nil {
		return 0, err
	}
	if name == "." {
		if opts.Mode == store.Exclusive {
			return 0, pathErr("write", name, fs.ErrExist)
		}
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	fi, inUpper, err := o.lookup(ctx, "write", name, true)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return 0, err
	case exists && opts.Mode == store.Exclusive:
		return 0, pathErr("write", name, fs.ErrExist)
	case exists && fi.IsDir():
		return 0, pathErr("write", name, store.ErrIsDir)
	case !exists && opts.IfMatch != "":
		return 0, pathErr("write", name, store.ErrChanged)
	case exists && opts.IfAbsent && opts.Mode == store.Replace:
		return 0, pathErr("write", name, store.ErrChanged)
	}
	if err := o.parentDir(ctx, "write", name); err != nil {
		return 0, err
	}
	if exists && opts.IfMatch != "" {
		f, err := o.open(ctx, name)
		if err != nil {
			return 0, err
		}
		h, err := store.HashReader(f)
		f.Close()
		if err != nil {
			return 0, rename(err, name)
		}
		if h != opts.IfMatch {
			return 0, pathErr("write", name, store.ErrChanged)
		}
	}
	uopts := store.WriteOptions{Mode: opts.Mode}
	if opts.Mode == store.Exclusive {
		uopts.Mode = store.Replace // the overlay checked; a hidden upper file cannot exist
	}
	var n int64
	if exists && !inUpper && opts.Mode == store.Append {
		// Copy the base file up, then append: one atomic write of both.
		f, err := o.base.Open(ctx, name)
		if err != nil {
			return 0, rename(err, name)
		}
		defer f.Close()
		cr := &countReader{r: r}
		if _, err := o.upper.WriteFile(ctx, up(name), io.MultiReader(f, cr), store.WriteOptions{}); err != nil {
			return 0, rename(err, name)
		}
		n = cr.n
	} else {
		n, err = o.upper.WriteFile(ctx, up(name), r, uopts)
		if err != nil {
			return n, rename(err, name)
		}
	}
	o.seeBase(ctx, name)
	return n, o.save(ctx)
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Mkdir implements [store.Store].
func (o *Overlay) Mkdir(ctx context.Context, name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if _, _, err := o.lookup(ctx, "mkdir", name, false); err == nil {
		return pathErr("mkdir", name, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := o.parentDir(ctx, "mkdir", name); err != nil {
		return err
	}
	if err := o.upper.Mkdir(ctx, up(name)); err != nil {
		return rename(err, name)
	}
	return nil
}

// Remove implements [store.Store]: the upper entry goes, and a base entry is whited out.
func (o *Overlay) Remove(ctx context.Context, name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if err := o.remove(ctx, "remove", name); err != nil {
		return err
	}
	return o.save(ctx)
}

func (o *Overlay) remove(ctx context.Context, op, name string) error {
	if name == "." {
		return pathErr(op, name, fs.ErrInvalid)
	}
	fi, inUpper, err := o.lookup(ctx, op, name, false)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		entries, err := o.readDir(ctx, name)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			return pathErr(op, name, store.ErrNotEmpty)
		}
	}
	if inUpper {
		if err := o.upper.Remove(ctx, up(name)); err != nil {
			return rename(err, name)
		}
	}
	if o.baseVisible(ctx, name) {
		o.seeBase(ctx, name)
		o.st.Whiteouts[name] = true
	}
	delete(o.st.From, name)
	return nil
}

// RemoveIf implements [store.ConditionalRemover], under the overlay's lock.
func (o *Overlay) RemoveIf(ctx context.Context, name, hash string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if name == "." {
		return pathErr("remove", name, store.ErrIsDir)
	}
	fi, _, err := o.lookup(ctx, "remove", name, false)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir):
		return pathErr("remove", name, store.ErrChanged)
	case err != nil:
		return err
	case fi.IsDir():
		return pathErr("remove", name, store.ErrIsDir)
	case !fi.Mode().IsRegular():
		return pathErr("remove", name, store.ErrNotRegular)
	}
	f, err := o.open(ctx, name)
	if err != nil {
		return err
	}
	h, err := store.HashReader(f)
	f.Close()
	if err != nil {
		return rename(err, name)
	}
	if h != hash {
		return pathErr("remove", name, store.ErrChanged)
	}
	if err := o.remove(ctx, "remove", name); err != nil {
		return err
	}
	return o.save(ctx)
}

// Rename implements [store.Store]. A file is copied to its new name; a directory is
// copied with everything below it; the old name is then removed (whited out in the base).
func (o *Overlay) Rename(ctx context.Context, oldname, newname string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if err := valid("rename", oldname); err != nil {
		return err
	}
	if err := valid("rename", newname); err != nil {
		return err
	}
	if oldname == "." || newname == "." {
		return pathErr("rename", oldname, fs.ErrInvalid)
	}
	fi, _, err := o.lookup(ctx, "rename", oldname, false)
	if err != nil {
		return err
	}
	if _, _, err := o.lookup(ctx, "rename", newname, false); err == nil {
		if fi.IsDir() && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
			return pathErr("rename", oldname, fs.ErrInvalid)
		}
		return pathErr("rename", newname, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fi.IsDir() && strings.HasPrefix(newname, oldname+"/") {
		return pathErr("rename", oldname, fs.ErrInvalid)
	}
	if err := o.parentDir(ctx, "rename", newname); err != nil {
		return err
	}
	if err := o.copyTree(ctx, oldname, newname, fi.IsDir()); err != nil {
		return err
	}
	if err := o.removeTree(ctx, oldname, fi.IsDir()); err != nil {
		return err
	}
	return o.save(ctx)
}

// copyTree copies the overlay's entry at src, and all below, to dst in the upper store,
// remembering where base files came from.
func (o *Overlay) copyTree(ctx context.Context, src, dst string, dir bool) error {
	if !dir {
		f, err := o.open(ctx, src)
		if err != nil {
			return err
		}
		_, err = o.upper.WriteFile(ctx, up(dst), f, store.WriteOptions{Mode: store.Exclusive})
		f.Close()
		if err != nil {
			return rename(err, dst)
		}
		if from, ok := o.st.From[src]; ok {
			o.st.From[dst] = from
		} else if o.baseVisible(ctx, src) {
			o.seeBase(ctx, src)
			o.st.From[dst] = src
		}
		if o.st.Whiteouts[dst] || o.baseVisible(ctx, dst) {
			o.seeBase(ctx, dst)
		}
		return nil
	}
	if err := o.upper.Mkdir(ctx, up(dst)); err != nil {
		return rename(err, dst)
	}
	entries, err := o.readDir(ctx, src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := o.copyTree(ctx, join(src, e.Name()), join(dst, e.Name()), e.IsDir()); err != nil {
			return err
		}
	}
	return nil
}

// removeTree removes the overlay's entry at name and all below.
func (o *Overlay) removeTree(ctx context.Context, name string, dir bool) error {
	if dir {
		entries, err := o.readDir(ctx, name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := o.removeTree(ctx, join(name, e.Name()), e.IsDir()); err != nil {
				return err
			}
		}
	}
	return o.remove(ctx, "rename", name)
}
