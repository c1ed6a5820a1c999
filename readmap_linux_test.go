package llmfs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestReadMapped: a read whose scan maps the rest of the file returns exactly what the
// read through read(2) returns, with windows and chunks cut at every kind of place (a
// chunk size that does not divide the page size puts chunk edges at window edges), and
// the line index built on the way is byte for byte the one read(2) builds.
func TestReadMapped(t *testing.T) {
	defer llmfs.SetRacyWindow(0)()
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	page := int64(os.Getpagesize())
	var mapped atomic.Int64
	defer llmfs.SetReadMapHook(func(int64) { mapped.Add(1) })()
	// indexFile returns the index file a tool read of big.txt builds.
	indexFile := func(ws *llmfs.Workspace) []byte {
		t.Helper()
		defer llmfs.SetLineIndex(1<<10, 7)()
		os.RemoveAll(filepath.Join(cache, "lines"))
		if _, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: 100, Limit: 3}); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(cache, "lines", "*.idx"))
		if len(files) != 1 {
			t.Fatalf("index files %q, want one", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, bufSize := range []int{4096, 4099} {
		restoreBuf := llmfs.SetReadBufferSize(bufSize)
		for _, window := range []int64{page, 3 * page} {
			for _, limits := range []llmfs.Limits{{}, {MaxReadLines: 40, MaxReadBytes: 3000, MaxLineLength: 100, MaxEditBytes: 100}} {
				for _, tracked := range []bool{false, true} {
					ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: tracked, Limits: limits})
					if err != nil {
						t.Fatal(err)
					}
					for _, n := range []int{2999, 3001} {
						for _, nl := range []bool{true, false} {
							if err := os.WriteFile(name, lineIndexText(n, nl, "m"), 0o644); err != nil {
								t.Fatal(err)
							}
							os.Chtimes(name, stamp, stamp)
							what := fmt.Sprintf("buffer %d, window %d, limits %+v, tracked %v, %d lines, final newline %v", bufSize, window, limits, tracked, n, nl)
							restoreMap := llmfs.SetReadMap(1<<62, window)
							restoreIndex := llmfs.SetLineIndex(1<<62, 7)
							want := readAllCases(t, ws)
							restoreIndex()
							wantIndex := indexFile(ws)
							restoreMap()

							restoreMap = llmfs.SetReadMap(0, window)
							before := mapped.Load()
							restoreIndex = llmfs.SetLineIndex(1<<62, 7)
							got := readAllCases(t, ws)
							restoreIndex()
							if mapped.Load() == before {
								t.Fatalf("%s: nothing was mapped", what)
							}
							compareCases(t, what+", no index", got, want)
							if got := indexFile(ws); string(got) != string(wantIndex) {
								t.Fatalf("%s: the index built through the map differs", what)
							}
							// Reads with the index the map built, from memory and from its file.
							restoreIndex = llmfs.SetLineIndex(1<<10, 7)
							for _, how := range []string{"building", "from memory", "from the file"} {
								if how == "from the file" {
									llmfs.ForgetLineIndexes()
								}
								compareCases(t, what+", index "+how, readAllCases(t, ws), want)
							}
							restoreIndex()
							restoreMap()
						}
					}
				}
			}
		}
		restoreBuf()
	}
}

func compareCases(t *testing.T, what string, got, want []string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s:\n got %s\nwant %s", what, got[i], want[i])
		}
	}
	t.Fatalf("%s: %d results, want %d", what, len(got), len(want))
}

// TestReadMappedTruncated: a file truncated while its scan has it mapped (here just after
// a window is mapped) fails the read with FILE_CHANGED; the process survives the SIGBUS,
// and the next read of the file, now short, succeeds. The cut to one byte short faults
// nowhere (the page with the new end stays mapped, its tail zeroed): the size checked
// after the scan catches it.
func TestReadMappedTruncated(t *testing.T) {
	defer llmfs.SetReadBufferSize(4096)()
	page := int64(os.Getpagesize())
	defer llmfs.SetReadMap(0, 2*page)()
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	data := lineIndexText(20000, true, "t")
	for _, tracked := range []bool{false, true} {
		for _, to := range []int64{0, 10000, 5 * page, int64(len(data)) - 1} {
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: tracked, Limits: llmfs.Limits{MaxEditBytes: 1 << 30}})
			if err != nil {
				t.Fatal(err)
			}
			done := false
			restore := llmfs.SetReadMapHook(func(off int64) {
				// Cut the file behind the window just mapped: the scan's next touch of
				// the window faults.
				if !done && off+2*page > to {
					done = true
					if err := os.Truncate(name, to); err != nil {
						t.Error(err)
					}
				}
			})
			res, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: 10, Limit: 5})
			restore()
			var e *llmfs.Error
			if !errors.As(err, &e) || e.Code != llmfs.CodeFileChanged || e.Path != "big.txt" {
				t.Fatalf("tracked %v, truncated to %d: got %+v, %v; want a FILE_CHANGED error", tracked, to, res, err)
			}
			if res, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: 1, Limit: 1}); err != nil {
				t.Fatalf("tracked %v, truncated to %d: the read after: %v", tracked, to, err)
			} else if want := int64(to); res.Size != want {
				t.Fatalf("tracked %v, truncated to %d: the read after has %d bytes", tracked, to, res.Size)
			}
		}
	}
}

