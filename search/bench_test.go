//go:build !js && !wasip1

package search

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/osdir"
)

// BenchmarkGrepGoroot searches Go's own source tree; bench/search.sh compares the same
// cases with ripgrep and GNU grep.
func BenchmarkGrepGoroot(b *testing.B) {
	dir := goSrc()
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Go source tree:", err)
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, bc := range []struct {
		name string
		o    GrepOptions
	}{
		{"literal", GrepOptions{Pattern: "func main", Mode: Content, LineNumbers: true}},
		{"regex-no-literal", GrepOptions{Pattern: "[A-Z][a-z]*[0-9]{3}", Mode: Count}},
		{"case-insensitive", GrepOptions{Pattern: "errorf", IgnoreCase: true, Mode: Count}},
		{"files-head-limit", GrepOptions{Pattern: "TODO", HeadLimit: 250}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Grep(context.Background(), s, ".", bc.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("find", func(b *testing.B) {
		for b.Loop() {
			if _, err := Find(context.Background(), s, ".", FindOptions{Pattern: "*_test.go"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGrepDFAMemory runs the searches of issue 12.1, whose automatons have more
// states than any cache holds, and reports the peak heap in use during a search
// (peak-heap-MiB) besides time and allocations. For ripgrep's figures run the same
// patterns with rg -c under /usr/bin/time.
func BenchmarkGrepDFAMemory(b *testing.B) {
	ab := b.TempDir()
	if err := os.WriteFile(filepath.Join(ab, "ab.txt"), abLines(3000), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name, dir string
		o         GrepOptions
	}{
		{"ab", ab, GrepOptions{Pattern: `[ab]*a[ab]{25}c`, Mode: Count}},
		{"ab-no-literal", ab, GrepOptions{Pattern: `[ab]*a[ab]{25}$`, Mode: Count}},
		{"goroot", goSrc(), GrepOptions{Pattern: `[aeiou].{14}[xyz][0-9]`, Mode: Count}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := os.Stat(bc.dir); err != nil {
				b.Skip("no tree:", err)
			}
			s, err := osdir.New(bc.dir, false)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			peak := watchHeap(b)
			for b.Loop() {
				if _, err := Grep(context.Background(), s, ".", bc.o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
		})
	}
}

// watchHeap samples the heap in use every millisecond until the benchmark ends; the
// function it returns gives the highest sample above the heap at the start.
func watchHeap(b *testing.B) func() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: sample[0].Name}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > base {
				mu.Lock()
				peak = max(peak, v-base)
				mu.Unlock()
			}
		}
	}()
	b.Cleanup(func() { close(done); <-stopped })
	return func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// goSrc returns the source tree of the Go toolchain on the PATH, or "" when there is none.
func goSrc() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// BenchmarkFinder runs the literal finder over the Go source tree's .go files held in
// memory (no I/O), counting every occurrence: the cost of the prefilter alone. Compare
// with bytes.Index ("stdlib") to see what the rare-byte choice buys.
func BenchmarkFinder(b *testing.B) {
	// LLMFS_BENCH_CORPUS=/tmp/linux/linux-source-6.1 LLMFS_BENCH_EXT=.c runs it on C.
	dir, ext := goSrc(), ".go"
	if d := os.Getenv("LLMFS_BENCH_CORPUS"); d != "" {
		dir, ext = d, os.Getenv("LLMFS_BENCH_EXT")
	}
	var corpus []byte
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) && len(corpus) < 64<<20 {
			if data, err := os.ReadFile(p); err == nil {
				corpus = append(corpus, data...)
			}
		}
		return nil
	})
	if len(corpus) == 0 {
		b.Skip("no Go source tree")
	}
	for _, lit := range []string{"func main", "errorf", "return nil", "Errorf", "PM_RESUME"} {
		f := newFinder([]byte(lit), false)
		b.Run(lit, func(b *testing.B) {
			b.SetBytes(int64(len(corpus)))
			for b.Loop() {
				for h := corpus; ; {
					i := f.index(h)
					if i < 0 {
						break
					}
					h = h[i+1:]
				}
			}
		})
		b.Run(lit+"/stdlib", func(b *testing.B) {
			b.SetBytes(int64(len(corpus)))
			for b.Loop() {
				for h := corpus; ; {
					i := bytes.Index(h, []byte(lit))
					if i < 0 {
						break
					}
					h = h[i+1:]
				}
			}
		})
	}
}
