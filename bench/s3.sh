#!/usr/bin/env bash
# bench/s3.sh measures llmfs with its metadata in PostgreSQL and its content in S3-compatible
# object storage (--blobs, issue 38), against the same tree on a host directory:
#
#   1. import: `llmfs ws import` of the Go tree ($(go env GOROOT)/src) with --blobs: files/s
#      (wall) and the import's CPU (user+sys); then the same into PostgreSQL alone (no --blobs);
#      the two in turn, --runs times, into new workspaces, after one untimed read of the tree.
#   2. grep: `llmfs grep` over the PostgreSQL+S3 workspace (A) against `llmfs grep --root` of
#      the same tree on the host (B), run in turn A B A B ..., CPU (user+sys) of each whole
#      process and the ratio A/B taken pair by pair; the two outputs must be equal.
#   3. fork: `ws fork` of a workspace of 10 small files, of the Go tree and of the big
#      workspace of step 4 (a fork copies rows, never objects: its time follows the files,
#      not the bytes); the object count must not change.
#   4. serve: `llmfs serve` of a workspace of $SERVE_MB MiB (files of 1 MiB) while $CLIENTS
#      MCP clients grep it at once; the server's peak RSS (VmHWM).
#
# Usage: bench/s3.sh [--serve-mb N] [--runs N] [--clients N]
#   --serve-mb N  size of the served workspace in MiB (default 1024; 64 for a quick run)
#   --runs N      imports, grep pairs and forks timed (default 5; medians reported)
#   --clients N   MCP clients grepping at once (default 16)
#   TREE=DIR      the tree to import and grep (default: $(go env GOROOT)/src)
#   NAME=N        the database and bucket to use (default llmfs_s3bench); two runs at once
#                 need two names
#
# It starts (or reuses) PostgreSQL with .ci/postgres.sh and versitygw with .ci/s3.sh, in a
# database and a bucket of its own (llmfs_s3bench, or NAME; emptied at start). Needs go, python3,
# GNU time (/usr/bin/time). Goals (issue 38): grep within 3x the host directory's CPU, import
# at least 5,000 files/s, serve under 256 MiB. On a loaded machine the figures say little:
# the load average is printed with them.
set -euo pipefail

serve_mb=1024 runs=5 clients=16
while [ $# -gt 0 ]; do
	case $1 in
	--serve-mb) serve_mb=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--clients) clients=$2; shift 2 ;;
	*) echo "usage: bench/s3.sh [--serve-mb N] [--runs N] [--clients N]" >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
tree=${TREE:-$(go env GOROOT)/src}
tmp=$(mktemp -d)
serve_pid=
cleanup() {
	[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-llmfs} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-llmfs-test-secret}
