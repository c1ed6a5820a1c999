//go:build !js && !wasip1

package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// rawStdio is a real `llmfs mcp` process driven line by line.
type rawStdio struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	done  chan error
}

func startRawStdio(t *testing.T, args ...string) *rawStdio {
	t.Helper()
	cmd := exec.Command(llmfsBinary(t), append([]string{"mcp"}, args...)...)
	cmd.Stderr = &testLog{t: t}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rawStdio{t: t, cmd: cmd, in: in, lines: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				p.lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				close(p.lines)
				p.done <- cmd.Wait()
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	return p
}

func (p *rawStdio) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("writing to llmfs mcp: %v", err)
	}
}

// next returns the next line the server writes, decoded.
func (p *rawStdio) next() map[string]any {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("llmfs mcp ended: %v", <-p.done)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("output line %.200q is not JSON: %v", line, err)
		}
		return m
	case <-time.After(20 * time.Second):
		p.t.Fatal("no answer from llmfs mcp")
	}
	return nil
}

const pingLine = `{"jsonrpc":"2.0","id":"ping","method":"ping"}`

// Issue 12.5: `llmfs mcp` exited at the first line that was not a valid JSON-RPC message
// (the go-sdk's stdio transport ends the session). Each bad line must get a -32700 or
// -32600 answer, with id null where none can be read, and the server must read on.
func TestStdioBadLinesAnswered(t *testing.T) {
	p := startRawStdio(t, "--root", tempDir(t))
	for _, c := range []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not JSON", "this is not json", -32700, nil},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, nil},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, nil},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, 7.0},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\x00\"id\":8,\"method\":\"ping\"}", -32700, nil},
		{"huge id", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, nil},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		{"truncated", `{"jsonrpc":"2.0","id":9,"meth`, -32700, nil},
		{"deep nesting", strings.Repeat("[", 5000) + strings.Repeat("]", 5000), -32600, nil},
		{"deep params", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, -32600, nil},
		{"very deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), -32700, nil},
		{"method not a string", `{"jsonrpc":"2.0","id":10,"method":7}`, -32600, 10.0},
		{"a number", `42`, -32600, nil},
		{"no method", `{"jsonrpc":"2.0","id":"x"}`, -32600, "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			p.send(c.line)
			m := p.next()
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"] != c.code || m["id"] != c.id || m["jsonrpc"] != "2.0" {
				t.Fatalf("answer %v, want error %v with id %v", m, c.code, c.id)
			}
			if _, ok := m["id"]; !ok {
				t.Errorf("answer %v has no id (want null)", m)
			}
			p.send(pingLine)
			if m := p.next(); m["id"] != "ping" || m["result"] == nil {
				t.Fatalf("ping after the bad line: %v", m)
			}
		})
	}
}

// A whole number written with a fraction or an exponent is a valid id, as the go-sdk
// reads it: the answer carries the integer, which the client reads back as the same number.
func TestStdioWholeNumberIDs(t *testing.T) {
	p := startRawStdio(t, "--root", tempDir(t))
	for _, c := range []struct {
		id   string
		want float64
	}{{"1.0", 1}, {"1e2", 100}, {"-2.0", -2}, {"7", 7}} {
		p.t = t
		p.send(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"ping"}`)
		if m := p.next(); m["id"] != c.want || m["result"] == nil {
			t.Errorf("ping with id %s: answer %v, want a result with id %v", c.id, m, c.want)
		}
	}
}

// Issue 12.5: a line over the frame limit (default 16 MiB, so one large file_write) ended
// the session. It must get an error answer, with the limit a setting (--max-frame), and
// the server must read on.
func TestStdioOversizedFrame(t *testing.T) {
	dir := tempDir(t)
	big := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"file_write","arguments":{"path":"big.txt","content":"`
	for _, c := range []struct {
		args []string
		size int
	}{
		{nil, 17 << 20},
		{[]string{"--max-frame", "4096"}, 5000},
	} {
		p := startRawStdio(t, append([]string{"--root", dir}, c.args...)...)
		p.send(big + strings.Repeat("x", c.size) + `"}}}`)
		m := p.next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != -32600.0 || m["id"] != nil || !strings.Contains(fmt.Sprint(e["message"]), "over the limit") {
			t.Fatalf("%v: answer %.300v, want a -32600 error about the limit", c.args, m)
		}
		p.send(pingLine)
		if m := p.next(); m["id"] != "ping" {
			t.Fatalf("ping after the long line: %v", m)
		}
	}
}

// Issue 12.5: closing standard input with calls in flight cancelled them. Each call read
// before the end of the input must still be answered before the server exits.
func TestStdioEOFAnswersCallsInFlight(t *testing.T) {
	dir := tempDir(t)
	var sb strings.Builder
	for range 20000 {
		sb.WriteString("some line of text to search through, 0123456789\n")
	}
	writeFile(t, filepath.Join(dir, "f.txt"), sb.String())
	p := startRawStdio(t, "--root", dir)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const calls = 8
	for i := 1; i <= calls; i++ {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"file_grep","arguments":{"pattern":"[0-9]{10}","output_mode":"count"}}}`, i))
	}
	p.in.Close()
	var ids []float64
	for line := range p.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output %q: %v", line, err)
		}
		res, _ := m["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Fatalf("answer %.300v, want a result", m)
		}
		ids = append(ids, m["id"].(float64))
	}
	if err := <-p.done; err != nil {
		t.Errorf("llmfs mcp: %v", err)
	}
	p.done <- nil // for the cleanup
	slices.Sort(ids)
	if len(ids) != calls+1 {
		t.Fatalf("answers for ids %v, want 0 to %d", ids, calls)
	}
}

// Issue 13.10: every text a model reads was JSON with <, > and & escaped (\u003c ...),
// and the rtc read's text was a JSON object around the numbered lines. Now the text is
// unescaped JSON, the rtc read's text the numbered lines and a note, and the wire carries
// no such escapes either.
func TestTextNotEscaped(t *testing.T) {
	dir := tempDir(t)
	const code = "if a < b && c > d {\n\treturn\n}\n"
	writeFile(t, filepath.Join(dir, "x.go"), code)
	for _, c := range []struct {
		dialect, tool, path, want string
	}{
		{"agentool", "file_read", "x.go", `{"content":"if a < b && c > d {\n\treturn\n}\n","total_lines":3}`},
		{"rtc", "read", "/x.go", "     1\tif a < b && c > d {\n     2\t\treturn\n     3\t}\n(the whole file: 3 lines)\n"},
	} {
		p := startRawStdio(t, "--root", dir, "--dialect", c.dialect)
		p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		p.next()
		p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":{"path":"` + c.path + `"}}}`)
		line := <-p.lines
		if strings.Contains(line, `\u00`) {
			t.Errorf("%s: the wire carries HTML escapes: %s", c.tool, line)
		}
		var m struct {
			Result struct {
				Content           []struct{ Text string }
				StructuredContent map[string]any
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || len(m.Result.Content) != 1 {
			t.Fatalf("%s: answer %s: %v", c.tool, line, err)
		}
		if got := m.Result.Content[0].Text; got != c.want {
			t.Errorf("%s: text\n%q, want\n%q", c.tool, got, c.want)
		}
		if sc := m.Result.StructuredContent; sc["total_lines"] != 3.0 || !strings.Contains(fmt.Sprint(sc["content"]), "a < b && c > d") {
			t.Errorf("%s: structured content %v", c.tool, sc)
		}
	}
}
