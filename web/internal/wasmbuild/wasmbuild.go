//go:build !js && !wasip1

// Package wasmbuild builds llmfs's browser build from the source tree: cmd/llmfs-wasm for
// js/wasm and the wasm_exec.js that matches it. Package web serves what it makes (built
// when first needed, or embedded by a release from web/dist, which web/internal/gendist
// writes); this package imports neither, so the generator runs when web/dist is empty.
package wasmbuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// ModuleDir returns the root of the llmfs source tree this package was compiled from, or
// an error if it is not on this machine (a -trimpath build, another machine).
func ModuleDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("web: the llmfs source tree is unknown (built with -trimpath?)")
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file)))) // web/internal/wasmbuild/x.go
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(mod), "module github.com/llmfs/llmfs\n") {
		return "", fmt.Errorf("web: no llmfs source tree at %s", dir)
	}
	return dir, nil
}

// Build builds cmd/llmfs-wasm with the go command from the source tree and reads the
// wasm_exec.js of the same Go distribution. The build is reproducible (-trimpath,
// -buildvcs=false): the same source and Go version give the same bytes.
func Build(ctx context.Context) (wasm, wasmExec []byte, err error) {
	dir, err := ModuleDir()
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp("", "llmfs-wasm-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "llmfs.wasm")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "./cmd/llmfs-wasm")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("web: building llmfs.wasm: %v\n%s", err, msg)
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, err
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("web: go env GOROOT: %v", err)
	}
	wasmExec, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, nil, err
	}
	return wasm, wasmExec, nil
}

// Gzip compresses b the same way on every run (gzip -9, no name or time in the header),
// so that web/dist/llmfs.wasm.gz is the same for the same .wasm.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
