//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// reviewed opens a host workspace over dir with files, and the review layer over it: the
// agent's workspace and the person's (actor web).
func reviewed(t *testing.T, opts llmfs.Options, files map[string]string) (dir string, agent, person *llmfs.Workspace) {
	t.Helper()
	dir = t.TempDir()
	for name, c := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts.Root = dir
	ws, err := host.Open(&opts)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(context.Background(), ws.Store(), mem.New())
	if err != nil {
		t.Fatal(err)
	}
	rw := ws.With(llmfs.OnStore(ov))
	return dir, rw.With(llmfs.Actor("agent")), rw.With(llmfs.Actor(actorWeb))
}

func hostText(t *testing.T, dir, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return string(b)
}

// TestReviewVersionedApply: an apply naming the version the person saw is refused with
// FILE_CHANGED, nothing touched, once the agent wrote again; with the version it applies,
// journaled under the person's actor.
func TestReviewVersionedApply(t *testing.T) {
	ctx := context.Background()
	dir, agent, person := reviewed(t, llmfs.Options{}, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	noErr(t, errOf(agent.Write(ctx, "a.txt", "two\n", llmfs.WriteOptions{})))
	noErr(t, errOf(agent.Write(ctx, "b.txt", "BEE\n", llmfs.WriteOptions{})))
	rv := person.Review()
	cs, err := rv.List(ctx)
	if err != nil || len(cs) != 2 || cs[0].Version == "" {
		t.Fatalf("List = %+v, %v", cs, err)
	}
	seen := map[string]string{"a.txt": cs[0].Version, "b.txt": cs[1].Version}
	d, shown, err := rv.Diff(ctx, "a.txt")
	if err != nil || !strings.Contains(d, "+two") || len(shown) != 1 || shown[0].Version != seen["a.txt"] {
		t.Fatalf("Diff = %q, %+v, %v", d, shown, err)
	}

	noErr(t, errOf(agent.Write(ctx, "a.txt", "three\n", llmfs.WriteOptions{}))) // after the person looked
	res, err := rv.Apply(ctx, llmfs.ReviewRequest{Expect: seen})
	wantCode(t, err, llmfs.CodeFileChanged)
	if len(res) != 0 || hostText(t, dir, "a.txt") != "one\n" || hostText(t, dir, "b.txt") != "bee\n" {
		t.Fatalf("a refused apply changed something: %v, a=%q b=%q", res, hostText(t, dir, "a.txt"), hostText(t, dir, "b.txt"))
	}

	res, err = rv.Apply(ctx, llmfs.ReviewRequest{Paths: []string{"b.txt"}, Expect: map[string]string{"b.txt": seen["b.txt"]}})
	if err != nil || len(res) != 1 || hostText(t, dir, "b.txt") != "BEE\n" {
		t.Fatalf("Apply b.txt = %v, %v", res, err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir}) // the root's journal
	if err != nil {
		t.Fatal(err)
	}
	hist, err := ws.History().List(ctx, llmfs.HistoryFilter{Path: "b.txt"})
	if err != nil || len(hist) == 0 || hist[len(hist)-1].Actor != actorWeb {
		t.Fatalf("history of b.txt = %+v, %v; want the apply by %s", hist, err, actorWeb)
	}
}

// TestReviewModeAndDeny: a person's apply obeys the workspace's mode and deny rules.
func TestReviewModeAndDeny(t *testing.T) {
	ctx := context.Background()
	dir, agent, _ := reviewed(t, llmfs.Options{}, map[string]string{"gone.txt": "g\n", "secret/k.txt": "k\n"})
	noErr(t, errOf(agent.Delete(ctx, "gone.txt")))
	noErr(t, errOf(agent.Write(ctx, "secret/k.txt", "leaked\n", llmfs.WriteOptions{})))

	ov := agent.Store()
	ws, err := host.Open(&llmfs.Options{Root: dir, Mode: llmfs.ReadWrite, Deny: []string{"secret/**"}})
	if err != nil {
		t.Fatal(err)
	}
	person := ws.With(llmfs.OnStore(ov)).With(llmfs.Actor(actorWeb))
	_, err = person.Review().Apply(ctx, llmfs.ReviewRequest{Paths: []string{"gone.txt"}})
	wantCode(t, err, llmfs.CodePermissionDenied)
	_, err = person.Review().Apply(ctx, llmfs.ReviewRequest{Paths: []string{"secret"}})
	wantCode(t, err, llmfs.CodePermissionDenied)
	if hostText(t, dir, "gone.txt") != "g\n" || hostText(t, dir, "secret/k.txt") != "k\n" {
		t.Error("a refused apply changed the host")
	}
}

// TestReviewResolve: an overlapping edit is a conflict naming both sides; the person
// resolves it with the agent's version, or with an edit of their own.
func TestReviewResolve(t *testing.T) {
	ctx := context.Background()
	dir, agent, person := reviewed(t, llmfs.Options{}, map[string]string{"a.txt": "x\n", "b.txt": "y\n"})
	noErr(t, errOf(agent.Write(ctx, "a.txt", "agent\n", llmfs.WriteOptions{})))
	noErr(t, errOf(agent.Write(ctx, "b.txt", "agent\n", llmfs.WriteOptions{})))
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("person\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("person\n"), 0o644)
	rv := person.Review()
	_, err := rv.Apply(ctx, llmfs.ReviewRequest{})
	if llmfs.CodeOf(err) != llmfs.CodeFileChanged && !strings.Contains(err.Error(), "FILE_CHANGED") {
		t.Fatalf("Apply = %v, want FILE_CHANGED", err)
	}
	var ce *overlay.ConflictError
	if !asConflict(err, &ce) || !strings.Contains(ce.Diff, "person\n=======\nagent\n") {
		t.Fatalf("conflict %v does not show both sides", err)
	}
	cs, _ := rv.List(ctx)
	if _, err := rv.Resolve(ctx, "a.txt", cs[0].Version, llmfs.TakeAgent, nil); err != nil {
		t.Fatalf("Resolve agent: %v", err)
	}
	if _, err := rv.Resolve(ctx, "b.txt", "stale", llmfs.TakeEdit, []byte("both\n")); llmfs.CodeOf(err) != llmfs.CodeFileChanged {
		t.Fatalf("Resolve with a stale version = %v, want FILE_CHANGED", err)
	}
	if _, err := rv.Resolve(ctx, "b.txt", cs[1].Version, llmfs.TakeEdit, []byte("both\n")); err != nil {
		t.Fatalf("Resolve edit: %v", err)
	}
	if hostText(t, dir, "a.txt") != "agent\n" || hostText(t, dir, "b.txt") != "both\n" {
		t.Errorf("host a=%q b=%q", hostText(t, dir, "a.txt"), hostText(t, dir, "b.txt"))
	}
	if cs, _ := rv.List(ctx); len(cs) != 0 {
		t.Errorf("still pending: %+v", cs)
	}
}

// actorWeb is the console's actor.
const actorWeb = "web"

// asConflict finds the store's conflict in err.
func asConflict(err error, ce **overlay.ConflictError) bool { return errors.As(err, ce) }

func errOf[T any](_ T, err error) error { return err }

// A resolve the deny rules refuse leaves the pending change as the person saw it: same
// version, same content (found by a review: the rebase ran before the check).
func TestReviewResolveRefusedKeepsPending(t *testing.T) {
	ctx := context.Background()
	dir, agent, _ := reviewed(t, llmfs.Options{}, map[string]string{"secret/k.txt": "k\n"})
	noErr(t, errOf(agent.Write(ctx, "secret/k.txt", "agent\n", llmfs.WriteOptions{})))
	ws, err := host.Open(&llmfs.Options{Root: dir, Mode: llmfs.ReadWrite, Deny: []string{"secret/**"}})
	if err != nil {
		t.Fatal(err)
	}
	person := ws.With(llmfs.OnStore(agent.Store())).With(llmfs.Actor(actorWeb))
	before, err := agent.Review().List(ctx)
	if err != nil || len(before) != 1 {
		t.Fatalf("pending %+v, %v", before, err)
	}
	_, err = person.Review().Resolve(ctx, "secret/k.txt", before[0].Version, llmfs.TakeEdit, []byte("edited\n"))
	wantCode(t, err, llmfs.CodePermissionDenied)
	after, err := agent.Review().List(ctx)
	if err != nil || len(after) != 1 || after[0].Version != before[0].Version {
		t.Errorf("after a refused resolve: %+v, %v; want the change as it was (%s)", after, err, before[0].Version)
	}
	if hostText(t, dir, "secret/k.txt") != "k\n" {
		t.Error("a refused resolve changed the host")
	}
}