// TestReadMappedTruncateRace: reads while another goroutine truncates and rewrites the file
// over and over either succeed or fail with a coded error; none crashes the process.
func TestReadMappedTruncateRace(t *testing.T) {
	defer llmfs.SetReadBufferSize(4096)()
	page := int64(os.Getpagesize())
	defer llmfs.SetReadMap(0, 4*page)()
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	data := lineIndexText(40000, true, "r")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Truncate(name, int64(i*7919)%int64(len(data)))
			os.WriteFile(name, data, 0o644)
		}
	})
	codes := map[llmfs.Code]int{}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		_, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: 20000, Limit: 5})
		var e *llmfs.Error
		switch {
		case err == nil:
			codes["ok"]++
		case errors.As(err, &e):
			codes[e.Code]++
		default:
			t.Fatalf("an error without a code: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("results: %v", codes)
}

// BenchmarkReadDeepMapped: BenchmarkReadDeep's read (50 lines in the middle of a file,
// no index, every line counted) with the rest of the file mapped or read with read(2), for
// files of 1 MiB (readMapMin, the smallest mapped), 4 MiB and 64 MiB.
func BenchmarkReadDeepMapped(b *testing.B) {
	defer llmfs.SetLineIndex(1<<62, 65536)()
	for _, size := range []int{1 << 20, 4 << 20, 64 << 20} {
		dir := b.TempDir()
		var data []byte
		n := 0
		for len(data) < size {
			n++
			data = fmt.Appendf(data, "%d the quick brown fox jumps over the lazy dog %x\n", n, n*7919)
		}
		if err := os.WriteFile(filepath.Join(dir, "big.txt"), data, 0o644); err != nil {
			b.Fatal(err)
		}
		ws, err := host.Open(&llmfs.Options{Root: dir})
		if err != nil {
			b.Fatal(err)
		}
		for _, mapped := range []bool{false, true} {
			b.Run(fmt.Sprintf("size=%dMiB/mapped=%v", size>>20, mapped), func(b *testing.B) {
				if !mapped {
					defer llmfs.SetReadMap(1<<62, 8<<20)()
				}
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: n / 2, Limit: 50}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzReadMapped: a tool read with the rest of the file mapped (in one-page windows)
// returns what the read through read(2) returns.
func FuzzReadMapped(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"), 2, 1, uint8(3))
	f.Add(bytes.Repeat([]byte("0123456789\n"), 2000), 1000, 5, uint8(0))
	f.Add(append(bytes.Repeat([]byte("x"), 9000), "\ny\xff\n"...), 1, 0, uint8(200))
	dir := f.TempDir()
	name := filepath.Join(dir, "big.txt")
	page := int64(os.Getpagesize())
	ws, err := host.Open(&llmfs.Options{Root: dir, Limits: llmfs.Limits{MaxReadLines: 50, MaxReadBytes: 2000, MaxLineLength: 30}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, offset, limit int, chunk uint8) {
		if offset < 0 || limit < 0 || offset > 1<<20 || limit > 1<<20 {
			t.Skip("Read refuses a negative offset or limit before it scans; huge ones only slow the fuzzer")
		}
		defer llmfs.SetLineIndex(1<<62, 7)()
		defer llmfs.SetReadBufferSize(1 + int(chunk))()
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := llmfs.ReadOptions{Offset: offset, Limit: limit}
		restore := llmfs.SetReadMap(1<<62, page)
		want, werr := ws.Read(context.Background(), "big.txt", opts)
		restore()
		defer llmfs.SetReadMap(0, page)()
		got, gerr := ws.Read(context.Background(), "big.txt", opts)
		if fmt.Sprint(got, gerr) != fmt.Sprint(want, werr) {
			t.Fatalf("opts %+v, chunk %d:\n got %+v %v\nwant %+v %v", opts, chunk, got, gerr, want, werr)
		}
	})
}

// TestReadMapFails: when the file cannot be mapped (here a window of no bytes, which mmap
// refuses, as a file system without mmap would), the read falls back to read(2).
func TestReadMapFails(t *testing.T) {
	defer llmfs.SetReadBufferSize(4096)()
	dir := t.TempDir()
	data := lineIndexText(3000, true, "f")
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	opts := llmfs.ReadOptions{Offset: 2000, Limit: 3}
	restore := llmfs.SetReadMap(1<<62, 8<<20)
	want, err := ws.Read(context.Background(), "big.txt", opts)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	defer llmfs.SetReadMap(0, 0)()
	got, err := ws.Read(context.Background(), "big.txt", opts)
	if err != nil || *got != *want {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}
