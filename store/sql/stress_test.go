//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestStress runs random operations on a small tree from two handles at once. Every error
// must be one a store may legitimately return under contention, and afterwards the tree
// must be whole: every entry's parent exists and is a directory, and the usage counters
// match the rows.
func TestStress(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x1, x2 := b.connect(t), b.connect(t)
		s1 := newWorkspace(t, x1, Quota{MaxBytes: 64 << 10, MaxFiles: 40})
		s2, err := x2.Workspace(ctx, s1.ID(), nil)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"a", "b", "a/c", "b/c", "a/c/d", "b/c/d", "a/e", "b/e"}
		expected := []error{fs.ErrNotExist, fs.ErrExist, fs.ErrInvalid, store.ErrNotDir, store.ErrIsDir,
			store.ErrNotEmpty, store.ErrChanged, store.ErrQuota}
		const workers, ops = 6, 150
		var wg sync.WaitGroup
		errc := make(chan error, workers)
		for w := range workers {
			s := []*Store{s1, s2}[w%2]
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 7))
				pick := func() string { return names[r.IntN(len(names))] }
				for range ops {
					var err error
					switch r.IntN(8) {
					case 0:
						err = s.Mkdir(ctx, pick())
					case 1:
						err = s.Remove(ctx, pick())
					case 2:
						err = s.Rename(ctx, pick(), pick())
					case 3:
						err = s.Copy(ctx, pick(), pick())
					case 4:
						_, err = s.WriteFile(ctx, pick(), strings.NewReader("x\n"), store.WriteOptions{Mode: store.Append})
					case 5:
						_, err = s.ReadDir(ctx, pick())
					default:
						_, err = s.WriteFile(ctx, pick(), strings.NewReader(strings.Repeat("y", r.IntN(3000))), store.WriteOptions{})
					}
					if err != nil && !isAny(err, expected) {
						errc <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Errorf("unexpected error: %v", err)
		}
		var orphans int
		err = x1.db.QueryRowContext(ctx, x1.d.rebind(`SELECT COUNT(*) FROM llmfs_nodes n WHERE n.ws = ? AND n.path <> ?
			AND NOT EXISTS (SELECT 1 FROM llmfs_nodes p WHERE p.ws = n.ws AND p.path = n.parent AND p.dir = 1)`),
			s1.ws, []byte(".")).Scan(&orphans)
		if err != nil {
			t.Fatal(err)
		}
		if orphans != 0 {
			t.Errorf("%d entries have no parent directory", orphans)
		}
		checkUsage(t, s1)
	})
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
