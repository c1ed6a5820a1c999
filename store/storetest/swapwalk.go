package storetest

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/llmfs/llmfs/search"
	"github.com/llmfs/llmfs/store"
)

// What lies outside the store in testSwapWalk: a name and a content no walk may show.
const (
	outsideName    = "outside-secret.txt"
	outsideContent = "OUTSIDE-SECRET needle\n"
)

// swapRounds is how many times each swapped directory becomes a link and back.
const swapRounds = 300

// testSwapWalk swaps directories of the store for symbolic links to a directory outside it,
// over and over, while walks run concurrently: grep and find (package search, following
// links or not) and a walk by [store.DirHandle] as the core's usage count does it (each
// directory opened below its parent, each file read and described). Nothing outside may
// ever be listed or read. A store without symbolic links has nothing to swap in: for it
// the case is a no-op.
func testSwapWalk(e *env) {
	if !e.opt.Symlinks {
		e.t.Skip("the store has no symbolic links")
	}
	if e.opt.Unconfined {
		e.t.Skip("symbolic links may lead out of this store by design")
	}
	outside := e.t.TempDir()
	for _, dir := range []string{outside, outside + "/sub"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			e.t.Fatal(err)
		}
		// The names inside holds, and one of its own: what a walk listed inside and then
		// reads is outside's should a link on the way be followed.
		for _, name := range []string{outsideName, "inside.txt"} {
			if err := os.WriteFile(dir+"/"+name, []byte(outsideContent), 0o644); err != nil {
				e.t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(outside, e.hostPath("probe")); err != nil {
		e.t.Skip("no symbolic links here:", err)
	}
	os.Remove(e.hostPath("probe"))
	swapped := []string{"s0", "s1/s2", "s3"}
	for _, d := range []string{"s0", "s0/sub", "s1", "s1/s2", "s1/s2/sub", "s3", "s3/sub"} {
		e.mkdir(d)
		e.write(d+"/inside.txt", "inside needle\n")
	}

	stop := make(chan struct{})
	var swappers sync.WaitGroup
	for _, d := range swapped {
		swappers.Go(func() { swapLoop(e, d, outside, stop) })
	}
	var walkers sync.WaitGroup
	for k := range 4 {
		walkers.Go(func() {
			for round := 0; ; round++ {
				select {
				case <-stop:
					return
				default:
				}
				swapWalkOnce(e, k, round)
			}
		})
	}
	swappers.Wait() // each ends after swapRounds
	close(stop)
	walkers.Wait()
}

// swapLoop swaps the store directory d for a link to outside and back, swapRounds times
// or until stop, and leaves it in place. Errors are ignored: on some systems a directory
// a walk holds open cannot be renamed, and the next round tries again.
func swapLoop(e *env, d, outside string, stop <-chan struct{}) {
	host := e.hostPath(d)
	aside := host + ".aside"
	for range swapRounds {
		select {
		case <-stop:
			return
		default:
		}
		if os.Rename(host, aside) != nil {
			continue
		}
		if os.Symlink(outside, host) == nil {
			time.Sleep(50 * time.Microsecond)
			os.Remove(host)
		}
		for os.Rename(aside, host) != nil {
			time.Sleep(time.Millisecond)
		}
	}
}

// swapWalkOnce runs one of the walks, chosen by walker k and round, and reports what it
// saw of outside.
func swapWalkOnce(e *env, k, round int) {
	follow := round%2 == 0
	switch (k + round) % 4 {
	case 0:
		res, err := search.Grep(ctx, e.s, ".", search.GrepOptions{Pattern: "needle", Mode: search.Content, Follow: follow, Threads: 2})
		if err == nil {
			for _, en := range res.Entries {
				checkOutside(e, "grep", en.Path, en.Text)
			}
		}
	case 1:
		res, err := search.Grep(ctx, e.s, ".", search.GrepOptions{Pattern: "SECRET", Mode: search.Count, Follow: follow, Threads: 2})
		if err == nil {
			for _, en := range res.Entries {
				checkOutside(e, "grep -c SECRET", en.Path, "SECRET")
			}
		}
	case 2:
		res, err := search.Find(ctx, e.s, ".", search.FindOptions{Pattern: "**", Follow: follow, Threads: 2})
		if err == nil {
			for _, f := range res.Files {
				checkOutside(e, "find", f.Path, "")
			}
		}
	default:
		handleWalk(e)
	}
}

// checkOutside fails the test if a walk showed the name or the content of what is outside.
func checkOutside(e *env, walk, name, text string) {
	if strings.Contains(name, outsideName) || strings.Contains(text, "SECRET") {
		e.t.Errorf("%s through a directory swapped for a link showed what is outside the store: %s %q", walk, name, text)
	}
}

// handleWalk walks the store as the core's usage count does: each directory opened
// below its parent's handle, each entry described, and each file read by its name from
// the root as grep reads it.
func handleWalk(e *env) {
	root, err := store.OpenDir(context.Background(), e.s, ".")
	if err != nil {
		e.t.Errorf("OpenDir(.): %v", err)
		return
	}
	defer root.Close()
	var walk func(d store.DirHandle, name string, depth int)
	walk = func(d store.DirHandle, name string, depth int) {
		des, err := d.ReadDir(depth%2 == 0)
		if err != nil {
			return
		}
		for _, de := range des {
			full := de.Name()
			if name != "." {
				full = name + "/" + de.Name()
			}
			checkOutside(e, "DirHandle.ReadDir", full, "")
			de.Info()
			switch {
			case de.IsDir() && depth < 8:
				if sub, err := d.OpenDir(de.Name()); err == nil {
					walk(sub, full, depth+1)
					sub.Close()
				}
			case de.Type().IsRegular():
				root.ModTime(full)
				if r, err := root.Open(full); err == nil {
					data, _ := io.ReadAll(r)
					r.Close()
					checkOutside(e, "DirHandle.Open", full, string(data))
				}
			}
		}
	}
	walk(root, ".", 0)
	// And by full names from the root, as grep lists the directory it searches.
	for _, d := range []string{"s0", "s1/s2", "s3", "s0/sub", "s1/s2/sub"} {
		sub, err := root.OpenDir(d)
		if err != nil {
			continue
		}
		des, _ := sub.ReadDir(true)
		sub.Close()
		for _, de := range des {
			checkOutside(e, fmt.Sprintf("DirHandle.OpenDir(%s).ReadDir", d), d+"/"+de.Name(), "")
		}
	}
}
