package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
	"github.com/llmfs/llmfs/store"
)

// The history tools: with [Options.History] a toolbox also offers the model history (the
// workspace's journal, newest first, and the diff of one change set) and undo (of a change
// set, or of this session's newest change to a file). They are the same two tools in
// every dialect, with paths as the dialect spells them: virtual and absolute in rtc and
// anthropic, absolute or relative to the root elsewhere.
//
// Undo is the core's compare-and-swap ([llmfs.History.Undo]): a file changed since the
// change being undone refuses it with FILE_CHANGED, and the message holds the diff of what
// changed since, so the model sees why.

// historyTables holds each dialect's history tools.
func historyTables() map[Dialect][]tool {
	return map[Dialect][]tool{
		Agentool:  historyTools("File or directory whose changes to show, absolute or relative to the workspace root; default: every change."),
		RTC:       historyTools(vpathDesc + " A file or a directory; default: every change."),
		Anthropic: historyTools(vpathDesc + " A file or a directory; default: every change."),
		Codex:     historyTools("File or directory whose changes to show, relative to the root; default: every change."),
		Gemini:    historyTools("File or directory whose changes to show: absolute, or relative to the workspace root; default: every change."),
	}
}

// defaultHistory and maxHistory bound how many changes history lists.
const (
	defaultHistory = 20
	maxHistory     = 500
)

func historyTools(pathDesc string) []tool {
	return []tool{
		{
			name: "history", output: historyOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
			description: "Show the workspace's change history, newest first: each change's id, time, who made it (actor), the operation, " +
				"the path and the lines added and removed. Narrow it to a file or a directory with path, to one actor with actor. " +
				"Give id to see one change set (the changes one tool call made) with its unified diff.",
			params: []param{
				str("path", pathDesc, false),
				str("actor", "Only changes made by this actor (as the history shows it, for example mcp:1a2b).", false),
				integer("id", "A change's id: show its change set and the diff.", 1),
				integer("limit", fmt.Sprintf("Most changes to show (default %d, at most %d).", defaultHistory, maxHistory), 1),
			},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) { return tb.history(ctx, a) },
		},
		{
			name: "undo", output: undoOut(), op: llmfs.OpEdit, destructive: true,
			description: "Take a change back. With id, undo the whole change set holding that change (everything one tool call changed); " +
				"with path, undo this session's newest change to that file not yet undone (call again to go further back). " +
				"It succeeds only if every file still holds what the change left; if a file has changed since, nothing is touched " +
				"and the error (FILE_CHANGED) shows the diff of what changed since. An undo is itself recorded, so undoing it redoes the change.",
			params: []param{
				integer("id", "Id of a change (see history): undo its change set.", 1),
				str("path", "A file: undo this session's newest change to it. "+pathDesc, false),
			},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) { return tb.undoTool(ctx, a) },
		},
	}
}

func changesField() field {
	return must("changes", map[string]any{
		"type":        "array",
		"description": "The changes, newest first.",
		"items": outObject(
			must("id", outInt("The change's id.")),
			must("set", outInt("Id of the first change of its change set (one tool call).")),
			must("time", outString("When, RFC 3339.")),
			must("actor", outString("Who made it: cli, mcp:<session>, acp:<session>, web, or a name.")),
			must("op", outString("The operation: write, append, create, edit, patch, delete, move, copy, mkdir, system, undo or restore.")),
			must("path", outString("The path changed.")),
			may("other", outString("A move's other end, a copy's source.")),
			must("kind", map[string]any{"type": "string", "enum": []string{"absent", "file", "dir", "link"}, "description": "What the path holds after the change."}),
			may("state", outString("Set when the change did not simply land: pending, unlanded (never made) or diverged (left unknown by a crash).")),
			must("added", outInt("Lines added.")),
			must("removed", outInt("Lines removed.")),
		),
	})
}

func historyOut() map[string]any {
	return outObject(
		changesField(),
		must("count", outInt("Number of changes shown.")),
		may("truncated", outBool("Older changes exist; raise limit, or narrow by path.")),
		may("diff", outString("With id: the unified diff of the change set.")),
	)
}

func undoOut() map[string]any {
	return outObject(
		must("paths", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "The paths put back."}),
		must("undone", map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "description": "Ids of the changes taken back."}),
		must("diff", outString("Unified diff of what the undo did.")),
	)
}

