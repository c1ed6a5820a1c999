//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"text/tabwriter"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
)

// tokenModes are the names --mode accepts for a token, short and long.
var tokenModes = map[string]llmfs.Mode{
	"ro": llmfs.ReadOnly, "read-only": llmfs.ReadOnly,
	"rw": llmfs.ReadWrite, "read-write": llmfs.ReadWrite,
	"full": llmfs.Full,
}

// wsToken runs 'ws token create|list|revoke'.
func wsToken(ctx context.Context, e *env, dsn string, args []string, mode, name string) error {
	want := map[string]int{"create": 2, "list": 2, "revoke": 3}
	if len(args) == 0 {
		return usagef("want ws token create ID, ws token list ID or ws token revoke ID TOKEN-ID")
	}
	n, ok := want[args[0]]
	if !ok {
		return usagef("unknown token subcommand %q: want create, list or revoke", args[0])
	}
	if len(args) != n {
		return usagef("ws token %s wants %d argument(s)", args[0], n-1)
	}
	id := args[1]
	if err := checkWorkspaceID(id); err != nil {
		return err
	}
	db, err := existingDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	missing := func(err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no workspace %q in %s", id, redactDSN(dsn))
		}
		return err
	}
	switch args[0] {
	case "create":
		m, ok := tokenModes[mode]
		if !ok {
			return usagef("--mode must be read-only (ro), read-write (rw) or full, got %q", mode)
		}
		secret, tok, err := db.CreateToken(ctx, id, string(m), name)
		if errors.Is(err, fs.ErrInvalid) {
			return usagef("invalid --name %q: want at most 200 bytes without control characters", name)
		}
		if err != nil {
			return missing(err)
		}
		fmt.Fprintf(e.stderr, "llmfs: token %s for workspace %s, %s; it is shown only now:\n", tok.ID, id, m)
		_, err = fmt.Fprintln(e.stdout, secret)
		return err
	case "list":
		list, err := db.Tokens(ctx, id)
		if err != nil {
			return missing(err)
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tMODE\tCREATED\tNAME")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Mode, t.Created.UTC().Format(time.RFC3339), termtext.Text(t.Name))
		}
		return tw.Flush()
	default:
		if err := db.RevokeToken(ctx, id, args[2]); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("no token %q of workspace %q in %s", args[2], id, redactDSN(dsn))
			}
			return err
		}
		_, err := fmt.Fprintf(e.stdout, "revoked token %s of workspace %s\n", args[2], id)
		return err
	}
}
