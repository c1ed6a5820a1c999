//go:build !js && !wasip1

package host

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/osdir"
	_ "github.com/llmfs/llmfs/store/sql/hostjournal" // the host journal's database
)

// Open opens a workspace on a host directory, opts.Root or the current directory. The root
// is made absolute and its symbolic links resolved once, now. In sandbox mode the store
// behind the workspace reaches files only through an [os.Root] on that directory.
// Open sets opts.Host itself; the rest of opts is as for [llmfs.New].
func Open(opts *llmfs.Options) (*llmfs.Workspace, error) {
	if opts == nil {
		opts = &llmfs.Options{}
	}
	dir := opts.Root
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: dir, Msg: "cannot determine the current directory", Err: err}
		}
	}
	given, err := filepath.Abs(dir)
	var abs string
	if err == nil {
		abs, err = filepath.EvalSymlinks(given)
	}
	if err != nil {
		return nil, llmfs.StoreError(dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, llmfs.StoreError(dir, err)
	} else if !fi.IsDir() {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: dir, Msg: "workspace root is not a directory: " + dir}
	}
	storeDir := abs
	if opts.Relaxed {
		// A relaxed workspace may reach the whole host, so its store is rooted at "/".
		storeDir = "/"
	}
	s, err := osdir.New(storeDir, opts.Relaxed)
	if err != nil {
		return nil, llmfs.StoreError(dir, err)
	}
	o := *opts
	o.Root = filepath.ToSlash(abs)
	o.Host = llmfs.HostLayout{
		// The root may have been reached through a symbolic link (for the current
		// directory, os.Getwd gives $PWD, the path the shell went by): paths spelled
		// through it are inside too.
		Alias:   path.Clean(filepath.ToSlash(given)),
		Windows: runtime.GOOS == "windows",
	}
	if opts.Relaxed {
		o.Host.Base = strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(o.Root, "/")), "/")
	}
	w := llmfs.New(s, &o)
	if err := w.Err(); err != nil {
		s.Close()
		return nil, err
	}
	return w, nil
}
