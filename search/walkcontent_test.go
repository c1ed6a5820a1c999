package search

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"testing"
	"testing/synctest"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// contentStore lists directories with each file's whole content, as the SQL store lists
// its small files (store.ContentLister).
type contentStore struct{ *mem.Store }

type withContent struct {
	fs.DirEntry
	data []byte
}

func (e withContent) Content() []byte { return e.data }

func (s contentStore) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	des, err := s.ReadDir(ctx, name)
	if err != nil {
		return nil, err
	}
	for i, de := range des {
		if de.IsDir() {
			continue
		}
		f, err := s.Open(ctx, name+"/"+de.Name())
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		des[i] = withContent{de, data}
	}
	return des, nil
}

// The listings a walk holds ahead of its visit are bounded in the content they brought
// too, not only in number: 32 listings of 8 MiB each would be 256 MiB. The walk runs in a
// synctest bubble: the visit's sleep returns once every worker is blocked, so the workers
// have run as far ahead as the bounds let them whatever the machine's load.
func TestWalkBoundedContent(t *testing.T) { synctest.Test(t, walkBoundedContent) }

func walkBoundedContent(t *testing.T) {
	ctx := context.Background()
	m := mem.New()
	const dirs, size = 60, 1 << 20
	body := bytes.Repeat([]byte("x\n"), size/2)
	for i := range dirs {
		d := fmt.Sprintf("d%02d", i)
		if err := m.Mkdir(ctx, d); err != nil {
			t.Fatal(err)
		}
		if _, err := m.WriteFile(ctx, d+"/f", bytes.NewReader(body), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var _ store.ContentLister = contentStore{m}
	const threads = 2
	w := newWalker(ctx, storeFS{s: contentStore{m}, content: true}, walkOptions{threads: threads})
	files, most := 0, 0
	if err := w.walk(".", "", func(f file) bool {
		files++
		if _, ok := f.de.(store.ContentEntry); !ok {
			t.Errorf("%s: listed without its content", f.name)
		}
		time.Sleep(5 * time.Millisecond) // the workers run ahead till they block
		w.mu.Lock()
		most = max(most, w.heldBytes)
		w.mu.Unlock()
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if files != dirs {
		t.Fatalf("visited %d files, want %d", files, dirs)
	}
	// Without the bound the 32 listings the walk may hold would bring 32 MiB. The lower
	// bound checks that the workers ran ahead at all.
	if bound := aheadBytes + threads*size; most > bound || most < 2*size {
		t.Errorf("listings held ahead brought up to %d bytes; want at least %d and at most %d", most, 2*size, bound)
	}
	if w.heldBytes != 0 {
		t.Errorf("%d bytes still counted held after the walk", w.heldBytes)
	}
}
