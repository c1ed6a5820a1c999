// Package buildinfo says which build of llmfs is running, from the module and version
// control information the go command stamps into every binary
// ([runtime/debug.ReadBuildInfo]).
package buildinfo

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Info describes a build. Fields the build did not record are empty.
type Info struct {
	// Version is the release version release/build.sh stamped ("0.1.0"), else the main
	// module's version: a release ("v1.2.0"), a pseudo-version for a
	// build from a checkout ("v0.0.0-20261201195409-8f29def1a2b3+dirty"), or "devel" when
	// the go command recorded none (go run, go test, a build outside version control).
	Version string
	// Revision is the version control commit the binary was built from, Time its date
	// (RFC 3339), and Modified says the work tree had uncommitted changes.
	Revision, Time string
	Modified       bool
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string
}

// stamped is the release version release/build.sh writes into the binary with
// -ldflags "-X github.com/llmfs/llmfs/internal/buildinfo.stamped=0.1.0". A release is
// built from a checkout that need not sit at its tag (and -trimpath builds in a worktree
// may record no version control at all), so the go command's own module version would say
// "devel" or a pseudo-version; the stamp wins over it.
var stamped string

// Read returns the information of the running binary.
var Read = sync.OnceValue(func() Info {
	info := Info{Version: "devel"}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		info.GoVersion = bi.GoVersion
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			info.Version = v
		}
		readVCS(&info, bi.Settings)
	}
	if stamped != "" {
		info.Version = stamped
	}
	return info
})

// readVCS fills in the version control settings the go command recorded.
func readVCS(info *Info, settings []debug.BuildSetting) {
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
}

// Version returns the module version of the running binary ([Info.Version]); with no
// version recorded but a revision, "devel+" and the revision's first 12 characters.
func Version() string {
	info := Read()
	if info.Version == "devel" && info.Revision != "" {
		v := "devel+" + info.Revision[:min(12, len(info.Revision))]
		if info.Modified {
			v += "-dirty"
		}
		return v
	}
	return info.Version
}

// String describes the build on one line, for --version: the version, then the
// revision, its time, whether the tree was modified, and the Go version, as recorded.
func (info Info) String() string {
	var b strings.Builder
	b.WriteString(info.Version)
	var extra []string
	if info.Revision != "" {
		r := "revision " + info.Revision
		if info.Modified {
			r += " (modified)"
		}
		extra = append(extra, r)
	}
	if info.Time != "" {
		extra = append(extra, info.Time)
	}
	if info.GoVersion != "" {
		extra = append(extra, info.GoVersion)
	}
	if len(extra) > 0 {
		b.WriteString(", " + strings.Join(extra, ", "))
	}
	return b.String()
}
