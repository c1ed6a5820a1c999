package tools

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// The anthropic memory tool keeps its notes below /memories, by default a directory of the
// workspace: on a host directory, a directory in the person's repository. With
// [Options.Memories] the notes live in a workspace of their own instead, whose root the
// model still sees as /memories (issue 33).

// memoriesElsewhere runs the memory tool on tb.memories: the model's /memories/x is x
// there, and the paths in the answer and in errors are turned back into /memories/x.
func (tb *Toolbox) memoriesElsewhere(ctx context.Context, a sj.Object) (any, error) {
	m := make(sj.Object, len(a))
	for k, v := range a {
		m[k] = v
	}
	var back []string // pairs for a strings.Replacer: the path as mapped, as given
	for _, k := range []string{"path", "old_path", "new_path"} {
		p, ok := a[k].(string)
		if !ok {
			continue
		}
		if err := inMemories(MemoryRoot, p); err != nil {
			return nil, err
		}
		mapped := "/" + strings.TrimPrefix(strings.TrimPrefix(path.Clean(p), MemoryRoot), "/")
		m[k] = mapped
		if mapped != "/" {
			back = append(back, mapped, path.Clean(p))
		}
	}
	res, err := tb.memories.editor(ctx, m, "/")
	if err != nil {
		var le *llmfs.Error
		if errors.As(err, &le) {
			e := *le
			e.Path = toMemories(e.Path)
			e.Msg = strings.NewReplacer(back...).Replace(e.Msg)
			return nil, &e
		}
		return nil, err
	}
	switch r := res.(type) {
	case map[string]any:
		if p, ok := r["path"].(string); ok {
			r["path"] = toMemories(p)
		}
	case *llmfs.MoveResult:
		return &llmfs.MoveResult{Source: toMemories(r.Source), Destination: toMemories(r.Destination)}, nil
	}
	return res, nil
}

// toMemories turns a virtual path of the memories' workspace into the model's.
func toMemories(p string) string {
	if !path.IsAbs(p) {
		return p
	}
	return path.Join(MemoryRoot, p)
}
