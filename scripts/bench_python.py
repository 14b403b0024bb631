"""Throughput of the Python package against the CLI on the same puzzles.

    python scripts/bench_python.py [ROWS] [THREADS]      (make bench-python)

The input is the dev set repeated to ROWS puzzles (as scripts/bench.sh makes
it). Each side runs three times; the best run counts.
  - CLI: `koga annotate` end to end (read the .zst, classify, write Parquet).
  - Python, in memory: `koga.annotate` on a pyarrow table already read.
  - Python, end to end: read the CSV with pyarrow, `koga.annotate`, write
    both tables as Parquet: the CLI's work, done from Python.
Both use release builds (`make bench-python` builds them)."""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rows = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 0
if threads:
    # Read by rayon when its pool starts, at the first call into koga.
    os.environ["RAYON_NUM_THREADS"] = str(threads)

import pyarrow as pa  # noqa: E402
import pyarrow.csv as csv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import koga  # noqa: E402

RUNS = 3
source = os.path.join(ROOT, "target", "bench", f"input-{rows}.csv.zst")
if not os.path.exists(source):
    os.makedirs(os.path.dirname(source), exist_ok=True)
    subprocess.run([os.path.join(ROOT, "target", "release", "examples", "repeat_input"), str(rows), source], check=True)


def best(run):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def read():
    options = csv.ConvertOptions(column_types={name: pa.string() for name in koga.INPUT_COLUMNS})
    return csv.read_csv(pa.input_stream(source, compression="zstd"), convert_options=options)


with tempfile.TemporaryDirectory() as out:
    cli = [os.path.join(ROOT, "target", "release", "koga"), "annotate", source, "--out", out, "--no-progress"]
    cli_s = best(lambda: subprocess.run([*cli, "--threads", str(threads)], check=True, capture_output=True))

    table = read()
    assert table.num_rows == rows, table.num_rows
    koga.annotate(table.slice(0, 100))  # the thread pool starts outside the clock
    read_s = best(read)
    annotate_s = best(lambda: koga.annotate(table))

    def end_to_end():
        puzzles, fires = koga.annotate(read())
        pq.write_table(puzzles, os.path.join(out, "p.parquet"), compression="zstd", compression_level=1)
        pq.write_table(fires, os.path.join(out, "f.parquet"), compression="zstd", compression_level=1)

    e2e_s = best(end_to_end)

rate = lambda seconds: rows / seconds  # noqa: E731
print(f"{rows} puzzles, threads={threads or 'all'} ({os.cpu_count()} CPUs), best of {RUNS}:")
print(f"  CLI koga annotate (end to end)     {rate(cli_s):>10,.0f} puzzles/s  {cli_s:6.2f} s")
print(f"  koga.annotate (table in memory)    {rate(annotate_s):>10,.0f} puzzles/s  {annotate_s:6.2f} s")
print(f"  pyarrow CSV read                   {rate(read_s):>10,.0f} puzzles/s  {read_s:6.2f} s")
print(f"  read + koga.annotate + write       {rate(e2e_s):>10,.0f} puzzles/s  {e2e_s:6.2f} s")
print(f"ratio koga.annotate / CLI: {cli_s / annotate_s:.2f}; Python end to end / CLI: {cli_s / e2e_s:.2f}")
