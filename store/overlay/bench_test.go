//go:build !js && !wasip1

package overlay_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
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
			cpu0 := cputime.Self()
			defer func() { reportCPU(b, cpu0) }()
			for b.Loop() {
				if _, err := s.s.Stat(ctx, "d3/f3.txt"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/read", func(b *testing.B) {
			cpu0 := cputime.Self()
			defer func() { reportCPU(b, cpu0) }()
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
		cpu0 := cputime.Self()
		defer func() { reportCPU(b, cpu0) }()
		for b.Loop() {
			cs, err := ov.Pending(ctx)
			if err != nil || len(cs) != 1000 {
				b.Fatal(len(cs), err)
			}
		}
	})
	// pendingHost makes a host base of 1,000 files and an overlay changing each of them.
	pendingHost := func(b *testing.B) (string, *overlay.Overlay) {
		dir, base := hostBase(b, 1000)
		ov := newOverlayB(b, base, sqliteUpperB(b))
		for i := range 1000 {
			ov.WriteFile(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), strings.NewReader(content), store.WriteOptions{})
		}
		return dir, ov
	}
	// timed runs setup untimed, then work timed, and reports the CPU time of work too.
	timed := func(b *testing.B, setup func() func()) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			work := setup()
			b.StartTimer()
			c0 := cputime.Self()
			work()
			cpu += cputime.Self() - c0
		}
		if cpu > 0 {
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	}
	b.Run("apply", func(b *testing.B) {
		timed(b, func() func() {
			_, ov := pendingHost(b)
			return func() {
				if res, err := ov.Apply(ctx, nil, nil); err != nil || len(res) != 1000 {
					b.Fatal(len(res), err)
				}
			}
		})
	})
	// The same files written directly onto the host store, unjournaled.
	b.Run("direct-writes", func(b *testing.B) {
		timed(b, func() func() {
			_, base := hostBase(b, 1000)
			return func() {
				for i := range 1000 {
					if _, err := base.WriteFile(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), strings.NewReader(content), store.WriteOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	})
	// The same files written through a workspace on the host directory, journaled: what
	// the agent's writes would cost without review.
	b.Run("workspace-writes", func(b *testing.B) {
		timed(b, func() func() {
			dir, _ := hostBase(b, 1000)
			ws, err := host.Open(&llmfs.Options{Root: dir})
			if err != nil {
				b.Fatal(err)
			}
			return func() {
				for i := range 1000 {
					if _, err := ws.Write(ctx, fmt.Sprintf("d%d/f%d.txt", i%10, i), content, llmfs.WriteOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	})
}

// reportCPU reports the CPU time used since start, per operation.
func reportCPU(b *testing.B, start time.Duration) {
	if d := cputime.Self() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d)/float64(b.N), "cpu-ns/op")
	}
}
