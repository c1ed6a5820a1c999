package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

// Issue 13.18: llmfs reported "dev" everywhere. A test binary has no module version, so
// Version falls back to "devel"; the Go version is always recorded.
func TestReadBuildInfo(t *testing.T) {
	info := Read()
	if info.Version == "" || info.GoVersion != runtime.Version() {
		t.Errorf("Read() = %+v", info)
	}
	if v := Version(); !strings.HasPrefix(v, info.Version) && !strings.HasPrefix(v, "devel+") {
		t.Errorf("Version() = %q", v)
	}
	s := Info{Version: "v1.2.0", Revision: "8f29def1a2b3c4", Time: "2026-12-01T19:00:00Z", Modified: true, GoVersion: "go1.26.8"}.String()
	if want := "v1.2.0, revision 8f29def1a2b3c4 (modified), 2026-12-01T19:00:00Z, go1.26.8"; s != want {
		t.Errorf("String() = %q, want %q", s, want)
	}
}
