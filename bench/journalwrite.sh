#!/bin/sh
# Journal (issue 40.3): what the journal adds to a small write, as BenchmarkJournalWrite
# (root package) measures it: the same overwrite with the journal off and on, each run in
# a process of its own with a fresh LLMFS_CACHE_DIR, alternated (off on off on ...), the
# ratio taken pair by pair of the benchmark's cpu-ns/op (the process's user + system CPU
# time over the writes alone: no process start, no journal open). Prints each pair, the
# median ratio and its spread (and the same of user-ns/op, the user CPU alone), and the
# load average.
#
#	RUNS=5 WRITES=5000 STORE=osdir sh bench/journalwrite.sh
set -e
RUNS=${RUNS:-5}
WRITES=${WRITES:-5000}
STORE=${STORE:-osdir}
B=${B:-/tmp/llmfs-journalwrite}
mkdir -p "$B"
go test -c -o "$B/jw.test" .
run() { # mode: prints cpu-ns/op and user-ns/op
	d=$(mktemp -d "$B/cache.XXXXXX")
	(cd "$B" && LLMFS_CACHE_DIR=$d "$B/jw.test" -test.run '^$' -test.bench "JournalWrite/$STORE/journal-$1\$" \
		-test.benchtime "${WRITES}x") | awk '/cpu-ns\/op/ { for (i = 1; i < NF; i++) {
			if ($(i+1) == "cpu-ns/op") c = $i; if ($(i+1) == "user-ns/op") u = $i }; print c, u }'
	rm -rf "$d"
}
run off >/dev/null # warm-up
uptime
i=0
ratios=""
while [ "$i" -lt "$RUNS" ]; do
	set -- $(run off)
	off=$1 uoff=$2
	set -- $(run on)
	on=$1 uon=$2
	r=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }')
	u=$(awk -v a="$uon" -v b="$uoff" 'BEGIN { printf "%.3f", a / b }')
	echo "pair $((i + 1)): on $on off $off cpu-ns/op, on/off $r (user $uon/$uoff, $u)"
	ratios="$ratios $r"
	uratios="$uratios $u"
	i=$((i + 1))
done
median() { # what: prints the median ratio of the words on stdin and their spread
	tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v what="$1" '{ r[NR] = $1 } END {
		m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
		printf "on/off %s: median %.2fx [%.2f-%.2f], %d pairs\n", what, m, r[1], r[NR], NR }'
}
echo "$ratios" | median cpu-ns/op
# The user part alone: the system part, mostly the fsync both sides make, swings with the
# machine's other file system work; on a loaded machine this is the steadier ratio.
echo "$uratios" | median user-ns/op
uptime
