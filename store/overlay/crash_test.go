//go:build !js && !wasip1

package overlay_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// crashBase is a host base whose journal's change sets end the process, as a crash
// would, right after the nth file write lands (before the journal hears it landed).
type crashBase struct {
	*osdir.Store
	n *int
}

func (c crashBase) Journal() store.Journal { return crashJournal{c.Store.Journal(), c.n} }

type crashJournal struct {
	store.Journal
	n *int
}

func (j crashJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	return j.Journal.Apply(ctx, actor, func(tx store.JournalTx) error { return fn(crashTx{tx, j.n}) })
}

type crashTx struct {
	store.JournalTx
	n *int
}

func (t crashTx) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	n, err := t.JournalTx.WriteFile(ctx, name, r, opts)
	if *t.n--; *t.n == 0 {
		os.Exit(3)
	}
	return n, err
}

const crashFiles = 40

// TestReviewCrashHelper is the process TestReviewCrashDuringApply kills: it applies the
// pending changes over a base that ends the process after some writes.
func TestReviewCrashHelper(t *testing.T) {
	dir := os.Getenv("LLMFS_TEST_CRASH_DIR")
	if dir == "" {
		t.Skip("run by TestReviewCrashDuringApply")
	}
	n, _ := strconv.Atoi(os.Getenv("LLMFS_TEST_CRASH_AFTER"))
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv("LLMFS_TEST_CRASH_CACHE")) // the parent's journal
	base, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	o := newOverlay(t, crashBase{base, &n}, sqliteUpper(t, os.Getenv("LLMFS_TEST_CRASH_UPPER")))
	o.Apply(ctx, nil, nil)
	t.Fatal("the apply did not crash")
}

// TestReviewCrashDuringApply: issue 15 ("crash during apply: every file old or new; apply
// can be resumed"), with a real process ended mid-apply: every host file is old or new,
// the journal settles what the crashed apply recorded (the writes made committed, the
// others unlanded), and applying again finishes the rest, each file committed once.
func TestReviewCrashDuringApply(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	files := map[string]string{}
	for i := range crashFiles {
		files[fmt.Sprintf("d%d/f%02d", i%4, i)] = "old\n"
	}
	dir, _, _ := hostOverlay(t, files)
	upperFile := filepath.Join(t.TempDir(), "up.db")
	base, _ := osdir.New(dir, false)
	o := newOverlay(t, base, sqliteUpper(t, upperFile))
	for name := range files {
		write(t, o, name, "new\n")
	}

	const after = 15
	cmd := exec.Command(os.Args[0], "-test.run=^TestReviewCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LLMFS_TEST_CRASH_DIR="+dir, "LLMFS_TEST_CRASH_UPPER="+upperFile, "LLMFS_TEST_CRASH_AFTER="+strconv.Itoa(after), "LLMFS_TEST_CRASH_CACHE="+cache)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("the apply process: %v, want exit status 3\n%s", err, out)
	}
	landed := 0
	for name := range files {
		switch got := hostFile(t, dir, name); got {
		case "new\n":
			landed++
		case "old\n":
		default:
			t.Errorf("host %s = %q after the crash, want old or new", name, got)
		}
	}
	if landed != after {
		t.Errorf("%d files new after the crash, want %d", landed, after)
	}

	// Resume, in a new process's view of both stores.
	base2, _ := osdir.New(dir, false)
	o2 := newOverlay(t, base2, sqliteUpper(t, upperFile))
	if cs, _ := o2.Pending(ctx); len(cs) != crashFiles-after {
		t.Errorf("%d pending after the crash, want %d", len(cs), crashFiles-after)
	}
	if _, err := o2.Apply(ctx, nil, nil); err != nil {
		t.Fatalf("resumed apply: %v", err)
	}
	for name := range files {
		if got := hostFile(t, dir, name); got != "new\n" {
			t.Errorf("host %s = %q after the resumed apply", name, got)
		}
	}
	if got := kinds(t, o2); got != "" {
		t.Errorf("pending after the resumed apply: %s", got)
	}
	writes := map[string]int{}
	for _, c := range journalOf(t, base2) {
		if c.Actor != overlay.Actor || c.After.Kind != store.File {
			continue
		}
		switch c.State {
		case store.Committed:
			writes[c.Path]++
		case store.Unlanded: // recorded by the crashed apply, never made
		default:
			t.Errorf("journal: %s %s is %s, want committed or unlanded", c.Op, c.Path, c.State)
		}
	}
	for name := range files {
		if writes[name] != 1 {
			t.Errorf("journal: %s written %d times (committed), want once", name, writes[name])
		}
	}
}
