//go:build !js && !wasip1

package sqlstore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestNodeIDsSpread: on PostgreSQL the ids of new files spread over the key space instead
// of rising one by one (a hot range on a distributed database).
func TestNodeIDsSpread(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if b.name != "Postgres" {
			t.Skip("SQLite keeps its rowid: one writer, one machine")
		}
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		var ids []int64
		for i := range 20 {
			name := fmt.Sprint("f", i)
			if _, err := s.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var id int64
			if err := x.db.QueryRowContext(ctx, `SELECT id FROM llmfs_nodes WHERE ws = $1 AND path = $2`, s.ws, []byte(name)).Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if slices.IsSorted(ids) {
			t.Errorf("ids rise in the order the files were made: %v", ids)
		}
		if lo, hi := slices.Min(ids), slices.Max(ids); lo < 0 || hi-lo < 1<<40 {
			t.Errorf("ids from %d to %d: not spread over 63 bits", lo, hi)
		}
		var identity string
		if err := x.db.QueryRowContext(ctx, `SELECT is_identity FROM information_schema.columns
			WHERE table_name = 'llmfs_nodes' AND column_name = 'id'`).Scan(&identity); err != nil || identity != "NO" {
			t.Errorf("llmfs_nodes.id is_identity = %q, %v; want NO", identity, err)
		}
	})
}
