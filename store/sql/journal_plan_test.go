//go:build !js && !wasip1

package sqlstore

import (
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// TestChangesQueryPlan: issue 40.3, llmfs log --limit 50 grew with the journal. Every
// listing is a range scan of the primary key (ws, id), newest first, that stops at its
// limit: no full scan, no sort in a temporary b-tree, whatever the filter. The pending
// changes a host directory's journal settles at each open (which read the whole journal
// before) come from their partial index.
func TestChangesQueryPlan(t *testing.T) {
	x := connectSQLite(t)
	s := newWorkspace(t, x, Quota{})
	filters := map[string]store.ChangeFilter{
		"all":   {Limit: 50},
		"page":  {Limit: 1000, Upto: 5000},
		"path":  {Path: "d/e", Limit: 50},
		"actor": {Actor: "mcp:s1", Limit: 50},
		"since": {Since: time.Unix(1, 0), Limit: 50},
		"set":   {Set: 42},
		"after": {After: 7},
		// A host directory's journal settles its pending changes at every open.
		"pending": {States: []store.State{store.Pending}},
	}
	for name, f := range filters {
		q, args := changesQuery(SQLite, s.ws, f)
		rows, err := x.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
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
		t.Logf("%s: %s", name, p)
		want := "SEARCH llmfs_journal USING PRIMARY KEY (ws=?"
		if f.States != nil {
			want = "SEARCH llmfs_journal USING INDEX llmfs_journal_pending (ws=?"
		}
		if !strings.Contains(p, want) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s: plan %q, want %q... and no temporary b-tree", name, p, want)
		}
		if f.Limit > 0 && !strings.HasSuffix(q, "LIMIT ?") {
			t.Errorf("%s: query %q has no LIMIT", name, q)
		}
	}
}
