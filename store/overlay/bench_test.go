//go:build !js && !wasip1

package overlay_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// hostBase makes a host directory of n small files in 10 directories.
func hostBase(b *testing.B, n int) (string, *osdir.Store) {
	dir := b.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%10), fmt.Sprintf("f%d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("line one\nline two\nline three\n"), 0o644)
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	return dir, s
}

// BenchmarkOverlayReadEmptyUpper reads and stats a host file directly and through an
// overlay with an empty SQLite upper layer (issue 15: at most 1.2x).
func BenchmarkOverlayReadEmptyUpper(b *testing.B) {
	_, base := hostBase(b, 10)
	ov := newOverlayB(b, base, sqliteUpperB(b))
	for _, s := range []struct {
		name string
		s    store.Store
	}{{"base", base}, {"overlay", ov}} {
		b.Run(s.name+"/stat", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.s.Stat(ctx, "d3/f3.txt"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/read", func(b *testing.B) {
			for b.Loop() {
				f, err := s.s.Open(ctx, "d3/f3.txt")
				if err != nil {
					b.Fatal(err)
				}
				f.Read(make([]byte, 64))
				f.Close()
			}
		})
	}
}

// BenchmarkReview1000 lists 1,000 pending changes, and applies them, against writing the
// same files directly (issue 15: review under 1 s; apply at most 2x the direct writes).
func BenchmarkReview1000(b *testing.B) {
	content := strings.Repeat("changed line\n", 3)
	b.Run("pending", func(b *testing.B) {
		_, base := hostBase(b, 1000)
		ov := newOverlayB(b, base, sqliteUpperB(b))
		for i := range 1000 {
			ov.WriteFile(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), strings.NewReader(content), store.WriteOptions{})
		}
		for b.Loop() {
			cs, err := ov.Pending(ctx)
			if err != nil || len(cs) != 1000 {
				b.Fatal(len(cs), err)
			}
		}
	})
	b.Run("apply", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			_, base := hostBase(b, 1000)
			ov := newOverlayB(b, base, sqliteUpperB(b))
			for i := range 1000 {
				ov.WriteFile(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), strings.NewReader(content), store.WriteOptions{})
			}
			b.StartTimer()
			if res, err := ov.Apply(ctx, nil, nil); err != nil || len(res) != 1000 {
				b.Fatal(len(res), err)
			}
		}
	})
	b.Run("direct-writes", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			_, base := hostBase(b, 1000)
			b.StartTimer()
			for i := range 1000 {
				if _, err := base.WriteFile(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), strings.NewReader(content), store.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
