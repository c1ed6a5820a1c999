//go:build !js && !wasip1

package overlay_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// hostOverlay returns an overlay over a host directory holding files, with a mem upper.
func hostOverlay(t *testing.T, files map[string]string) (string, *overlay.Overlay, store.Store) {
	t.Helper()
	dir := t.TempDir()
	for name, c := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	upper := mem.New()
	return dir, newOverlay(t, base, upper), upper
}

func hostFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func kinds(t *testing.T, o *overlay.Overlay) string {
	t.Helper()
	cs, err := o.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, c := range cs {
		sb.WriteString(c.Path + ":" + string(c.Kind))
		if c.From != "" {
			sb.WriteString("<" + c.From)
		}
		sb.WriteString(" ")
	}
	return strings.TrimSpace(sb.String())
}

func TestReviewPendingKinds(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"a": "1\n2\n3\n", "b": "B\n", "d/x": "X\n", "d/y": "Y\n", "z": "Z\n"})
	write(t, o, "a", "1\ntwo\n3\n")
	write(t, o, "new", "N\n")
	if err := o.Remove(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "z", "z2"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "d", "e"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "e/added", "later\n")
	want := "a:modified b:deleted e/added:created e/x:moved<d/x e/y:moved<d/y new:created z2:moved<z"
	if got := kinds(t, o); got != want {
		t.Errorf("pending = %s\nwant      %s", got, want)
	}
	cs, _ := o.Pending(ctx)
	if cs[0].Added != 1 || cs[0].Removed != 1 {
		t.Errorf("a: +%d -%d, want +1 -1", cs[0].Added, cs[0].Removed)
	}
	d, err := o.Diff(ctx, "a")
	if err != nil || !strings.Contains(d, "-2\n+two\n") {
		t.Errorf("Diff(a) = %q, %v", d, err)
	}
	if hostFile(t, dir, "a") != "1\n2\n3\n" || hostFile(t, dir, "b") != "B\n" {
		t.Fatal("the host changed before apply")
	}
	// Apply all: the host becomes what the overlay showed, and nothing is pending.
	want2 := tree(t, o)
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, o); got != "" {
		t.Errorf("pending after apply = %s", got)
	}
	base, _ := osdir.New(dir, false)
	if got := tree(t, base); !equal(got, want2) {
		t.Errorf("host after apply = %v\nwant %v", got, want2)
	}
	if got := tree(t, o); !equal(got, want2) {
		t.Errorf("overlay after apply = %v\nwant %v", got, want2)
	}
}

// TestReviewConflictBaseChanged: a base file changed behind the agent is refused with
// FILE_CHANGED and stays pending; a deleted base file too; the other changes apply.
func TestReviewConflictBaseChanged(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"a": "A\n", "b": "B\n", "c": "C\n"})
	write(t, o, "a", "agent\n")
	write(t, o, "b", "agent\n")
	write(t, o, "c", "agent\n")
	os.WriteFile(filepath.Join(dir, "a"), []byte("human\n"), 0o644)
	os.Remove(filepath.Join(dir, "b"))
	res, err := o.Apply(ctx, nil, nil)
	var ce *overlay.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, store.ErrChanged) || !strings.Contains(err.Error(), "FILE_CHANGED") {
		t.Fatalf("Apply = %v, want a FILE_CHANGED conflict", err)
	}
	if len(res) != 1 || res[0].Path != "c" {
		t.Errorf("applied %v, want only c", res)
	}
	if hostFile(t, dir, "a") != "human\n" || hostFile(t, dir, "c") != "agent\n" {
		t.Errorf("host a=%q c=%q", hostFile(t, dir, "a"), hostFile(t, dir, "c"))
	}
	if !strings.Contains(err.Error(), "a was modified") || !strings.Contains(err.Error(), "b was deleted") {
		t.Errorf("conflict says %v", err)
	}
	// Both stay the agent's changes against the base it started from (three-way review):
	// b is modified by the agent, not created, though the base lost it since.
	if got := kinds(t, o); got != "a:modified b:modified" {
		t.Errorf("still pending: %s", got)
	}
}

