//go:build !js && !wasip1

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/internal/termtext"
)

// acpPrinter renders session updates as text. Message chunks stream as they come; other
// updates go on lines of their own. Everything the agent chose (names, titles, ids,
// messages) passes through package termtext, so it cannot forge or erase a line: names
// are quoted when they hold anything but printable text, messages keep only newlines and
// tabs of their control characters.
type acpPrinter struct {
	mu      sync.Mutex
	w       io.Writer
	kind    string            // kind of the last chunk written
	titles  map[string]string // tool call titles by id, for the updates that omit them
	midLine bool              // the output does not end with a newline
}

func (p *acpPrinter) write(s string) {
	if s == "" {
		return
	}
	io.WriteString(p.w, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

func (p *acpPrinter) endLine() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lineLocked()
}

func (p *acpPrinter) lineLocked() {
	if p.midLine {
		p.write("\n")
	}
	p.kind = ""
}

// line writes a whole line.
func (p *acpPrinter) line(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lineLocked()
	p.write(fmt.Sprintf(format, args...) + "\n")
}

type acpContentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URI  string `json:"uri"`
}

func (b acpContentBlock) String() string {
	switch b.Type {
	case "text":
		return termtext.Text(b.Text)
	case "resource_link", "resource":
		return "[" + termtext.Name(b.Type) + " " + termtext.Name(b.URI) + "]"
	}
	return "[" + termtext.Name(b.Type) + "]"
}

func (p *acpPrinter) update(params json.RawMessage) {
	var n struct {
		Update struct {
			Kind       string          `json:"sessionUpdate"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"toolCallId"`
			Title      string          `json:"title"`
			ToolKind   string          `json:"kind"`
			Status     string          `json:"status"`
			Entries    []struct {
				Content string `json:"content"`
				Status  string `json:"status"`
			} `json:"entries"`
		} `json:"update"`
	}
	if json.Unmarshal(params, &n) != nil {
		return
	}
	u := n.Update
	switch u.Kind {
	case "agent_message_chunk", "agent_thought_chunk":
		var b acpContentBlock
		json.Unmarshal(u.Content, &b)
		p.mu.Lock()
		if p.kind != u.Kind {
			p.lineLocked()
			if u.Kind == "agent_thought_chunk" {
				p.write("(thinking) ")
			}
			p.kind = u.Kind
		}
		p.write(b.String())
		p.mu.Unlock()
	case "tool_call":
		p.mu.Lock()
		if p.titles == nil {
			p.titles = map[string]string{}
		}
		p.titles[u.ToolCallID] = u.Title
		p.mu.Unlock()
		title := termtext.Name(u.Title)
		if u.ToolKind != "" {
			title += " (" + termtext.Name(u.ToolKind) + ")"
		}
		p.line("[tool %s] %s %s", termtext.Name(u.ToolCallID), title, termtext.Name(u.Status))
	case "tool_call_update":
		// An update names its call by id alone unless the title changed: print the title
		// the call was announced with, so that each line says which tool it is about.
		p.mu.Lock()
		if u.Title != "" {
			if p.titles == nil {
				p.titles = map[string]string{}
			}
			p.titles[u.ToolCallID] = u.Title
		}
		title := p.titles[u.ToolCallID]
		p.mu.Unlock()
		if u.Status != "" || u.Title != "" {
			p.line("[tool %s] %s %s", termtext.Name(u.ToolCallID), termtext.Name(title), termtext.Name(u.Status))
		}
	case "plan":
		p.mu.Lock()
		p.lineLocked()
		p.write("[plan]\n")
		for _, e := range u.Entries {
			p.write(fmt.Sprintf("  [%s] %s\n", termtext.Name(e.Status), termtext.Name(e.Content)))
		}
		p.mu.Unlock()
	}
	// Other updates (commands, modes, user message echoes) are not shown.
}

func (p *acpPrinter) change(root string, c acp.Change) {
	verb := "modified"
	if c.Created {
		verb = "created"
	}
	p.line("[fs] %s %s (%d bytes)", verb, termtext.Name(acpRelTo(root, c.Path)), c.Bytes)
}

func (p *acpPrinter) summary(root string, s *acpSummary) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lineLocked()
	p.write(fmt.Sprintf("--- stop reason: %s\n", termtext.Name(s.StopReason)))
	// One line per file, in the order first written, with the number of writes.
	type file struct {
		path    string
		created bool
		writes  int
	}
	var files []*file
	byPath := map[string]*file{}
	for _, c := range s.Changes {
		f := byPath[c.Path]
		if f == nil {
			f = &file{path: c.Path, created: c.Created}
			byPath[c.Path] = f
			files = append(files, f)
		}
		f.writes++
	}
	p.write(fmt.Sprintf("--- %d file(s) changed\n", len(files)))
	for _, f := range files {
		verb := "modified"
		if f.created {
			verb = "created "
		}
		extra := ""
		if f.writes > 1 {
			extra = fmt.Sprintf(" (%d writes)", f.writes)
		}
		p.write(fmt.Sprintf("  %s %s%s\n", verb, termtext.Name(acpRelTo(root, f.path)), extra))
	}
	if s.Checkpoint != "" && len(files) > 0 {
		p.write("--- to take this turn back: " + acpRestoreCommand(root, s.Checkpoint) + "\n")
	}
}

func acpRelTo(root, p string) string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

// acpRestoreCommand is the command line that restores checkpoint in root, ready to paste:
// --root is left out when root is the current directory.
func acpRestoreCommand(root, checkpoint string) string {
	cmd := "llmfs restore "
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, root) {
		cmd += "--root " + shellQuote(root) + " "
	}
	return termtext.Text(cmd + shellQuote(checkpoint))
}

func sameDir(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}
