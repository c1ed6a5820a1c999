//go:build !js && !wasip1

package llmfs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/store/sql/sqltest"
)

// TestJournalConcurrentServers: issue 14, two servers (two database handles) on one SQL
// workspace, 16 clients writing, appending and undoing: IDs are unique and ordered, every
// undo is exact or refused with FILE_CHANGED, and nothing is lost (each path holds what
// its newest change left, and each path's changes chain).
func TestJournalConcurrentServers(t *testing.T) {
	dsns := []string{"sqlite:" + filepath.Join(t.TempDir(), "llmfs.db")}
	if dsn := os.Getenv(postgresEnv); dsn != "" {
		dsns = append(dsns, dsn)
	}
	for _, dsn := range dsns {
		t.Run(dsn[:6], func(t *testing.T) {
			first := sqltest.Workspace(t, dsn, "journal")
			db2, err := sqlstore.Connect(bg, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			second, err := db2.Workspace(bg, first.ID(), nil)
			if err != nil {
				t.Fatal(err)
			}
			servers := []*llmfs.Workspace{llmfs.New(first, nil), llmfs.New(second, nil)}
			put(t, servers[0], "shared.txt", "")
			const clients, rounds = 16, 4
			var wg sync.WaitGroup
			errs := make(chan error, clients*rounds*4)
			for c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := servers[c%2].With(llmfs.Actor(fmt.Sprint("client", c)))
					own := fmt.Sprintf("c%02d.txt", c)
					for r := range rounds {
						if _, err := w.Write(bg, own, fmt.Sprintf("%d/%d\n", c, r), llmfs.WriteOptions{}); err != nil {
							errs <- err
							return
						}
						if _, err := w.Write(bg, "shared.txt", fmt.Sprintf("%d/%d\n", c, r), llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
							errs <- err
							return
						}
						mine, err := w.History().List(bg, llmfs.HistoryFilter{Actor: w.Settings().Actor, Limit: 2})
						if err != nil {
							errs <- err
							return
						}
						// Undo the append (others may have appended since: then FILE_CHANGED),
						// and the write of the client's own file (always exact).
						for _, ch := range mine {
							_, err := w.History().Undo(bg, ch.ID)
							switch {
							case err == nil:
							case ch.Op == llmfs.ChangeAppend && errors.Is(err, &llmfs.Error{Code: llmfs.CodeFileChanged}):
							default:
								errs <- fmt.Errorf("undo of %s %s: %w", ch.Op, ch.Path, err)
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			all := history(t, servers[1], llmfs.HistoryFilter{})
			for i := 1; i < len(all); i++ {
				if all[i].ID >= all[i-1].ID {
					t.Fatalf("IDs not unique and ordered: %d after %d", all[i].ID, all[i-1].ID)
				}
			}
			by := map[string][]llmfs.Change{}
			for _, c := range all {
				by[c.Path] = append(by[c.Path], c)
			}
			for p, cs := range by {
				for i := 0; i+1 < len(cs); i++ {
					if !cs[i].Before.Equal(cs[i+1].After) {
						t.Errorf("%s: change %d starts from %+v, but change %d left %+v", p, cs[i].ID, cs[i].Before, cs[i+1].ID, cs[i+1].After)
					}
				}
				now, _, err := store.Snapshot(bg, first, storeName(servers[0].Paths().Rel(p)), 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				if !now.Equal(cs[0].After) {
					t.Errorf("%s holds %+v, its newest change %d left %+v", p, now, cs[0].ID, cs[0].After)
				}
			}
			t.Logf("%d changes", len(all))
		})
	}
}
