//go:build !js && !wasip1

// Command llmfs gives AI agents a file system: tool definitions, one-shot tool calls, and
// friendly file commands, all confined to a workspace root.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() { os.Exit(runMain()) }

// runMain runs the command line of the process, SIGINT and SIGTERM cancelling its context,
// and returns the exit code. The tests' copy of the binary runs it too.
func runMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopProfile := startCPUProfile()
	defer stopProfile()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// startCPUProfile writes a CPU profile of the whole run to the file named by the hidden
// variable LLMFS_CPUPROFILE, for `go tool pprof` (bench/mcp.sh profiles a server this way).
// It returns the function that ends the profile.
func startCPUProfile() func() {
	name := os.Getenv("LLMFS_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "llmfs: LLMFS_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
