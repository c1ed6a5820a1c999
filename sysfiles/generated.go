package sysfiles

import (
	"context"

	"github.com/llmfs/llmfs/store"
)

// Generated reports whether the store file name holds exactly what llmfs last generated
// for it: a system file nobody edited. Copying a workspace out (llmfs ws export) leaves
// such files behind, since they describe the workspace rather than belong to it, and they
// are made again on the next open. A store without [store.Metadata] has none.
func Generated(ctx context.Context, s store.Store, name string) (bool, error) {
	rec, err := recall(ctx, s, name)
	if err != nil || rec == "" {
		return false, err
	}
	cur, exists, err := load(ctx, s, name)
	if err != nil || !exists {
		return false, err
	}
	return store.Hash(cur) == rec, nil
}
