//go:build !js && !wasip1

package overlay_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// TestLargeFile: a file over the overlay's large bound is pending as a binary change (no
// line counts), applies whole (streamed to the base), conflicts without a diff, and
// discards; created, modified and shrunk back to small all work.
func TestLargeFile(t *testing.T) {
	dir := t.TempDir()
	base, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	write(t, base, "big.bin", "old\n")
	o := newOverlay(t, base, sqliteUpper(t, filepath.Join(t.TempDir(), "up.db")))
	big := strings.Repeat("large line\n", 17<<20/11+1) // over 16 MiB

	write(t, o, "big.bin", big)
	write(t, o, "new.bin", big+"new\n")
	ps, err := o.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Path != "big.bin" || ps[0].Kind != overlay.Modified || !ps[0].Binary || ps[0].Added != 0 || ps[1].Kind != overlay.Created {
		t.Fatalf("pending: %+v", ps)
	}
	if _, err := o.Apply(ctx, nil, []int{1}); err == nil {
		t.Error("a large file applied by hunk")
	}
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"big.bin": big, "new.bin": big + "new\n"} {
		if got, err := read(t, base, name); err != nil || got != want {
			t.Fatalf("%s on the base after apply: %d bytes, %v", name, len(got), err)
		}
	}

	// Changed on the base behind the overlay: a conflict, nothing applied.
	write(t, o, "big.bin", big+"mine\n")
	write(t, base, "big.bin", big+"theirs\n")
	_, err = o.Apply(ctx, nil, nil)
	var c *overlay.ConflictError
	if !errors.As(err, &c) || c.Path != "big.bin" || !strings.Contains(c.Diff, "large file") {
		t.Fatalf("apply over a changed base: %v", err)
	}
	if got, _ := read(t, base, "big.bin"); got != big+"theirs\n" {
		t.Error("the conflicting apply changed the base")
	}
	if _, err := o.Discard(ctx, []string{"big.bin"}, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, o, "big.bin"); got != big+"theirs\n" {
		t.Error("after the discard the overlay does not show the base")
	}

	// Shrunk to a small file: still compared by hash (the base is large), and applied.
	write(t, o, "big.bin", "small\n")
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, base, "big.bin"); got != "small\n" {
		t.Errorf("after the small apply the base holds %d bytes", len(got))
	}
}
