//go:build !js && !wasip1

// Command mcpbench measures MCP file-system servers side by side through one client, over
// stdio: small-file reads per second (sequential and with 16 calls in
// flight), listing a directory of many entries, and a file-name search over a tree.
//
//	mcpbench -data DIR -big DIR -tree DIR -pattern '**/*_test.go' \
//	    -server 'llmfs=llmfs mcp --root DIR --root DIR2 ...' \
//	    -server 'reference=node .../server-filesystem/dist/index.js DIR DIR2 ...'
//
// DIR/small holds the small files (f0000.txt, ...). The tools are found by name: llmfs's
// agentool dialect (file_read, directory_list with names_only, file_find if the server has
// it) or the reference server's (read_text_file, list_directory, search_files). A server without a
// find tool is measured walking the tree with its listing tool, one call per directory.
// The first server is the baseline of the ratios printed.
//
// The client costs the same for every server. The default, -client plain, is a minimal
// JSON-RPC client (plain.go) that asks every server for protocol version 2025-06-18 and
// decodes of each result only isError and the text. -client go-sdk uses the go-sdk client
// (v1.8.0, go.mod), which checks no tool result against an output schema, but negotiates
// 2026-07-28 with llmfs and an older version with the reference server, and then sends its
// capabilities in every request's _meta to llmfs only: a fifth of llmfs's CPU per small read
// goes to decoding them (go-sdk's validateRequestMeta), and the client's own cost differs.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"time"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type serverFlag []string

func (s *serverFlag) String() string     { return strings.Join(*s, "; ") }
func (s *serverFlag) Set(v string) error { *s = append(*s, v); return nil }

var (
	servers    serverFlag
	dataDir    = flag.String("data", "", "directory whose small/ holds the small files")
	bigDir     = flag.String("big", "", "directory with many entries to list")
	treeDir    = flag.String("tree", "/usr/local/go/src", "tree to search for file names")
	pattern    = flag.String("pattern", "**/*_test.go", "glob of the file-name search")
	duration   = flag.Duration("time", 3*time.Second, "how long to run each read measurement")
	lists      = flag.Int("lists", 10, "listings of the big directory to time")
	searches   = flag.Int("searches", 3, "searches to time")
	clientKind = flag.String("client", "plain", "the client: plain (one protocol version, 2025-06-18, for every server) or go-sdk (v1.8.0, which negotiates each server's latest)")
	create     = flag.Bool("create", false, "create DATA/small (1,000 files) and the big directory (10,000 entries) if missing")
)

// result is one measurement of one server.
type result struct {
	metric string
	value  float64
	unit   string
	higher bool // higher is better
	note   string
	info   bool // not a measure of the server: no ratio
}

func main() {
	flag.Var(&servers, "server", "`NAME=COMMAND` of a server to measure; repeat")
	flag.Parse()
	if len(servers) == 0 || *dataDir == "" || *bigDir == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *create {
		if err := createData(); err != nil {
			fmt.Fprintf(os.Stderr, "mcpbench: %v\n", err)
			os.Exit(1)
		}
	}
	var names []string
	all := map[string][]result{}
	for _, s := range servers {
		name, command, ok := strings.Cut(s, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "mcpbench: -server wants NAME=COMMAND, got %q\n", s)
			os.Exit(2)
		}
		res, err := measure(command)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcpbench: %s: %v\n", name, err)
			os.Exit(1)
		}
		names = append(names, name)
		all[name] = res
	}
	report(names, all)
}

// toolset names a server's tools.
type toolset struct {
	read, list, find string
	// namesOnly is the listing tool's argument for a listing of names only, as the
	// reference server's list_directory returns ("[FILE] name"); "" if it has none.
	namesOnly string
}

func (ts toolset) readArgs(p string) map[string]any { return map[string]any{"path": p} }

