package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/lib/environments"
	"github.com/anthropics/anthropic-sdk-go/v2/tools/agenttoolset"

	"github.com/llmfs/llmfs"
	llmfsanthropic "github.com/llmfs/llmfs/adapters/anthropic"
)

// The file tools have the stock agent_toolset_20260401 tools' names, descriptions and
// schemas, as the SDK sends them.
func TestAgentToolsetMatchesTheSDK(t *testing.T) {
	ours, err := llmfsanthropic.AgentToolset(newWorkspace(t, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	stock := map[string]sdk.BetaTool{}
	for _, tl := range agenttoolset.BetaAgentToolset20260401(&agenttoolset.AgentToolContext{Workdir: t.TempDir()}) {
		stock[tl.Name()] = tl
	}
	var names []string
	for _, tl := range ours {
		names = append(names, tl.Name())
		s, ok := stock[tl.Name()]
		if !ok {
			t.Errorf("%s is not a tool of agent_toolset_20260401", tl.Name())
			continue
		}
		got, _ := json.Marshal(llmfsanthropic.ToolParams([]sdk.BetaTool{tl}))
		want, _ := json.Marshal(llmfsanthropic.ToolParams([]sdk.BetaTool{s}))
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tl.Name(), got, want)
		}
	}
	if got := strings.Join(names, ","); got != "read,write,edit,glob,grep" {
		t.Errorf("tools = %s", got)
	}
}

// The file tools in a read-only workspace: only those that change nothing.
func TestAgentToolsetReadOnly(t *testing.T) {
	ws := llmfs.New(newWorkspace(t, nil).Store(), &llmfs.Options{Mode: llmfs.ReadOnly})
	ts, err := llmfsanthropic.AgentToolset(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range ts {
		names = append(names, tl.Name())
	}
	if got := strings.Join(names, ","); got != "read,glob,grep" {
		t.Errorf("read-only tools = %s", got)
	}
}

// write, read (with view_range), edit, glob, grep and failures through the SDK's tool
// runner, on a workspace whose paths the model sees below a working directory.
func TestAgentToolsetRunner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/src/a.go": "package a\n\nfunc A() {}\n"})
	ts, err := llmfsanthropic.AgentToolset(ws.With(llmfs.NewSession()), &llmfsanthropic.AgentToolsetOptions{Workdir: "/workspace"})
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t,
		[]toolUse{
			{"read", `{"file_path":"/workspace/src/a.go","view_range":[3,3]}`},
			{"write", `{"file_path":"notes/todo.txt","content":"one\n"}`},
			{"read", `{"file_path":"../../etc/passwd"}`},
		},
		[]toolUse{
			{"edit", `{"file_path":"src/a.go","old_string":"func A() {}","new_string":"func A() int { return 1 }"}`},
			{"glob", `{"pattern":"**/*.txt"}`},
			{"grep", `{"pattern":"package","path":"/workspace/src"}`},
			{"edit", `{"file_path":"src/a.go","old_string":"nothing like this","new_string":"x"}`},
		},
	)
	client := api.client()
	runner := client.Beta.Messages.NewToolRunner(ts, sdk.BetaToolRunnerParams{
		BetaMessageNewParams: sdk.BetaMessageNewParams{
			Model: "claude-test", MaxTokens: 1024,
			Messages: []sdk.BetaMessageParam{sdk.NewBetaUserMessage(sdk.NewBetaTextBlock("go"))},
		},
		DisableThread: true,
	})
	if _, err := runner.RunToCompletion(context.Background()); err != nil {
		t.Fatal(err)
	}
	r1 := api.results(t, 1)
	if r1[0].IsError || !strings.Contains(r1[0].text(), "func A() {}") || strings.Contains(r1[0].text(), "package a") {
		t.Errorf("read with view_range [3,3]: %+v", r1[0])
	}
	if r1[1].IsError {
		t.Errorf("write: %+v", r1[1])
	}
	if !r1[2].IsError || !strings.Contains(r1[2].text(), "INVALID_PATH") {
		t.Errorf("a path out of the workspace: %+v, want INVALID_PATH", r1[2])
	}
	r2 := api.results(t, 2)
	if r2[0].IsError {
		t.Errorf("edit: %+v", r2[0])
	}
	if r2[1].IsError || !strings.Contains(r2[1].text(), "notes/todo.txt") {
		t.Errorf("glob: %+v", r2[1])
	}
	if r2[2].IsError || !strings.Contains(r2[2].text(), "a.go") {
		t.Errorf("grep: %+v", r2[2])
	}
	if !r2[3].IsError || !strings.Contains(r2[3].text(), "PATTERN_NOT_FOUND") {
		t.Errorf("edit of a missing string: %+v, want PATTERN_NOT_FOUND", r2[3])
	}
	if got := readFile(t, ws, "/src/a.go"); got != "package a\n\nfunc A() int { return 1 }\n" {
		t.Errorf("a.go = %q", got)
	}
	if got := readFile(t, ws, "/notes/todo.txt"); got != "one\n" {
		t.Errorf("todo.txt = %q", got)
	}
}

// ToolsFunc plugs into the self-hosted runner's options, each session on its own
// workspace session, its Workdir mapped onto the workspace root.
func TestToolsFunc(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "hello\n"})
	opts := environments.EnvironmentWorkerOptions{ToolsFunc: llmfsanthropic.ToolsFunc(ws, nil)}
	ts := opts.ToolsFunc(&agenttoolset.AgentToolContext{Workdir: "/work"})
	var read sdk.BetaTool
	for _, tl := range ts {
		if tl.Name() == "read" {
			read = tl
		}
	}
	if read == nil {
		t.Fatal("no read tool")
	}
	blocks, err := read.Execute(context.Background(), json.RawMessage(`{"file_path":"/work/a.txt"}`))
	if err != nil {
		t.Fatal(err)
	}
	if text := blocks[0].OfText.Text; !strings.Contains(text, "hello") {
		t.Errorf("read = %q", text)
	}
	_, err = read.Execute(context.Background(), json.RawMessage(`{"file_path":"/work/nope.txt"}`))
	var e *llmfsanthropic.Error
	if !errorsAs(err, &e) || e.Code != "FILE_NOT_FOUND" {
		t.Errorf("reading a missing file: %v, want a FILE_NOT_FOUND *Error", err)
	}
}
