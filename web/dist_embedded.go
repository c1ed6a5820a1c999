//go:build llmfs_webdist && !js && !wasip1

package web

import "embed"

// dist is the browser build that `go generate ./web` wrote to dist/, embedded by a build
// with the tag llmfs_webdist (release/build.sh makes both steps).
//
//go:embed dist/llmfs.wasm.gz dist/wasm_exec.js
var dist embed.FS

func embedded() (*Assets, bool) {
	gz, err := dist.ReadFile("dist/llmfs.wasm.gz")
	if err != nil {
		panic(err) // go:embed guarantees it
	}
	exec, err := dist.ReadFile("dist/wasm_exec.js")
	if err != nil {
		panic(err)
	}
	return &Assets{WasmGzip: gz, WasmExec: exec}, true
}
