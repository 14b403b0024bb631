"""Koga's engine stage on Ray Data: every puzzle judged by a UCI engine
(Stockfish) in Ray's worker processes, the puzzles table written as Parquet.

    python examples/ray_engine.py data/sample.csv.zst out/ray-engine --engine /usr/games/stockfish --cpus 2
    python examples/ray_engine.py chess-puzzles/data out/ray-engine --engine /usr/games/stockfish

Each Ray task is one worker process with one classifier thread
(`RAYON_NUM_THREADS=1`) and so one engine process of its own, started on its
first batch and kept for the next ones (`koga.annotate_puzzles(...,
engine=PATH)` keeps it per process). A task per CPU keeps every core busy
with one search thread, as `koga annotate --engine --threads N` does. The
engine's answers depend on the position alone (one thread, fixed hash,
`ucinewgame` per puzzle, a node budget): the columns are the CLI's whatever
the cluster.

On a cluster: `ray.init(address="auto")`, a path every node can read (S3,
GCS, a shared disk) and Stockfish installed on every node at the same path.
"""
import argparse
import functools
import os

import pyarrow as pa
import pyarrow.csv as csv
import ray

import koga


def read_puzzles(source):
    """The puzzles of `source` as a Ray dataset: Parquet (a .parquet file or
    a directory of them) or CSV (plain or .zst)."""
    if source.endswith(".parquet") or os.path.isdir(source):
        return ray.data.read_parquet(source)
    convert = csv.ConvertOptions(column_types={name: pa.string() for name in koga.INPUT_COLUMNS})
    compression = {"compression": "zstd"} if source.endswith(".zst") else {}
    return ray.data.read_csv(source, convert_options=convert, arrow_open_stream_args=compression)


def judge(source, out, engine, nodes, verify_nodes=None, batch_size=64, limit=None):
    """Writes the puzzles of `source`, with the engine's columns, under `out`."""
    puzzles = read_puzzles(source)
    if limit:
        puzzles = puzzles.limit(limit)
    # A small batch: a few seconds of engine work per task, so the work
    # spreads evenly over the workers.
    judged = puzzles.map_batches(
        functools.partial(koga.annotate_puzzles, engine=engine, engine_nodes=nodes, engine_verify_nodes=verify_nodes),
        batch_format="pyarrow",
        batch_size=batch_size,
    )
    judged.write_parquet(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="puzzle CSV (plain or .zst), or Parquet: a file or directory (path or URI)")
    parser.add_argument("out", help="output directory for the puzzles' Parquet files")
    parser.add_argument("--engine", required=True, help="path of a UCI engine on every node, e.g. /usr/games/stockfish")
    parser.add_argument("--engine-nodes", type=int, default=100_000, help="nodes per search (default: 100000)")
    parser.add_argument(
        "--engine-verify-nodes",
        type=int,
        help="nodes of the second look at a move that fails the only-move test (default: 10 x --engine-nodes; 0: none)",
    )
    parser.add_argument("--cpus", type=int, help="CPUs of a local Ray (default: all)")
    parser.add_argument("--batch-size", type=int, default=64, help="puzzles per batch (default: 64)")
    parser.add_argument("--limit", type=int, help="only the first N puzzles")
    args = parser.parse_args()
    # One classifier thread per task: one engine process per task.
    ray.init(num_cpus=args.cpus, runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}})
    judge(args.source, args.out, args.engine, args.engine_nodes, args.engine_verify_nodes, args.batch_size, args.limit)


if __name__ == "__main__":
    main()
