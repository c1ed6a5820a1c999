package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	llmfsopenai "github.com/llmfs/llmfs/adapters/openai"
	"github.com/llmfs/llmfs/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// Every definition of every dialect survives the SDK's request types: marshalled as the
// SDK sends it, each tool has its name, description and parameters (or grammar).
func TestDefinitionsRoundTrip(t *testing.T) {
	ws := newWorkspace(t, nil)
	for _, d := range tools.Dialects {
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		defs := tb.Definitions()
		chat, err := llmfsopenai.ChatTools(tb)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := llmfsopenai.ResponsesTools(tb)
		if err != nil {
			t.Fatal(err)
		}
		for i, def := range defs {
			var c struct {
				Type     string `json:"type"`
				Function struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					Parameters  json.RawMessage `json:"parameters"`
				} `json:"function"`
			}
			b, _ := json.Marshal(chat[i])
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			if c.Type != "function" || c.Function.Name != def.Name || c.Function.Description != def.Description ||
				!reflect.DeepEqual(decode(t, c.Function.Parameters), decode(t, def.InputSchema)) {
				t.Errorf("%s/%s: chat tool %s", d, def.Name, b)
			}
			var r struct {
				Type        string          `json:"type"`
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
				Format      struct {
					Syntax     string `json:"syntax"`
					Definition string `json:"definition"`
				} `json:"format"`
			}
			b, _ = json.Marshal(resp[i])
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			if r.Name != def.Name || r.Description != def.Description {
				t.Errorf("%s/%s: responses tool %s", d, def.Name, b)
			}
			if def.Grammar != "" {
				if r.Type != "custom" || r.Format.Syntax != "lark" || r.Format.Definition != def.Grammar {
					t.Errorf("%s/%s: a grammar tool sent as %s", d, def.Name, b)
				}
			} else if r.Type != "function" || !reflect.DeepEqual(decode(t, r.Parameters), decode(t, def.InputSchema)) {
				t.Errorf("%s/%s: responses tool %s", d, def.Name, b)
			}
		}
	}
}

func chatReply(calls ...[2]string) string {
	var tcs []string
	for i, c := range calls {
		args, _ := json.Marshal(c[1])
		tcs = append(tcs, fmt.Sprintf(`{"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}`, i, c[0], args))
	}
	return `{"id":"chat_1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",` +
		`"message":{"role":"assistant","content":null,"tool_calls":[` + strings.Join(tcs, ",") + `]}}]}`
}

const chatDone = `{"id":"chat_2","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done"}}]}`

// read, edit, patch and a failure through the Chat Completions client and the dispatcher.
func TestChatLoop(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/b.txt": "one\ntwo\n"})
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t, "/v1/chat/completions",
		chatReply(
			[2]string{"file_read", `{"path":"a.txt"}`},
			[2]string{"file_edit", `{"path":"a.txt","old_text":"beta","new_text":"gamma"}`},
			[2]string{"patch", `{"patch":"*** Begin Patch\n*** Update File: b.txt\n one\n-two\n+three\n*** End Patch"}`},
			[2]string{"file_read", `{"path":"missing.txt"}`},
		),
		chatDone,
	)
	client := api.client()
	defs, err := llmfsopenai.ChatTools(tb)
	if err != nil {
		t.Fatal(err)
	}
	params := sdk.ChatCompletionNewParams{
		Model:    "gpt-test",
		Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("change the files")},
		Tools:    defs,
	}
	d := llmfsopenai.NewDispatcher(tb)
	for range 4 {
		comp, err := client.Chat.Completions.New(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		msg := comp.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			break
		}
		params.Messages = append(params.Messages, msg.ToParam())
		params.Messages = append(params.Messages, d.ChatToolMessages(context.Background(), msg)...)
	}
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(api.body(t, 1), &req); err != nil {
		t.Fatal(err)
	}
	tm := req.Messages[2:]
	if len(tm) != 4 || tm[0].Role != "tool" || tm[0].ToolCallID != "call_0" || !strings.Contains(tm[0].Content, "alpha") {
		t.Fatalf("tool messages: %+v", tm)
	}
	if !strings.Contains(tm[1].Content, `"replacements":1`) || strings.Contains(tm[2].Content, `"code"`) {
		t.Errorf("edit and patch: %+v", tm[1:3])
	}
	if !strings.Contains(tm[3].Content, `"code":"FILE_NOT_FOUND"`) {
		t.Errorf("reading a missing file: %+v", tm[3])
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/b.txt"); got != "one\nthree\n" {
		t.Errorf("b.txt = %q", got)
	}
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

// The JSON the SDK sends: Chat Completions with the agentool tools, and Responses with
// the codex tools (patch as a grammar tool) and the hosted apply_patch tool.
func TestGoldenRequests(t *testing.T) {
	ws := newWorkspace(t, nil)
	agentool, _ := tools.New(ws, tools.Agentool)
	codex, _ := tools.New(ws, tools.Codex)
	chat, err := llmfsopenai.ChatTools(agentool)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t, "/v1/chat/completions", chatDone)
	client := api.client()
	if _, err := client.Chat.Completions.New(context.Background(), sdk.ChatCompletionNewParams{
		Model: "gpt-test", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")}, Tools: chat,
	}); err != nil {
		t.Fatal(err)
	}
	golden(t, "chat_request.json", api.body(t, 0))

	rt, err := llmfsopenai.ResponsesTools(codex)
	if err != nil {
		t.Fatal(err)
	}
	rapi := newFakeAPI(t, "/v1/responses", responsesDone)
	rclient := rapi.client()
	if _, err := rclient.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfString: sdk.String("hi")},
		Tools: append(rt, llmfsopenai.ApplyPatchTool()),
	}); err != nil {
		t.Fatal(err)
	}
	golden(t, "responses_request.json", rapi.body(t, 0))
}
