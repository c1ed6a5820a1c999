#!/bin/sh
# A `go test -exec` wrapper: runs a GOOS=js GOARCH=wasm test binary under Node, like
# $GOROOT/lib/wasm/go_js_wasm_exec, with fake-indexeddb installed as globalThis.indexedDB
# first. Run ./install.sh once to install it.
dir=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$dir/node_modules/fake-indexeddb" ]; then
	echo "exec.sh: fake-indexeddb is not installed; run $dir/install.sh" >&2
	exit 1
fi
exec node --stack-size=8192 --require "$dir/node_modules/fake-indexeddb/auto" \
	"$(go env GOROOT)/lib/wasm/wasm_exec_node.js" "$@"
