//go:build linux

package mount_test

import (
	"context"
	"os"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// relKey is a Key for the Core's own tests: the path itself.
type relKey string

func (k relKey) Rel() string { return string(k) }

// TestHoldStoreFile: a handle that reads holds the store's file from its open: a host
// file with its descriptor, a SQLite one without; a handle of a file that another handle
// writes reads the writer's buffer and holds nothing.
func TestHoldStoreFile(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "hello\n"})
			c, err := mount.NewCore(ws, mount.Options{})
			if err != nil {
				t.Fatal(err)
			}
			h, err := c.Open(ctx, relKey("a.txt"), "", os.O_RDONLY)
			if err != nil {
				t.Fatal(err)
			}
			sf, ok := h.Hold(ctx)
			if !ok || sf.Info.Size() != 6 || (sf.Fd >= 0) != (b.name == "host") {
				t.Errorf("Hold: %+v %v, want size 6 and a descriptor only on the host", sf, ok)
			}
			buf := make([]byte, 16)
			if n, fd, err := h.Read(ctx, buf, 0, false); err != nil || fd >= 0 || string(buf[:n]) != "hello\n" {
				t.Errorf("read after Hold: %q %d %v", buf[:n], fd, err)
			}
			h.Release(ctx)

			w, err := c.Open(ctx, relKey("a.txt"), "", os.O_WRONLY|os.O_TRUNC)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release(ctx)
			w.Write([]byte("new\n"), 0)
			r, err := c.Open(ctx, relKey("a.txt"), "", os.O_RDONLY)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release(ctx)
			if _, ok := r.Hold(ctx); ok {
				t.Error("Hold of a file being written held the store's file")
			}
			if n, _, err := r.Read(ctx, buf, 0, true); err != nil || string(buf[:n]) != "new\n" {
				t.Errorf("read while written: %q %v", buf[:n], err)
			}
		})
	}
}
