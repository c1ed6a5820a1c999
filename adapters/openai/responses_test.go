package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmfs/llmfs"
	llmfsopenai "github.com/llmfs/llmfs/adapters/openai"
	"github.com/llmfs/llmfs/tools"
)

const responsesDone = `{"id":"resp_2","object":"response","created_at":1,"status":"completed","model":"gpt-test",` +
	`"output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}],` +
	`"parallel_tool_calls":true,"tool_choice":"auto","tools":[]}`

func responsesReply(items ...string) string {
	return `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[` +
		strings.Join(items, ",") + `],"parallel_tool_calls":true,"tool_choice":"auto","tools":[]}`
}

func applyPatchCall(id, op string) string {
	return `{"type":"apply_patch_call","id":"ap_` + id + `","call_id":"` + id + `","status":"completed","operation":` + op + `}`
}

// A function call (read), a custom grammar call (the codex patch), the hosted apply_patch
// tool's three operations and a failing one, through the Responses client.
func TestResponsesLoop(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/old.txt": "bye\n"})
	tb, err := tools.New(ws, tools.Codex)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t, "/v1/responses",
		responsesReply(
			`{"type":"function_call","id":"fc_1","call_id":"c1","name":"read_file","arguments":"{\"file_path\":\"a.txt\"}","status":"completed"}`,
			`{"type":"custom_tool_call","id":"ct_1","call_id":"c2","name":"apply_patch","input":"*** Begin Patch\n*** Update File: a.txt\n alpha\n-beta\n+gamma\n*** End Patch"}`,
			applyPatchCall("c3", `{"type":"create_file","path":"new/hello.txt","diff":"+hello\n+world"}`),
			applyPatchCall("c4", `{"type":"update_file","path":"new/hello.txt","diff":"@@\n hello\n-world\n+there"}`),
			applyPatchCall("c5", `{"type":"delete_file","path":"old.txt"}`),
			applyPatchCall("c6", `{"type":"update_file","path":"a.txt","diff":"@@\n-not in the file\n+x"}`),
		),
		responsesDone,
	)
	client := api.client()
	defs, err := llmfsopenai.ResponsesTools(tb)
	if err != nil {
		t.Fatal(err)
	}
	d := llmfsopenai.NewDispatcher(tb)
	params := responses.ResponseNewParams{
		Model: "gpt-test",
		Input: responses.ResponseNewParamsInputUnion{OfString: sdk.String("change the files")},
		Tools: append(defs, llmfsopenai.ApplyPatchTool()),
	}
	resp, err := client.Responses.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	outputs := d.ResponsesOutputs(context.Background(), resp.Output)
	params.PreviousResponseID = sdk.String(resp.ID)
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	if _, err := client.Responses.New(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	var req struct {
		Input []struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
			Status string `json:"status"`
			Output any    `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(api.body(t, 1), &req); err != nil {
		t.Fatal(err)
	}
	in := req.Input
	if len(in) != 6 {
		t.Fatalf("input items: %+v", in)
	}
	want := []struct{ typ, status, has string }{
		{"function_call_output", "", "alpha"},
		{"custom_tool_call_output", "", "a.txt"},
		{"apply_patch_call_output", "completed", "Created"},
		{"apply_patch_call_output", "completed", "Updated"},
		{"apply_patch_call_output", "completed", "Deleted"},
		{"apply_patch_call_output", "failed", "PATTERN_NOT_FOUND"},
	}
	for i, w := range want {
		out, _ := json.Marshal(in[i].Output)
		if in[i].Type != w.typ || in[i].Status != w.status || !strings.Contains(string(out), w.has) {
			t.Errorf("item %d: %+v, want %s %q containing %q", i, in[i], w.typ, w.status, w.has)
		}
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/new/hello.txt"); got != "hello\nthere\n" {
		t.Errorf("hello.txt = %q", got)
	}
	if _, err := ws.ReadFile(context.Background(), "/old.txt", 1<<20); err == nil {
		t.Error("old.txt was not deleted")
	}
}

// The executor on its own: bad operations are coded errors and change nothing.
func TestApplyOperation(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t, map[string]string{"/a.txt": "x\n"})
	for _, c := range []struct {
		op   llmfsopenai.Operation
		code string
	}{
		{llmfsopenai.Operation{Type: "rename_file", Path: "a.txt"}, "INVALID_ARGUMENT"},
		{llmfsopenai.Operation{Type: "create_file"}, "INVALID_ARGUMENT"},
		{llmfsopenai.Operation{Type: "update_file", Path: "a.txt"}, "INVALID_ARGUMENT"},
		{llmfsopenai.Operation{Type: "update_file", Path: "nope.txt", Diff: "@@\n-x\n+y"}, "FILE_NOT_FOUND"},
		{llmfsopenai.Operation{Type: "delete_file", Path: "nope.txt"}, "FILE_NOT_FOUND"},
		{llmfsopenai.Operation{Type: "create_file", Path: "bad\x00name.txt", Diff: "+x"}, "INVALID_PATH"},
		// A line standing for omitted code is refused as the patch tools refuse it.
		{llmfsopenai.Operation{Type: "create_file", Path: "c.go", Diff: "+package c\n+// ... rest of the code ...\n"}, "INVALID_ARGUMENT"},
		{llmfsopenai.Operation{Type: "update_file", Path: "a.txt", Diff: "@@\n-x\n+# ... existing code ...\n"}, "INVALID_ARGUMENT"},
	} {
		_, err := llmfsopenai.ApplyOperation(ctx, ws, c.op)
		if err == nil {
			t.Errorf("%+v succeeded, want %s", c.op, c.code)
			continue
		}
		if got := tools.ErrorOf(err).Code; got != c.code {
			t.Errorf("%+v: %v, want %s", c.op, err, c.code)
		}
	}
	if got := readFile(t, ws, "/a.txt"); got != "x\n" {
		t.Errorf("a.txt = %q after refused operations", got)
	}
	if _, err := ws.Read(ctx, "/c.go", llmfs.ReadOptions{}); err == nil {
		t.Errorf("c.go was created with a placeholder line")
	}
	// A create_file whose diff lacks the "+" prefixes is the content itself.
	if _, err := llmfsopenai.ApplyOperation(ctx, ws, llmfsopenai.Operation{Type: "create_file", Path: "b.txt", Diff: "plain\ntext\n"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, ws, "/b.txt"); got != "plain\ntext\n" {
		t.Errorf("b.txt = %q", got)
	}
}
