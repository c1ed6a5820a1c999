//go:build !js && !wasip1

package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/store"
)

// What the history commands print: a sentence saying what happened, then the paths
// (issue 33: bare paths left a person guessing what the command did).

// printCheckpoints lists the workspace's checkpoints, one a line: name, change, time.
func printCheckpoints(ctx context.Context, e *env, ws *llmfs.Workspace) error {
	cps, err := ws.History().Checkpoints(ctx)
	if err != nil {
		return err
	}
	if len(cps) == 0 {
		_, err := fmt.Fprintln(e.stdout, "no checkpoints; make one with llmfs checkpoint NAME")
		return err
	}
	var sb strings.Builder
	for _, cp := range cps {
		fmt.Fprintf(&sb, "%s\tchange %d\t%s\n", termtext.Name(cp.Name), cp.ID, cp.Time.UTC().Format(time.RFC3339))
	}
	_, err = fmt.Fprint(e.stdout, sb.String())
	return err
}

// knownCheckpoint fails, listing the checkpoints there are, when name is not one of them.
func knownCheckpoint(ctx context.Context, ws *llmfs.Workspace, name string) error {
	cps, err := ws.History().Checkpoints(ctx)
	if err != nil {
		return err
	}
	var names []string
	for _, cp := range cps {
		if cp.Name == name {
			return nil
		}
		names = append(names, strconv.Quote(cp.Name))
	}
	msg := fmt.Sprintf("no checkpoint named %q", name)
	if len(names) == 0 {
		msg += "; there are none yet (make one with llmfs checkpoint NAME)"
	} else {
		msg += "; the checkpoints are " + strings.Join(names, ", ") + " (llmfs checkpoint lists them)"
	}
	return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Path: name, Msg: msg}
}

// restoreCheckpoint restores the checkpoint name and says what it did.
func restoreCheckpoint(ctx context.Context, e *env, ws *llmfs.Workspace, name string) error {
	if err := knownCheckpoint(ctx, ws, name); err != nil {
		return err
	}
	// The changes the restore undoes, to name them: those since the checkpoint that landed.
	since, err := ws.History().Since(ctx, name)
	if err != nil {
		return err
	}
	res, err := ws.History().Restore(ctx, name)
	if err != nil {
		return err
	}
	if len(res.Paths) == 0 {
		_, err := fmt.Fprintf(e.stdout, "nothing to restore: no file changed since checkpoint %q\n", name)
		return err
	}
	var ids []int64
	for _, c := range since {
		if c.State != store.Unlanded {
			ids = append(ids, c.ID)
		}
	}
	head := fmt.Sprintf("restored %s to checkpoint %q (undid %s)", plural(len(res.Paths), "path"), name, changeRange(ids))
	return printResult(e, ws, head, res)
}

// undone says what an undo of ids did.
func undone(e *env, ws *llmfs.Workspace, ids []int64, res *llmfs.UndoResult) error {
	head := fmt.Sprintf("undid %s: put back %s", changeList(ids), plural(len(res.Paths), "path"))
	return printResult(e, ws, head, res)
}

// printResult prints head, then the paths put back, indented.
func printResult(e *env, ws *llmfs.Workspace, head string, res *llmfs.UndoResult) error {
	var sb strings.Builder
	sb.WriteString(termtext.Text(head) + "\n")
	for _, p := range res.Paths {
		sb.WriteString("  " + termtext.Name(ws.Paths().Rel(p)) + "\n")
	}
	_, err := fmt.Fprint(e.stdout, sb.String())
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// changeRange names ids as "change 5" or "changes 5-9" (from the lowest to the highest).
func changeRange(ids []int64) string {
	switch len(ids) {
	case 0:
		return "no change"
	case 1:
		return fmt.Sprintf("change %d", ids[0])
	}
	return fmt.Sprintf("changes %d-%d", slices.Min(ids), slices.Max(ids))
}

// changeList names ids as "change 5" or "changes 5, 7, 9".
func changeList(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("change %d", ids[0])
	}
	s := make([]string, len(ids))
	for i, id := range slices.Sorted(slices.Values(ids)) {
		s[i] = strconv.FormatInt(id, 10)
	}
	return "changes " + strings.Join(s, ", ")
}