// TestReviewDirRenameThenAdd: a directory renamed in the upper layer, files added below,
// applied onto the base: the old directory is gone, the new holds everything.
func TestReviewDirRenameThenAdd(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"src/a": "A\n", "src/sub/b": "B\n"})
	if err := o.Rename(ctx, "src", "dst"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "dst/sub/c", "C\n")
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "src")); !os.IsNotExist(err) {
		t.Errorf("src still on the host: %v", err)
	}
	for name, want := range map[string]string{"dst/a": "A\n", "dst/sub/b": "B\n", "dst/sub/c": "C\n"} {
		if got := hostFile(t, dir, name); got != want {
			t.Errorf("host %s = %q", name, got)
		}
	}
}

// TestReviewHunks applies one hunk and discards the other.
func TestReviewHunks(t *testing.T) {
	var lines []string
	for i := range 20 {
		lines = append(lines, strings.Repeat("x", i+1))
	}
	orig := strings.Join(lines, "\n") + "\n"
	dir, o, _ := hostOverlay(t, map[string]string{"f": orig})
	changed := strings.Replace(strings.Replace(orig, "xx\n", "TOP\n", 1), "xxxxxxxxxxxxxxxxxxx\n", "BOTTOM\n", 1)
	write(t, o, "f", changed)
	cs, _ := o.Pending(ctx)
	if len(cs) != 1 || cs[0].Hunks != 2 {
		t.Fatalf("pending = %+v, want one change of 2 hunks", cs)
	}
	if _, err := o.Apply(ctx, []string{"f"}, []int{2}); err != nil {
		t.Fatal(err)
	}
	host := hostFile(t, dir, "f")
	if !strings.Contains(host, "BOTTOM") || strings.Contains(host, "TOP") {
		t.Errorf("host after hunk 2 = %q", host)
	}
	if _, err := o.Discard(ctx, []string{"f"}, []int{1}); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, o); got != "" {
		t.Errorf("pending after discard = %s", got)
	}
	if c, _ := read(t, o, "f"); c != host {
		t.Errorf("overlay f = %q, want the host's", c)
	}
}

// TestReviewDiscardRestoresBase: discarding every kind of change shows the base again.
func TestReviewDiscardRestoresBase(t *testing.T) {
	files := map[string]string{"a": "A\n", "b": "B\n", "d/x": "X\n"}
	_, o, _ := hostOverlay(t, files)
	before := tree(t, o)
	write(t, o, "a", "changed\n")
	write(t, o, "new", "N\n")
	o.Remove(ctx, "b")
	if err := o.Rename(ctx, "d", "e"); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Discard(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, o); !equal(got, before) {
		t.Errorf("after discard = %v\nwant %v", got, before)
	}
	if got := kinds(t, o); got != "" {
		t.Errorf("pending = %s", got)
	}
}

// TestReviewApplyResumes: an apply interrupted after one base file was written and before
// the overlay saved its state (here: a move whose new file is on the host, its old one not
// yet removed) resumes without a false conflict, and every host file is old or new.
func TestReviewApplyResumes(t *testing.T) {
	dir, o, upper := hostOverlay(t, map[string]string{"a": "A\n", "keep": "K\n"})
	if err := o.Rename(ctx, "a", "b"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "keep", "K2\n")
	// The crash: the base got b, the overlay's state did not hear of it.
	os.WriteFile(filepath.Join(dir, "b"), []byte("A\n"), 0o644)
	base, _ := osdir.New(dir, false)
	o2 := newOverlay(t, base, upper)
	if got := kinds(t, o2); got != "b:moved<a keep:modified" {
		t.Fatalf("pending after the crash = %s", got)
	}
	if _, err := o2.Apply(ctx, nil, nil); err != nil {
		t.Fatalf("resumed apply: %v", err)
	}
	if got := kinds(t, o2); got != "" {
		t.Errorf("pending = %s", got)
	}
	if hostFile(t, dir, "b") != "A\n" || hostFile(t, dir, "keep") != "K2\n" {
		t.Errorf("host b=%q keep=%q", hostFile(t, dir, "b"), hostFile(t, dir, "keep"))
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("a still on the host")
	}
}

