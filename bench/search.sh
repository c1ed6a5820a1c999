#!/usr/bin/env bash
# bench/search.sh times llmfs's search engine against ripgrep and GNU grep -r.
#
# Usage: bench/search.sh [CORPUS_DIR ...]
#   default corpus: /usr/local/go/src; "none" runs no tree (for BIG=1 alone)
#   RUNS=10     timed runs per command (median reported), after 2 warm-up runs
#   FIND_GLOB   the glob of the find case (default '*_test.go')
#   BIG=1       also generate a 1 GB file and time the grep cases on it, with peak RSS
#
# llmfs runs as the `llmfs grep` and `llmfs find` one-shots, built from this tree.
# Needs: go, rg (apt-get install ripgrep), hyperfine (apt-get install hyperfine), GNU grep,
# python3. Exit status 1 (no match) is not an error (hyperfine -i). Output of every command goes through a pipe (hyperfine --output=pipe): GNU grep
# and ripgrep both take shortcuts when their output is /dev/null.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -o "$tmp/llmfs" ./cmd/llmfs)
ll="$tmp/llmfs grep"
llfind="$tmp/llmfs find"

# name | llmfs flags | rg flags | grep flags ; the pattern goes last, then the directory.
cases=(
	"literal|-n|-n|-rn|func main"
	"regex-with-literal|-n|-n|-rnE|[a-z]+Error\\("
	"regex-no-literal|-n|-n|-rnE|[A-Z][a-z]*[0-9]{3}"
	"case-insensitive|-n -i|-n -i|-rni|errorf"
	"files-only|-l|-l|-rl|TODO"
	"count|-c|-c|-rc|return nil"
	"context-C2|-n -C 2|-n -C 2|-rnE -C 2|panic\\("
)

results="$tmp/results.tsv"
: >"$results"

run_case() { # corpus name json cmds...
	local corpus=$1 name=$2 json=$3
	shift 3
	(cd "$corpus" && hyperfine -S none -i --output=pipe -w 2 -r "$runs" --style none \
		--export-json "$json" "$@" >/dev/null)
	printf '%s\t%s\t%s\n' "$corpus" "$name" "$json" >>"$results"
}

bench_corpus() {
	local corpus=$1 i=0 glob=${FIND_GLOB:-*_test.go}
	for c in "${cases[@]}"; do
		IFS='|' read -r name lf rf gf pat <<<"$c"
		i=$((i + 1))
		run_case "$corpus" "$name" "$tmp/$i-$(basename "$corpus").json" \
			"$ll $lf '$pat' ." "rg $rf '$pat'" "grep $gf '$pat' ."
		printf '%-20s llmfs %6s lines, rg %6s lines\n' "$name" \
			"$(cd "$corpus" && eval "$ll $lf '$pat' ." | wc -l)" \
			"$(cd "$corpus" && eval "rg $rf '$pat'" | wc -l)" >&2
	done
	run_case "$corpus" "find-glob" "$tmp/find-$(basename "$corpus").json" \
		"$llfind '$glob' ." "rg --files -g '$glob'" "find . -name '$glob'"
}

for corpus in "${@:-/usr/local/go/src}"; do
	[[ $corpus == none ]] || bench_corpus "$corpus"
done

if [[ ${BIG:-} == 1 ]]; then
	big="$tmp/big"
	mkdir -p "$big"
	python3 - "$big/big.txt" <<'PY'
import sys, random
random.seed(1)
words = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega".split()
line = []
with open(sys.argv[1], "w") as f:
    n = 0
    while n < 1 << 30:
        s = " ".join(random.choice(words) for _ in range(12))
        if random.random() < 0.001:
            s += " func main xError( panic( TODO errorf return nil A1234"
        f.write(s + "\n")
        n += len(s) + 1
PY
	for c in "${cases[@]}"; do
		IFS='|' read -r name lf rf gf pat <<<"$c"
		run_case "$big" "$name" "$tmp/big-$name.json" \
			"$ll $lf '$pat' ." "rg $rf '$pat'" "grep $gf '$pat' ."
	done
	echo "peak RSS on the 1 GB file:" >&2
	for c in "${cases[@]}"; do
		IFS='|' read -r name lf rf gf pat <<<"$c"
		rss=$(cd "$big" && eval "/usr/bin/time -f %M $ll $lf '$pat' ." 2>&1 >/dev/null | tail -1)
		printf '  %-20s llmfs %6d KiB\n' "$name" "$rss" >&2
	done
fi

python3 - "$results" <<'PY'
import json, sys
# Wall time is the median; CPU is the mean of user + system time, which a machine shared
# with other work disturbs less.
print("| corpus | case | llmfs | rg | grep -r / find | llmfs/rg wall | llmfs CPU | rg CPU | llmfs/rg CPU |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for line in open(sys.argv[1]):
    corpus, name, path = line.rstrip("\n").split("\t")
    r = json.load(open(path))["results"]
    med = [x["median"] * 1000 for x in r]
    cpu = [(x["user"] + x["system"]) * 1000 for x in r]
    print(f"| {corpus} | {name} | {med[0]:.0f} ms | {med[1]:.0f} ms | {med[2]:.0f} ms | {med[0]/med[1]:.2f}x "
          f"| {cpu[0]:.0f} ms | {cpu[1]:.0f} ms | {cpu[0]/cpu[1]:.2f}x |")
PY
