#!/usr/bin/env bash
# bench/compare.sh runs llmfs side by side with its peers on equal output and prints the
# ratios of wall time, CPU time and peak RSS (median and spread over RUNS runs each, the
# two commands alternating; see bench/vs.py). Every case checks that both print the same
# lines (sorted), or fails.
#
# Usage: bench/compare.sh [grep|find|sql|import ...]   (default: all)
#   GO_TREE     default $(go env GOROOT)/src
#   LINUX_TREE  an unpacked Linux source tree (Debian: apt-get install linux-source-6.1,
#               then tar xf /usr/src/linux-source-6.1.tar.xz -C /tmp); skipped if unset
#   RUNS        runs per command (default 5)
#   LLMFS_BENCH_POSTGRES  a PostgreSQL DSN for the sql case (a workspace "bench-go" is made)
#
# Equal output: lines are compared on their first 1,000 bytes (llmfs shortens lines of
# thousands of bytes, ripgrep prints them whole). llmfs hides its default deny paths (**/.git/**, **/.env, ...), so rg gets
# the same exclusions as -g globs. The Linux tree's .gitignore ends in "/*", ignoring
# everything, so both tools run with --no-ignore there. find prints newest first: against
# `rg --files` the lines are compared sorted; `rg --files --sortr modified` prints the same
# order as llmfs (and stats every file, as llmfs must for that order).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export RUNS=${RUNS:-5}
go_tree=${GO_TREE:-$(go env GOROOT)/src}
linux_tree=${LINUX_TREE:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -o "$tmp/llmfs" ./cmd/llmfs)
ll=$tmp/llmfs
vs="python3 $here/vs.py"

deny=()
for g in .env '.env.*' '*.pem' '*.key' 'id_rsa*' 'id_dsa*' 'id_ecdsa*' 'id_ed25519*' .netrc; do
	deny+=(-g "'!$g'")
done

# name | llmfs flags | rg flags | pattern
grep_cases=(
	"literal|-n|-n|func main"
	"regex-with-literal|-n|-n|[a-z]+Error\\("
	"regex-no-literal|-n|-n|[A-Z][a-z]*[0-9]{3}"
	"case-insensitive|-n -i|-n -i|errorf"
	"files-only|-l|-l|TODO"
	"count|-c|-c|return nil"
	"context-C2|-n -C 2|-n -C 2|panic\\("
	"multiline|-U -n|-U -n|return nil\\n\\}\\n\\nfunc main"
)

trees() {
	echo "$go_tree|"
	[[ -n $linux_tree ]] && echo "$linux_tree|--no-ignore"
	return 0
}

case_grep() {
	while IFS='|' read -r tree noig; do
		for c in "${grep_cases[@]}"; do
			IFS='|' read -r name lf rf pat <<<"$c"
			# rg -U spends minutes a run on the Linux tree (78,000 files): multiline is
			# measured on the Go tree only.
			[[ $name == multiline && -n $noig ]] && continue
			$vs -C "$tree" --cut 1000 --label "grep $name $(basename "$tree")" -- \
				"$ll" grep $lf $noig "'$pat'" -- rg $rf $noig "${deny[@]}" "'$pat'" || true
		done
	done < <(trees)
}

case_find() {
	while IFS='|' read -r tree noig; do
		for glob in '*.c' '*_test.go'; do
			$vs -C "$tree" --label "find $glob $(basename "$tree") vs rg --files" -- \
				"$ll" find "'**/$glob'" $noig -- rg --files $noig "${deny[@]}" -g "'$glob'" || true
			$vs -C "$tree" --unsorted --label "find $glob $(basename "$tree") vs rg --files --sortr modified" -- \
				"$ll" find "'**/$glob'" $noig -- rg --files --sortr modified $noig "${deny[@]}" -g "'$glob'" || true
		done
	done < <(trees)
}

# The Go tree imported into SQLite (and PostgreSQL), grepped there and on the directory.
case_sql() {
	local db="sqlite:$tmp/go.db"
	"$ll" ws create --store "$db" go >/dev/null
	"$ll" ws import --store "$db" go "$go_tree" >/dev/null 2>&1
	local stores=("$db")
	if [[ -n ${LLMFS_BENCH_POSTGRES:-} ]]; then
		"$ll" ws rm --store "$LLMFS_BENCH_POSTGRES" bench-go >/dev/null 2>&1 || true
		"$ll" ws create --store "$LLMFS_BENCH_POSTGRES" bench-go >/dev/null
		"$ll" ws import --store "$LLMFS_BENCH_POSTGRES" bench-go "$go_tree" >/dev/null 2>&1
		stores+=("$LLMFS_BENCH_POSTGRES")
	fi
	for st in "${stores[@]}"; do
		local ws=go kind=sqlite
		[[ $st == sqlite:* ]] || { ws=bench-go; kind=postgres; }
		for c in "${grep_cases[@]}"; do
			IFS='|' read -r name lf rf pat <<<"$c"
			# AGENT.md aside: the osdir side has none.
			$vs -C "$go_tree" --cut 1000 --label "grep $name: $kind vs osdir" -- \
				"$ll" grep $lf --agent-md=false --store "'$st'" --workspace $ws "'$pat'" -- \
				"$ll" grep $lf "'$pat'" || true
		done
	done
}

case_import() {
	local i=0
	# A fresh database per run: the command creates it, then imports.
	cat >"$tmp/import.sh" <<SH
#!/bin/sh
d=\$(mktemp -d) && "$ll" ws create --store "sqlite:\$d/db" go >/dev/null &&
"$ll" ws import --store "sqlite:\$d/db" go "$go_tree" 2>/dev/null | sed 's/ into workspace go.*//;s/.*(//'; rm -rf "\$d"
SH
	cat >"$tmp/cp.sh" <<SH
#!/bin/sh
d=\$(mktemp -d) && cp -r "$go_tree" "\$d/src" && echo done; rm -rf "\$d"
SH
	chmod +x "$tmp/import.sh" "$tmp/cp.sh"
	echo "import: files/s = $(find "$go_tree" -type f | wc -l) files / the median wall time" >&2
	$vs --label "ws import (SQLite) vs cp -r, Go tree (outputs differ by design)" -- "$tmp/import.sh" -- "$tmp/cp.sh" || true
}

for c in "${@:-grep find sql import}"; do
	for w in $c; do "case_$w"; done
done
