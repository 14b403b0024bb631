"""Draw a round of `gain` values to judge by hand, the way docs/gain-judging.md describes.

    python scripts/gain_judge.py OUT/fires.parquet SEED [N] > sampleSEED.csv

The fires with a gain, sorted by puzzle, ply and label, then N of them (25 by default) drawn by
`random.Random(SEED).sample`: the same seed on the same output draws the same fires, so a round
can be drawn again on a later build to see which of its values moved.

    python scripts/gain_judge.py --changed OLD/fires.parquet NEW/fires.parquet SEED [N]

draws N puzzles (30 by default) among those where a gain differs between two runs, one fire per
puzzle, with both values: the sample to judge a rule change on, old against new.
"""

import random
import sys

import polars as pl

KEY = ["puzzle_id", "ply", "label"]


def with_gain(path):
    return pl.read_parquet(path).filter(pl.col("gain").is_not_null()).sort(KEY)


def draw(rows, seed, n):
    picked = sorted(random.Random(seed).sample(range(len(rows)), min(n, len(rows))))
    return rows[picked]


def main(argv):
    if len(argv) >= 4 and argv[1] == "--changed":
        old = pl.read_parquet(argv[2]).select(KEY + ["gain", "collects"]).rename({"gain": "gain_old"})
        new = pl.read_parquet(argv[3]).select(KEY + ["gain"]).rename({"gain": "gain_new"})
        changed = (
            old.join(new, on=KEY)
            .filter(pl.col("gain_old").ne_missing(pl.col("gain_new")))
            .sort(KEY)
            .unique("puzzle_id", keep="first", maintain_order=True)
        )
        rows = draw(changed, int(argv[4]), int(argv[5]) if len(argv) > 5 else 30)
    elif len(argv) >= 3:
        rows = draw(with_gain(argv[1]), int(argv[2]), int(argv[3]) if len(argv) > 3 else 25)
        rows = rows.select(KEY + ["gain", "collects"])
    else:
        sys.exit(__doc__)
    sys.stdout.write(rows.write_csv())


if __name__ == "__main__":
    main(sys.argv)
