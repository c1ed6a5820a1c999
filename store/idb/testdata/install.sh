#!/bin/sh
# Installs the pinned Node packages store/idb's tests need (fake-indexeddb).
set -e
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
