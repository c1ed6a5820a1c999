//go:build linux

package osdir

import (
	"os"
	"path/filepath"
	"testing"
)

// The named temporary files, used where O_TMPFILE is not (other systems, file systems
// without it), do the same as the unnamed ones and leave nothing behind.
func TestNamedTempFiles(t *testing.T) {
	if !noTmpfile.Load() {
		noTmpfile.Store(true)
		defer noTmpfile.Store(false)
	}
	testWritesLeaveNoTemps(t)
}

func TestUnnamedTempFiles(t *testing.T) {
	if noTmpfile.Load() {
		t.Skip("no O_TMPFILE here")
	}
	testWritesLeaveNoTemps(t)
	// Should linking the unnamed file fail for want of /proc or a privilege, its content
	// goes to a named file instead.
	dir := t.TempDir()
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, exclusive := range []bool{false, true} {
		tf, err := s.newTemp("f.txt")
		if err != nil {
			t.Fatal(err)
		}
		if tf.dir == nil {
			t.Skip("the file system has no unnamed files")
		}
		tf.WriteString("hello")
		tf.Chmod(0o600)
		if exclusive {
			os.Remove(filepath.Join(dir, "f.txt"))
		}
		err = tf.toNamed(exclusive)
		tf.discard()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
		fi, _ := os.Stat(filepath.Join(dir, "f.txt"))
		if string(data) != "hello" || fi.Mode().Perm() != 0o600 {
			t.Errorf("exclusive=%v: after toNamed f.txt = %q, %v", exclusive, data, fi.Mode())
		}
		assertOnly(t, dir, "f.txt")
	}
}
