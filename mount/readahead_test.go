//go:build linux

package mount_test

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// TestReadSpliced: a large host file read through a read-write mount arrives in requests
// the kernel splices from the store's file, never in requests too large for a pipe (which
// go-fuse then reads into memory and copies out, logging each one: this was every read of
// a 1 MiB request), and, as root, with the mount's read-ahead window widened.
func TestReadSpliced(t *testing.T) {
	big := bigContent(8<<20 + 5)
	ws := hostWS(t, &llmfs.Options{}, map[string]string{"big.bin": string(big)})
	m := mountWS(t, ws, mount.Options{})

	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	got, err := os.ReadFile(filepath.Join(m.dir, "big.bin"))
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("big.bin through the mount: %d bytes, %v", len(got), err)
	}
	if strings.Contains(logged.String(), "splice") {
		t.Errorf("reads fell back from splicing:\n%.400s", logged.String())
	}

	var st unix.Stat_t
	if err := unix.Stat(m.dir, &st); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the kernel's read-ahead window stays its default")
		return
	}
	kb, err := os.ReadFile("/sys/class/bdi/" + strconv.Itoa(int(unix.Major(st.Dev))) + ":" +
		strconv.Itoa(int(unix.Minor(st.Dev))) + "/read_ahead_kb")
	if err != nil || strings.TrimSpace(string(kb)) != strconv.Itoa(mount.ReadAheadWindow>>10) {
		t.Errorf("read_ahead_kb %q %v, want %d", kb, err, mount.ReadAheadWindow>>10)
	}
}
