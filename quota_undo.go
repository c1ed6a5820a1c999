package llmfs

import (
	"context"

	"github.com/llmfs/llmfs/store"
)

// admitRevert checks an undo or restore against the quota before it touches anything: the
// paths in states go from what they hold now to their before versions, which may bring
// back bytes and entries a later write has since used. On success the quota lock stays
// held until done reports the outcome: made are the directories the revert created, and a
// failure part way leaves the usage to be counted again, since some paths may have changed.
func (w *Workspace) admitRevert(ctx context.Context, states []*pathState, now map[string]store.Version) (done func(made []string, err error), err error) {
	qs := w.quota
	if qs == nil {
		return func([]string, error) {}, nil
	}
	qs.mu.Lock()
	var grow, added int64
	reverted := map[string]bool{}
	for _, p := range states {
		reverted[p.name] = true
		if !w.counted(p.name) {
			continue
		}
		cur := now[p.name]
		grow += fileSize(p.before) - fileSize(cur)
		added += present(p.before) - present(cur)
		if q := qs.q.MaxFileBytes; q > 0 && p.before.Kind == store.File && p.before.Size > q && p.before.Size > fileSize(cur) {
			qs.mu.Unlock()
			return nil, errorf(CodeQuotaExceeded, w.display(p.name), "quota exceeded: undoing would make %s %d bytes, over the workspace's limit of %d bytes per file; nothing was touched", w.rel(w.display(p.name)), p.before.Size, q)
		}
	}
	if err := w.admitTotal(ctx, w.display(states[0].name), grow, added); err != nil {
		qs.mu.Unlock()
		return nil, err
	}
	return func(made []string, err error) {
		defer qs.mu.Unlock()
		if !qs.known {
			return
		}
		if err != nil {
			qs.known = false
			return
		}
		qs.bytes += grow
		qs.files += added
		for _, name := range made {
			if !reverted[name] && w.counted(name) {
				qs.files++ // a parent the revert had to make again
			}
		}
	}, nil
}

// fileSize is the bytes v counts for in a quota.
func fileSize(v store.Version) int64 {
	if v.Kind == store.File {
		return v.Size
	}
	return 0
}

// present is 1 when v is an entry a quota counts, 0 when it is absent.
func present(v store.Version) int64 {
	if v.Kind == "" || v.Kind == store.Absent {
		return 0
	}
	return 1
}
