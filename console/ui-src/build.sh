#!/bin/sh
# Builds ../ui/vendor.js (or $1) from the pinned packages of package-lock.json, with the
# bundled packages' licences at its head.
set -eu
cd "$(dirname "$0")"
out=${1:-../ui/vendor.js}
npm ci --no-audit --no-fund --silent
{
	printf '/*! highlight.js %s, bundled by esbuild (console/ui-src). Its licence:\n' "$(node -p 'require("highlight.js/package.json").version')"
	cat node_modules/highlight.js/LICENSE
	printf '*/\n'
	./node_modules/.bin/esbuild vendor.js --bundle --format=esm --minify --legal-comments=eof --log-level=warning
} >"$out.tmp"
mv "$out.tmp" "$out"
