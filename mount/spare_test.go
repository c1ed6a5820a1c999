//go:build linux

package mount_test

import (
	"fmt"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// TestSpillFilesReused: files written one after another share a few spill files (each
// spill file made and dropped cost an inode allocated and freed), and each file lands
// with its own content, none of the one before.
func TestSpillFilesReused(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
			m := mountWS(t, ws, mount.Options{Actor: "run:sh"})
			before := mount.SpillsMade()
			m.must(`mkdir d; i=0; while [ $i -lt 40 ]; do if [ $i = 7 ]; then head -c 100000 /dev/zero > d/$i; else echo $i > d/$i; fi; i=$((i+1)); done`)
			if n := mount.SpillsMade() - before; n > 4 {
				t.Errorf("%d spill files made for 40 files written one after another", n)
			}
			if out := m.must("cat d/6 d/8 d/39; wc -c < d/7"); out != "6\n8\n39\n100000\n" {
				t.Errorf("contents: %q", out)
			}
			m.unmount()
			for _, i := range []int{0, 8, 39} {
				if got := read(t, ws, fmt.Sprintf("d/%d", i)); got != fmt.Sprintf("%d\n", i) {
					t.Errorf("d/%d after the run: %q", i, got)
				}
			}
		})
	}
}
