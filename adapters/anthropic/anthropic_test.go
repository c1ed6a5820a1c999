package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/llmfs/llmfs"
	llmfsanthropic "github.com/llmfs/llmfs/adapters/anthropic"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func newWorkspace(t *testing.T, files map[string]string) *llmfs.Workspace {
	t.Helper()
	ws := llmfs.New(mem.New(), nil)
	for name, content := range files {
		if _, err := ws.Write(context.Background(), name, content, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func readFile(t *testing.T, ws *llmfs.Workspace, name string) string {
	t.Helper()
	b, err := ws.ReadFile(context.Background(), name, 1<<20)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return string(b)
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// Every definition of every dialect survives the SDK's own request type: marshalled as
// the SDK sends it, the tool has the same name, description and input schema.
func TestDefinitionsRoundTrip(t *testing.T) {
	ws := newWorkspace(t, nil)
	for _, d := range tools.Dialects {
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		params, err := llmfsanthropic.Definitions(tb)
		if err != nil {
			t.Fatal(err)
		}
		defs := tb.Definitions()
		if len(params) != len(defs) {
			t.Fatalf("%s: %d params for %d definitions", d, len(params), len(defs))
		}
		for i, p := range params {
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var sent struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"input_schema"`
			}
			if err := json.Unmarshal(b, &sent); err != nil {
				t.Fatal(err)
			}
			if sent.Name != defs[i].Name || sent.Description != defs[i].Description {
				t.Errorf("%s/%s: sent %q %q", d, defs[i].Name, sent.Name, sent.Description)
			}
			if got, want := decode(t, sent.InputSchema), decode(t, defs[i].InputSchema); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: the SDK sends the schema\n%s\nwant\n%s", d, defs[i].Name, sent.InputSchema, defs[i].InputSchema)
			}
		}
	}
}

// read, edit, patch and a failure, each through the SDK's tool runner against the
// Messages API faked at the HTTP boundary.
func TestToolRunner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/b.txt": "one\ntwo\n"})
	tb, err := tools.New(ws.With(llmfs.NewSession()), tools.RTC)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := llmfsanthropic.Tools(tb)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t,
		[]toolUse{{"read", `{"path":"/a.txt"}`}, {"read", `{"path":"/b.txt"}`}},
		[]toolUse{
			{"edit", `{"path":"/a.txt","old_string":"beta","new_string":"gamma"}`},
			{"patch", `{"patch":"*** Begin Patch\n*** Update File: /b.txt\n one\n-two\n+three\n*** End Patch"}`},
			{"read", `{"path":"/missing.txt"}`},
		},
	)
	client := api.client()
	runner := client.Beta.Messages.NewToolRunner(ts, sdk.BetaToolRunnerParams{
		BetaMessageNewParams: sdk.BetaMessageNewParams{
			Model: "claude-test", MaxTokens: 1024,
			Messages: []sdk.BetaMessageParam{sdk.NewBetaUserMessage(sdk.NewBetaTextBlock("change the files"))},
		},
		DisableThread: true,
	})
	if _, err := runner.RunToCompletion(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := api.results(t, 1)
	if len(first) != 2 || first[0].IsError || !strings.Contains(first[0].text(), "alpha") {
		t.Fatalf("read results: %+v", first)
	}
	second := api.results(t, 2)
	if len(second) != 3 {
		t.Fatalf("results: %+v", second)
	}
	if second[0].IsError || second[1].IsError {
		t.Fatalf("edit or patch failed: %+v", second)
	}
	if !second[2].IsError || !strings.Contains(second[2].text(), "FILE_NOT_FOUND") {
		t.Fatalf("reading a missing file: %+v, want an error result with FILE_NOT_FOUND", second[2])
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/b.txt"); got != "one\nthree\n" {
		t.Errorf("b.txt = %q", got)
	}
}

// The JSON the SDK sends the Messages API with llmfs's rtc tools, byte for byte.
func TestGoldenRequest(t *testing.T) {
	ws := newWorkspace(t, nil)
	tb, err := tools.New(ws, tools.RTC)
	if err != nil {
		t.Fatal(err)
	}
	params, err := llmfsanthropic.Definitions(tb)
	if err != nil {
		t.Fatal(err)
	}
	toolset, err := llmfsanthropic.AgentToolset(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t)
	client := api.client()
	_, err = client.Beta.Messages.New(context.Background(), sdk.BetaMessageNewParams{
		Model: "claude-test", MaxTokens: 1024,
		Messages: []sdk.BetaMessageParam{sdk.NewBetaUserMessage(sdk.NewBetaTextBlock("hi"))},
		Tools:    append(params, llmfsanthropic.ToolParams(toolset)...),
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "request.json", api.body(t, 0))
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	// The SDK writes some objects from Go maps, in no fixed key order: compare the JSON
	// with its keys sorted, which is what it means.
	var v any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	canon, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.NewBuffer(append(canon, '\n'))
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the request differs from %s (go test -update rewrites it):\n%s", path, buf.Bytes())
	}
}
