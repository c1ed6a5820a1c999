package history_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console/history"
	"github.com/llmfs/llmfs/store/mem"
)

var bg = context.Background()

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestHistoryAPI: issue 14.7, the history, diffs, undo, checkpoints and the live feed over
// HTTP, as the web console will use them.
func TestHistoryAPI(t *testing.T) {
	ws := llmfs.New(mem.New(), &llmfs.Options{Actor: "agent"})
	srv := httptest.NewServer(history.Handler(ws.With(llmfs.Actor("web"))))
	defer srv.Close()
	if _, err := ws.Write(bg, "a.txt", "one\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, srv.URL+"/checkpoints", `{"name":"start"}`); code != 200 || !strings.Contains(body, `"name":"start"`) {
		t.Fatalf("POST /checkpoints = %d %s", code, body)
	}
	if _, err := ws.Edit(bg, "a.txt", "one", "two", false); err != nil {
		t.Fatal(err)
	}

	code, body := get(t, srv.URL+"/changes?path=a.txt")
	var cs []map[string]any
	if err := json.Unmarshal([]byte(body), &cs); code != 200 || err != nil || len(cs) != 2 {
		t.Fatalf("GET /changes = %d %s", code, body)
	}
	if cs[0]["op"] != "edit" || cs[0]["path"] != "a.txt" || cs[0]["actor"] != "agent" || cs[0]["added"] != 1.0 {
		t.Errorf("newest change = %v", cs[0])
	}
	id := int64(cs[0]["id"].(float64))
	if code, body := get(t, srv.URL+"/changes/"+jsonInt(id)+"/diff"); code != 200 || !strings.Contains(body, "-one\n+two\n") {
		t.Errorf("GET diff = %d %q", code, body)
	}
	if code, body := get(t, srv.URL+"/checkpoints/start/diff"); code != 200 || !strings.Contains(body, "+two") {
		t.Errorf("GET checkpoint diff = %d %q", code, body)
	}
	if code, _ := get(t, srv.URL+"/changes/999"); code != 400 {
		t.Errorf("GET /changes/999 = %d, want 400", code)
	}
	if code, _ := get(t, srv.URL+"/changes?limit=-1"); code != 400 {
		t.Errorf("GET /changes?limit=-1 = %d, want 400", code)
	}

	// The feed: the changes so far, then a new one within the poll interval.
	req, _ := http.NewRequest("GET", srv.URL+"/events", nil)
	req.Header.Set("Last-Event-ID", jsonInt(id-1))
	ctx, cancel := context.WithTimeout(bg, 20*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	next := func() string {
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				return sc.Text()
			}
		}
		t.Fatal("feed ended")
		return ""
	}
	if ev := next(); !strings.Contains(ev, `"op":"edit"`) {
		t.Errorf("first event = %s, want the edit (after Last-Event-ID)", ev)
	}
	if _, err := ws.Write(bg, "b.txt", "b\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := next(); !strings.Contains(ev, `"path":"b.txt"`) {
		t.Errorf("live event = %s, want the write of b.txt", ev)
	}

	// Undo as the person at the console, then a refused undo.
	if code, body := post(t, srv.URL+"/undo", `{"ids":[`+jsonInt(id)+`]}`); code != 200 || !strings.Contains(body, `"a.txt"`) {
		t.Fatalf("POST /undo = %d %s", code, body)
	}
	newest, _ := ws.History().List(bg, llmfs.HistoryFilter{Limit: 1})
	if newest[0].Actor != "web" || newest[0].Op != "undo" {
		t.Errorf("undo journaled as %s %s, want web undo", newest[0].Actor, newest[0].Op)
	}
	if code, body := post(t, srv.URL+"/undo", `{"ids":[`+jsonInt(id)+`]}`); code != 409 || !strings.Contains(body, "FILE_CHANGED") {
		t.Errorf("second undo = %d %s, want 409 FILE_CHANGED", code, body)
	}
	if code, _ := post(t, srv.URL+"/undo", `{"ids":[1],"bogus":1}`); code != 400 {
		t.Errorf("undo with an unknown field = %d, want 400", code)
	}
	if code, body := post(t, srv.URL+"/restore", `{"name":"start"}`); code != 200 || !strings.Contains(body, `"b.txt"`) {
		t.Errorf("POST /restore = %d %s", code, body)
	}
	if _, err := ws.Read(bg, "b.txt", llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
		t.Errorf("b.txt after restore: %v, want it gone", err)
	}
	if code, body := get(t, srv.URL+"/checkpoints"); code != 200 || !strings.Contains(body, "start") {
		t.Errorf("GET /checkpoints = %d %s", code, body)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
