package mem

import (
	"context"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

var _ store.ChainMaker = (*Store)(nil)

// MkdirChain implements [store.ChainMaker]: the parent is found once, and each directory
// made inside the one before, so a new path n directories deep costs n steps, not n²/2.
func (s *Store) MkdirChain(ctx context.Context, dirs []string) (int, error) {
	if len(dirs) == 0 {
		return 0, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if dirs[0] == "." {
		return 0, pathErr("mkdir", ".", fs.ErrExist)
	}
	p, _, err := s.parent("mkdir", dirs[0])
	if err != nil {
		return 0, err
	}
	prev := ""
	for i, d := range dirs {
		base, ok := store.ChainElem(prev, d)
		if !ok {
			return i, pathErr("mkdir", d, store.ErrInvalidName)
		}
		prev = d
		if _, ok := p.children[base]; ok {
			return i, pathErr("mkdir", d, fs.ErrExist)
		}
		n := &node{name: base, dir: true, modTime: s.now(), children: map[string]*node{}}
		p.children[base] = n
		p.modTime = s.now()
		p = n
	}
	return len(dirs), nil
}
