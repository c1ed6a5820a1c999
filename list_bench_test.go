//go:build !js && !wasip1

package llmfs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/internal/cputime"
)

// BenchmarkList lists a host directory of 10,000 files with sizes (List, a stat each) and
// names only (ListNames, the directory alone), with the default deny rules; cpu-ns/op is
// the process's CPU, which a loaded machine inflates less than the wall time.
func BenchmarkList(b *testing.B) {
	dir := b.TempDir()
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		list func() ([]llmfs.Entry, error)
	}{
		{"sizes", func() ([]llmfs.Entry, error) { return w.List(bg, ".") }},
		{"names", func() ([]llmfs.Entry, error) { return w.ListNames(bg, ".") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			start := cputime.Self()
			for b.Loop() {
				if es, err := c.list(); err != nil || len(es) != 10000 {
					b.Fatal(len(es), err)
				}
			}
			b.ReportMetric(float64(cputime.Self()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
