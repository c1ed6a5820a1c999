//go:build !js && !wasip1

package search_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/search"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// BenchmarkGrepOverlayGoroot searches Go's source tree directly and through an overlay
// with 100 pending changes in a SQLite upper layer (issue 15: at most 1.2x the base).
func BenchmarkGrepOverlayGoroot(b *testing.B) {
	ctx := context.Background()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command to find Go's source tree:", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Go source tree:", err)
	}
	base, err := osdir.New(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	upper, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(b.TempDir(), "up.db"), "r", &sqlstore.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer upper.Close()
	ov, err := overlay.New(ctx, base, upper)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || n == 100 || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if strings.Count(p, "/") < 2 {
			return nil
		}
		n++
		_, err = ov.WriteFile(ctx, p, strings.NewReader("package x\n\nfunc main() {}\n"), store.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return fs.SkipDir // one per directory
	})
	// The fixed cost of each search over the overlay: the snapshot of its layout.
	b.Run("layout", func(b *testing.B) {
		cpu0 := cputime.Self()
		defer func() { reportCPU(b, cpu0) }()
		for b.Loop() {
			if _, err := ov.Layout(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, s := range []struct {
		name string
		s    store.Store
	}{{"base", base}, {"overlay", ov}} {
		b.Run(s.name+"/literal", func(b *testing.B) {
			cpu0 := cputime.Self()
			defer func() { reportCPU(b, cpu0) }()
			for b.Loop() {
				if _, err := search.Grep(ctx, s.s, ".", search.GrepOptions{Pattern: "func main", Mode: search.Content, LineNumbers: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/find", func(b *testing.B) {
			cpu0 := cputime.Self()
			defer func() { reportCPU(b, cpu0) }()
			for b.Loop() {
				if _, err := search.Find(ctx, s.s, ".", search.FindOptions{Pattern: "*_test.go"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU reports the CPU time used since start, per operation.
func reportCPU(b *testing.B, start time.Duration) {
	if d := cputime.Self() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d)/float64(b.N), "cpu-ns/op")
	}
}
