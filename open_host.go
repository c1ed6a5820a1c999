//go:build !js && !wasip1

package llmfs

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/llmfs/llmfs/store/osdir"
)

// Open opens a workspace on a host directory, opts.Root or the current directory. The root
// is made absolute and its symbolic links resolved once, now. In sandbox mode the store
// behind the workspace reaches files only through an [os.Root] on that directory.
func Open(opts *Options) (*Workspace, error) {
	if opts == nil {
		opts = &Options{}
	}
	dir := opts.Root
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, &Error{Code: CodeInvalidPath, Path: dir, Msg: "cannot determine the current directory", Err: err}
		}
	}
	given, err := filepath.Abs(dir)
	var abs string
	if err == nil {
		abs, err = filepath.EvalSymlinks(given)
	}
	if err != nil {
		return nil, storeError(dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, storeError(dir, err)
	} else if !fi.IsDir() {
		return nil, errorf(CodeInvalidPath, dir, "workspace root is not a directory: %s", dir)
	}
	storeDir := abs
	if opts.Relaxed {
		// A relaxed workspace may reach the whole host, so its store is rooted at "/".
		storeDir = "/"
	}
	s, err := osdir.New(storeDir, opts.Relaxed)
	if err != nil {
		return nil, storeError(dir, err)
	}
	o := *opts
	o.Root = filepath.ToSlash(abs)
	w := New(s, &o)
	w.windows = runtime.GOOS == "windows"
	if w.bad != nil {
		s.Close()
		return nil, w.bad
	}
	if alias := path.Clean(filepath.ToSlash(given)); alias != w.root {
		// The root was reached through a symbolic link (for the current directory,
		// os.Getwd gives $PWD, the path the shell went by): paths spelled through it are
		// inside too.
		w.alias = alias
	}
	if opts.Relaxed {
		w.base = strings.TrimPrefix(w.root, "/")
		if w.base == "" {
			w.base = "."
		}
		if err := w.setReserved(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return w, nil
}
