//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/tools"
)

// command is one subcommand of llmfs.
type command struct {
	name  string
	args  string // usage after the name, e.g. "PATH [CONTENT]"
	short string
	long  string
	// search marks grep and find: as with grep and ripgrep, they exit 1 when nothing
	// matched and 2 on any error (a bad pattern, a missing directory), so that a script
	// can tell "no match" from "could not search".
	search bool
	// flags declares the command's own flags on fs; it returns the function that runs it.
	setup func(fs *flag.FlagSet, env *env) func(ctx context.Context, args []string) error
}

// env is what every command may use.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	ws             wsFlags
	isTTY          *bool // stdout is a terminal; see tty
}

// tty reports whether standard output is a terminal.
func (e *env) tty() bool {
	if e.isTTY == nil {
		e.isTTY = new(isTerminal(e.stdout))
	}
	return *e.isTTY
}

// name renders a file name for standard output: as it is for a pipe or a file, where a
// program reads it byte for byte, and quoted when it holds control characters on a
// terminal (as GNU ls does), where it could forge or erase lines.
func (e *env) name(s string) string {
	if e.tty() {
		return termtext.Name(s)
	}
	return s
}

// usageError marks a mistake in the command line: llmfs prints the usage and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// commands lists the subcommands in the order the usage shows them.
var commands []*command

func init() {
	commands = []*command{mcpCmd, serveCmd, toolsCmd, callCmd, readCmd, writeCmd, editCmd, lsCmd, mkdirCmd, rmCmd, mvCmd, cpCmd, grepCmd, findCmd, restoreCmd, wsCmd, acpCmd, versionCmd,
		logCmd, diffCmd, undoCmd, checkpointCmd, restoreCheckpointCmd, doctorCmd,
		reviewCmd, applyCmd, discardCmd}
}

// exitError makes llmfs exit with a code of its own choosing (run: CMD's status).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

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
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "llmfs: unknown command %s; see 'llmfs --help'\n", strconv.Quote(args[0]))
		return 2
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	e.ws.stderr, e.ws.ctx = stderr, ctx
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
	var xe *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &xe): // llmfs run: the command's own status
		return xe.code
	case errors.Is(err, errNoMatch):
		return 1
	case errors.As(err, &ue) || isFlagError(err):
		// One line, and where the rest is: the whole flag list would bury the mistake.
		fmt.Fprintf(stderr, "llmfs %s: %s; see 'llmfs %s --help'\n", cmd.name, termtext.Text(err.Error()), cmd.name)
		return 2
	}
	if cmd.name == "call" {
		// llmfs call is for programs and tests: the coded error the model would get.
		fmt.Fprintf(stderr, "%s\n", tools.ErrorJSON(err))
		return 1
	}
	fmt.Fprintf(stderr, "llmfs %s: %s\n", cmd.name, message(err))
	if cmd.search {
		return 2
	}
	return 1
}

// message renders err for a person, as the file commands of Unix do: "nope.txt: no such
// file or directory" rather than the coded JSON a model gets. Names in it are escaped
// (package termtext), so a hostile file name cannot forge lines on the terminal.
func message(err error) string {
	var le *llmfs.Error
	if !errors.As(err, &le) {
		return termtext.Text(err.Error())
	}
	msg := le.Msg
	if msg == "" {
		msg = strings.ToLower(strings.ReplaceAll(string(le.Code), "_", " "))
	}
	if le.Code == llmfs.CodeFileChanged {
		// A conflict is the refusal a script must tell from any other (an undo, a restore,
		// an apply that would clobber a later change): name the code on the first line.
		first, rest, _ := strings.Cut(msg, "\n")
		msg = strings.TrimSuffix(first, ".") + " (" + string(le.Code) + ")"
		if rest != "" {
			msg += "\n" + rest
		}
	}
	// The core's messages end in ": PATH" where the path is the whole subject; put it
	// first, as cat and ls do.
	if le.Path != "" {
		if m, ok := strings.CutSuffix(msg, ": "+le.Path); ok {
			return termtext.Name(le.Path) + ": " + termtext.Text(m)
		}
	}
	return termtext.Text(msg)
}

// relaxGC lets the heap grow to five times its live size between collections, unless
// GOGC says otherwise: llmfs's live heaps are small (buffers, one result), and the default
// spends much of a search's or a server call's CPU collecting short-lived garbage.
func relaxGC() { setGC(400) }

// searchGC is relaxGC for the grep and find one-shots, which stream their output: three
// times the live heap. With a live heap of a few MiB, the runtime's floor of 4 MiB times
// GOGC/100 is what sets the peak, and 400 made it 16 MiB, half of the 32 MiB a search of
// Go's tree may take in all (issue 18); 200 costs no measurable CPU there.
//
// A search of a database store (store is set) runs at 400 instead: each file's content is
// a new allocation there (the SQL driver's copy of it), 120 MiB for the Go tree, where a
// directory's search reads into one buffer per thread. At 400 a grep of the Go tree's
// SQLite workspace takes 9% less CPU than at 200. Its heap is held to storeSearchLimit
// (a soft limit: the collector runs sooner as the heap nears it), which bounds the peak
// RSS where 400 alone let it reach 65-85 MiB under load (issue 40 allows 64), at no
// measured CPU cost (0.51-0.60 s both ways, load 17).
func searchGC(store bool) {
	if store {
		setGC(400)
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(storeSearchLimit)
		}
		return
	}
	setGC(200)
}

// storeSearchLimit is the Go memory limit of a search of a database store (searchGC).
const storeSearchLimit = 32 << 20

func setGC(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
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
	if flags := flagHelp(fs); flags != "" {
		fmt.Fprintf(w, "\nFlags (before or after the arguments):\n%s", flags)
	}
}

// flagHelp lists fs's flags in one style: --name for words and -x for single letters (the
// flag package takes either), each with the placeholder its usage names in backquotes.
func flagHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		placeholder, usage := flag.UnquoteUsage(f)
		if placeholder == "value" {
			placeholder = "VALUE"
		}
		fmt.Fprintf(&b, "  %s%s", dash, f.Name)
		if placeholder != "" {
			fmt.Fprintf(&b, " %s", placeholder)
		}
		fmt.Fprintf(&b, "\n        %s", strings.ReplaceAll(usage, "\n", "\n        "))
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			fmt.Fprintf(&b, " (default %s)", strconv.Quote(d))
		}
		b.WriteByte('\n')
	})
	return b.String()
}
