//go:build !js && !wasip1

package overlay_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

const thirteen = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"

// TestMergeBaseThreeWay is issue 35's repro at the store: the agent changes b and m, a
// person changes g on the base. The diff is the agent's alone, hunk 1 applies as a clean
// merge keeping the person's line, the rest stays the agent's against its own base (also
// after a restart, the merge bases being in the upper store), and applies as well.
func TestMergeBaseThreeWay(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(thirteen), 0o644)
	upperFile := filepath.Join(t.TempDir(), "up.db")
	base, _ := osdir.New(dir, false)
	o := newOverlay(t, base, sqliteUpper(t, upperFile))
	write(t, o, "f.txt", strings.NewReplacer("b\n", "B\n", "m\n", "M\n").Replace(thirteen))
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Replace(thirteen, "g\n", "G-human\n", 1)), 0o644)

	d, err := o.Diff(ctx)
	if err != nil || strings.Contains(d, "G-human") || !strings.Contains(d, "+B\n") || !strings.Contains(d, "+M\n") {
		t.Fatalf("Diff = %q, %v; want the agent's change only", d, err)
	}
	if _, err := o.Apply(ctx, []string{"f.txt"}, []int{1}); err != nil {
		t.Fatalf("Apply hunk 1: %v", err)
	}
	if got, want := hostFile(t, dir, "f.txt"), strings.NewReplacer("b\n", "B\n", "g\n", "G-human\n").Replace(thirteen); got != want {
		t.Fatalf("host = %q, want %q", got, want)
	}

	base2, _ := osdir.New(dir, false)
	o2 := newOverlay(t, base2, sqliteUpper(t, upperFile))
	d, err = o2.Diff(ctx)
	if err != nil || strings.Contains(d, "G-human") || strings.Contains(d, "B\n") || !strings.Contains(d, "+M\n") {
		t.Fatalf("Diff after a restart = %q, %v; want only the agent's M", d, err)
	}
	if _, err := o2.Apply(ctx, nil, nil); err != nil {
		t.Fatalf("Apply the rest: %v", err)
	}
	if got, want := hostFile(t, dir, "f.txt"), strings.NewReplacer("b\n", "B\n", "g\n", "G-human\n", "m\n", "M\n").Replace(thirteen); got != want {
		t.Fatalf("host = %q, want %q", got, want)
	}
	if got := kinds(t, o2); got != "" {
		t.Errorf("still pending: %s", got)
	}
	// The merge bases went with the changes.
	if es, err := o2.Upper().ReadDir(ctx, "b"); err != nil || len(es) != 0 {
		t.Errorf("merge bases left: %v, %v", es, err)
	}
}

// TestMergeBaseOverlapConflict: a person's edit overlapping the agent's is a conflict
// with both sides marked, nothing written, the change still pending.
func TestMergeBaseOverlapConflict(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"f.txt": thirteen})
	write(t, o, "f.txt", strings.Replace(thirteen, "g\n", "G-agent\n", 1))
	person := strings.Replace(thirteen, "g\n", "G-person\n", 1)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(person), 0o644)
	_, err := o.Apply(ctx, nil, nil)
	var ce *overlay.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, store.ErrChanged) {
		t.Fatalf("Apply = %v, want a conflict", err)
	}
	for _, s := range []string{"<<<<<<< current\nG-person\n=======\nG-agent\n>>>>>>> agent\n"} {
		if !strings.Contains(ce.Diff, s) {
			t.Errorf("conflict shows %q, want it to hold %q", ce.Diff, s)
		}
	}
	if hostFile(t, dir, "f.txt") != person {
		t.Errorf("host changed: %q", hostFile(t, dir, "f.txt"))
	}
	if got := kinds(t, o); got != "f.txt:modified" {
		t.Errorf("pending = %s", got)
	}
}

// TestMergeBaseMovedOrDeletedConflict: the base changing under a pending deletion or
// move is a conflict, nothing applied.
func TestMergeBaseMovedOrDeletedConflict(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"del.txt": "d\n", "mv.txt": "m\n"})
	if err := o.Remove(ctx, "del.txt"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "mv.txt", "moved.txt"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "del.txt"), []byte("person\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "mv.txt"), []byte("person\n"), 0o644)
	res, err := o.Apply(ctx, nil, nil)
	if !errors.Is(err, store.ErrChanged) || len(res) != 0 {
		t.Fatalf("Apply = %v, %v; want conflicts, nothing applied", res, err)
	}
	if hostFile(t, dir, "del.txt") != "person\n" || hostFile(t, dir, "mv.txt") != "person\n" {
		t.Error("the base changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "moved.txt")); err == nil {
		t.Error("the move landed")
	}
	// The review still shows the agent's change against what it started from.
	d, _ := o.Diff(ctx)
	if strings.Contains(d, "person") {
		t.Errorf("diff shows the person's edit: %q", d)
	}
}
