package sqlstore

import (
	"context"
	"io"
	"math/rand/v2"
	"time"
)

// Retrying a transaction PostgreSQL aborted for a deadlock (40P01) or a serialization
// failure (40001): [DB.write] runs it again, up to maxAttempts times in all, waiting a
// random time under a bound that doubles each attempt (retryBase, 2*retryBase, ... at most
// retryMax), so the transactions that collided do not collide again at once. A fork and a
// writer, for one, lock a workspace's row and a file's in opposite orders.
const (
	retryBase = 2 * time.Millisecond
	retryMax  = 100 * time.Millisecond
)

// backoff waits before attempt (2, 3, ...) of a transaction, or until ctx is done.
func backoff(ctx context.Context, attempt int) error {
	bound := min(retryBase<<(attempt-2), retryMax)
	timer := time.NewTimer(bound/2 + rand.N(bound/2+1))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// rewinder lets a write whose content is streamed from r (read inside its transaction) run
// again: it seeks r back to where the transaction started reading, when r can seek.
type rewinder struct {
	s     io.Seeker
	start int64
	runs  int
}

// newRewinder returns a rewinder of r, or nil when r cannot seek (its content read once
// cannot be read again, so the write is not retried).
func newRewinder(r io.Reader) *rewinder {
	s, ok := r.(io.Seeker)
	if !ok {
		return nil
	}
	start, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return &rewinder{s: s, start: start}
}

// rewind is called at the start of each run: it seeks back from the second run on.
func (w *rewinder) rewind() error {
	w.runs++
	if w.runs == 1 {
		return nil
	}
	_, err := w.s.Seek(w.start, io.SeekStart)
	return err
}
