//go:build !js && !wasip1

package search

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPairScan measures the scan for two bytes at a distance against
// bytes.IndexByte for one, over 128 KiB (a worker's buffer) that holds neither.
func BenchmarkPairScan(b *testing.B) {
	h := bytes.Repeat([]byte("abcdefgh ijklmnop\n"), (128<<10)/18)
	b.Run("pair", func(b *testing.B) {
		b.SetBytes(int64(len(h)))
		for b.Loop() {
			if indexPairFast(h, 6, 'x', 'x', 'y', 'y') >= 0 {
				b.Fatal("found")
			}
		}
	})
	b.Run("indexbyte", func(b *testing.B) {
		b.SetBytes(int64(len(h)))
		for b.Loop() {
			if bytes.IndexByte(h, 'x') >= 0 {
				b.Fatal("found")
			}
		}
	})
}

// BenchmarkPairScanStops measures the scan over 128 KiB that holds the pair every
// 256 bytes, resumed after each: what a call costs on top of its bytes. It was 300 ns a
// call when the bytes were moved into vector registers by SSE instructions after the
// first AVX one (a transition the CPU pays for on each), 4 ns with VEX encodings only.
func BenchmarkPairScanStops(b *testing.B) {
	h := bytes.Repeat([]byte("abcdefgh ijklmnop\n"), (128<<10)/18)
	stops := 0
	for i := 256; i+8 < len(h); i += 256 {
		h[i], h[i+4] = 'u', 'm'
		stops++
	}
	b.SetBytes(int64(len(h)))
	for b.Loop() {
		n := 0
		for w := h; ; n++ {
			k := indexPairFast(w, 4, 'u', 'u', 'm', 'm')
			if k < 0 {
				break
			}
			w = w[k+1:]
		}
		if n != stops {
			b.Fatalf("%d stops, want %d", n, stops)
		}
	}
}

// BenchmarkFinderInCache runs the finder and bytes.Index over 128 KiB of text that stays
// in the cache, as a worker's buffer does: LLMFS_BENCH_FILE names the text (default: a
// Go source file).
func BenchmarkFinderInCache(b *testing.B) {
	name := os.Getenv("LLMFS_BENCH_FILE")
	if name == "" {
		name = filepath.Join(goSrc(), "net/http/server.go")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Skip(err)
	}
	for len(data) < 128<<10 {
		data = append(data, data...)
	}
	data = data[:128<<10]
	for _, lit := range []string{"func main", "return nil", "PM_RESUME", "Errorf"} {
		f := newFinder([]byte(lit), false)
		for _, v := range []struct {
			name  string
			index func([]byte) int
		}{{"finder", f.index}, {"stdlib", func(h []byte) int { return bytes.Index(h, []byte(lit)) }}} {
			b.Run(lit+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					for h := data; ; {
						i := v.index(h)
						if i < 0 {
							break
						}
						h = h[i+1:]
					}
				}
			})
		}
	}
}
