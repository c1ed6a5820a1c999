package sqlstore

import (
	"context"
	"time"
)

// CollectEvery runs [DB.CollectGarbage] with grace every period until ctx is done, and
// reports each collection's outcome to report (if not nil): the garbage collection of
// `llmfs ws gc`, in the background of a server. It takes no lock, so any number of
// servers sharing the database may run it; a failed collection is reported and the next
// one tried a period later. It returns when ctx is done.
func (x *DB) CollectEvery(ctx context.Context, period, grace time.Duration, report func(GCStats, error)) {
	if period <= 0 {
		return
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		st, err := x.CollectGarbage(ctx, grace)
		if ctx.Err() != nil {
			return
		}
		if report != nil {
			report(st, err)
		}
	}
}
