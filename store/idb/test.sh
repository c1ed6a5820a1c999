#!/bin/sh
# Runs store/idb's tests under Node with fake-indexeddb (GOOS=js GOARCH=wasm).
# Needs node and npm; installs the pinned fake-indexeddb if it is missing.
# Extra arguments go to go test (for example -run or -v).
set -e
cd "$(dirname "$0")"
[ -d testdata/node_modules/fake-indexeddb ] || ./testdata/install.sh
GOOS=js GOARCH=wasm go test -exec "$PWD/testdata/exec.sh" "$@" .
