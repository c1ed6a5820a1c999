package storetest

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// testConcurrentWrites has many goroutines write, append to and read distinct files.
func testConcurrentWrites(e *env) {
	const workers, files = 8, 12
	var wg sync.WaitGroup
	errc := make(chan error, workers*files)
	for w := range workers {
		dir := fmt.Sprintf("w%d", w)
		e.mkdir(dir)
		wg.Go(func() {
			for i := range files {
				name := fmt.Sprintf("%s/f%d", dir, i)
				content := strings.Repeat(name, 100)
				if _, err := e.s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
					errc <- err
					return
				}
				if _, err := e.s.WriteFile(ctx, "shared-log", strings.NewReader(name+"\n"), store.WriteOptions{Mode: store.Append}); err != nil {
					errc <- err
					return
				}
				if got, err := readFile(e.s, name); err != nil || got != content {
					errc <- fmt.Errorf("read %s back: %.20q, %v", name, got, err)
					return
				}
				if _, err := e.s.ReadDir(ctx, dir); err != nil {
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		e.t.Error(err)
	}
	for w := range workers {
		des, err := e.s.ReadDir(ctx, fmt.Sprintf("w%d", w))
		e.noErr("ReadDir", err)
		if len(des) != files {
			e.t.Errorf("w%d holds %d entries, want %d", w, len(des), files)
		}
	}
	lines := strings.Split(strings.TrimSuffix(e.read("shared-log"), "\n"), "\n")
	if len(lines) != workers*files {
		e.t.Errorf("shared-log has %d lines, want %d (an append was lost or torn)", len(lines), workers*files)
	}
}

// testConcurrentConditional races conditional writes on one file: in each round exactly
// one writer may win, and the file then holds the winner's content.
func testConcurrentConditional(e *env) {
	const racers, rounds = 8, 10
	type result struct {
		i   int
		err error
	}
	race := func(what string, opts func(i int) store.WriteOptions, losers error) {
		e.t.Helper()
		var wg sync.WaitGroup
		results := make(chan result, racers)
		start := make(chan struct{})
		for i := range racers {
			wg.Go(func() {
				<-start
				_, err := e.s.WriteFile(ctx, "f", strings.NewReader(fmt.Sprintf("%s by %d", what, i)), opts(i))
				results <- result{i, err}
			})
		}
		close(start)
		wg.Wait()
		close(results)
		winner := -1
		for r := range results {
			switch {
			case r.err == nil && winner >= 0:
				e.t.Errorf("%s: writers %d and %d both won", what, winner, r.i)
			case r.err == nil:
				winner = r.i
			case !errors.Is(r.err, losers):
				e.t.Errorf("%s: writer %d lost with %v, want %v", what, r.i, r.err, losers)
			}
		}
		if winner < 0 {
			e.t.Errorf("%s: nobody won", what)
			return
		}
		if got, want := e.read("f"), fmt.Sprintf("%s by %d", what, winner); got != want {
			e.t.Errorf("%s: file holds %q, want the winner's %q", what, got, want)
		}
	}
	for round := range rounds {
		cur := e.read0("f")
		race(fmt.Sprintf("round %d if-match", round), func(int) store.WriteOptions {
			return store.WriteOptions{IfMatch: store.Hash([]byte(cur))}
		}, store.ErrChanged)
	}
	for round := range rounds {
		name := "f"
		e.noErr("Remove", e.s.Remove(ctx, name))
		race(fmt.Sprintf("round %d if-absent", round), func(int) store.WriteOptions {
			return store.WriteOptions{IfAbsent: true}
		}, store.ErrChanged)
		e.noErr("Remove", e.s.Remove(ctx, name))
		race(fmt.Sprintf("round %d exclusive", round), func(int) store.WriteOptions {
			return store.WriteOptions{Mode: store.Exclusive}
		}, fs.ErrExist)
	}
}

// read0 reads name, creating it empty first if it is missing.
func (e *env) read0(name string) string {
	e.t.Helper()
	if _, err := e.s.Stat(ctx, name); errors.Is(err, fs.ErrNotExist) {
		e.write(name, "")
	}
	return e.read(name)
}
