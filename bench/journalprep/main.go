//go:build !js && !wasip1

// Command journalprep journals N small changes (writes of a few lines to 100 files in turn)
// in the host directory ROOT (journal under LLMFS_CACHE_DIR), for timing 'llmfs log'
// against the journal's length (bench/journal.sh).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: journalprep ROOT N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "journalprep:", err)
		os.Exit(2)
	}
	ws, err := host.Open(&llmfs.Options{Root: os.Args[1], Actor: "bench"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "journalprep:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	for i := range n {
		body := fmt.Sprintf("file %d\nchange %d\nthe end\n", i%100, i)
		if _, err := ws.Write(ctx, fmt.Sprintf("d%d/f%03d.txt", i%10, i%100), body, llmfs.WriteOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, "journalprep:", err)
			os.Exit(1)
		}
	}
	// Closing the store folds the intent log into the journal's database.
	if c, ok := ws.Store().(io.Closer); ok {
		if err := c.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "journalprep:", err)
			os.Exit(1)
		}
	}
}
