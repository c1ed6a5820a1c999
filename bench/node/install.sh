#!/bin/sh
# Installs the reference MCP filesystem server (pinned in package-lock.json) for bench/mcp.sh.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
