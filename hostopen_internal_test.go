//go:build !js && !wasip1

package llmfs

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/llmfs/llmfs/store/osdir"
)

// openHost opens a sandboxed workspace on the host directory opts.Root the way package host
// does, for the tests inside this package, which cannot import host (host imports llmfs).
func openHost(t testing.TB, opts *Options) *Workspace {
	t.Helper()
	given, err := filepath.Abs(opts.Root)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.EvalSymlinks(given)
	if err != nil {
		t.Fatal(err)
	}
	s, err := osdir.New(abs, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	o := *opts
	o.Root = filepath.ToSlash(abs)
	o.Host = HostLayout{Alias: filepath.ToSlash(given), Windows: runtime.GOOS == "windows"}
	w := New(s, &o)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return w
}
