//go:build !js && !wasip1

package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initBudget is the most a package of this module may allocate while it initializes.
// Every start of the binary, `llmfs --version` included, pays every package's init, so a
// table, a schema, a template or a pattern is made on first use (sync.OnceValue), not at
// init (issue 40): the tool tables took 112 KiB and 0.9 ms there, AGENT.md's template 16 KiB.
const initBudget = 16 << 10

// TestInitAllocatesLittle runs `llmfs --version` with GODEBUG=inittrace=1, which prints
// each package's init time and allocation, and holds this module's packages to
// initBudget. The figures are printed with -v (the time ones are this machine's).
func TestInitAllocatesLittle(t *testing.T) {
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("llmfs --version: %v\n%s", err, stderr.String())
	}
	var ours, all int
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init github.com/llmfs/llmfs/tools @12 ms, 0.021 ms clock, 1952 bytes, 27 allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		all++
		if f[1] != "github.com/llmfs/llmfs" && !strings.HasPrefix(f[1], "github.com/llmfs/llmfs/") ||
			f[1] == "github.com/llmfs/llmfs/cmd/llmfs" { // here, with the tests' own package vars
			continue
		}
		ours++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		t.Logf("%-45s %s ms, %d bytes", f[1], f[4], n)
		if n > initBudget {
			t.Errorf("%s allocates %d bytes at init, more than %d: make what it builds on first use (sync.OnceValue)", f[1], n, initBudget)
		}
	}
	if ours == 0 {
		t.Fatalf("no init line of this module among %d (GODEBUG=inittrace=1 ignored?):\n%s", all, stderr.String())
	}
}
