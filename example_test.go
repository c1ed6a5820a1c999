//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// Open a directory as a sandboxed workspace, read a file, edit it, and undo the edit
// from the journal. The package comment shows the same code.
func Example() {
	dir, _ := os.MkdirTemp("", "llmfs-example-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello, world\n"), 0o644)

	ctx := context.Background()
	ws, err := host.Open(&llmfs.Options{Root: dir}) // nothing reaches outside dir
	if err != nil {
		log.Fatal(err)
	}
	if c, ok := ws.Store().(io.Closer); ok {
		defer c.Close()
	}
	res, err := ws.Read(ctx, "hello.txt", llmfs.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content)

	if _, err := ws.Edit(ctx, "hello.txt", "world", "llmfs", false); err != nil {
		log.Fatal(err)
	}
	res, _ = ws.Read(ctx, "hello.txt", llmfs.ReadOptions{})
	fmt.Print(res.Content)

	changes, _ := ws.History().List(ctx, llmfs.HistoryFilter{Path: "hello.txt", Limit: 1})
	if _, err := ws.History().Undo(ctx, changes[0].ID); err != nil { // only if nobody changed it since
		log.Fatal(err)
	}
	res, _ = ws.Read(ctx, "hello.txt", llmfs.ReadOptions{})
	fmt.Print(res.Content)

	_, err = ws.Read(ctx, "../etc/passwd", llmfs.ReadOptions{})
	fmt.Println(llmfs.CodeOf(err))
	// Output:
	// hello, world
	// hello, llmfs
	// hello, world
	// INVALID_PATH
}
