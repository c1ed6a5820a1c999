//go:build !js && !wasip1

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/internal/acppeer"
	"github.com/llmfs/llmfs/internal/testcache"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	acppeer.Main() // the ACP client's tests run this binary as their agent
	testscript.Main(isolated{m}, map[string]func(){
		"llmfs": func() { os.Exit(runMain()) },
	})
}

// isolated runs the tests (not the llmfs commands of the scripts, which testscript runs
// through the same binary) with the host workspaces' journals in a temporary cache
// directory instead of ~/.cache.
type isolated struct{ m *testing.M }

func (i isolated) Run() int {
	defer testcache.Isolate()()
	return i.m.Run()
}

// TestScripts runs the binary as a person would, one script per behaviour, in
// testdata/script. Set UPDATE_SCRIPTS=1 to rewrite their expected output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		// testscript starts each script with a clean environment; give it a cache of its
		// own under the test binary's isolated one (a script may still set its own).
		Setup: func(env *testscript.Env) error {
			env.Setenv(testcache.Env, filepath.Join(os.Getenv(testcache.Env), filepath.Base(env.WorkDir)))
			return nil
		},
	})
}
