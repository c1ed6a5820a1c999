//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
)

// TestConcurrentEditsLoseNothing has 8 goroutines make 500 edits each to one file, through
// two workspaces on the same directory (or store), each goroutine its own read-tracking
// session. Every edit inserts a line naming itself before the END line, after reading the
// file. Every edit that succeeded must be in the final file, every one that failed must
// have failed with FILE_CHANGED and be absent.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	const goroutines, edits = 8, 500
	open := map[string]func(t *testing.T) [2]*llmfs.Workspace{
		"osdir": func(t *testing.T) [2]*llmfs.Workspace {
			dir := t.TempDir()
			var out [2]*llmfs.Workspace
			for i := range out {
				ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: true})
				if err != nil {
					t.Fatal(err)
				}
				out[i] = ws
			}
			return out
		},
		"mem": func(t *testing.T) [2]*llmfs.Workspace {
			s := mem.New()
			return [2]*llmfs.Workspace{llmfs.New(s, &llmfs.Options{RequireRead: true}), llmfs.New(s, &llmfs.Options{RequireRead: true})}
		},
	}
	for _, kind := range []string{"osdir", "mem"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			wss := open[kind](t)
			if _, err := wss[0].Write(ctx, "f.txt", "END\n", llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
				t.Fatal(err)
			}
			var (
				mu        sync.Mutex
				succeeded = map[string]bool{}
				failed    = map[string]bool{}
				wg        sync.WaitGroup
			)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sess := wss[g%2].With(llmfs.NewSession())
					for i := range edits {
						// A paged read of one line is enough to edit.
						if _, err := sess.Read(ctx, "f.txt", llmfs.ReadOptions{Offset: 1, Limit: 1}); err != nil {
							t.Error(err)
							return
						}
						mark := fmt.Sprintf("g%d-e%d", g, i)
						_, err := sess.Edit(ctx, "f.txt", "END\n", mark+"\nEND\n", false)
						mu.Lock()
						switch llmfs.CodeOf(err) {
						case "":
							succeeded[mark] = true
						case llmfs.CodeFileChanged:
							failed[mark] = true
						default:
							t.Errorf("Edit %s = %v, want success or FILE_CHANGED", mark, err)
						}
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			final := getRaw(t, wss[1], "f.txt")
			got := strings.Split(strings.TrimSuffix(final, "\n"), "\n")
			if got[len(got)-1] != "END" {
				t.Fatalf("the file does not end with END: %q", got[len(got)-1])
			}
			seen := map[string]bool{}
			for _, l := range got[:len(got)-1] {
				if seen[l] {
					t.Errorf("%s is in the file twice", l)
				}
				seen[l] = true
				if !succeeded[l] {
					t.Errorf("%s is in the file but its edit did not report success", l)
				}
			}
			for m := range succeeded {
				if !seen[m] {
					t.Errorf("lost update: %s succeeded but is not in the file", m)
				}
			}
			if len(succeeded)+len(failed) != goroutines*edits {
				t.Errorf("%d successes + %d failures, want %d edits", len(succeeded), len(failed), goroutines*edits)
			}
			if len(succeeded) == 0 {
				t.Errorf("no edit succeeded")
			}
			t.Logf("%d edits succeeded, %d failed with FILE_CHANGED", len(succeeded), len(failed))
		})
	}
}

// TestConcurrentEditsWithoutTracking: without read tracking an edit that loses the race
// applies to the new content instead of failing, so every edit lands.
func TestConcurrentEditsWithoutTracking(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "f.txt", "END\n")
		var wg sync.WaitGroup
		errs := make(chan error, 4*50)
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					_, err := ws.Edit(ctx, "f.txt", "END\n", fmt.Sprintf("g%d-e%d\nEND\n", g, i), false)
					if err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		failures := 0
		for err := range errs {
			failures++
			if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
				t.Errorf("Edit = %v", err)
			}
		}
		// Retries are bounded, so a rare FILE_CHANGED is allowed; lost lines are not.
		if n := strings.Count(getRaw(t, ws, "f.txt"), "\n") - 1; n != 200-failures {
			t.Errorf("%d lines in the file, want %d", n, 200-failures)
		}
	})
}
