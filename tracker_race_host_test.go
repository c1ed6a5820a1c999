//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// racingStore runs race, once armed, when a file it opened is first read: another
// program writing the file in place while llmfs hashes it.
type racingStore struct {
	store.Store
	armed atomic.Bool
	race  func()
}

func (s *racingStore) Open(ctx context.Context, name string) (fs.File, error) {
	f, err := s.Store.Open(ctx, name)
	if err != nil || !s.armed.Load() {
		return f, err
	}
	return &racingFile{File: f, s: s}, nil
}

type racingFile struct {
	fs.File
	s *racingStore
}

func (f *racingFile) Read(p []byte) (int, error) {
	if f.s.armed.CompareAndSwap(true, false) {
		f.s.race()
	}
	return f.File.Read(p)
}

// TestReadBeforeOverwriteBigFileRace: an overwrite of a file known by identity hashes it
// first; a write in place during that hash, which keeps the size and sets the
// modification time back, must still refuse the overwrite, not take the hash of the new
// content as what the session read.
func TestReadBeforeOverwriteBigFileRace(t *testing.T) {
	defer llmfs.SetRacyWindow(0)()
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	put := func(content string) {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Error(err)
		}
		if err := os.Chtimes(name, stamp, stamp); err != nil {
			t.Error(err)
		}
	}
	put("aaaaaaaaaaaaaaaa\n")
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	rs := &racingStore{Store: host, race: func() { put("bbbbbbbbbbbbbbbb\n") }}
	ws := llmfs.New(rs, &llmfs.Options{Root: dir, RequireRead: true, Limits: llmfs.Limits{MaxEditBytes: 8}})
	ctx := context.Background()
	if _, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: 1}); err != nil {
		t.Fatal(err)
	}
	rs.armed.Store(true)
	_, err = ws.Write(ctx, "big.txt", "mine, also big\n", llmfs.WriteOptions{})
	if rs.armed.Load() {
		t.Fatal("the overwrite never read the file: the race did not run")
	}
	if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
		t.Errorf("overwrite during a write in place = %v, want FILE_CHANGED", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "bbbbbbbbbbbbbbbb\n" {
		t.Errorf("file = %q after a refused overwrite, want the other program's content", b)
	}
}
