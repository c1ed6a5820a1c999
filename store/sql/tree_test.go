//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"strings"
	"testing"
)

// TestDropChunksUsesBlobIndex: the look for other references to a removed file's content
// goes through the index on content ids, not a scan of every file (issue 40.4: removing
// 1,000 files of a review layer scanned the whole table 1,000 times).
func TestDropChunksUsesBlobIndex(t *testing.T) {
	x := connectSQLite(t)
	for _, q := range []string{dropChunksSQL, sharedSQL} {
		rows, err := x.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, 7, 7)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if strings.Contains(p, "SCAN llmfs_nodes") || !strings.Contains(p, "llmfs_nodes_blob") {
			t.Errorf("%s\nplan: %s", q, p)
		}
	}
}
