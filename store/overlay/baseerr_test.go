//go:build !js && !wasip1

package overlay_test

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
)

// failingBase is a base store whose reads of one name fail with err, as a disk with a bad
// sector (EIO) or a file the process may not read (EACCES, not producible here: the
// tests run as root) would. The real fault cannot be made on demand.
type failingBase struct {
	store.Store
	name     string
	err      error // nil: no failure
	openOnly bool  // Stat answers; only Open fails
}

func (f *failingBase) fail(name string) error {
	if f.err != nil && name == f.name {
		return &fs.PathError{Op: "read", Path: name, Err: f.err}
	}
	return nil
}

func (f *failingBase) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	if err := f.fail(name); err != nil && !f.openOnly {
		return nil, err
	}
	return f.Store.Stat(ctx, name)
}

func (f *failingBase) Open(ctx context.Context, name string) (fs.File, error) {
	if err := f.fail(name); err != nil {
		return nil, err
	}
	return f.Store.Open(ctx, name)
}

// TestApplyDeletionBaseUnreadable: a pending deletion whose base file cannot be read is
// an error, not "applied", and the file and the pending deletion both stay (issue 31,
// item 3). Pending reports the error too, rather than a vanished deletion or a creation.
func TestApplyDeletionBaseUnreadable(t *testing.T) {
	dir := t.TempDir()
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	write(t, host, "gone", "G\n")
	write(t, host, "kept", "K\n")
	base := &failingBase{Store: host}
	o := newOverlay(t, base, mem.New())
	if err := o.Remove(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "kept", "changed\n")
	for _, name := range []string{"gone", "kept"} {
		base.name, base.err = name, syscall.EIO
		if _, err := o.Pending(ctx); !errors.Is(err, syscall.EIO) {
			t.Errorf("Pending with %s unreadable: err = %v, want EIO", name, err)
		}
		res, err := o.Apply(ctx, []string{name}, nil)
		if !errors.Is(err, syscall.EIO) || len(res) != 0 {
			t.Errorf("Apply(%s) with its base unreadable = %v, %v; want EIO and nothing applied", name, res, err)
		}
		base.err = nil
	}
	if hostFile(t, dir, "gone") != "G\n" || hostFile(t, dir, "kept") != "K\n" {
		t.Errorf("the base changed: gone=%q kept=%q", hostFile(t, dir, "gone"), hostFile(t, dir, "kept"))
	}
	if got := kinds(t, o); got != "gone:deleted kept:modified" {
		t.Errorf("pending = %s, want both changes still pending", got)
	}
	// Once readable, both apply.
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if hostFile(t, dir, "kept") != "changed\n" || hostFile(t, dir, "gone") == "G\n" {
		t.Errorf("after apply: gone=%q kept=%q", hostFile(t, dir, "gone"), hostFile(t, dir, "kept"))
	}
}

// An agent's write over a base file that could not be read then, applied after a person
// changed the base, is a conflict, never an overwrite of the person's edit (found by a
// review: nothing was recorded of the base, and apply wrote without a check).
func TestApplyAfterUnreadableBaseIsConflict(t *testing.T) {
	dir := t.TempDir()
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	write(t, host, "f", "F\n")
	base := &failingBase{Store: host, name: "f", err: syscall.EIO, openOnly: true}
	o := newOverlay(t, base, mem.New())
	write(t, o, "f", "agent\n")
	base.err = nil
	write(t, host, "f", "person\n")
	if res, err := o.Apply(ctx, []string{"f"}, nil); err == nil {
		t.Errorf("Apply = %v, nil; want a conflict", res)
	}
	if got := hostFile(t, dir, "f"); got != "person\n" {
		t.Errorf("the person's edit was overwritten: f = %q", got)
	}
}
