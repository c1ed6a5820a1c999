#!/bin/sh
# Review against git (issue 35): 'llmfs review' of 1,000 pending changes against
# 'git status --porcelain' on the same edits, and 'llmfs apply' of them (journaled) against
# 'git apply' of the same patch ('llmfs review diff'). Each apply run restores its tree
# first (both sides, the copy timed too: see BENCHMARKS.md). Pairs alternate (bench/vs.py,
# RUNS runs, default 5); needs git and python3.
set -e
B=${B:-/tmp/llmfs-reviewbench}
here=$(cd "$(dirname "$0")/.." && pwd)
vs="python3 $here/bench/vs.py -n ${RUNS:-5} --any-output"
rm -rf "$B" && mkdir -p "$B/root" "$B/cache"
(cd "$here" && go build -o "$B/llmfs" ./cmd/llmfs && go build -o "$B/prep" ./bench/reviewprep)
export LLMFS_CACHE_DIR="$B/cache"
PREP_FILES=1 "$B/prep" "$B/root" 1000
cp -a "$B/root" "$B/g" && (cd "$B/g" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm base)
"$B/prep" "$B/root" 1000                      # 1,000 pending changes under --review
"$B/llmfs" review diff --root "$B/root" > "$B/p.diff"
cp -a "$B/g" "$B/g0" && cp -a "$B/root" "$B/root0" && cp -a "$B/cache" "$B/cache0"
(cd "$B/g" && git apply "$B/p.diff")           # the same edits in git's working tree
$vs --label "llmfs review (A) vs git status (B)" -- "$B/llmfs" review --root "$B/root" -- git -C "$B/g" status --porcelain
$vs --label "llmfs apply (A) vs git apply (B), each after restoring its tree" \
  -- "sh -c 'rm -rf $B/root $B/cache && cp -a $B/root0 $B/root && cp -a $B/cache0 $B/cache && exec $B/llmfs apply --root $B/root >/dev/null'" \
  -- "sh -c 'rm -rf $B/g && cp -a $B/g0 $B/g && cd $B/g && exec git apply $B/p.diff'"
$vs --label "the restore alone: llmfs side (A) vs git side (B)" \
  -- "sh -c 'rm -rf $B/root $B/cache && cp -a $B/root0 $B/root && cp -a $B/cache0 $B/cache'" \
  -- "sh -c 'rm -rf $B/g && cp -a $B/g0 $B/g'"