func measure(command string) ([]result, error) {
	ctx := context.Background()
	argv := strings.Fields(command)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	// No roots capability: both servers serve the directories they were started with.
	var (
		callTool func(name string, args map[string]any) (*mcp.CallToolResult, error)
		tools    []*mcp.Tool
	)
	switch *clientKind {
	case "plain":
		pc, err := startPlain(cmd)
		if err != nil {
			return nil, err
		}
		defer pc.close()
		if tools, err = pc.listTools(); err != nil {
			return nil, err
		}
		callTool = pc.callTool
	case "go-sdk":
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "v0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, err
		}
		defer cs.Close()
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			return nil, err
		}
		tools = lt.Tools
		callTool = func(name string, args map[string]any) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		}
	default:
		return nil, fmt.Errorf("-client must be plain or go-sdk, not %q", *clientKind)
	}
	ts, err := pickToolset(tools)
	if err != nil {
		return nil, err
	}

	small, err := os.ReadDir(path.Join(*dataDir, "small"))
	if err != nil {
		return nil, err
	}
	files := make([]string, len(small))
	for i, e := range small {
		files[i] = path.Join(*dataDir, "small", e.Name())
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
		res, err := callTool(name, args)
		if err == nil && res.IsError {
			err = fmt.Errorf("%s %v: %s", name, args, textOf(res))
		}
		return res, err
	}
	pid := cmd.Process.Pid

	// Small-file reads.
	out, err := measureReads(call, ts, files, pid)
	if err != nil {
		return nil, err
	}

	// Listing the big directory.
	entries, _ := os.ReadDir(*bigDir)
	cpu0 := cpuTime(pid)
	start := time.Now()
	listArgs := map[string]any{"path": *bigDir}
	listNote := ts.list
	if ts.namesOnly != "" {
		listArgs[ts.namesOnly] = true
		listNote += " " + ts.namesOnly
	}
	for range *lists {
		res, err := call(ts.list, listArgs)
		if err != nil {
			return nil, err
		}
		// Both must list every entry.
		if n := strings.Count(textOf(res), "f0"); n != len(entries) {
			return nil, fmt.Errorf("%s listed %d of the %d entries", ts.list, n, len(entries))
		}
	}
	out = append(out, result{metric: fmt.Sprintf("list a directory of %d entries, names only", len(entries)),
		value: float64(time.Since(start).Milliseconds()) / float64(*lists), unit: "ms", note: listNote})
	out = append(out, result{metric: "server CPU per listing", value: float64((cpuTime(pid) - cpu0).Milliseconds()) / float64(*lists), unit: "ms"})

	// File-name search.
	r, err := measureFind(call, ts)
	if err != nil {
		return nil, err
	}
	out = append(out, r)
	return out, nil
}

// pickToolset tells, from the tools a server lists, which tool set it has: llmfs's or
// the reference filesystem server's.
func pickToolset(tools []*mcp.Tool) (toolset, error) {
	var have []string
	params := map[string]string{} // tool name -> its input schema's JSON
	for _, t := range tools {
		have = append(have, t.Name)
		b, _ := json.Marshal(t.InputSchema)
		params[t.Name] = string(b)
	}
	switch {
	case slices.Contains(have, "file_read"):
		ts := toolset{read: "file_read", list: "directory_list"}
		if strings.Contains(params["directory_list"], `"names_only"`) {
			ts.namesOnly = "names_only" // llmfs before it had names_only listed with sizes
		}
		if slices.Contains(have, "file_find") {
			ts.find = "file_find"
		}
		return ts, nil
	case slices.Contains(have, "read_text_file"):
		return toolset{read: "read_text_file", list: "list_directory", find: "search_files"}, nil
	default:
		return toolset{}, fmt.Errorf("unknown tool set %v", have)
	}
}

// measureReads times reads of the small files, sequential and 16 in flight, through
// call with the tool set ts, and the CPU that server pid and this client spend on each.
func measureReads(call func(string, map[string]any) (*mcp.CallToolResult, error), ts toolset, files []string, pid int) ([]result, error) {
	var out []result
	for _, inflight := range []int{1, 16} {
		cpu0, self0 := cpuTime(pid), cputime.Self()
		var n atomic.Int64
		var firstErr error
		var once sync.Once
		deadline := time.Now().Add(*duration)
		start := time.Now()
		var wg sync.WaitGroup
		for w := range inflight {
			wg.Go(func() {
				for i := w; time.Now().Before(deadline); i += inflight {
					if _, err := call(ts.read, ts.readArgs(files[i%len(files)])); err != nil {
						once.Do(func() { firstErr = err })
						return
					}
					n.Add(1)
				}
			})
		}
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		metric := "small-file reads, sequential"
		if inflight > 1 {
			metric = fmt.Sprintf("small-file reads, %d in flight", inflight)
		}
		out = append(out, result{metric: metric, value: float64(n.Load()) / time.Since(start).Seconds(), unit: "reads/s", higher: true})
		// CPU time per read is steadier than reads/s on a busy machine.
		out = append(out, result{metric: "server CPU per read, " + strings.TrimPrefix(metric, "small-file reads, "), value: float64((cpuTime(pid) - cpu0).Microseconds()) / float64(n.Load()), unit: "µs"})
		// The client shares the machine: what it spends per call bounds the reads/s of
		// any server.
		out = append(out, result{metric: "client CPU per read, " + strings.TrimPrefix(metric, "small-file reads, "), value: float64((cputime.Self() - self0).Microseconds()) / float64(n.Load()), unit: "µs", info: true})
	}
	return out, nil
}

