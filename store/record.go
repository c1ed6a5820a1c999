package store

import (
	"context"
	"errors"
)

// MaxReplans bounds how often [Record] plans a change again after the journal found its
// plan stale (another writer got in between). Each time means another transaction
// committed a change to the path, so the bound matters only under unending contention:
// 8 concurrent overwrites of one file on PostgreSQL used up a bound of 8.
const MaxReplans = 100

// A Plan is what one step of a change set is about to do: the changes, and the contents
// (blobs) they refer to; nil blobs are skipped.
type Plan struct {
	Changes []*Change
	Blobs   [][]byte
}

// Record is the one way a change reaches a journal, whoever makes it (the llmfs core's
// operations, the review layer's applies): plan looks at the paths now and says what
// will change; the changes are recorded in tx ([JournalTx.Add]), made by make, which
// returns those that landed, and settled by that outcome, so that a crash in between
// leaves them pending for the journal to settle by looking. When the journal finds the
// plan stale ([ErrChanged]), plan is asked again, at most [MaxReplans] times; a plan that
// cannot be made again returns an error wrapping ErrChanged itself.
func Record(ctx context.Context, tx JournalTx, plan func() (Plan, error), make func(planned []*Change) (landed []*Change, err error)) error {
	for attempt := 1; ; attempt++ {
		p, err := plan()
		if err == nil {
			err = tx.Add(ctx, p.Changes, nonNilBlobs(p.Blobs))
		}
		if errors.Is(err, ErrChanged) && attempt < MaxReplans {
			continue
		}
		if err != nil {
			return err
		}
		landed, err := make(p.Changes)
		if len(landed) > 0 {
			if serr := tx.Settle(ctx, landed, true); serr != nil && err == nil {
				err = serr
			}
		}
		if failed := notIn(p.Changes, landed); len(failed) > 0 {
			if serr := tx.Settle(ctx, failed, false); serr != nil && err == nil {
				err = serr
			}
		}
		return err
	}
}

// notIn returns the changes of all that are not in some, in order.
func notIn(all, some []*Change) []*Change {
	if len(some) == len(all) {
		return nil
	}
	in := make(map[*Change]bool, len(some))
	for _, c := range some {
		in[c] = true
	}
	var out []*Change
	for _, c := range all {
		if !in[c] {
			out = append(out, c)
		}
	}
	return out
}

func nonNilBlobs(blobs [][]byte) [][]byte {
	var out [][]byte
	for _, b := range blobs {
		if b != nil {
			out = append(out, b)
		}
	}
	return out
}
