//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// TestForkBesideWriters: forks of a workspace while writers replace files of more than one
// chunk in it. On PostgreSQL a write locks its file's row and then the workspace's, a fork
// the workspace's and then the files': one of the two is aborted as a deadlock (40P01),
// which reached the writer as an error (its content, streamed, was not retried).
func TestForkBesideWriters(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		content := bytes.Repeat([]byte("0123456789abcdef"), ChunkSize/16*2+100)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("w%d-f%d", w, i%3)
					if _, err := s.WriteFile(ctx, name, bytes.NewReader(content), store.WriteOptions{}); err != nil {
						t.Errorf("write %s: %v", name, err)
						return
					}
				}
			})
		}
		var forks []string
		deadline := time.Now().Add(3 * time.Second)
		for i := 0; time.Now().Before(deadline) && !t.Failed(); i++ {
			fork := fmt.Sprintf("%s-f%d", s.ID(), i)
			if err := x.Fork(ctx, s.ID(), fork); err != nil {
				t.Errorf("fork: %v", err)
				break
			}
			forks = append(forks, fork)
		}
		close(stop)
		wg.Wait()
		// Removed once the writers are done (see TestGCRace: removing a workspace beside
		// a write to content it shares can leave chunks behind on PostgreSQL).
		for _, fork := range forks {
			if err := x.Remove(ctx, fork); err != nil {
				t.Errorf("remove the fork: %v", err)
			}
		}
	})
}
