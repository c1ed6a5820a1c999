//go:build !js && !wasip1

// Command llmfs gives AI agents a file system: tool definitions, one-shot tool calls, and
// friendly file commands, all confined to a workspace root.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
