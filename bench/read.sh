#!/usr/bin/env bash
# bench/read.sh: read 50 lines at line 5,000,000 of a 1 GiB text file with
#   llmfs read --offset 5000000 --limit 50
#   sed -n '5000000,5000049p'
#   tail -n +5000000 | head -50
# and print time, peak RSS and the ratios to sed. For reference it also runs sed with an
# early quit (sed -n 'A,Bp;Bq'), and the model-facing tool reads, which also count every
# line of the file for total_lines: agentool's file_read, and rtc's read, which hashes the
# whole file as well for read-before-edit. The file is generated once in $BENCH_DIR
# (default /tmp/llmfs-bench) and kept for reruns; it is never committed.
#
# Uses hyperfine for timing when it is installed (apt-get install hyperfine), and
# /usr/bin/time -v (apt-get install time) for peak RSS.
set -eu # not pipefail: tail exits on SIGPIPE once head has its lines

cd "$(dirname "$0")/.."
DIR=${BENCH_DIR:-/tmp/llmfs-bench}
FILE=$DIR/big.txt
SIZE=${BENCH_SIZE:-1073741824} # bytes
OFFSET=${BENCH_OFFSET:-5000000}
LIMIT=50
RUNS=${BENCH_RUNS:-10}
mkdir -p "$DIR"

if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" -lt "$SIZE" ]; then
	echo "generating $FILE ($SIZE bytes)..." >&2
	# Lines of varying length (about 100 bytes on average), so line 5,000,000 sits
	# about halfway into the file.
	awk -v size="$SIZE" 'BEGIN {
		pad = "the quick brown fox jumps over the lazy dog, pack my box with five dozen liquor jugs; sphinx of black quartz judge my vow"
		n = 0; total = 0
		while (total < size) {
			n++
			line = n " " substr(pad, 1, 40 + (n * 7919) % 120)
			print line
			total += length(line) + 1
		}
	}' > "$FILE"
fi

go build -o "$DIR/llmfs" ./cmd/llmfs
LLMFS="$DIR/llmfs read --root $DIR big.txt --offset $OFFSET --limit $LIMIT"
SED="sed -n '${OFFSET},$((OFFSET + LIMIT - 1))p' $FILE"
TAIL="tail -n +$OFFSET $FILE | head -$LIMIT"
SEDQ="sed -n '${OFFSET},$((OFFSET + LIMIT - 1))p;$((OFFSET + LIMIT - 1))q' $FILE"
ARGS="{\"path\":\"big.txt\",\"offset\":$OFFSET,\"limit\":$LIMIT}"
TOOL_A="$DIR/llmfs call --root $DIR file_read '$ARGS'"
TOOL_R="$DIR/llmfs call --root $DIR --dialect rtc read '$ARGS'"
NAMES=(llmfs sed_-n tail\|head sed_-n_q tool_agentool tool_rtc)
cmd_of() {
	case $1 in
	llmfs) echo "$LLMFS" ;; sed_-n) echo "$SED" ;; "tail|head") echo "$TAIL" ;;
	sed_-n_q) echo "$SEDQ" ;; tool_agentool) echo "$TOOL_A" ;; tool_rtc) echo "$TOOL_R" ;;
	esac
}

# The three must print the same lines.
a=$(eval "$LLMFS" | md5sum) b=$(eval "$SED" | md5sum) c=$(eval "$TAIL" | md5sum)
if [ "$a" != "$b" ] || [ "$a" != "$c" ]; then
	echo "outputs differ: llmfs $a, sed $b, tail|head $c" >&2
	exit 1
fi

echo "file: $(stat -c %s "$FILE") bytes, $(wc -l < "$FILE") lines; reading lines $OFFSET-$((OFFSET + LIMIT - 1))"
echo

# Peak RSS (KiB) of a command, the largest over the processes of a pipeline.
rss() {
	/usr/bin/time -f '%M' -o "$DIR/rss" bash -c "$1" > /dev/null
	cat "$DIR/rss"
}

declare -A mean cpu
if command -v hyperfine > /dev/null; then
	hf=()
	for name in "${NAMES[@]}"; do hf+=(-n "$name" "$(cmd_of "$name")"); done
	hyperfine --warmup 2 --runs "$RUNS" --export-json "$DIR/read.json" "${hf[@]}" > "$DIR/hyperfine.txt"
	cat "$DIR/hyperfine.txt"
	while read -r name m c; do mean[$name]=$m cpu[$name]=$c; done < <(
		python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["command"], r["mean"], "%.3f" % (r["user"] + r["system"]))' "$DIR/read.json")
else
	for name in "${NAMES[@]}"; do
		cmd=$(cmd_of "$name")
		eval "$cmd" > /dev/null # warm the page cache
		start=$(date +%s.%N)
		for _ in $(seq "$RUNS"); do eval "$cmd" > /dev/null; done
		mean[$name]=$(echo "($(date +%s.%N) - $start) / $RUNS" | bc -l)
	done
fi

echo
# CPU time (user + system, from hyperfine) varies less than wall time on a busy machine.
printf '%-14s %10s %10s %14s %14s\n' command "mean (s)" "CPU (s)" "peak RSS (KiB)" "time vs sed -n"
for name in "${NAMES[@]}"; do
	printf '%-14s %10.3f %10s %14s %13.2fx\n' "${name//_/ }" "${mean[$name]}" "${cpu[$name]:--}" \
		"$(rss "$(cmd_of "$name")")" "$(echo "${mean[$name]} / ${mean[sed_-n]}" | bc -l)"
done