func (tb *Toolbox) history(ctx context.Context, a sj.Object) (any, error) {
	f := llmfs.HistoryFilter{Path: a.String("path", ""), Actor: a.String("actor", "")}
	limit := int(a.Int("limit", defaultHistory))
	if limit > maxHistory {
		return nil, invalid("limit is at most %d, got %d", maxHistory, limit)
	}
	out := map[string]any{}
	if a.Has("id") {
		c, err := tb.ws.History().ChangeByID(ctx, a.Int("id", 0))
		if err != nil {
			return nil, err
		}
		f.Set = c.Set
		diff, err := tb.ws.History().DiffSet(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		out["diff"] = diff
	}
	f.Limit = limit + 1
	cs, err := tb.ws.History().List(ctx, f)
	if err != nil {
		return nil, err
	}
	if len(cs) > limit {
		cs = cs[:limit]
		out["truncated"] = true
	}
	list := make([]map[string]any, 0, len(cs))
	for _, c := range cs {
		list = append(list, tb.changeObject(ctx, c))
	}
	out["changes"] = list
	out["count"] = len(list)
	return out, nil
}

// changeObject is a change as history shows it.
func (tb *Toolbox) changeObject(ctx context.Context, c llmfs.Change) map[string]any {
	added, removed := tb.ws.History().Lines(ctx, c)
	kind := c.After.Kind
	if kind == "" {
		kind = store.Absent
	}
	m := map[string]any{
		"id": c.ID, "set": c.Set, "time": c.Time.UTC().Format(time.RFC3339), "actor": c.Actor, "op": c.Op,
		"path": c.Path, "kind": kind, "added": added, "removed": removed,
	}
	if c.Other != "" {
		m["other"] = c.Other
	}
	if c.State != store.Committed && c.State != "" {
		m["state"] = c.State
	}
	return m
}

func (tb *Toolbox) undoTool(ctx context.Context, a sj.Object) (any, error) {
	switch {
	case a.Has("id") == a.Has("path"):
		return nil, invalid("give id (a change set to undo) or path (a file whose newest change to undo), one of them")
	case a.Has("id"):
		c, err := tb.ws.History().ChangeByID(ctx, a.Int("id", 0))
		if err != nil {
			return nil, err
		}
		set, err := tb.ws.History().List(ctx, llmfs.HistoryFilter{Set: c.Set})
		if err != nil {
			return nil, err
		}
		res, err := tb.ws.History().UndoSet(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		return tb.undone(ctx, res, set), nil
	}
	c, err := tb.lastChange(ctx, a.String("path", ""))
	if err != nil {
		return nil, err
	}
	res, err := tb.undoChange(ctx, c)
	if err != nil {
		return nil, err
	}
	return tb.undone(ctx, res, []llmfs.Change{c}), nil
}

// undoChange undoes one change: a move as a whole (both its ends), any other change alone.
func (tb *Toolbox) undoChange(ctx context.Context, c llmfs.Change) (*llmfs.UndoResult, error) {
	if c.Op == llmfs.ChangeMove {
		return tb.ws.History().UndoSet(ctx, c.ID)
	}
	return tb.ws.History().Undo(ctx, c.ID)
}

// lastChange returns this session's newest change to the file p that has not been undone:
// walking the session's changes to p newest first, each undo it made takes back the newest
// older change it reverses (what it found is what that change left, and it left what that
// change found), as undo_edit steps back one edit at a time. An undo that takes back an
// undo is a redo: the change it brought back is live again, and is the next to undo.
func (tb *Toolbox) lastChange(ctx context.Context, p string) (llmfs.Change, error) {
	abs, err := tb.ws.Paths().Abs(p)
	if err != nil {
		return llmfs.Change{}, err
	}
	cs, err := tb.ws.History().List(ctx, llmfs.HistoryFilter{Path: p, Actor: tb.ws.Settings().Actor})
	if err != nil {
		return llmfs.Change{}, err
	}
	var undos []llmfs.Change
	for _, c := range cs {
		if c.Path != abs || c.State != store.Committed {
			continue
		}
		if i := reverses(undos, c); i >= 0 {
			undos = append(undos[:i], undos[i+1:]...)
			continue
		}
		if c.Op == llmfs.ChangeUndo || c.Op == llmfs.ChangeRestore {
			undos = append(undos, c)
			continue
		}
		return c, nil
	}
	return llmfs.Change{}, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Path: p,
		Msg: fmt.Sprintf("there is no change of %s made in this session (%s) left to undo", p, tb.ws.Settings().Actor)}
}

// reverses returns the index of the oldest undo in undos that takes c back, or -1.
func reverses(undos []llmfs.Change, c llmfs.Change) int {
	for i := len(undos) - 1; i >= 0; i-- {
		if undos[i].Before.Equal(c.After) && undos[i].After.Equal(c.Before) {
			return i
		}
	}
	return -1
}

// undone is the result of an undo of changes: the paths put back, the ids undone and the
// diff of what the undo did (the reverse of the changes' own).
func (tb *Toolbox) undone(ctx context.Context, res *llmfs.UndoResult, changes []llmfs.Change) map[string]any {
	ids := []int64{}
	for _, c := range changes {
		ids = append(ids, c.ID)
	}
	diff := ""
	if len(res.Paths) > 0 {
		// The undo is the newest change this session made to its first path.
		if cs, err := tb.ws.History().List(ctx, llmfs.HistoryFilter{Path: res.Paths[0], Actor: tb.ws.Settings().Actor, Limit: 1}); err == nil && len(cs) == 1 {
			diff, _ = tb.ws.History().DiffSet(ctx, cs[0].ID)
		}
	}
	paths := res.Paths
	if paths == nil {
		paths = []string{}
	}
	return map[string]any{"paths": paths, "undone": ids, "diff": diff}
}
