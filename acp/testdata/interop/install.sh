#!/bin/sh
# install.sh installs the pinned npm packages the ACP interop tests run against
# (@agentclientprotocol/sdk and its peer zod) into node_modules beside this script.
# It needs node and npm (Debian: apt-get install nodejs npm) and the npm registry.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
