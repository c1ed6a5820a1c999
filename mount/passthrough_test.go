//go:build linux

package mount_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// bigContent is n bytes of a pattern that no shift of it repeats.
func bigContent(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>13)
	}
	return b
}

// TestReadHostFilePassthrough: on a read-only mount a host file's read-only open is handed
// to the kernel (FUSE passthrough) and reads its content; a denied file stays invisible.
func TestReadHostFilePassthrough(t *testing.T) {
	big := bigContent(3<<20 + 17)
	ws := hostWS(t, &llmfs.Options{Mode: llmfs.ReadOnly}, map[string]string{"big.bin": string(big), ".env": "SECRET=1\n"})
	m := mountWS(t, ws, mount.Options{})
	before := mount.PassOpens()
	got, err := os.ReadFile(filepath.Join(m.dir, "big.bin"))
	if err != nil || string(got) != string(big) {
		t.Fatalf("big.bin through the mount: %d bytes, %v", len(got), err)
	}
	if mount.PassOpens() == before {
		t.Error("a host file's read-only open was not handed to the kernel")
	}
	if _, err := os.ReadFile(filepath.Join(m.dir, ".env")); !os.IsNotExist(err) {
		t.Errorf("reading .env: %v, want it not to exist", err)
	}
}

// TestReadHostFile: on a mount that writes, a host file is read from the descriptor the
// store opened (spliced), never passed through: a writer may open the file while it is
// read (the kernel would refuse that open next to a passthrough one), and a new reader
// then reads the writer's buffer. What the kernel cached is kept only while the file is
// unchanged.
func TestReadHostFile(t *testing.T) {
	big := bigContent(3<<20 + 17)
	ws := hostWS(t, &llmfs.Options{}, map[string]string{"a.txt": "hello\n", "big.bin": string(big)})
	m := mountWS(t, ws, mount.Options{})
	before := mount.PassOpens()
	got, err := os.ReadFile(filepath.Join(m.dir, "big.bin"))
	if err != nil || string(got) != string(big) {
		t.Fatalf("big.bin through the mount: %d bytes, %v", len(got), err)
	}
	if mount.PassOpens() != before {
		t.Error("a read-write mount passed a read through")
	}
	// Read again (the kernel may keep its cache: the file is as the last open saw it),
	// then changed on the host behind the mount, same size: the next open reads the change.
	if got, err := os.ReadFile(filepath.Join(m.dir, "big.bin")); err != nil || string(got) != string(big) {
		t.Fatalf("big.bin read again: %d bytes, %v", len(got), err)
	}
	big[0], big[len(big)-1] = 'X', 'Y'
	if err := os.WriteFile(filepath.Join(ws.Root(), "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(m.dir, "big.bin")); err != nil || string(got) != string(big) {
		t.Errorf("big.bin after a change on the host: %d bytes, first %q, %v", len(got), got[:1], err)
	}

	old, err := os.Open(filepath.Join(m.dir, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	w, err := os.OpenFile(filepath.Join(m.dir, "a.txt"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("changed\n"); err != nil {
		t.Fatal(err)
	}
	// While the writer has it open, a new reader reads the writer's buffer, not the host file.
	if b, err := os.ReadFile(filepath.Join(m.dir, "a.txt")); err != nil || string(b) != "changed\n" {
		t.Errorf("a.txt while written: %q %v", b, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(m.dir, "a.txt")); err != nil || string(b) != "changed\n" {
		t.Errorf("a.txt after the write: %q %v", b, err)
	}
	// The reader opened before shares the node's buffer: it reads what was written.
	if b, err := io.ReadAll(old); err != nil || string(b) != "changed\n" {
		t.Errorf("a.txt through the descriptor opened before the write: %q %v", b, err)
	}
}