name=${NAME:-llmfs_s3bench}
bucket=${name//_/-}
s3data=${LLMFS_S3DATA:-/tmp/llmfs-s3}
rm -rf "${s3data:?}/$bucket"
DSN=$(CI=1 LLMFS_PGDB=$name bash "$repo/.ci/postgres.sh")
B=$(LLMFS_S3BUCKET=$bucket bash "$repo/.ci/s3.sh")
objects() { find "$s3data/$bucket" -type f | wc -l; }

(cd "$repo" && go build -o "$tmp/llmfs" ./cmd/llmfs && go build -o "$tmp/mcpgrep" ./bench/mcpgrep)
ll=$tmp/llmfs
db=(--store "$DSN" --blobs "$B")

# timed OUT CMD...: runs CMD with its output in OUT, and prints "cpu_s wall_s" (user+sys).
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S %e' -o "$tmp/time" "$@" >"$out" 2>>"$tmp/stderr" || [ $? = 1 ]
	awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$tmp/time"
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "load: $(uptime)"

# 1. import, $runs times each way in turn (into new workspaces: go, go-2, ...), after one
# untimed read of the tree, so that no run pays for a cold page cache the others do not.
find "$tree" -type f -exec cat {} + >/dev/null
ib=() cb=() idb=() cdb=()
for i in $(seq "$runs"); do
	name=go
	[ "$i" = 1 ] || name=go-$i
	"$ll" ws create "${db[@]}" "$name" >/dev/null
	read -r cpu wall < <(timed "$tmp/import.out" "$ll" ws import "${db[@]}" "$name" "$tree")
	files=$(grep -c '^imported ' "$tmp/stderr" || true)
	: >"$tmp/stderr"
	ib+=("$(awk -v f="$files" -v w="$wall" 'BEGIN {print f / w}')") cb+=("$cpu")
	# The same import with the content in the database (no --blobs): what the object
	# store adds.
	"$ll" ws create --store "$DSN" "$name-db" >/dev/null
	read -r cpu wall < <(timed "$tmp/import.out" "$ll" ws import --store "$DSN" "$name-db" "$tree")
	: >"$tmp/stderr"
	idb+=("$(awk -v f="$files" -v w="$wall" 'BEGIN {print f / w}')") cdb+=("$cpu")
done
printf 'import: %d files, %.0f files/s [%s] (median of %d, wall), llmfs CPU %.2f s (goal >= 5000 files/s)\n' \
	"$files" "$(printf '%s\n' "${ib[@]}" | median)" "$(printf '%.0f ' "${ib[@]}")" "$runs" "$(printf '%s\n' "${cb[@]}" | median)"
printf 'import without --blobs: %.0f files/s [%s], llmfs CPU %.2f s\n' \
	"$(printf '%s\n' "${idb[@]}" | median)" "$(printf '%.0f ' "${idb[@]}")" "$(printf '%s\n' "${cdb[@]}" | median)"

# 2. grep, A (PostgreSQL+S3) and B (host directory) in turn
pattern='func [A-Z][a-z]+Error\('
ga=() gb=() gr=()
for i in $(seq "$runs"); do
	read -r ca _ < <(timed "$tmp/a.out" "$ll" grep "${db[@]}" --workspace go --agent-md=false -n "$pattern")
	read -r cb _ < <(timed "$tmp/b.out" "$ll" grep --root "$tree" -n "$pattern")
	ga+=("$ca") gb+=("$cb") gr+=("$(awk -v a="$ca" -v b="$cb" 'BEGIN {print a / b}')")
done
if ! cmp -s <(sort "$tmp/a.out") <(sort "$tmp/b.out"); then
	echo "grep: OUTPUTS DIFFER" >&2
	diff <(sort "$tmp/a.out") <(sort "$tmp/b.out") | head >&2
	exit 1
fi
echo "grep ($(wc -l <"$tmp/a.out") lines, equal): PostgreSQL+S3 CPU $(printf '%s\n' "${ga[@]}" | median) s," \
	"host directory $(printf '%s\n' "${gb[@]}" | median) s, ratio (median of pairs) $(printf '%s\n' "${gr[@]}" | median) (goal <= 3)"

# 3 and 4 need the big workspace: generate it, import it, then fork all three sizes.
mkdir -p "$tmp/big" "$tmp/small"
for i in $(seq "$serve_mb"); do
	head -c 786432 /dev/urandom | base64 -w 100 >"$tmp/big/f$i.txt" # 1 MiB and its newlines
done
for i in $(seq 10); do echo "small file $i" >"$tmp/small/f$i.txt"; done
"$ll" ws create "${db[@]}" big >/dev/null
"$ll" ws create "${db[@]}" small >/dev/null
read -r _ wall < <(timed "$tmp/import.out" "$ll" ws import "${db[@]}" big "$tmp/big")
echo "import of the big workspace ($serve_mb MiB): $wall s wall"
"$ll" ws import "${db[@]}" small "$tmp/small" >/dev/null 2>&1
rm -rf "$tmp/big"
: >"$tmp/stderr"

before=$(objects)
for ws in small go big; do
	ts=()
	for i in $(seq "$runs"); do
		read -r _ wall < <(timed "$tmp/fork.out" "$ll" ws fork "${db[@]}" "$ws" "$ws-fork$i")
		ts+=("$wall")
	done
	echo "fork of $ws: $(printf '%s\n' "${ts[@]}" | median) s wall (median of $runs)"
done
after=$(objects)
[ "$before" = "$after" ] || { echo "fork: objects went from $before to $after" >&2; exit 1; }
echo "fork: objects before and after: $before (none added)"

# 4. serve's memory while $clients clients grep the big workspace
port=${SERVE_PORT:-7788}
"$ll" serve "${db[@]}" --workspace big --agent-md=false --token bench-token --addr "127.0.0.1:$port" 2>"$tmp/serve.err" &
serve_pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
base=$(awk '/VmRSS/ {print $2}' "/proc/$serve_pid/status")
"$tmp/mcpgrep" -url "http://127.0.0.1:$port/mcp" -token bench-token -clients "$clients" -calls 1 -pattern 'llmfs-never-matches'
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$serve_pid/status")
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true
serve_pid=
awk -v h="$hwm" -v b="$base" -v c="$clients" -v m="$serve_mb" 'BEGIN {printf "serve: peak RSS %.0f MiB (%.0f MiB at start) while %d clients grep %d MiB (goal < 256 MiB)\n", h / 1024, b / 1024, c, m}'
echo "load: $(uptime)"
