//go:build !js && !wasip1

package overlay_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
	"github.com/llmfs/llmfs/store/storetest"
)

// TestConformancePrivate: an overlay that keeps its state in memory is a store like any.
func TestConformancePrivate(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
		o, err := overlay.NewPrivate(ctx, mem.New(), mem.New())
		if err != nil {
			t.Fatal(err)
		}
		return o
	}})
}

// TestPrivateSavesNoState: a private overlay never writes its state to the upper store
// (a write of the whole state at each change made removing n files quadratic), and
// shows its changes, applies them and forgets them all the same.
func TestPrivateSavesNoState(t *testing.T) {
	base := baseTree(t)
	upper := mem.New()
	o, err := overlay.NewPrivate(ctx, base, upper)
	if err != nil {
		t.Fatal(err)
	}
	write(t, o, "a", "A2\n")
	if err := o.Remove(ctx, "e/h"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "d", "moved"); err != nil {
		t.Fatal(err)
	}
	if _, err := upper.Stat(ctx, "overlay.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the private overlay saved its state: %v", err)
	}
	if _, err := o.Stat(ctx, "e/h"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(e/h) after its removal = %v", err)
	}
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "A2\n", "e/": "", "moved/": "", "moved/f": "F\n", "moved/sub/": "", "moved/sub/g": "G\n"}
	if got := tree(t, base); !equal(got, want) {
		t.Errorf("the base after the apply = %v\nwant %v", got, want)
	}
	if ps, err := o.Pending(ctx); err != nil || len(ps) != 0 {
		t.Errorf("pending after the apply: %v, %v", ps, err)
	}
}
