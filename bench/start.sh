#!/bin/sh
# The start of the llmfs process, against C peers (issue 40): `llmfs --version` against
# `git --version` and `rg --version`, `llmfs review` of an empty layer against `git status`
# of a clean repository, and `llmfs find` of a ten-file tree against `rg --files`. Pairs
# alternate (bench/vs.py, RUNS runs, default 9); outputs differ, so they are not compared.
# Then the split of `llmfs --version`: minor page faults (/usr/bin/time), the package
# inits' sum and the largest of them (GODEBUG=inittrace=1, the least of 9 runs each, which
# a loaded machine disturbs least); and the Go runtime's floor: an empty Go program (no
# imports, so no package init) against git, and llmfs against it.
#
# Two choices measured, not made: the release's build (CGO_ENABLED=0 -trimpath
# -ldflags='-s -w': a static binary, no dynamic loader or libc start, no symbol tables)
# against the plain `go build`; and a larger first heap goal (GOGC=400: the first
# collection at 16 MiB of heap, not 4) on `llmfs review` of 1,000 pending changes, which
# collects three times under the default. Under load the collector's idle workers, whose
# CPU the larger goal would save, seldom run: that pair means something only on a quiet
# machine.
#
# The binary is built as bench/review.sh builds it (go build ./cmd/llmfs); set
# LLMFS_BIN to time another build.
set -e
B=${B:-/tmp/llmfs-startbench}
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-9}
vs="python3 $here/bench/vs.py -n $runs --any-output"
rm -rf "$B" && mkdir -p "$B/empty" "$B/cache" "$B/tiny/a/b" "$B/git"
if [ -n "$LLMFS_BIN" ]; then cp "$LLMFS_BIN" "$B/llmfs"; else (cd "$here" && go build -o "$B/llmfs" ./cmd/llmfs); fi
export LLMFS_CACHE_DIR="$B/cache"
for i in 1 2 3 4 5; do echo "x$i" > "$B/tiny/f$i.c"; echo "y$i" > "$B/tiny/a/b/g$i.c"; done
(cd "$B/git" && git init -q && echo x > f && git add f && git -c user.email=b@b -c user.name=b commit -qm base)
(cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$B/llmfs-release" ./cmd/llmfs && go build -o "$B/prep" ./bench/reviewprep)
mkdir -p "$B/hello" && printf 'package main\n\nfunc main() {}\n' > "$B/hello/main.go"
(cd "$B/hello" && GOWORK=off GO111MODULE=off go build -o "$B/empty-go" main.go)
ls -l "$B/llmfs" | awk '{printf "binary: %.1f MB\n", $5 / 1e6}'

$vs --label "llmfs --version (A) vs git --version (B)" -- "$B/llmfs" --version -- git --version
$vs --label "llmfs --version (A) vs rg --version (B)" -- "$B/llmfs" --version -- rg --version
$vs --label "an empty Go program (A) vs git --version (B)" -- "$B/empty-go" -- git --version
$vs --label "llmfs --version (A) vs an empty Go program (B)" -- "$B/llmfs" --version -- "$B/empty-go"
$vs --label "llmfs review, empty layer (A) vs git status --porcelain, clean (B)" \
  -- "$B/llmfs" review --root "$B/empty" -- git -C "$B/git" status --porcelain
$vs --label "llmfs find '**/*.c', 10 files (A) vs rg --files -g '*.c' (B)" \
  -- "$B/llmfs" find "'**/*.c'" --root "$B/tiny" -- rg --files -g "'*.c'" "$B/tiny"
$vs --label "llmfs --version: the release's build (A) vs go build (B)" -- "$B/llmfs-release" --version -- "$B/llmfs" --version
mkdir -p "$B/pending" && PREP_FILES=1 "$B/prep" "$B/pending" 1000 && "$B/prep" "$B/pending" 1000
$vs --label "llmfs review, 1,000 pending: GOGC=400 (A) vs the default (B)" \
  -- GOGC=400 "$B/llmfs" review --root "$B/pending" -- "$B/llmfs" review --root "$B/pending"

echo "== the split of llmfs --version (least of 9 runs each; load $(cut -d' ' -f1-3 /proc/loadavg))"
for c in "$B/llmfs --version" "$B/empty-go" "git --version" "rg --version"; do
  f=$(for i in 1 2 3 4 5 6 7 8 9; do /usr/bin/time -f %R $c 2>&1 >/dev/null | tail -1; done | sort -n | head -1)
  echo "  minor page faults: $f  ($c)"
done
for i in 1 2 3 4 5 6 7 8 9; do GODEBUG=inittrace=1 "$B/llmfs" --version 2>&1 >/dev/null; done | awk '
  /^init / { ms = $5 + 0; if (!($2 in m) || ms < m[$2]) m[$2] = ms; kb[$2] = $8 / 1024
           }
  END { for (p in m) { sum += m[p]; n++ }
        printf "  package inits: %d packages, %.1f ms in all\n", n, sum
        for (p in m) printf "%10.2f ms %8.1f KiB  %s\n", m[p], kb[p], p | "sort -rn | head -15" }'
