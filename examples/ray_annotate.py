"""Koga on Ray Data: read puzzles (CSV, or Parquet), label every batch, write Parquet.

    python examples/ray_annotate.py data/sample.csv.zst out/ray-fires --cpus 2
    python examples/ray_annotate.py chess-puzzles/data out/ray-fires    # the Hugging Face layout

A source ending in .parquet, or a directory, is read as Parquet: with the
CSV's columns, or in the layout of the Hugging Face dataset
`Lichess/chess-puzzles` (lists of themes, `GameId`, unsigned integers),
which `koga.annotate_fires` takes as it is.

Ray reads the CSV in blocks and hands each batch, as a pyarrow table, to
`koga.annotate_fires` in one of its worker processes; the fires are written
as Parquet files under the output directory, one or more per block. On a
cluster, `ray.init(address="auto")` and a path every node can read (S3,
GCS, a shared disk) are all that change.

`row_number` counts from 1 within each batch (Ray does not tell a batch
where it starts in the file): join fires to puzzles on `puzzle_id`.
"""
import argparse
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
    # Every column as the text the file holds: a PuzzleId such as 00008 is
    # not a number. (Koga reads integer ratings too.)
    convert = csv.ConvertOptions(column_types={name: pa.string() for name in koga.INPUT_COLUMNS})
    compression = {"compression": "zstd"} if source.endswith(".zst") else {}
    return ray.data.read_csv(source, convert_options=convert, arrow_open_stream_args=compression)


def annotate_fires(source, out, batch_size=1024):
    """Writes the fires of every puzzle in `source` as Parquet under `out`."""
    puzzles = read_puzzles(source)
    fires = puzzles.map_batches(koga.annotate_fires, batch_format="pyarrow", batch_size=batch_size)
    fires.write_parquet(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="puzzle CSV (plain or .zst), or Parquet: a file or directory (path or URI)")
    parser.add_argument("out", help="output directory for the fires' Parquet files")
    parser.add_argument("--cpus", type=int, help="CPUs of a local Ray (default: all)")
    parser.add_argument("--batch-size", type=int, default=1024, help="puzzles per batch (default: 1024)")
    args = parser.parse_args()
    # One Ray task per CPU, so each task's classifier keeps to one thread.
    ray.init(num_cpus=args.cpus, runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}})
    annotate_fires(args.source, args.out, args.batch_size)


if __name__ == "__main__":
    main()
