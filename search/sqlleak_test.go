//go:build linux

package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// TestNoLeaksSQL stops searches of a database store early and checks that no connection
// stays in use (an unclosed file or result set would hold one).
func TestNoLeaksSQL(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(t.TempDir(), "db"), "ws", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 10 {
		d := fmt.Sprintf("d%d", i)
		if err := s.Mkdir(ctx, d); err != nil {
			t.Fatal(err)
		}
		for j := range 10 {
			if _, err := s.WriteFile(ctx, fmt.Sprintf("%s/f%d", d, j), strings.NewReader(strings.Repeat("match\n", 20)), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 10 {
		if _, err := Grep(ctx, s, ".", GrepOptions{Pattern: "match", Mode: Content, HeadLimit: 1 + i, Threads: 4}); err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, time.Duration(i)*200*time.Microsecond)
		Grep(cctx, s, ".", GrepOptions{Pattern: "match", Threads: 4})
		cancel()
	}
	if st := s.DB().SQL().Stats(); st.InUse != 0 {
		t.Errorf("%d connections still in use after the searches", st.InUse)
	}
}
