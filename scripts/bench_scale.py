#!/usr/bin/env python3
"""`make bench-scale`: how Koga scales with cores, and what would stop it.

Runs `koga annotate` on the same input with 1 thread, 2 and every core, and
for each run prints puzzles/s, the CPU seconds of each kind of thread
(the reader, the workers, the writer, the main thread) and the ceiling that
each serial stage puts on the run: the rate it would cap the run at if the
workers were infinitely many (rows / that thread's CPU seconds).

CPU time is read from /proc/PID/task/*/stat while the run goes (Linux), so
threads that end before the process are counted too.

    scripts/bench_scale.py KOGA INPUT [THREADS...]
"""
import os
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def thread_times(pid):
    """{tid: (name, cpu seconds)} of a running process."""
    times = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return times
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        times[tid] = (name, (int(fields[11]) + int(fields[12])) / TICK)
    return times


def kind(name):
    if name.startswith("koga-worker"):
        return "workers"
    if name in ("koga-reader", "koga-writer"):
        return name[5:]
    return "main"


def run(koga, source, threads):
    with tempfile.TemporaryDirectory() as out:
        start = time.monotonic()
        proc = subprocess.Popen([koga, "annotate", source, "--out", out, "--threads", str(threads), "--no-progress"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = {}
        while proc.poll() is None:
            seen.update(thread_times(proc.pid))
            time.sleep(0.02)
        wall = time.monotonic() - start
        summary = proc.stderr.read().strip().splitlines()[-1]
        if proc.returncode != 0:
            sys.exit(f"koga failed: {summary}")
    rows = int(summary.split()[1])
    cpu = {}
    for name, seconds in seen.values():
        cpu[kind(name)] = cpu.get(kind(name), 0.0) + seconds
    return rows, wall, cpu


def main():
    koga, source = sys.argv[1], sys.argv[2]
    counts = [int(t) for t in sys.argv[3:]] or sorted({1, 2, os.cpu_count()})
    print(f"{source}, {os.cpu_count()} cores; CPU seconds per thread kind, and the rate each serial stage caps the run at")
    print(f"{'threads':>7} {'puzzles/s':>10} {'wall s':>7} {'workers':>8} {'reader':>7} {'writer':>7} {'main':>6}"
          f" {'reader cap/s':>13} {'writer cap/s':>13} {'serial %':>8}")
    for threads in counts:
        rows, wall, cpu = run(koga, source, threads)
        total = sum(cpu.values())
        cap = lambda stage: f"{rows / cpu[stage]:>13,.0f}" if cpu.get(stage) else f"{'-':>13}"
        serial = 100 * (cpu.get("reader", 0) + cpu.get("writer", 0)) / total
        print(f"{threads:>7} {rows / wall:>10,.0f} {wall:>7.2f} {cpu.get('workers', 0):>8.2f} {cpu.get('reader', 0):>7.2f}"
              f" {cpu.get('writer', 0):>7.2f} {cpu.get('main', 0):>6.2f} {cap('reader')} {cap('writer')} {serial:>7.1f}%")


if __name__ == "__main__":
    main()
