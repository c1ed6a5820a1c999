//go:build !js && !wasip1

package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/llmfs/llmfs/store/osdir"
)

// TestWalkBoundedWork: issue 18.3: the walk started a goroutine for every subdirectory as
// soon as its parent was listed and kept every listing to the end, so a wide tree had one
// goroutine per directory waiting. Now a fixed pool lists ahead of the visit, and at most
// ahead listings wait for it.
func TestWalkBoundedWork(t *testing.T) {
	dir := t.TempDir()
	const dirs = 1500
	for i := range dirs {
		d := filepath.Join(dir, "d", string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fsys, err := pickFS(s)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.close()
	before := runtime.NumGoroutine()
	w := newWalker(context.Background(), fsys, walkOptions{threads: 2})
	files, most, held := 0, 0, 0
	if err := w.walk(".", dir, func(f file) bool {
		files++
		most = max(most, runtime.NumGoroutine()-before)
		w.mu.Lock()
		held = max(held, w.held)
		w.mu.Unlock()
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if files != dirs {
		t.Fatalf("visited %d files, want %d", files, dirs)
	}
	if most > 8 {
		t.Errorf("%d goroutines during the walk of %d directories, want a fixed pool", most, dirs)
	}
	if held > w.ahead {
		t.Errorf("%d listings held ahead of the visit, bound %d", held, w.ahead)
	}
}
