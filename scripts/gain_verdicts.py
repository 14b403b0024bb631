"""The judged `gain` values kept as data, and how many of them a build still gives.

    python scripts/gain_verdicts.py OUT/fires.parquet [ARCHIVE]
    python scripts/gain_verdicts.py --add ROUND COMMIT VERDICTS [ARCHIVE]

ARCHIVE is tests/data/gain_verdicts.csv unless named: one row per judged fire, with the round
(its seed, `c` before a change round's), the commit judged, the fire's key (puzzle_id, ply, label),
the value Koga gave then, the value the judge counts and the judge's one line why.

The first form sets each judged value beside the gain a build gives now (OUT is the output of
`koga annotate` on the dev set) and prints, per round and in all, how many agree, then for the
fresh rounds judged under both readings each reading's totals and its rounds at 24 of 25 or more
(issue 34's bar), then every row
where they differ, marked `mended` (now the judge's value where it was not), `moved off` (the
judge's value then, not now) or `still`. A rule that mends one shape and breaks another shows here
before anyone draws a round.

The second appends a round's `verdicts.csv` as docs/gain-judging.md asks a judge to write it
(puzzle_id, ply, label, gain, judged, ...; a change round's value_a/value_b with its judged value),
so that no judge's work is lost with the machine it was done on.
"""

import csv
import os
import signal
import sys

import polars as pl

KEY = ["puzzle_id", "ply", "label"]
ARCHIVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "gain_verdicts.csv")
COLUMNS = ["round", "commit", "puzzle_id", "ply", "label", "gain", "judged", "why"]


def read_archive(path):
    return pl.read_csv(path, schema_overrides={"round": pl.Utf8, "gain": pl.Int32, "judged": pl.Int32, "ply": pl.Int32})


def compare(archive, fires):
    """The archive's rows with `now`, the gain the build gives (null where the fire is gone), and
    `state`: agrees, mended, moved off or still."""
    now = fires.select(KEY + ["gain"]).rename({"gain": "now"}).with_columns(pl.col("ply").cast(pl.Int32))
    rows = archive.join(now, on=KEY, how="left")
    agrees = pl.col("now").eq_missing(pl.col("judged"))
    was_right = pl.col("gain").eq_missing(pl.col("judged"))
    state = (
        pl.when(agrees & was_right)
        .then(pl.lit("agrees"))
        .when(agrees)
        .then(pl.lit("mended"))
        .when(was_right)
        .then(pl.lit("moved off"))
        .otherwise(pl.lit("still"))
    )
    return rows.with_columns(state.alias("state"))


def report(rows, out):
    per_round = (
        rows.group_by("round", maintain_order=True)
        .agg(pl.len().alias("judged"), pl.col("gain").eq_missing(pl.col("judged")).sum().alias("right_then"),
             pl.col("now").eq_missing(pl.col("judged")).sum().alias("right_now"))
    )
    out.write("round  judged  right then  right now\n")
    for r in per_round.iter_rows(named=True):
        out.write(f"{r['round']:>5}  {r['judged']:>6}  {r['right_then']:>10}  {r['right_now']:>9}\n")
    total, then, now = rows.height, int(per_round["right_then"].sum()), int(per_round["right_now"].sum())
    out.write(f"  all  {total:>6}  {then:>10}  {now:>9}\n\n")
    both = by_reading(per_round)
    if both.height:
        out.write(f"fresh rounds judged under both readings: {both['rounds'][0]}\n")
        out.write("reading  judged  right then  right now  24+ then  24+ now\n")
        for r in both.iter_rows(named=True):
            out.write(
                f"{r['reading']:>7}  {r['judged']:>6}  {r['right_then']:>10}  {r['right_now']:>9}  "
                f"{r['rounds_24_then']:>8}  {r['rounds_24_now']:>7}\n"
            )
        out.write("\n")
    for r in rows.filter(pl.col("state") != "agrees").iter_rows(named=True):
        out.write(
            f"{r['state']:>9}  {r['round']} {r['puzzle_id']} ply {r['ply']} {r['label']}: "
            f"gave {r['gain']}, judged {r['judged']}, now {r['now']}  ({r['why']})\n"
        )


def by_reading(per_round):
    """The fresh rounds of 25 judged under both readings (a seed, and the seed with `cap`; change
    rounds and second judges, a letter after the seed, aside), summed per reading: verdicts,
    right then and now, and rounds at 24 or more then and now, the bar issue 34 sets."""
    fresh = per_round.filter(pl.col("round").str.contains(r"^\d+(cap)?$") & (pl.col("judged") == 25))
    seeds = set(fresh["round"].str.replace("cap$", "").to_list())
    both = {seed for seed in seeds if {seed, seed + "cap"} <= set(fresh["round"].to_list())}
    fresh = fresh.filter(pl.col("round").str.replace("cap$", "").is_in(sorted(both))).with_columns(
        pl.when(pl.col("round").str.ends_with("cap")).then(pl.lit("capture")).otherwise(pl.lit("best")).alias("reading")
    )
    return (
        fresh.group_by("reading")
        .agg(
            pl.len().alias("rounds"),
            pl.col("judged").sum(),
            pl.col("right_then").sum(),
            pl.col("right_now").sum(),
            (pl.col("right_then") >= 24).sum().alias("rounds_24_then"),
            (pl.col("right_now") >= 24).sum().alias("rounds_24_now"),
        )
        .sort("reading", descending=True)
    )


# A round judged under both readings of convention 3 (docs/gain-judging.md#two-readings-of-the-lines-end)
# carries judged_best and judged_capture: it goes in as two rounds, the capture reading's named with
# a `cap` suffix.
READINGS = [("judged", ""), ("judged_best", ""), ("judged_capture", "cap")]


def add(round_name, commit, verdicts, archive):
    with open(verdicts, newline="") as f:
        rows = list(csv.DictReader(f))
    readings = [(column, suffix) for column, suffix in READINGS if rows and column in rows[0]]
    exists = os.path.exists(archive)
    with open(archive, "a", newline="") as f:
        w = csv.writer(f)
        if not exists:
            w.writerow(COLUMNS)
        added = 0
        for column, suffix in readings:
            for r in rows:
                # A change round judges two builds' values; the one kept (value_b) is the gain judged.
                gain = r.get("gain") or r.get("value_b")
                judged = (r.get(column) or "").strip()
                if not judged.lstrip("-").isdigit():
                    print(f"skipped {r['puzzle_id']} ply {r['ply']}: {column} {judged!r} is no number", file=sys.stderr)
                    continue
                why = r.get("why", "")
                w.writerow([round_name + suffix, commit, r["puzzle_id"], r["ply"], r["label"], gain, judged, why])
                added += 1
    return added


def main(argv):
    if len(argv) >= 5 and argv[1] == "--add":
        n = add(argv[2], argv[3], argv[4], argv[5] if len(argv) > 5 else ARCHIVE)
        print(f"{n} verdicts added", file=sys.stderr)
    elif len(argv) >= 2 and not argv[1].startswith("-"):
        archive = read_archive(argv[2] if len(argv) > 2 else ARCHIVE)
        report(compare(archive, pl.read_parquet(argv[1])), sys.stdout)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the report quietly
    main(sys.argv)
