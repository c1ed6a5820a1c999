package osdir

import (
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/storetest"
)

// TestConformanceWithoutOpenat2 runs the conformance suite, its directories swapped for
// links during walks included, as on Linux before 5.6 (or under a seccomp filter that
// refuses openat2): each name then opened one element at a time. Before, that fallback
// opened the whole name with openat, which refuses only a final link, and a directory on
// the way swapped for a link to outside the root was followed.
func TestConformanceWithoutOpenat2(t *testing.T) {
	was := noOpenat2.Swap(true)
	defer noOpenat2.Store(was)
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
		s, err := New(t.TempDir(), false)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, Symlinks: true})
}
