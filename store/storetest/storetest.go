// Package storetest is the conformance suite every [store.Store] runs: one call to [Run]
// from a store's tests checks each method's contract as package store documents it.
//
// The expectations were taken from what store/osdir does on a real disk, so a virtual
// store behaves like a host directory wherever the two can be compared.
//
// The suite runs twice: once on the store as [Opt.New] returns it, and once behind a
// wrapper that exposes only the [store.Store] methods, so that both the optional
// interfaces ([store.Copier], [store.Lstater], [store.ConditionalRemover]) and the fallbacks that replace them are
// exercised.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// Opt describes the store under test.
type Opt struct {
	// New returns a new, empty store. It is called once per subtest; use t.Cleanup to
	// release what it holds.
	New func(t *testing.T) store.Store
	// Symlinks says the store has symbolic links (store/osdir). The symlink tests then
	// run; they create links on the host, so the store must be a [store.Locator].
	Symlinks bool
	// Unconfined says symbolic links may lead out of the store (store/osdir in relaxed
	// mode), so the tests that expect [store.ErrEscape] are skipped.
	Unconfined bool
}

// Run runs the conformance suite against the stores opt.New makes.
func Run(t *testing.T, opt Opt) {
	t.Helper()
	if opt.New == nil {
		t.Fatal("storetest.Opt.New is nil")
	}
	t.Run("Direct", func(t *testing.T) { run(t, opt, false) })
	t.Run("Plain", func(t *testing.T) { run(t, opt, true) })
}

// plain hides every method of a store but those of [store.Store], so the generic code
// paths (store.Copy without a Copier, store.Lstat without a Lstater) run.
type plain struct{ store.Store }

// env is one subtest's store.
type env struct {
	t   *testing.T
	s   store.Store // the store under test, possibly wrapped
	raw store.Store // the store as opt.New returned it
	opt Opt
}

func run(t *testing.T, opt Opt, wrap bool) {
	tests := []struct {
		name string
		fn   func(e *env)
	}{
		{"Stat", testStat},
		{"ReadDir", testReadDir},
		{"Open", testOpen},
		{"WriteReplace", testWriteReplace},
		{"WriteReplaceAtomic", testWriteReplaceAtomic},
		{"WriteAppend", testWriteAppend},
		{"WriteAppendAtomic", testWriteAppendAtomic},
		{"WriteExclusive", testWriteExclusive},
		{"WriteIfMatch", testWriteIfMatch},
		{"WriteIfAbsent", testWriteIfAbsent},
		{"WriteParents", testWriteParents},
		{"WriteFailingReader", testWriteFailingReader},
		{"Mkdir", testMkdir},
		{"Remove", testRemove},
		{"RemoveIf", testRemoveIf},
		{"ConcurrentRemoveIf", testConcurrentRemoveIf},
		{"Rename", testRename},
		{"RenameDirectory", testRenameDirectory},
		{"Copy", testCopy},
		{"Lstat", testLstat},
		{"InvalidNames", testInvalidNames},
		{"HostileNames", testHostileNames},
		{"NoAliasing", testNoAliasing},
		{"ConcurrentWrites", testConcurrentWrites},
		{"ConcurrentConditionalWrites", testConcurrentConditional},
		{"Symlinks", testSymlinks},
		{"MakeSymlinks", testMakeSymlinks},
		{"Attrs", testAttrs},
		{"HardLinks", testHardLinks},
		{"SwapWalk", testSwapWalk},
		{"Metadata", testMetadata},
		{"RealName", testRealName},
		{"EdgeErrors", testEdgeErrors},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := opt.New(t)
			if raw == nil {
				t.Fatal("Opt.New returned nil")
			}
			s := raw
			if wrap {
				s = plain{raw}
			}
			tt.fn(&env{t: t, s: s, raw: raw, opt: opt})
		})
	}
}

var ctx = context.Background()

// write stores content at name, failing the test on error.
func (e *env) write(name, content string) {
	e.t.Helper()
	n, err := e.s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{})
	if err != nil {
		e.t.Fatalf("WriteFile(%q): %v", name, err)
	}
	if n != int64(len(content)) {
		e.t.Fatalf("WriteFile(%q) = %d bytes, want %d", name, n, len(content))
	}
}

func (e *env) mkdir(name string) {
	e.t.Helper()
	if err := e.s.Mkdir(ctx, name); err != nil {
		e.t.Fatalf("Mkdir(%q): %v", name, err)
	}
}

// read returns the content of name, failing the test on error.
func (e *env) read(name string) string {
	e.t.Helper()
	s, err := readFile(e.s, name)
	if err != nil {
		e.t.Fatalf("read %q: %v", name, err)
	}
	return s
}

func readFile(s store.Store, name string) (string, error) {
	f, err := s.Open(ctx, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// wantErr fails the test unless err matches target, and checks that it is an
// *fs.PathError as package store requires.
func (e *env) wantErr(what string, err, target error) {
	e.t.Helper()
	if err == nil {
		e.t.Errorf("%s: no error, want %v", what, target)
		return
	}
	if !errors.Is(err, target) {
		e.t.Errorf("%s: error %v, want %v", what, err, target)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		e.t.Errorf("%s: error %v (%T) is not an *fs.PathError", what, err, err)
	}
}

func (e *env) noErr(what string, err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("%s: %v", what, err)
	}
}

// snapshot describes the whole tree: each file as "name" -> content, each directory as
// "name/" -> "", each symbolic link as "name@" -> "" (never followed).
func (e *env) snapshot() map[string]string {
	e.t.Helper()
	m := map[string]string{}
	var walk func(dir string)
	walk = func(dir string) {
		des, err := e.s.ReadDir(ctx, dir)
		if err != nil {
			e.t.Fatalf("ReadDir(%q): %v", dir, err)
		}
		for _, de := range des {
			name := join(dir, de.Name())
			switch {
			case de.Type()&fs.ModeSymlink != 0:
				m[name+"@"] = ""
			case de.IsDir():
				m[name+"/"] = ""
				walk(name)
			default:
				m[name] = e.read(name)
			}
		}
	}
	walk(".")
	return m
}

func (e *env) sameTree(what string, before map[string]string) {
	e.t.Helper()
	after := e.snapshot()
	if d := diffTrees(before, after); d != "" {
		e.t.Errorf("%s changed the tree:\n%s", what, d)
	}
}

func diffTrees(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, fmt.Sprintf("- %q", k))
		} else if v != w {
			out = append(out, fmt.Sprintf("~ %q: %.40q -> %.40q", k, v, w))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, fmt.Sprintf("+ %q", k))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// errReader fails after yielding some bytes.
type errReader struct{ n int }

var errBroken = errors.New("storetest: broken reader")

func (r *errReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errBroken
	}
	n := min(len(p), r.n)
	for i := range p[:n] {
		p[i] = 'x'
	}
	r.n -= n
	return n, nil
}
