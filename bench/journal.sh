#!/bin/sh
# Journal (issue 40.3): 'llmfs log --limit 50' on host directories whose journals hold 100,
# 10,000 and 100,000 changes (its CPU must not grow with the journal), and 'llmfs log' of
# all 10,000. Each is run 7 times in turn, CPU (user + sys) by /usr/bin/time; compare the
# medians. Preparing 100,000 changes takes minutes (N=100,10000 skips it). The per-write
# cost of the journal is a Go benchmark: see BENCHMARKS.md, "Journal".
set -e
B=${B:-/tmp/llmfs-journalbench}
N=${N:-100 10000 100000}
mkdir -p "$B"
go build -o "$B/llmfs" ./cmd/llmfs
go build -o "$B/prep" ./bench/journalprep
export LLMFS_CACHE_DIR="$B/cache"
for n in $N; do
	if [ ! -d "$B/r$n" ]; then
		mkdir -p "$B/r$n"
		"$B/prep" "$B/r$n" "$n"
	fi
done
for i in 1 2 3 4 5 6 7; do
	for n in $N; do
		/usr/bin/time -f "log --limit 50, $n changes: %U user %S sys" "$B/llmfs" log --root "$B/r$n" --limit 50 >/dev/null
	done
	/usr/bin/time -f "log of all 10000 changes: %U user %S sys" "$B/llmfs" log --root "$B/r10000" >/dev/null
done
