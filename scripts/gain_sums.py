"""Does each line's story add up? A check of `gain` against "each win is counted once".

    target/pyenv/bin/python scripts/gain_sums.py CSV FIRES KOGA > sums.csv

CSV is the puzzle file Koga read (plain or .zst, as `koga explain --csv` reads it), FIRES the
`fires.parquet` Koga wrote from it, KOGA the build that wrote it. For every puzzle with two or more
fires that carry a gain and collect nothing (payoffs left out, as docs/gain.md says to total), it
sets the sum of those gains beside what the line nets: the material after the line, finished by
the capture search that `koga explain` reports, less the material before the key move. On each move
the fires that win count once (the most any of them nets: fires of one move that describe one win
carry the same gain), and a sacrifice's gain is added beside them.

A sum above the net counts some man twice (two fires claiming one capture, a sacrifice charged
again by the tactic that takes back on its square); a sum below it leaves a win to no fire (a
capture no detector names, two wins on one move). Neither is wrong by itself: a threat the line
never carries out keeps its stake, and two tactics can name the same man. Read the puzzles it
lists, not its count. Prints the counts to stderr and one row a puzzle to stdout:
puzzle_id, sum, net, diff (sum less net).
"""

import argparse
import csv
import importlib.util
import io
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import polars as pl


def gain_screen():
    """scripts/gain_screen.py, whose reading of `koga explain` this shares."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gain_screen.py")
    spec = importlib.util.spec_from_file_location("gain_screen", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


READ_EXPLAIN = gain_screen().read_explain


def rows_of(path):
    if path.endswith(".zst"):
        text = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout.decode()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    return {row[0]: row for row in csv.reader(io.StringIO(text)) if row}


def line_net(text):
    """What the line in `koga explain`'s text nets for the solver: the material after it (the
    solver's less the opponent's), finished by the capture search's figure, less the material before
    the key move; None for a line that mates."""
    read = READ_EXPLAIN(text)
    if read is None:
        return None
    material = [int(x) for x in re.search(r"after each ply: (.*)", text).group(1).split()]
    return material[-1] + read[3] - material[0]


def net_of(koga, row):
    out = subprocess.run([koga, "explain", row[1], row[2]], capture_output=True, text=True, check=True).stdout
    return line_net(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("fires")
    parser.add_argument("koga")
    args = parser.parse_args()
    fires = pl.read_parquet(args.fires).filter(pl.col("gain").is_not_null() & pl.col("collects").is_null())
    sacrifice = pl.col("label") == "sacrifice"
    per_puzzle = (
        fires.group_by("puzzle_id", "ply")
        .agg(
            pl.col("gain").filter(~sacrifice).max().fill_null(0).alias("wins"),
            pl.col("gain").filter(sacrifice).sum().alias("given"),
            pl.len().alias("fires"),
        )
        .group_by("puzzle_id")
        .agg((pl.col("wins") + pl.col("given")).sum().alias("sum"), pl.col("fires").sum().alias("fires"))
        .filter(pl.col("fires") >= 2)
        .sort("puzzle_id")
    )
    rows = rows_of(args.csv)
    ids = per_puzzle["puzzle_id"].to_list()
    with ThreadPoolExecutor(2) as pool:
        nets = list(pool.map(lambda pid: net_of(args.koga, rows[pid]), ids))
    table = per_puzzle.select("puzzle_id", "sum").with_columns(pl.Series("net", nets, dtype=pl.Int64))
    table = table.with_columns((pl.col("sum") - pl.col("net")).alias("diff"))
    over, under = (table["diff"] > 0).sum(), (table["diff"] < 0).sum()
    print(f"{table.height} puzzles with two fires or more: {table.height - over - under} add up, "
          f"{over} sum above the net, {under} below", file=sys.stderr)
    table.write_csv(sys.stdout)


if __name__ == "__main__":
    main()
