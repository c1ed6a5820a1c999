//go:build !js && !wasip1

package sqlstore_test

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// BenchmarkStores compares store/sql on SQLite and PostgreSQL with store/osdir on the same
// data: a directory of 100 files of 4 KiB (80 lines of 50 bytes).
//
//	go test -run '^$' -bench Stores -benchtime 2s ./store/sql
//
// PostgreSQL runs when LLMFS_TEST_POSTGRES holds a DSN.
func BenchmarkStores(b *testing.B) {
	type target struct {
		name string
		open func(b *testing.B) store.Store
	}
	targets := []target{
		{"osdir", func(b *testing.B) store.Store {
			s, err := osdir.New(b.TempDir(), false)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}},
		{"sqlite", func(b *testing.B) store.Store { return newWorkspace(b, connectSQLite(b), Quota{}) }},
	}
	if os.Getenv(postgresEnv) != "" {
		targets = append(targets, target{"postgres", func(b *testing.B) store.Store {
			return newWorkspace(b, connectPostgres(b), Quota{})
		}})
	}
	const files = 100
	content := strings.Repeat(strings.Repeat("x", 49)+"\n", 80)
	names := make([]string, files)
	for i := range names {
		names[i] = fmt.Sprintf("d/f%03d.txt", i)
	}
	setup := func(b *testing.B, s store.Store) {
		if err := s.Mkdir(ctx, "d"); err != nil {
			b.Fatal(err)
		}
		for i := range files {
			writeString(b, s, fmt.Sprintf("d/f%03d.txt", i), content, store.WriteOptions{})
		}
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			b.Run("Read", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				b.SetBytes(int64(len(content)))
				i := 0
				defer reportCPU(b, cputime.Self())
				for b.Loop() {
					f, err := s.Open(ctx, names[i%files])
					if err != nil {
						b.Fatal(err)
					}
					if n, err := io.Copy(io.Discard, f); err != nil || n != int64(len(content)) {
						b.Fatal(n, err)
					}
					f.Close()
					i++
				}
			})
			b.Run("Write", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				b.SetBytes(int64(len(content)))
				i := 0
				for b.Loop() {
					writeString(b, s, fmt.Sprintf("d/f%03d.txt", i%files), content, store.WriteOptions{})
					i++
				}
			})
			b.Run("WriteIfMatch", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				h := store.Hash([]byte(content))
				i := 0
				for b.Loop() {
					writeString(b, s, fmt.Sprintf("d/f%03d.txt", i%files), content, store.WriteOptions{IfMatch: h})
					i++
				}
			})
			b.Run("Append", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				for b.Loop() {
					writeString(b, s, "d/log", "one more line of the log\n", store.WriteOptions{Mode: store.Append})
				}
			})
			b.Run("List", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				defer reportCPU(b, cputime.Self())
				for b.Loop() {
					des, err := s.ReadDir(ctx, "d")
					if err != nil || len(des) != files {
						b.Fatal(len(des), err)
					}
				}
			})
			b.Run("ReadHead10MB", func(b *testing.B) {
				// The first 50 lines of a 10 MB file: a chunked store reads one chunk.
				s := tg.open(b)
				big := strings.Repeat(content, 10<<20/len(content))
				writeString(b, s, "big", big, store.WriteOptions{})
				buf := make([]byte, 50*50)
				for b.Loop() {
					f, err := s.Open(ctx, "big")
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.ReadFull(f, buf); err != nil {
						b.Fatal(err)
					}
					f.Close()
				}
			})
			b.Run("Stat", func(b *testing.B) {
				s := tg.open(b)
				setup(b, s)
				i := 0
				defer reportCPU(b, cputime.Self())
				for b.Loop() {
					if _, err := s.Stat(ctx, names[i%files]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		})
	}
}

// reportCPU reports the process's CPU time per op since start, as cpu-ns/op: on a loaded
// machine it moves far less than the wall time of ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cputime.Self()-start)/float64(b.N), "cpu-ns/op")
}
