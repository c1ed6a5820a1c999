package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/store/mem"
)

// TestListPages: issue 40.5, GET /api/list with limit answers a page of the directory and a
// cursor, and the pages put together are the whole listing, each entry once, even when a
// file is made between two pages. Without limit the answer is the whole array, as before.
func TestListPages(t *testing.T) {
	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	for i := range 25 {
		if _, err := ws.Write(ctx, fmt.Sprintf("/d/f%03d.txt", i), "x\n", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok"}))
	t.Cleanup(srv.Close)

	type page struct {
		Entries []struct {
			Name string
			Size int
		}
		Next  string
		Total int
	}
	var names []string
	cursor := ""
	for n := 0; ; n++ {
		code, body := request(t, "GET", srv.URL+"/api/list?path=d&limit=10&cursor="+cursor, "tok", "")
		if code != 200 {
			t.Fatalf("page %d: %d %s", n, code, body)
		}
		var p page
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatalf("page %d: %v: %s", n, err, body)
		}
		if len(p.Entries) > 10 {
			t.Errorf("page %d has %d entries, limit 10", n, len(p.Entries))
		}
		if n == 0 {
			if p.Total != 25 {
				t.Errorf("total %d, want 25", p.Total)
			}
			// Made between two pages, after the cursor: the last page has it.
			if _, err := ws.Write(ctx, "/d/f999.txt", "x\n", llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range p.Entries {
			if e.Size != 2 {
				t.Errorf("%s: size %d, want 2", e.Name, e.Size)
			}
			names = append(names, e.Name)
		}
		if p.Next == "" {
			break
		}
		if n > 5 {
			t.Fatal("the pages do not end")
		}
		cursor = p.Next
	}
	if len(names) != 26 || names[0] != "f000.txt" || names[24] != "f024.txt" || names[25] != "f999.txt" {
		t.Errorf("the pages list %d names: %v", len(names), names)
	}

	if code, body := request(t, "GET", srv.URL+"/api/list?path=d", "tok", ""); code != 200 || !strings.HasPrefix(body, "[") || strings.Count(body, `"name"`) != 26 {
		t.Errorf("without limit: %d %.100s", code, body)
	}
	for _, bad := range []string{"0", "-1", "x"} {
		if code, body := request(t, "GET", srv.URL+"/api/list?path=d&limit="+bad, "tok", ""); code != 400 || !strings.Contains(body, "INVALID_ARGUMENT") {
			t.Errorf("limit=%s: %d %s", bad, code, body)
		}
	}
}
