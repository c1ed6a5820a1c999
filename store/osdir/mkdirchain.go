//go:build !js && !wasip1

package osdir

import (
	"context"
	"io/fs"
	"os"
	"path"

	"github.com/llmfs/llmfs/store"
)

var _ store.ChainMaker = (*Store)(nil)

// MkdirChain implements [store.ChainMaker]. It opens the parent of the chain once and then
// goes down one directory at a time, making each in the one before through a descriptor,
// so that each step looks up one name: [Store.Mkdir] on each of the n directories of a
// new deep path looked up every element of each, n²/2 lookups in all (a write 2,000
// directories deep took 25 s of CPU). Should the parent not open directly (a symbolic
// link on the way that the root makes [Store.Mkdir] resolve), the directories are made
// one by one.
func (s *Store) MkdirChain(ctx context.Context, dirs []string) (int, error) {
	if len(dirs) == 0 {
		return 0, nil
	}
	if _, ok := store.ChainElem("", dirs[0]); !ok {
		return 0, &fs.PathError{Op: "mkdir", Path: dirs[0], Err: store.ErrInvalidName}
	}
	dir, err := s.openRoot(path.Dir(dirs[0]))
	if err != nil {
		return store.MkdirChain(ctx, storeOnly{s}, dirs)
	}
	prev := ""
	for i, d := range dirs {
		base, ok := store.ChainElem(prev, d)
		if !ok {
			dir.Close()
			return i, &fs.PathError{Op: "mkdir", Path: d, Err: store.ErrInvalidName}
		}
		prev = d
		if err := dir.Mkdir(base, 0o755); err != nil {
			dir.Close()
			return i, fixErr("mkdir", d, err)
		}
		if i == len(dirs)-1 {
			break
		}
		next, err := dir.OpenRoot(base)
		dir.Close()
		if err != nil {
			return i + 1, fixErr("mkdir", dirs[i+1], err)
		}
		dir = next
	}
	dir.Close()
	return len(dirs), nil
}

// openRoot opens the store directory name as a root of its own: through the store's root
// in sandbox mode, on the host otherwise.
func (s *Store) openRoot(name string) (*os.Root, error) {
	if s.root != nil {
		return s.root.OpenRoot(name)
	}
	return os.OpenRoot(s.HostPath(name))
}

// storeOnly hides the store's optional methods, for their fallbacks.
type storeOnly struct{ store.Store }
