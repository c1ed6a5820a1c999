//go:build !js && !wasip1

package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 13.1: over MCP too, a root reached through a symbolic link accepts absolute paths
// spelled through the link, for reads and writes, as well as through its real path.
func TestRootThroughSymlinkOverMCP(t *testing.T) {
	top := tempDir(t)
	real, link := filepath.Join(top, "real"), filepath.Join(top, "link")
	writeFile(t, filepath.Join(real, "f.txt"), "hi\n")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	cs := stdioSession(t, nil, "--root", link)
	for _, p := range []string{link + "/f.txt", real + "/f.txt"} {
		res := call(t, cs, "file_read", `{"path":"`+p+`"}`)
		if res.IsError || structured(t, res)["content"] != "hi\n" {
			t.Errorf("file_read %s: %s", p, text(res))
		}
	}
	if res := call(t, cs, "file_write", `{"path":"`+link+`/g.txt","content":"g\n"}`); res.IsError {
		t.Errorf("file_write through the link: %s", text(res))
	}
	if data, _ := os.ReadFile(filepath.Join(real, "g.txt")); string(data) != "g\n" {
		t.Errorf("g.txt = %q", data)
	}
	fails(t, cs, "file_read", `{"path":"`+link+`/../outside.txt"}`, "INVALID_PATH")

	// With several roots, the path is routed to the root the link leads to.
	other := tempDir(t)
	cs = stdioSession(t, nil, "--root", other, "--root", link)
	if res := call(t, cs, "file_read", `{"path":"`+link+`/f.txt"}`); res.IsError || structured(t, res)["content"] != "hi\n" {
		t.Errorf("file_read through the link of the second root: %s", text(res))
	}
}
