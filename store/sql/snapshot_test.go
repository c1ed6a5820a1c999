//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestSnapshotMatchesFallback: the store's own snapshot (one query, the hash from the row)
// says what the fallback's stat, open and read say, for every kind of path.
func TestSnapshotMatchesFallback(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		if err := s.Mkdir(ctx, "d"); err != nil {
			t.Fatal(err)
		}
		writeString(t, s, "d/small.txt", "small", store.WriteOptions{})
		writeString(t, s, "big.txt", strings.Repeat("b", 2*ChunkSize+3), store.WriteOptions{})
		writeString(t, s, "empty.txt", "", store.WriteOptions{})
		writeString(t, s, "big.txt", "+", store.WriteOptions{Mode: store.Append})
		plain := struct{ store.Store }{s} // hides Snapshot: the fallback runs
		for _, name := range []string{".", "d", "d/small.txt", "big.txt", "empty.txt", "missing", "d/small.txt/below", "nodir/x"} {
			for _, max := range []int64{0, 5, 1 << 20} {
				v, data, err := store.Snapshot(ctx, s, name, max)
				wv, wdata, werr := store.Snapshot(ctx, plain, name, max)
				if (err == nil) != (werr == nil) || !v.Equal(wv) || v.Size != wv.Size || !bytes.Equal(data, wdata) || (data == nil) != (wdata == nil) {
					t.Errorf("Snapshot(%q, %d) = %+v, %d bytes, %v; the fallback says %+v, %d bytes, %v", name, max, v, len(data), err, wv, len(wdata), werr)
				}
			}
		}
	})
}
