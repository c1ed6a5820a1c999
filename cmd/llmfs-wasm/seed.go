//go:build js && wasm

package main

import (
	"context"
	"errors"
	"io/fs"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// seededKey is the store metadata key that says the demo's files were written once: a
// person who deletes them does not get them back on the next visit.
const seededKey = "demo:seeded"

// demoFiles are what the in-browser console shows on a first visit (option seed).
var demoFiles = []struct{ path, content string }{
	{"/README.md", `# llmfs in your browser

This is the llmfs web console running on llmfs compiled to WebAssembly. The files live in
this browser's IndexedDB: nothing is sent to a server, and they are still here after a
reload.

Try it: open a file, edit and save it, watch the change appear under "Changes", click it
for the diff, and undo it. Make a checkpoint, change things, and restore it.
`},
	{"/notes/todo.md", `- [ ] read the README
- [ ] edit this file
- [ ] undo the edit from the change feed
`},
	{"/src/hello.go", `package main

import "fmt"

func main() {
	fmt.Println("hello from llmfs")
}
`},
}

// seed writes the demo files into the workspace of s once, unjournaled (they are where
// the history starts, not a change anyone made), unless s already holds files.
func seed(ctx context.Context, s store.Store, opts *llmfs.Options) error {
	m, ok := s.(store.Metadata)
	if !ok {
		return nil
	}
	if _, err := m.GetMeta(ctx, seededKey); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	o := *opts
	o.NoJournal = true
	o.RequireRead = false
	o.Mode = llmfs.ReadWrite // the page's setup, whatever the agent may do
	ws := llmfs.New(s, &o)
	es, err := ws.List(ctx, "/")
	if err != nil {
		return err
	}
	if len(es) == 0 {
		for _, f := range demoFiles {
			if _, err := ws.Write(ctx, f.path, f.content, llmfs.WriteOptions{}); err != nil {
				return err
			}
		}
	}
	return m.SetMeta(ctx, seededKey, "1")
}
