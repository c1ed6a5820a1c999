package store

import (
	"context"
	"errors"
	"testing"
)

// addTx is a JournalTx whose Add finds the plan stale a number of times first, and
// which remembers what was settled.
type addTx struct {
	JournalTx
	stale           int
	adds            int
	landed, dropped []*Change
}

func (t *addTx) Add(_ context.Context, changes []*Change, _ [][]byte) error {
	t.adds++
	if t.stale > 0 {
		t.stale--
		return ErrChanged
	}
	return nil
}

func (t *addTx) Settle(_ context.Context, changes []*Change, landed bool) error {
	if landed {
		t.landed = append(t.landed, changes...)
	} else {
		t.dropped = append(t.dropped, changes...)
	}
	return nil
}

// Record plans again when the journal finds the plan stale, and settles what landed and
// what did not, in order.
func TestRecord(t *testing.T) {
	a, b, c := &Change{Path: "a"}, &Change{Path: "b"}, &Change{Path: "c"}
	tx := &addTx{stale: 2}
	plans := 0
	err := Record(context.Background(), tx, func() (Plan, error) {
		plans++
		return Plan{Changes: []*Change{a, b, c}}, nil
	}, func(planned []*Change) ([]*Change, error) {
		return []*Change{a, c}, errors.New("b failed")
	})
	if err == nil || err.Error() != "b failed" {
		t.Fatalf("err = %v", err)
	}
	if plans != 3 || tx.adds != 3 {
		t.Errorf("%d plans, %d adds; want 3 each", plans, tx.adds)
	}
	if len(tx.landed) != 2 || tx.landed[0] != a || tx.landed[1] != c || len(tx.dropped) != 1 || tx.dropped[0] != b {
		t.Errorf("settled %v landed, %v dropped", tx.landed, tx.dropped)
	}
}

// Under unending contention Record gives up after MaxReplans plans, having made nothing.
func TestRecordBounded(t *testing.T) {
	tx := &addTx{stale: MaxReplans + 10}
	made := false
	err := Record(context.Background(), tx, func() (Plan, error) { return Plan{}, nil }, func([]*Change) ([]*Change, error) {
		made = true
		return nil, nil
	})
	if !errors.Is(err, ErrChanged) || made || tx.adds != MaxReplans {
		t.Fatalf("err %v, made %v, %d adds", err, made, tx.adds)
	}
}
