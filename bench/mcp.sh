#!/bin/sh
# bench/mcp.sh: llmfs versus the reference MCP filesystem server
# (@modelcontextprotocol/server-filesystem, installed by bench/node/install.sh) on the same
# directories, through the same client (bench/mcpbench: a plain JSON-RPC client over stdio,
# the same protocol version for both; -client go-sdk for the go-sdk client).
# Prints a Markdown table with the ratios. Needs go, node and npm.
#
#   bench/mcp.sh [-time 3s] [-lists 10] [-searches 3]
set -eu
cd "$(dirname "$0")/.."
ref=bench/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
[ -f "$ref" ] || bench/node/install.sh >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/llmfs" ./cmd/llmfs
go build -o "$work/mcpbench" ./bench/mcpbench
data=$(cd "$work" && pwd -P)/data
tree=$(cd "$(go env GOROOT)/src" && pwd -P)
echo "llmfs $(git rev-parse --short HEAD 2>/dev/null || echo '?'), reference $(node -p "require('./bench/node/node_modules/@modelcontextprotocol/server-filesystem/package.json').version"), node $(node --version), $(go version | cut -d' ' -f3), $(nproc) CPUs"
echo
"$work/mcpbench" -create -data "$data" -big "$data/big" -tree "$tree" "$@" \
	-server "llmfs=$work/llmfs mcp --root $data --root $tree" \
	-server "reference=node $ref $data $tree"
