package llmfs_test

import (
	"context"
	"fmt"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
)

func ExampleWorkspace_Grep() {
	ctx := context.Background()
	w := llmfs.New(mem.New(), nil)
	w.Write(ctx, "/main.go", "package main\n\nfunc main() {\n\t// TODO: greet\n}\n", llmfs.WriteOptions{})
	w.Write(ctx, "/lib/util.go", "package lib\n// TODO: tidy\n", llmfs.WriteOptions{})

	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "TODO", Mode: llmfs.GrepContent, LineNumbers: true, Before: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Text())
	// Output:
	// lib/util.go-1-package lib
	// lib/util.go:2:// TODO: tidy
	// --
	// main.go-3-func main() {
	// main.go:4:	// TODO: greet
}

func ExampleWorkspace_Find() {
	ctx := context.Background()
	w := llmfs.New(mem.New(), nil)
	w.Write(ctx, "/a.go", "package a\n", llmfs.WriteOptions{})
	w.Write(ctx, "/cmd/b.go", "package main\n", llmfs.WriteOptions{})
	w.Write(ctx, "/README.md", "# a\n", llmfs.WriteOptions{})

	res, err := w.Find(ctx, "*.go", llmfs.FindOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Files), "Go files")
	// Output: 2 Go files
}
