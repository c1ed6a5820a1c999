//go:build !js && !wasip1

package sqlstore_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// BenchmarkCore measures what an agent's tool calls cost: the llmfs core (llmfs.Workspace,
// with its path rules, deny rules and read formatting) on store/osdir, and on store/sql
// over SQLite and PostgreSQL, on the same data: a directory of 100 files of 80 lines of 50
// bytes. Each result reports ops/s; one Grep searches the whole directory.
//
//	LLMFS_TEST_POSTGRES="$(.ci/postgres.sh)" go test -run '^$' -bench Core -benchtime 1s ./store/sql
//
// PostgreSQL runs when LLMFS_TEST_POSTGRES holds a DSN.
func BenchmarkCore(b *testing.B) {
	type target struct {
		name string
		open func(b *testing.B) *llmfs.Workspace
	}
	targets := []target{
		{"osdir", func(b *testing.B) *llmfs.Workspace {
			ws, err := host.Open(&llmfs.Options{Root: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			return ws
		}},
		{"sqlite", func(b *testing.B) *llmfs.Workspace {
			return llmfs.New(newWorkspace(b, connectSQLite(b), Quota{}), nil)
		}},
	}
	if os.Getenv(postgresEnv) != "" {
		targets = append(targets, target{"postgres", func(b *testing.B) *llmfs.Workspace {
			return llmfs.New(newWorkspace(b, connectPostgres(b), Quota{}), nil)
		}})
	}
	const files = 100
	var sb strings.Builder
	for i := range 80 {
		// Line 40 holds the text the edit benchmark swaps back and forth.
		fmt.Fprintf(&sb, "line %02d %s\n", i+1, strings.Repeat("x", 41))
	}
	content := sb.String()
	name := func(i int) string { return fmt.Sprintf("d/f%03d.txt", i%files) }
	setup := func(b *testing.B, ws *llmfs.Workspace) {
		for i := range files {
			if _, err := ws.Write(ctx, name(i), content, llmfs.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	opsPerSec := func(b *testing.B) {
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			b.Run("Read", func(b *testing.B) {
				ws := tg.open(b)
				setup(b, ws)
				i := 0
				for b.Loop() {
					res, err := ws.Read(ctx, name(i), llmfs.ReadOptions{})
					if err != nil || res.TotalLines != 80 {
						b.Fatal(res, err)
					}
					i++
				}
				opsPerSec(b)
			})
			b.Run("Write", func(b *testing.B) {
				ws := tg.open(b)
				setup(b, ws)
				i := 0
				for b.Loop() {
					if _, err := ws.Write(ctx, name(i), content, llmfs.WriteOptions{}); err != nil {
						b.Fatal(err)
					}
					i++
				}
				opsPerSec(b)
			})
			b.Run("Edit", func(b *testing.B) {
				ws := tg.open(b)
				setup(b, ws)
				from, to := "line 40 xxxx", "line 40 yyyy"
				i := 0
				for b.Loop() {
					if _, err := ws.Edit(ctx, name(i), from, to, false); err != nil {
						b.Fatal(err)
					}
					i++
					if i%files == 0 {
						from, to = to, from
					}
				}
				opsPerSec(b)
			})
			b.Run("Grep", func(b *testing.B) {
				ws := tg.open(b)
				setup(b, ws)
				for b.Loop() {
					// Count the lines 40 to 49 of every file: the whole directory is read.
					res, err := ws.Grep(ctx, llmfs.GrepOptions{Pattern: "^line 4[0-9] x", Path: "d", Mode: llmfs.GrepCount})
					if err != nil || len(res.Entries) != files {
						b.Fatal(res, err)
					}
				}
				opsPerSec(b)
			})
			b.Run("List", func(b *testing.B) {
				ws := tg.open(b)
				setup(b, ws)
				for b.Loop() {
					entries, err := ws.List(ctx, "d")
					if err != nil || len(entries) != files {
						b.Fatal(len(entries), err)
					}
				}
				opsPerSec(b)
			})
		})
	}
}
