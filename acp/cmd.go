package acp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/llmfs/llmfs"
)

// CommandUsage is the usage line of [Command].
const CommandUsage = "llmfs acp [--root DIR] [--add-dir DIR]... [--mode read-only|read-write|full] [--approve ask|all|none] [--prompt TEXT] -- AGENT-COMMAND [ARGS...]"

// UsageError is a [Command] failure caused by its arguments; a CLI prints the usage and
// exits with status 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Command is `llmfs acp` for a CLI to call with the arguments after "acp": it parses the
// flags, reads the prompt from --prompt or else from stdin, and calls [RunClient] with the
// agent command after "--". Under --approve=ask the answers come from the terminal
// (/dev/tty) when the prompt came from stdin, and from stdin otherwise.
func Command(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("acp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	root := fs.String("root", "", "the session's directory (default: the current directory)")
	mode := fs.String("mode", string(llmfs.ReadWrite), "work mode: read-only, read-write or full")
	approve := fs.String("approve", ApproveAsk, "answer permission requests: ask, all or none")
	prompt := fs.String("prompt", "", "the prompt (default: read from stdin)")
	var dirs multiFlag
	fs.Var(&dirs, "add-dir", "a further directory the session may reach (repeatable)")
	if err := fs.Parse(args); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	command := fs.Args()
	if len(command) == 0 {
		return &UsageError{Msg: "no agent command (put it after --)"}
	}
	m := llmfs.Mode(*mode)
	if m == "" || !m.Valid() {
		return &UsageError{Msg: fmt.Sprintf("--mode must be read-only, read-write or full, got %q", *mode)}
	}
	switch *approve {
	case ApproveAsk, ApproveAll, ApproveNone:
	default:
		return &UsageError{Msg: fmt.Sprintf("--approve must be ask, all or none, got %q", *approve)}
	}
	opts := ClientOptions{
		Root: *root, Roots: dirs, Mode: m, Approve: *approve, Prompt: *prompt,
		Command: command, Stdout: stdout, Stderr: stderr,
	}
	isFlagSet := false
	fs.Visit(func(f *flag.Flag) { isFlagSet = isFlagSet || f.Name == "prompt" })
	if isFlagSet {
		opts.Input = stdin
	} else {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		opts.Prompt = strings.TrimRight(string(b), "\n")
		if opts.Approve == ApproveAsk {
			if tty, err := os.Open("/dev/tty"); err == nil {
				defer tty.Close()
				opts.Input = tty
			}
		}
	}
	if strings.TrimSpace(opts.Prompt) == "" {
		return &UsageError{Msg: "empty prompt (give --prompt or pipe it on stdin)"}
	}
	_, err := RunClient(ctx, opts)
	return err
}

type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty directory")
	}
	*m = append(*m, v)
	return nil
}
