//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// logEntry is one line of llmfs log, and one object of its --json array.
type logEntry struct {
	llmfs.Change
	Path    string `json:"path"`
	Other   string `json:"other,omitempty"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
}

// printLog prints the changes f selects, newest first, each as it is read from the journal
// (a log of the whole journal streams in flat memory). actorGlob, if set, keeps only the
// changes whose actor it matches, at most limit of them (f then carries no actor nor
// limit).
func printLog(ctx context.Context, out io.Writer, ws *llmfs.Workspace, f llmfs.HistoryFilter, actorGlob string, limit int, asJSON bool) error {
	n := 0
	lines := ws.History().LineCounter()
	for c, err := range ws.History().All(ctx, f) {
		if err != nil {
			return err
		}
		if actorGlob != "" {
			if ok, _ := path.Match(actorGlob, c.Actor); !ok {
				continue
			}
		}
		en := logEntry{Change: c, Path: ws.Paths().Rel(c.Path)}
		if c.Other != "" {
			en.Other = ws.Paths().Rel(c.Other)
		}
		en.Added, en.Removed = lines.Lines(ctx, c)
		if err := printLogEntry(out, en, n, asJSON); err != nil {
			return err
		}
		if n++; limit > 0 && n >= limit {
			break
		}
	}
	if !asJSON {
		return nil
	}
	end := "\n]\n"
	if n == 0 {
		end = "[]\n" // as json.MarshalIndent prints an empty array
	}
	_, err := io.WriteString(out, end)
	return err
}

// printLogEntry prints the i-th entry of the log: a line, or an element of the JSON array
// laid out as json.MarshalIndent lays out the whole array.
func printLogEntry(out io.Writer, en logEntry, i int, asJSON bool) error {
	if asJSON {
		b, err := json.MarshalIndent(en, "  ", "  ")
		if err != nil {
			return err
		}
		sep := ",\n  "
		if i == 0 {
			sep = "[\n  "
		}
		_, err = fmt.Fprintf(out, "%s%s", sep, b)
		return err
	}
	p := en.Path
	switch {
	case en.Other != "" && en.Before.Kind == "absent" && en.Op == llmfs.ChangeMove:
		p = en.Other + " -> " + p
	case en.Other != "" && en.Op == llmfs.ChangeMove:
		p = p + " -> " + en.Other
	case en.Other != "" && en.Op == llmfs.ChangeCopy:
		p = en.Other + " => " + p
	}
	state := ""
	if en.State != "committed" {
		state = " (" + string(en.State) + ")"
	}
	lines := fmt.Sprintf("+%d -%d", en.Added, en.Removed)
	if en.Added == 0 && en.Removed == 0 && (tooLarge(en.Before) || tooLarge(en.After)) {
		lines = "+? -?" // not counted: the journal keeps such a file by hash and size alone
	}
	_, err := fmt.Fprintf(out, "%d\t%s\t%s\t%s\t%s\t%s%s\n", en.ID, en.Time.UTC().Format(time.RFC3339),
		en.Actor, en.Op, p, lines, state)
	return err
}

// tooLarge reports whether v is a file larger than the journal keeps by default, whose
// lines llmfs log does not count.
func tooLarge(v store.Version) bool {
	return v.Kind == store.File && v.Size > llmfs.DefaultUndoMaxFileBytes
}
