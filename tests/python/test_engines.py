"""The scale-out recipes of examples/ run on real engines over the sample,
and write the fires the CLI writes: Ray Data on a local Ray with 2 workers;
PySpark's mapInArrow on a local Spark with 2 cores, where a Java runtime is
present.

Each batch numbers its rows from 1 (an engine does not tell a batch where
it starts), so the comparison leaves `row_number` out and orders both
tables by puzzle, ply and label."""
import gzip
import os
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from conftest import ROOT, SAMPLE, assert_same_table

# Ray and PySpark are installed by `make test-cluster` (CI runs it), not by
# `make test`: they are most of a gigabyte.
if os.environ.get("KOGA_CLUSTER_TESTS"):
    import ray  # noqa: F401  (installed: a missing one is a failure here)
else:
    pytest.importorskip("ray", reason="Ray and PySpark come with `make test-cluster`")

EXAMPLES = os.path.join(ROOT, "examples")
ORDER = [("puzzle_id", "ascending"), ("ply", "ascending"), ("label", "ascending")]


def comparable(fires):
    return fires.drop_columns(["row_number"]).sort_by(ORDER)


def run_example(script, *args):
    result = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"{script} failed:\n{result.stdout[-3000:]}\n{result.stderr[-6000:]}"


def written_fires(directory):
    assert any(name.endswith(".parquet") for name in os.listdir(directory)), os.listdir(directory)
    return pq.read_table(directory)


def check_equals_cli(engine_fires, sample):
    """The engine's fires equal the CLI's, in the engine's own string type
    (Spark writes `string` where Koga gives `large_string`)."""
    cli = pq.read_table(sample.table("fires"))
    assert engine_fires.column_names == cli.column_names
    assert_same_table(comparable(engine_fires.cast(cli.schema)), comparable(cli), "fires")
    # Within each batch, rows are still numbered in input order.
    assert pc.min(engine_fires["row_number"]).as_py() == 1


def test_ray_data_recipe_writes_the_cli_fires(sample, tmp_path):
    if sample.parts:
        pytest.skip("one output layout is enough")
    out = tmp_path / "fires"
    run_example("ray_annotate.py", SAMPLE, str(out), "--cpus", "2", "--batch-size", "500")
    check_equals_cli(written_fires(out), sample)


def test_ray_data_recipe_reads_the_hugging_face_layout(sample, tmp_path):
    if sample.parts:
        pytest.skip("one output layout is enough")
    import polars as pl
    rows = pl.read_csv(SAMPLE, infer_schema_length=0)
    layout = rows.with_columns(
        pl.col("Rating").cast(pl.UInt16), pl.col("Popularity").cast(pl.Int8), pl.col("NbPlays").cast(pl.UInt32),
        pl.col("Themes").str.split(" "), pl.col("OpeningTags").str.split(" "),
        pl.col("GameUrl").str.replace("https://lichess.org/", "").alias("GameId"),
    ).drop("GameUrl")
    source = tmp_path / "hf"
    source.mkdir()
    layout.write_parquet(source / "train-00000.parquet", row_group_size=500)
    out = tmp_path / "fires"
    run_example("ray_annotate.py", str(source), str(out), "--cpus", "2", "--batch-size", "500")
    check_equals_cli(written_fires(out), sample)


def test_spark_map_in_arrow_recipe_writes_the_cli_fires(sample, tmp_path):
    if sample.parts:
        pytest.skip("one output layout is enough")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("PySpark needs a Java runtime (none on PATH, JAVA_HOME unset)")
    # Spark reads gzip, not zstd.
    source = tmp_path / "sample.csv.gz"
    source.write_bytes(gzip.compress(pa.input_stream(SAMPLE, compression="zstd").read()))
    out = tmp_path / "fires"
    run_example("spark_annotate.py", str(source), str(out), "--master", "local[2]")
    check_equals_cli(written_fires(out), sample)


def stockfish():
    path = os.environ.get("STOCKFISH") or shutil.which("stockfish") or "/usr/games/stockfish"
    return path if os.path.isfile(path) else None


ENGINE_COLUMNS = ["engine_cp", "engine_mate", "sound", "alt_moves", "alt_cp", "alt_mate", "move_cp", "move_mate",
                  "engine_error"]
# The engine's themes are in `themes`, beside those from the moves.
SCALE = {"crushing", "advantage", "equality"}


def test_ray_engine_recipe_gives_the_cli_engine_columns(sample, tmp_path):
    """Each Ray task runs its own engine process; the engine's columns, and
    `themes` with the engine's themes in it, are the CLI's for the same
    puzzles and budget."""
    if sample.parts:
        pytest.skip("one output layout is enough")
    engine = stockfish()
    if engine is None:
        pytest.skip("no Stockfish (apt-get install stockfish, or set STOCKFISH)")
    rows, nodes = 24, "5000"
    out = tmp_path / "judged"
    run_example("ray_engine.py", SAMPLE, str(out), "--engine", engine, "--engine-nodes", nodes, "--cpus", "2",
                "--batch-size", "6", "--limit", str(rows))
    ray_table = pq.read_table(out)
    cli_out = tmp_path / "cli"
    result = subprocess.run(
        [os.environ.get("KOGA", os.path.join(ROOT, "target", "release", "koga")), "annotate", SAMPLE, "--out",
         str(cli_out), "--limit", str(rows), "--engine", engine, "--engine-nodes", nodes, "--no-progress"],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    cli = pq.read_table(cli_out / "puzzles.parquet")
    assert ray_table.num_rows == rows
    columns = ["puzzle_id", "themes", "theme_plies"] + ENGINE_COLUMNS
    ours = ray_table.select(columns).sort_by("puzzle_id")
    theirs = cli.select(columns).sort_by("puzzle_id").cast(ours.schema)
    assert ours.equals(theirs)
    assert pc.sum(pc.is_null(ours["engine_error"]).cast("int32")).as_py() == rows
    # One of crushing, advantage and equality unless the line ends in mate,
    # with no ply; none of the engine's themes without the engine.
    for themes, plies, published in zip(cli["themes"].to_pylist(), cli["theme_plies"].to_pylist(),
                                        cli["lichess_themes"].to_pylist()):
        scale = [i for i, t in enumerate(themes) if t in SCALE]
        assert len(scale) == (0 if "mate" in published else 1), themes
        assert all(plies[i] is None for i in scale)
    plain = pq.read_table(sample.table("puzzles"))
    assert not any((SCALE | {"zugzwang"}) & set(t) for t in plain["themes"].to_pylist() if t)
