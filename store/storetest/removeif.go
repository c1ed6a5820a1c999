package storetest

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// testRemoveIf checks [store.RemoveIf] (the store's [store.ConditionalRemover], or the
// fallback behind the plain wrapper): it removes only a file that still holds the expected
// content, and every other case is refused with nothing changed.
func testRemoveIf(e *env) {
	e.write("f", "v1")
	h1 := store.Hash([]byte("v1"))
	e.noErr("RemoveIf v1 of v1", store.RemoveIf(ctx, e.s, "f", h1))
	if _, err := e.s.Stat(ctx, "f"); !errors.Is(err, fs.ErrNotExist) {
		e.t.Errorf("after a matching RemoveIf, Stat(f) = %v, want ErrNotExist", err)
	}

	e.write("f", "v2")
	e.mkdir("d")
	e.mkdir("empty")
	e.write("d/g", "g")
	before := e.snapshot()
	e.wantErr("RemoveIf v1 of v2", store.RemoveIf(ctx, e.s, "f", h1), store.ErrChanged)
	e.wantErr("RemoveIf of a missing file", store.RemoveIf(ctx, e.s, "gone", h1), store.ErrChanged)
	e.wantErr("RemoveIf below a missing directory", store.RemoveIf(ctx, e.s, "nodir/f", h1), store.ErrChanged)
	e.wantErr("RemoveIf below a file", store.RemoveIf(ctx, e.s, "f/x", h1), store.ErrChanged)
	e.wantErr("RemoveIf of a directory", store.RemoveIf(ctx, e.s, "empty", h1), store.ErrIsDir)
	e.wantErr("RemoveIf of the root", store.RemoveIf(ctx, e.s, ".", h1), store.ErrIsDir)
	e.wantErr("RemoveIf of an invalid name", store.RemoveIf(ctx, e.s, "../f", h1), store.ErrInvalidName)
	e.wantErr("RemoveIf with an empty hash", store.RemoveIf(ctx, e.s, "f", ""), store.ErrChanged)
	if _, lstat := e.s.(store.Lstater); e.opt.Symlinks && lstat {
		// (Behind the plain wrapper the fallback cannot tell a link from its target.)
		e.symlink("f", "ln")
		before = e.snapshot()
		e.wantErr("RemoveIf of a symbolic link", store.RemoveIf(ctx, e.s, "ln", store.Hash([]byte("v2"))), store.ErrNotRegular)
	}
	e.sameTree("refused RemoveIf", before)
	e.noErr("RemoveIf v2 of v2", store.RemoveIf(ctx, e.s, "d/g", store.Hash([]byte("g"))))
	if got := e.read("f"); got != "v2" {
		e.t.Errorf("f = %q after removing d/g", got)
	}
}

// testConcurrentRemoveIf races one RemoveIf against conditional writes of the same file,
// all expecting the same content: exactly one wins, and the file is as the winner left it.
// Only a store's own [store.ConditionalRemover] promises this.
func testConcurrentRemoveIf(e *env) {
	if _, ok := e.s.(store.ConditionalRemover); !ok {
		e.t.Skip("the fallback of store.RemoveIf is two steps")
	}
	const writers, rounds = 7, 10
	for round := range rounds {
		cur := fmt.Sprintf("round %d", round)
		e.write("f", cur)
		h := store.Hash([]byte(cur))
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, writers+1)
		for i := range writers {
			wg.Go(func() {
				<-start
				_, errs[i] = e.s.WriteFile(ctx, "f", strings.NewReader(fmt.Sprintf("%s by %d", cur, i)), store.WriteOptions{IfMatch: h})
			})
		}
		wg.Go(func() {
			<-start
			errs[writers] = store.RemoveIf(ctx, e.s, "f", h)
		})
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				e.t.Fatalf("%s: %d and %d both won", cur, winner, i)
			case err == nil:
				winner = i
			case !errors.Is(err, store.ErrChanged):
				e.t.Fatalf("%s: %d lost with %v, want ErrChanged", cur, i, err)
			}
		}
		got, err := readFile(e.s, "f")
		switch {
		case winner < 0:
			e.t.Fatalf("%s: nobody won", cur)
		case winner == writers && !errors.Is(err, fs.ErrNotExist):
			e.t.Fatalf("%s: RemoveIf won, but f holds %q (%v)", cur, got, err)
		case winner < writers && got != fmt.Sprintf("%s by %d", cur, winner):
			e.t.Fatalf("%s: writer %d won, but f holds %q (%v)", cur, winner, got, err)
		}
	}
}
