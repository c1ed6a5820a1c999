#!/bin/sh
# Installs the release tools (pinned in package-lock.json): mcpb, for the MCP bundles.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
