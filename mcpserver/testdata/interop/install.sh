#!/bin/sh
# Installs the official TypeScript MCP SDK (pinned in package-lock.json) for the interop test.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
