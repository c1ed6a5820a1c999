#!/usr/bin/env bash
# bench/mount.sh: llmfs mount side by side with go-fuse's own loopback file system on the
# same tree (a local clone of this repository): go build ./cmd/llmfs and a local git clone
# inside the mount on a host directory and on a SQLite workspace, and reading a 1 GiB file,
# each against the
# loopback, paired by bench/vs.py (median of RUNS runs, A and B alternating after a warm-up
# run each; A/B is the ratio). The mounts share the usual GOCACHE, warmed for this tree by
# the warm-up runs, so the build measures the file system (stat, open, read of ~900 files,
# writing the binary), not the compiler.
#
# Usage: bench/mount.sh   (RUNS: default 5; CASES: default "build clone read", any of them;
# needs /dev/fuse, fusermount3 and python3)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
cases=${CASES:-build clone read}
vs="python3 $here/bench/vs.py -n $runs --any-output"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	sleep 1
	for d in "$tmp"/mnt-*; do fusermount3 -uz "$d" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
export LLMFS_CACHE_DIR=$tmp/cache # the usual GOCACHE: only this module compiles anew

(cd "$here" && go build -o "$tmp/llmfs" ./cmd/llmfs)
mkdir -p "$tmp/lb" && cp "$(go env GOMODCACHE)"/github.com/hanwen/go-fuse/v2@v2.12.1/example/loopback/main.go "$tmp/lb/"
(cd "$tmp/lb" && go mod init lb >/dev/null 2>&1 && go get github.com/hanwen/go-fuse/v2@v2.12.1 >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1 && go build -o "$tmp/loopback" .)
git clone -q "$here" "$tmp/src"
"$tmp/llmfs" ws create b --store "sqlite:$tmp/ws.db" >/dev/null
"$tmp/llmfs" ws import b "$tmp/src" --store "sqlite:$tmp/ws.db" >/dev/null 2>&1

mkdir -p "$tmp/mnt-lb" "$tmp/mnt-host" "$tmp/mnt-sql" "$tmp/mnt-ro"
"$tmp/loopback" "$tmp/mnt-lb" "$tmp/src" >/dev/null 2>&1 & pids+=($!)
(cd "$tmp/src" && exec "$tmp/llmfs" mount "$tmp/mnt-host" --no-default-deny) 2>/dev/null & pids+=($!)
(cd "$tmp/src" && exec "$tmp/llmfs" mount "$tmp/mnt-ro" --no-default-deny --mode read-only) 2>/dev/null & pids+=($!)
"$tmp/llmfs" mount "$tmp/mnt-sql" --store "sqlite:$tmp/ws.db" --workspace b --no-default-deny --agent-md=false 2>/dev/null & pids+=($!)
sleep 2

build() { echo "sh -c 'cd $1 && go build -o $tmp/out-$(basename "$1") ./cmd/llmfs'"; }
if [[ " $cases " == *" build "* ]]; then
	$vs --label "go build ./cmd/llmfs: host directory (A) vs loopback (B)" -- "$(build "$tmp/mnt-host")" -- "$(build "$tmp/mnt-lb")"
	$vs --label "go build ./cmd/llmfs: SQLite workspace (A) vs loopback (B)" -- "$(build "$tmp/mnt-sql")" -- "$(build "$tmp/mnt-lb")"
fi
# A local clone of the tree into each mount (objects copied: the source is on another file
# system), each into a new directory; the clones before are removed first, untimed, and
# the mount's applier is waited out (its CPU time still for 1 s, at most 120 s): applying
# the removal of a clone took seconds, which overlapped the next timed clone. The file
# systems' CPU time per clone (the removal before it included) is printed after each case.
settle() { # settle PID: wait until the process's CPU time stands still for a second
	echo "p=$1; a=-1; for i in \$(seq 120); do b=\$(awk '{print \$14 + \$15}' /proc/\$p/stat); [ \"\$a\" = \"\$b\" ] && break; a=\$b; sleep 1; done"
}
clone() { echo "git clone -q $tmp/src $1/clone-\$\$"; }
clones=$((1 + runs + (runs < 3 ? runs : 3))) # of each side: a warm-up, RUNS timed, up to 3 for the peak memory
if [[ " $cases " == *" clone "* ]]; then
	for m in host sql; do
		pid=${pids[$([ $m = host ] && echo 1 || echo 3)]}
		a0=$(awk '{print $14 + $15}' "/proc/$pid/stat") b0=$(awk '{print $14 + $15}' "/proc/${pids[0]}/stat")
		$vs --before "rm -rf $tmp/mnt-$m/clone-* $tmp/mnt-lb/clone-*; $(settle "$pid")" \
			--label "git clone: $([ $m = host ] && echo "host directory" || echo "SQLite workspace") (A) vs loopback (B)" \
			-- "$(clone "$tmp/mnt-$m")" -- "$(clone "$tmp/mnt-lb")"
		echo "   file system CPU ticks (10 ms) per clone and removal: llmfs $((($(awk '{print $14 + $15}' "/proc/$pid/stat") - a0) / clones)), loopback $((($(awk '{print $14 + $15}' "/proc/${pids[0]}/stat") - b0) / clones)); load: $(uptime | sed 's/.*load/load/')"
	done
fi
[[ " $cases " == *" read "* ]] || exit 0

head -c 1073741824 /dev/zero >"$tmp/src/big.bin"
sleep 2 # the host mount sees it after its attribute timeout
# vs.py times dd, the client; the file systems' own CPU time (user+sys, in clock ticks of
# 10 ms) is read from /proc around each case and divided by the reads vs.py makes of each
# side (a warm-up, RUNS timed, and up to 3 for the peak memory): the loopback hands its
# files to the kernel (FUSE passthrough), llmfs splices each read unless the mount is
# read-only, where it passes them through too.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
reads=$((1 + runs + (runs < 3 ? runs : 3)))
server_cpu() {
	echo "   file system CPU ticks per read: llmfs $((($(ticks "$1") - $2) / reads)), loopback $((($(ticks "${pids[0]}") - $3) / reads)); load: $(uptime | sed 's/.*load/load/')"
}
dd1() { echo "dd if=$1/big.bin of=/dev/null bs=1M status=none"; }
for m in host:1 ro:2; do
	name=${m%%:*} pid=${pids[${m##*:}]}
	a0=$(ticks "$pid") b0=$(ticks "${pids[0]}")
	$vs --label "read 1 GiB: host directory, llmfs mount $([ "$name" = ro ] && echo "--mode read-only ")(A) vs loopback (B)" \
		-- "$(dd1 "$tmp/mnt-$name")" -- "$(dd1 "$tmp/mnt-lb")"
	server_cpu "$pid" "$a0" "$b0"
done
# Cold: the file touched before each read (then the attribute timeout waited out; neither
# is timed), so that llmfs's kernel cache of it is dropped at open and every read goes
# through the mount.
a0=$(ticks "${pids[1]}") b0=$(ticks "${pids[0]}")
$vs --before "touch $tmp/src/big.bin; sleep 1.2" --label "read 1 GiB, cold (touched before each read): host directory (A) vs loopback (B)" \
	-- "$(dd1 "$tmp/mnt-host")" -- "$(dd1 "$tmp/mnt-lb")"
server_cpu "${pids[1]}" "$a0" "$b0"
echo "== peak memory of llmfs mount (host, SQLite): $(grep VmHWM /proc/${pids[1]}/status | awk '{print $2}') kB, $(grep VmHWM /proc/${pids[3]}/status | awk '{print $2}') kB"