// TestReviewWhileAgentRuns: a reviewer applies changes from another overlay on the same
// upper store while the agent's overlay is open; the agent's next change neither brings
// the applied change back nor loses the reviewer's state.
func TestReviewWhileAgentRuns(t *testing.T) {
	dir, agent, upper := hostOverlay(t, map[string]string{"a": "A\n", "b": "B\n"})
	write(t, agent, "a", "a2\n")
	write(t, agent, "b", "b2\n")
	base, _ := osdir.New(dir, false)
	reviewer := newOverlay(t, base, upper)
	if _, err := reviewer.Apply(ctx, []string{"a"}, nil); err != nil {
		t.Fatal(err)
	}
	if c, _ := read(t, agent, "a"); c != "a2\n" {
		t.Errorf("the agent reads a = %q after the apply", c)
	}
	write(t, agent, "c", "C\n")
	if got := kinds(t, newOverlay(t, base, upper)); got != "b:modified c:created" {
		t.Errorf("pending = %s, want b and c", got)
	}
}

// TestReviewSeesAgentInAnotherProcess: a reviewer's overlay opened before the agent's
// writes (a long-running `llmfs mcp --reviewer`) lists and diffs them: Pending and Diff
// read the state again. They used the state read when the overlay was opened: a deletion
// was missed and a move listed as a creation.
func TestReviewSeesAgentInAnotherProcess(t *testing.T) {
	dir, agent, upper := hostOverlay(t, map[string]string{"a": "A\n", "gone": "G\n", "old": "O\n"})
	base, _ := osdir.New(dir, false)
	reviewer := newOverlay(t, base, upper)
	if got := kinds(t, reviewer); got != "" {
		t.Fatalf("pending at first = %s", got)
	}
	write(t, agent, "a", "agent\n")
	write(t, agent, "b", "new\n")
	if err := agent.Remove(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if err := agent.Rename(ctx, "old", "moved"); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, reviewer); got != "a:modified b:created gone:deleted moved:moved<old" {
		t.Errorf("the reviewer's pending = %q, want every kind the agent made", got)
	}
	if d, err := reviewer.Diff(ctx, "b"); err != nil || !strings.Contains(d, "+new") {
		t.Errorf("the reviewer's diff of b = %q, %v", d, err)
	}
}

// TestReviewEmptyDirRename: applying the rename of an empty base directory moves it on the
// base (the old one used to stay, with the new one beside it), and so does an empty
// directory's removal.
func TestReviewEmptyDirRename(t *testing.T) {
	dir, o, _ := hostOverlay(t, map[string]string{"keep": "K\n"})
	for _, d := range []string{"empty", "gone/deeper"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Rename(ctx, "empty", "moved"); err != nil {
		t.Fatal(err)
	}
	if err := o.Remove(ctx, "gone/deeper"); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"empty", "gone/deeper"} {
		if _, err := os.Stat(filepath.Join(dir, d)); !os.IsNotExist(err) {
			t.Errorf("%s still on the host after apply: %v", d, err)
		}
	}
	for _, d := range []string{"moved", "gone"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
			t.Errorf("%s is not a directory on the host after apply: %v", d, err)
		}
	}
	if got := tree(t, o); !equal(got, map[string]string{"keep": "K\n", "moved/": "", "gone/": ""}) {
		t.Errorf("overlay after apply: %v", got)
	}
}