// measureFind times the search for files named *pattern under *treeDir: with the tool
// set's find tool, or else by walking with its list tool.
func measureFind(call func(string, map[string]any) (*mcp.CallToolResult, error), ts toolset) (result, error) {
	var found int
	var err error
	start := time.Now()
	for range *searches {
		if ts.find != "" {
			args := map[string]any{"path": *treeDir, "pattern": *pattern}
			if ts.find == "file_find" {
				// All matches, as search_files returns: file_find stops at 250 by default,
				// and timing 250 against 1,753 results compared unequal work.
				args["head_limit"] = 0
			}
			res, err := call(ts.find, args)
			if err != nil {
				return result{}, err
			}
			found = countFound(res)
		} else {
			found, err = walk(call, ts.list, *treeDir, *pattern)
			if err != nil {
				return result{}, err
			}
		}
	}
	note := ts.find
	if note == "" {
		note = "no find tool: walked with " + ts.list
	}
	return result{metric: fmt.Sprintf("find %s in %s (%d found)", *pattern, *treeDir, found),
		value: float64(time.Since(start).Milliseconds()) / float64(*searches), unit: "ms", note: note}, nil
}

// cpuTime returns the user and system CPU time process pid has used, from /proc.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which is in parentheses): utime and stime are the
	// 12th and 13th, in clock ticks of 1/100 s.
	_, rest, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	var u, s int64
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// walk searches dir for names matching the last element of pattern, one listing call per
// directory, as an agent without a find tool would.
func walk(call func(string, map[string]any) (*mcp.CallToolResult, error), list, dir, pattern string) (int, error) {
	glob := path.Base(pattern)
	found := 0
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		res, err := call(list, map[string]any{"path": d})
		if err != nil {
			return 0, err
		}
		var r struct {
			Entries []struct{ Name, Type string }
		}
		if err := json.Unmarshal([]byte(textOf(res)), &r); err != nil {
			return 0, err
		}
		for _, e := range r.Entries {
			if e.Type == "directory" {
				queue = append(queue, path.Join(d, e.Name))
			} else if ok, _ := path.Match(glob, e.Name); ok {
				found++
			}
		}
	}
	return found, nil
}

// countFound counts the matches of a find result: llmfs's {"matches": [...]} or the
// reference server's lines.
func countFound(res *mcp.CallToolResult) int {
	text := textOf(res)
	var r map[string]any
	if json.Unmarshal([]byte(text), &r) == nil {
		for _, v := range r {
			if a, ok := v.([]any); ok {
				return len(a)
			}
		}
	}
	if text == "No matches found" {
		return 0
	}
	return strings.Count(text, "\n") + 1
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// report prints a Markdown table, one column per server, and the ratio of each server to
// the last (the reference), better-is-higher.
func report(names []string, all map[string][]result) {
	fmt.Printf("| measurement |")
	for _, n := range names {
		fmt.Printf(" %s |", n)
	}
	if len(names) > 1 {
		fmt.Printf(" %s vs %s |", names[0], names[len(names)-1])
	}
	fmt.Printf("\n|---|")
	for range names {
		fmt.Printf("---|")
	}
	if len(names) > 1 {
		fmt.Printf("---|")
	}
	fmt.Println()
	for i, r := range all[names[0]] {
		fmt.Printf("| %s |", r.metric)
		for _, n := range names {
			x := all[n][i]
			fmt.Printf(" %s %s", num(x.value), x.unit)
			if x.note != "" {
				fmt.Printf(" (%s)", x.note)
			}
			fmt.Printf(" |")
		}
		if len(names) > 1 && r.info {
			fmt.Printf(" |")
		} else if len(names) > 1 {
			a, b := r.value, all[names[len(names)-1]][i].value
			ratio := a / b
			if !r.higher {
				ratio = b / a
			}
			fmt.Printf(" %.1fx |", ratio)
		}
		fmt.Println()
	}
	if len(names) > 1 {
		fmt.Println("\n(ratio > 1: the first server is faster)")
	}
}

func num(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// createData makes the small files and the big directory.
func createData() error {
	small := path.Join(*dataDir, "small")
	line := "a line of text that a model might read, not too long and not too short\n"
	for dir, n := range map[string]int{small: 1000, *bigDir: 10000} {
		if _, err := os.Stat(dir); err == nil {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for i := range n {
			if err := os.WriteFile(path.Join(dir, fmt.Sprintf("f%05d.txt", i)), []byte(strings.Repeat(line, 1+i%20)), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
