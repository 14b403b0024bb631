"""`koga annotate` reads Parquet: a file or a directory of them, with the
CSV's columns or the Hugging Face layout (lists of words, `GameId`,
unsigned integers), to the same tables as the CSV; bad Parquet is refused in
one line."""
import os
import subprocess

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from conftest import SAMPLE, koga_binary


def annotate(source, out, *options):
    done = subprocess.run([koga_binary(), "annotate", str(source), "--out", str(out), "--no-progress", *options],
                          capture_output=True, text=True)
    return done


def tables(out):
    return {t: pl.read_parquet(os.path.join(out, f"{t}.parquet")) for t in ("puzzles", "fires")}


@pytest.fixture(scope="module")
def rows():
    return pl.read_csv(SAMPLE, infer_schema_length=0)


@pytest.fixture(scope="module")
def from_csv(tmp_path_factory):
    out = tmp_path_factory.mktemp("from-csv")
    assert annotate(SAMPLE, out, "--batch-rows", "300").returncode == 0
    return tables(out)


def hugging_face(rows):
    """The dev rows in the layout of the `Lichess/chess-puzzles` dataset."""
    return rows.with_columns(
        pl.col("Rating").cast(pl.UInt16), pl.col("RatingDeviation").cast(pl.UInt16),
        pl.col("Popularity").cast(pl.Int8), pl.col("NbPlays").cast(pl.UInt32),
        pl.col("Themes").str.split(" "), pl.col("OpeningTags").str.split(" "),
        pl.col("GameUrl").str.replace("https://lichess.org/", "").alias("GameId"),
    ).drop("GameUrl")


def test_a_parquet_file_gives_the_csvs_tables(rows, from_csv, tmp_path):
    source = tmp_path / "puzzles.parquet"
    rows.write_parquet(source, row_group_size=700)
    assert annotate(source, tmp_path / "out", "--batch-rows", "300").returncode == 0
    got = tables(tmp_path / "out")
    for name in ("puzzles", "fires"):
        assert_frame_equal(got[name], from_csv[name])


def test_a_directory_in_the_hugging_face_layout_gives_the_same_tables(rows, from_csv, tmp_path):
    source = tmp_path / "hf"
    source.mkdir()
    layout = hugging_face(rows)
    # A null list reads as an empty one (rows with no opening tags).
    layout = layout.with_columns(pl.when(pl.col("OpeningTags").list.first() == "").then(None)
                                 .otherwise(pl.col("OpeningTags")).alias("OpeningTags"))
    assert layout["OpeningTags"].null_count() > 0
    layout[:900].write_parquet(source / "train-00000.parquet", row_group_size=400)
    layout[900:].write_parquet(source / "train-00001.parquet", row_group_size=400)
    for threads in ("1", "2"):
        out = tmp_path / f"out{threads}"
        done = annotate(source, out, "--batch-rows", "300", "--threads", threads)
        assert done.returncode == 0, done.stderr
        got = tables(out)
        assert_frame_equal(got["fires"], from_csv["fires"])
        assert_frame_equal(got["puzzles"].drop("game_url"), from_csv["puzzles"].drop("game_url"))
        assert got["puzzles"]["game_url"].str.starts_with("https://lichess.org/").all()
    assert (tmp_path / "out1" / "fires.parquet").read_bytes() == (tmp_path / "out2" / "fires.parquet").read_bytes()


def test_bad_parquet_is_refused_in_one_line(rows, tmp_path):
    good = tmp_path / "good.parquet"
    rows.write_parquet(good)
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    text = tmp_path / "text.parquet"
    text.write_text("PuzzleId,FEN,Moves\n")
    wrong = tmp_path / "wrong.parquet"
    rows.with_columns(pl.col("Themes").str.split(" ").list.eval(pl.element().str.len_bytes())).write_parquet(wrong)
    missing = tmp_path / "missing.parquet"
    rows.drop("Moves").write_parquet(missing)
    for source, reason in [(truncated, "not a readable Parquet file"), (text, "not a readable Parquet file"),
                           (wrong, 'column "Themes" is list[u32], which Koga cannot read'),
                           (missing, "no Moves column")]:
        done = annotate(source, tmp_path / "out")
        assert done.returncode != 0, source
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and reason in lines[0], (source, done.stderr)
        assert not (tmp_path / "out" / "puzzles.parquet").exists()


def test_select_reads_the_hugging_face_layout(rows, tmp_path):
    source = tmp_path / "hf"
    source.mkdir()
    hugging_face(rows).write_parquet(source / "train-00000.parquet", row_group_size=500)

    def ids(input_path):
        done = subprocess.run([koga_binary(), "select", str(input_path), "--label", "fork", "--rating", "-1600",
                               "--format", "csv"], check=True, capture_output=True, text=True)
        return [line.split(",")[0] for line in done.stdout.splitlines()[1:]]
    assert ids(source) == ids(SAMPLE) and len(ids(SAMPLE)) > 10


def test_csv_and_parquet_of_the_same_rows_give_the_same_bytes(rows, tmp_path):
    # The footer records the input's file name: the same name, two formats
    # (both recognised by content).
    (tmp_path / "csv").mkdir()
    (tmp_path / "parquet").mkdir()
    (tmp_path / "csv" / "puzzles").write_bytes(open(SAMPLE, "rb").read())
    rows.write_parquet(tmp_path / "parquet" / "puzzles", row_group_size=300)
    for layout in ("csv", "parquet"):
        done = annotate(tmp_path / layout / "puzzles", tmp_path / f"out-{layout}", "--batch-rows", "300")
        assert done.returncode == 0, done.stderr
    for table in ("puzzles.parquet", "fires.parquet"):
        assert (tmp_path / "out-csv" / table).read_bytes() == (tmp_path / "out-parquet" / table).read_bytes()


@pytest.mark.parametrize("mode", [[], ["--exact"], ["--without-payoffs"]])
def test_compare_reads_a_hugging_face_directory_as_the_csv(rows, tmp_path, mode):
    """`koga compare` reads what `annotate` reads: a two-file directory of the
    Hugging Face layout gives the CSV's report, word for word."""
    source = tmp_path / "data"
    source.mkdir()
    layout = hugging_face(rows)
    half = layout.height // 2
    layout[:half].write_parquet(source / "train-00000-of-00002.parquet")
    layout[half:].write_parquet(source / "train-00001-of-00002.parquet")

    def compare(input):
        done = subprocess.run([koga_binary(), "compare", str(input), "--format", "json", *mode],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout
    report = compare(source)
    assert report == compare(SAMPLE)
    assert '"rows": 2001' in report
