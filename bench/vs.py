#!/usr/bin/env python3
"""bench/vs.py runs two commands side by side and prints the ratios of their costs.

Usage: bench/vs.py [-n RUNS] [-C DIR] [--label NAME] [--unsorted] [--cut N] [--any-output]
                   [--before CMD] -- CMD_A -- CMD_B

Each command is a shell string. The two run alternately (A B A B ...) after one warm-up
each, so a change of load on a shared machine falls on both. Every run's standard output
goes to a file (standard input is /dev/null: ripgrep searches a piped standard input
instead of the directory); the outputs must be equal (compared sorted, since ripgrep prints in thread
order, unless --unsorted; with --cut N only each line's first N bytes, since llmfs shortens
lines of thousands of bytes for the model and ripgrep does not), or the case fails;
--any-output skips the comparison, for two tools that do the same work but print it
differently (llmfs review and git status). --before runs a shell command, untimed,
before every run of either side (to drop a cache, say). Reported per command: the median and the
spread (min-max) of wall time, CPU time (user + system, which a loaded machine disturbs
less than wall time) and peak RSS; then A/B ratios of the medians. The load average is
printed with the results, to say how busy the machine was.

Exit status: 0 when the outputs are equal, 1 when not, 2 on a command error (a status
other than 0 or 1, since grep and ripgrep exit 1 when nothing matches).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd, out_path, before=""):
    if before:
        subprocess.run(["/bin/sh", "-c", before], cwd=cwd, check=True)
    with open(out_path, "wb") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.Popen(["/bin/sh", "-c", "exec env " + cmd], cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE)
        _, err = p.communicate()
        wall = time.perf_counter() - t0
        # wait4 gives this child's own rusage, ru_maxrss included.
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru.ru_utime - before.ru_utime) + (ru.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1):
        sys.stderr.write(f"vs.py: {cmd!r} exited {p.returncode}: {err.decode(errors='replace')[:500]}\n")
        sys.exit(2)
    return wall, cpu


def rss_of(cmd, cwd, before=""):
    if before:
        subprocess.run(["/bin/sh", "-c", before], cwd=cwd, check=True)
    # ru_maxrss of RUSAGE_CHILDREN is the largest of all children so far: measure apart.
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "/bin/sh", "-c", "exec env " + cmd], cwd=cwd,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(r.stderr.decode().strip().splitlines()[-1]) / 1024


def fmt(xs, unit, scale=1.0):
    m = statistics.median(xs) * scale
    return f"{m:.3f} {unit} [{min(xs) * scale:.3f}-{max(xs) * scale:.3f}]" if unit == "s" else \
        f"{m:.1f} {unit} [{min(xs) * scale:.1f}-{max(xs) * scale:.1f}]"


def main():
    argv = sys.argv[1:]
    if argv.count("--") != 2:
        sys.exit(__doc__)
    i = argv.index("--")
    j = argv.index("--", i + 1)
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=int(os.environ.get("RUNS", 5)))
    ap.add_argument("-C", default=".")
    ap.add_argument("--label", default="")
    ap.add_argument("--unsorted", action="store_true")
    ap.add_argument("--cut", type=int, default=0)
    ap.add_argument("--any-output", action="store_true")
    ap.add_argument("--before", default="")
    o = ap.parse_args(argv[:i])
    cmds = [" ".join(argv[i + 1:j]), " ".join(argv[j + 1:])]
    tmp = tempfile.mkdtemp()
    outs = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
    for k in range(2):  # warm-up, and the output compared
        run(cmds[k], o.C, outs[k], o.before)
    got = []
    for k in range(2):
        with open(outs[k], "rb") as f:
            lines = f.read().splitlines()
        if o.cut:
            lines = [line[:o.cut] for line in lines]
        got.append(lines if o.unsorted else sorted(lines))
    equal = got[0] == got[1] or o.any_output
    verdict = "not compared" if o.any_output else "EQUAL" if equal else "DIFFER"
    if not equal and o.unsorted and sorted(got[0]) == sorted(got[1]):
        # Same lines in another order: for find, files of equal modification time (a
        # tree unpacked at once), which llmfs orders by path and ripgrep by walk order.
        equal, verdict = True, "EQUAL as sets, order differs (ties)"
    walls, cpus = [[], []], [[], []]
    for _ in range(o.n):
        for k in range(2):
            w, c = run(cmds[k], o.C, outs[k], o.before)
            walls[k].append(w)
            cpus[k].append(c)
    rss = [[rss_of(cmds[k], o.C, o.before) for _ in range(min(o.n, 3))] for k in range(2)]
    load = os.getloadavg()
    print(f"== {o.label or cmds[0]}  (n={o.n}, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, "
          f"{len(got[0])} lines; outputs {verdict})")
    for k, name in enumerate("AB"):
        print(f"  {name}: {cmds[k]}")
        print(f"     wall {fmt(walls[k], 's')}  cpu {fmt(cpus[k], 's')}  rss {fmt(rss[k], 'MiB')}")
    med = statistics.median
    print(f"  A/B: wall {med(walls[0]) / med(walls[1]):.2f}x  cpu {med(cpus[0]) / med(cpus[1]):.2f}x  "
          f"rss {med(rss[0]) / med(rss[1]):.2f}x")
    if not equal:
        a, b = set(got[0]), set(got[1])
        for line in sorted(a - b)[:5]:
            print(f"  only A: {line.decode(errors='replace')[:200]}")
        for line in sorted(b - a)[:5]:
            print(f"  only B: {line.decode(errors='replace')[:200]}")
        sys.exit(1)


if __name__ == "__main__":
    main()
