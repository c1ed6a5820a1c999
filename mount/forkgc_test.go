//go:build linux

package mount_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// Commands started by this process run in its own mount while garbage collections come
// and go: the child changes into the mount itself (sh's cd), never through the fork's
// working directory, which left the forking thread holding up a stop-the-world that the
// FUSE server, in the same process, needed to answer the child (the test run hung).
func TestCommandsInOwnMountUnderGC(t *testing.T) {
	b := backends()[0]
	ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
	m := mountWS(t, ws, mount.Options{Quiet: 100 * time.Millisecond})
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			runtime.GC()
		}
	}()
	defer func() { stop.Store(true); <-done }()
	for range 60 {
		m.must("cat a.txt >/dev/null")
	}
}
