//go:build unix

package overlay_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

const killFiles = 300

// TestReviewKillHelper is the process TestReviewKillDuringBatchApply kills: it says
// "ready" and applies the pending changes, whose writes a host base makes in batches.
func TestReviewKillHelper(t *testing.T) {
	dir := os.Getenv("LLMFS_TEST_KILL_DIR")
	if dir == "" {
		t.Skip("run by TestReviewKillDuringBatchApply")
	}
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv("LLMFS_TEST_KILL_CACHE")) // the parent's journal
	base, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	o := newOverlay(t, base, sqliteUpper(t, os.Getenv("LLMFS_TEST_KILL_UPPER")))
	os.Stdout.WriteString("ready\n")
	o.Apply(ctx, nil, nil)
	time.Sleep(time.Hour) // the kill comes here if the apply was quicker
}

// TestReviewKillDuringBatchApply ends an apply of 300 files with SIGKILL soon after its
// first file lands, with the host base writing them in batches (store.FilesWriter: all synced,
// then all renamed): every host file is old or new, the journal and the pending changes
// agree with the files, and applying again finishes the rest, each file committed once.
func TestReviewKillDuringBatchApply(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	for round := range 3 {
		t.Run(fmt.Sprint(round), func(t *testing.T) { killApplyRound(t) })
	}
}

func killApplyRound(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	files := map[string]string{}
	for i := range killFiles {
		files[fmt.Sprintf("d%d/f%03d", i%5, i)] = "old\n"
	}
	dir, _, _ := hostOverlay(t, files)
	upperFile := filepath.Join(t.TempDir(), "up.db")
	base, _ := osdir.New(dir, false)
	o := newOverlay(t, base, sqliteUpper(t, upperFile))
	for name := range files {
		write(t, o, name, "new\n")
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestReviewKillHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LLMFS_TEST_KILL_DIR="+dir, "LLMFS_TEST_KILL_UPPER="+upperFile, "LLMFS_TEST_KILL_CACHE="+cache)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the apply process did not start: %q, %v", buf, err)
	}
	// The kill comes once the first file is in place, while the batches land: their
	// files are synced first, then renamed one by one.
	first := filepath.Join(dir, "d0", "f000")
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
		if b, _ := os.ReadFile(first); string(b) == "new\n" {
			break
		}
	}
	time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	landed := 0
	for name := range files {
		switch got := hostFile(t, dir, name); got {
		case "new\n":
			landed++
		case "old\n":
		default:
			t.Errorf("host %s = %q after the kill, want old or new", name, got)
		}
	}
	t.Logf("%d of %d files new after the kill", landed, killFiles)

	base2, _ := osdir.New(dir, false)
	o2 := newOverlay(t, base2, sqliteUpper(t, upperFile))
	if cs, _ := o2.Pending(ctx); len(cs) != killFiles-landed {
		t.Errorf("%d pending after the kill, want %d (the files still old)", len(cs), killFiles-landed)
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
		case store.Unlanded: // recorded by the killed apply, never made
		default:
			t.Errorf("journal: %s %s is %s, want committed or unlanded", c.Op, c.Path, c.State)
		}
	}
	bad := 0
	for name := range files {
		if writes[name] != 1 {
			bad++
			if bad < 4 {
				t.Errorf("journal: %s written %d times (committed), want once", name, writes[name])
				for _, c := range journalOf(t, base2) {
					if c.Path == name {
						t.Logf("  %+v", c)
					}
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d files not committed once", bad)
	}
}
