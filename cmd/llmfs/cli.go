//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// command is one subcommand of llmfs.
type command struct {
	name  string
	args  string // usage after the name, e.g. "PATH [CONTENT]"
	short string
	long  string
	// flags declares the command's own flags on fs; it returns the function that runs it.
	setup func(fs *flag.FlagSet, env *env) func(ctx context.Context, args []string) error
}

// env is what every command may use.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	ws             wsFlags
}

// usageError marks a mistake in the command line: llmfs prints the usage and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// commands lists the subcommands in the order the usage shows them.
var commands []*command

func init() {
	commands = []*command{mcpCmd, serveCmd, toolsCmd, callCmd, readCmd, writeCmd, editCmd, lsCmd, mkdirCmd, rmCmd, mvCmd, cpCmd, grepCmd, findCmd, restoreCmd, wsCmd, acpCmd, doctorCmd}
}

func lookup(name string) *command {
	i := slices.IndexFunc(commands, func(c *command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	return commands[i]
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		printUsage(stdout)
		return 0
	}
	if args[0] == "help" {
		args = []string{args[1], "--help"}
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "llmfs: unknown command %q\n\n", args[0])
		printUsage(stderr)
		return 2
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	e.ws.stderr = stderr
	fs := flag.NewFlagSet("llmfs "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runFn := cmd.setup(fs, e)
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		printCommandUsage(stdout, cmd, fs)
		return 0
	}
	if err == nil {
		err = runFn(ctx, pos)
		if cerr := e.ws.close(); err == nil && cerr != nil {
			err = cerr
		}
	}
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errNoMatch):
		return 1
	case errors.As(err, &ue) || isFlagError(err):
		fmt.Fprintf(stderr, "llmfs %s: %v\n\n", cmd.name, err)
		printCommandUsage(stderr, cmd, fs)
		return 2
	}
	var le *llmfs.Error
	if errors.As(err, &le) {
		b, _ := json.Marshal(tools.ErrorOf(err))
		fmt.Fprintf(stderr, "%s\n", b)
		return 1
	}
	fmt.Fprintf(stderr, "llmfs %s: %v\n", cmd.name, err)
	return 1
}

// relaxGC lets the heap grow to five times its live size between collections, unless
// GOGC says otherwise: llmfs's live heaps are small (buffers, one result), and the default
// spends much of a search's or a server call's CPU collecting short-lived garbage.
func relaxGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// errNoMatch makes a search exit with status 1 and print nothing more, as grep and
// ripgrep do when nothing matched.
var errNoMatch = errors.New("no match")

// flagError wraps errors from the flag package, which are all usage mistakes.
type flagError struct{ error }

func isFlagError(err error) bool {
	var fe flagError
	return errors.As(err, &fe)
}

// parseInterspersed parses flags wherever they stand among the positional arguments;
// "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		if !strings.HasPrefix(args[0], "-") || args[0] == "-" {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		// fs.Parse takes flags (and their values) up to the next positional argument, or
		// up to and including a "--".
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, flagError{err}
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		args = rest
	}
	return pos, nil
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "llmfs gives AI agents a file system, confined to a workspace root.\n\nUsage:\n  llmfs COMMAND [ARGS] [FLAGS]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-16s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, "\nStart here:\n  llmfs mcp --root DIR      serve DIR to an MCP client over stdio\n  llmfs doctor --root DIR   check a setup and say what to fix\n")
	fmt.Fprintf(w, "\nRun 'llmfs COMMAND --help' for a command's arguments and flags.\n")
}

func printCommandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: llmfs %s %s\n\n%s\n", c.name, c.args, c.short)
	if c.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.long))
	}
	var flags strings.Builder
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nFlags (before or after the arguments):\n%s", flags.String())
	}
}
