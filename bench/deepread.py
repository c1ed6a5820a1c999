#!/usr/bin/env python3
"""bench/deepread.py: CPU of a deep read (50 lines at line 5,000,000 of the 1 GiB file that
bench/read.sh generates) through `llmfs read` and the tool reads (agentool file_read, rtc
read), for two llmfs binaries, interleaved, with a cold line index (a fresh
LLMFS_CACHE_DIR for each run) and a warm one (a cache primed by one read).

    python3 bench/deepread.py OLD_BINARY NEW_BINARY [RUNS]

It checks that every command prints the same as the old binary's, and prints, per row,
the median wall and CPU (user+sys, from getrusage) with [min-max], and the CPU against
`llmfs read` of the same binary and cache state. The old binary's rows are all "cold": it
has no index.
"""
import os, resource, statistics, subprocess, sys, tempfile, time

old, new = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
os.chdir(os.environ.get("BENCH_DIR", "/tmp/llmfs-bench"))
A = '{"path":"big.txt","offset":5000000,"limit":50}'
ARGS = {
    "read": ["read", "--root", ".", "big.txt", "--offset", "5000000", "--limit", "50"],
    "agentool": ["call", "--root", ".", "file_read", A],
    "rtc": ["call", "--root", ".", "--dialect", "rtc", "read", A],
}
warm = tempfile.mkdtemp()


def run(binary, args, cache):
    env = dict(os.environ, LLMFS_CACHE_DIR=cache)
    return subprocess.run([binary] + args, env=env, stdout=subprocess.PIPE, check=True).stdout


for name, args in ARGS.items():
    want = run(old, args, tempfile.mkdtemp())
    for cache in (tempfile.mkdtemp(), warm, warm):
        if run(new, args, cache) != want:
            sys.exit("output of %s differs" % name)

cases = [("old", old, n, "cold") for n in ARGS]
cases += [("new", new, n, m) for n in ARGS for m in ("cold", "warm")]
res = {c: [] for c in cases}
for _ in range(runs):
    for c in cases:
        _, binary, name, mode = c
        cache = warm if mode == "warm" else tempfile.mkdtemp()
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        run(binary, ARGS[name], cache)
        t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        res[c].append((t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))


def fmt(xs):
    return "%.1f ms [%.1f-%.1f]" % (statistics.median(xs) * 1e3, min(xs) * 1e3, max(xs) * 1e3)


cpu = {c: statistics.median(x[1] for x in v) for c, v in res.items()}
print("load average %.1f %.1f %.1f" % os.getloadavg())
for c, v in res.items():
    ref = cpu[(c[0], c[1], "read", c[3])]
    print("%-4s %-9s %-5s wall %-26s cpu %-26s cpu/read %.2fx"
          % (c[0], c[2], c[3], fmt([x[0] for x in v]), fmt([x[1] for x in v]), cpu[c] / ref))
