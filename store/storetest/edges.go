package storetest

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// testEdgeErrors checks the error each method gives on names of the wrong kind (a file
// where a directory is needed and the reverse, a missing parent), as osdir reports them,
// and that none of these calls changes the tree.
func testEdgeErrors(e *env) {
	e.write("f", "file")
	e.mkdir("d")
	e.write("d/g", "g")
	before := e.snapshot()
	w := func(name string, mode store.WriteMode) error {
		_, err := e.s.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{Mode: mode})
		return err
	}
	open := func(name string) error {
		f, err := e.s.Open(ctx, name)
		if err == nil {
			f.Close()
		}
		return err
	}
	readDir := func(name string) error { _, err := e.s.ReadDir(ctx, name); return err }
	stat := func(name string) error { _, err := e.s.Stat(ctx, name); return err }
	for _, c := range []struct {
		what string
		err  error
		want error
	}{
		{"Stat(f/x)", stat("f/x"), store.ErrNotDir},
		{"Stat(missing/x)", stat("missing/x"), fs.ErrNotExist},
		{"ReadDir(f)", readDir("f"), store.ErrNotDir},
		{"ReadDir(f/x)", readDir("f/x"), store.ErrNotDir},
		{"ReadDir(missing)", readDir("missing"), fs.ErrNotExist},
		{"Open(d)", open("d"), store.ErrIsDir},
		{"Open(.)", open("."), store.ErrIsDir},
		{"Open(f/x)", open("f/x"), store.ErrNotDir},
		{"WriteFile(d, Replace)", w("d", store.Replace), store.ErrIsDir},
		{"WriteFile(d, Append)", w("d", store.Append), store.ErrIsDir},
		{"WriteFile(d, Exclusive)", w("d", store.Exclusive), fs.ErrExist},
		{"WriteFile(., Replace)", w(".", store.Replace), store.ErrIsDir},
		{"WriteFile(f/x, Replace)", w("f/x", store.Replace), store.ErrNotDir},
		{"WriteFile(f/x, Append)", w("f/x", store.Append), store.ErrNotDir},
		{"WriteFile(missing/x, Replace)", w("missing/x", store.Replace), fs.ErrNotExist},
		{"Mkdir(f)", e.s.Mkdir(ctx, "f"), fs.ErrExist},
		{"Mkdir(d)", e.s.Mkdir(ctx, "d"), fs.ErrExist},
		{"Mkdir(.)", e.s.Mkdir(ctx, "."), fs.ErrExist},
		{"Mkdir(f/x)", e.s.Mkdir(ctx, "f/x"), store.ErrNotDir},
		{"Mkdir(missing/x)", e.s.Mkdir(ctx, "missing/x"), fs.ErrNotExist},
		{"Remove(d)", e.s.Remove(ctx, "d"), store.ErrNotEmpty},
		{"Remove(missing)", e.s.Remove(ctx, "missing"), fs.ErrNotExist},
		{"Remove(f/x)", e.s.Remove(ctx, "f/x"), store.ErrNotDir},
		{"Rename(f, d)", e.s.Rename(ctx, "f", "d"), fs.ErrExist},
		{"Rename(d, f)", e.s.Rename(ctx, "d", "f"), fs.ErrExist},
		{"Rename(d, d/sub)", e.s.Rename(ctx, "d", "d/sub"), fs.ErrInvalid},
		{"Rename(f, f)", e.s.Rename(ctx, "f", "f"), fs.ErrExist},
		{"Rename(f, f/x)", e.s.Rename(ctx, "f", "f/x"), store.ErrNotDir},
		{"Rename(d, d)", e.s.Rename(ctx, "d", "d"), fs.ErrInvalid},
		{"Rename(d/g, f/x)", e.s.Rename(ctx, "d/g", "f/x"), store.ErrNotDir},
		{"Rename(f, missing/x)", e.s.Rename(ctx, "f", "missing/x"), fs.ErrNotExist},
		{"Rename(missing, x)", e.s.Rename(ctx, "missing", "x"), fs.ErrNotExist},
		{"Rename(f/x, y)", e.s.Rename(ctx, "f/x", "y"), store.ErrNotDir},
		{"Copy(d, x)", store.Copy(ctx, e.s, "d", "x"), store.ErrIsDir},
		{"Copy(f, d)", store.Copy(ctx, e.s, "f", "d"), fs.ErrExist},
		{"Copy(missing, x)", store.Copy(ctx, e.s, "missing", "x"), fs.ErrNotExist},
		{"Copy(f, missing/x)", store.Copy(ctx, e.s, "f", "missing/x"), fs.ErrNotExist},
	} {
		var pe *fs.PathError
		if !errors.Is(c.err, c.want) || !errors.As(c.err, &pe) {
			e.t.Errorf("%s = %v, want a *fs.PathError wrapping %v", c.what, c.err, c.want)
		}
	}
	e.sameTree("after the failed calls", before)
}
