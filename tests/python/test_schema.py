"""Koga's tables read back by polars, pyarrow and pandas match schemas/*.json:
the same columns in order, the documented types, no nulls where the schema
says not nullable."""
import json
import os

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import ROOT

T = pa.types
POLARS = {
    "int64": pl.Int64,
    "int32": pl.Int32,
    "bool": pl.Boolean,
    "string": pl.String,
    "list<string>": pl.List(pl.String),
    "list<int32>": pl.List(pl.Int32),
}


def is_text(t):
    return T.is_string(t) or T.is_large_string(t) or T.is_string_view(t)


ARROW = {
    "int64": T.is_int64,
    "int32": T.is_int32,
    "bool": T.is_boolean,
    "string": is_text,
    "list<string>": lambda t: (T.is_list(t) or T.is_large_list(t)) and is_text(t.value_type),
    "list<int32>": lambda t: (T.is_list(t) or T.is_large_list(t)) and T.is_int32(t.value_type),
}


def schema(table):
    with open(os.path.join(ROOT, "schemas", f"{table}.json")) as f:
        return json.load(f)["columns"]


@pytest.mark.parametrize("table", ["puzzles", "fires"])
def test_columns_types_and_nulls(sample, table):
    columns = schema(table)
    names = [c["name"] for c in columns]
    frame = pl.read_parquet(sample.glob(table))
    arrow = pq.read_table(sample.table(table))
    assert frame.columns == names
    assert arrow.schema.names == names
    for c in columns:
        name, kind = c["name"], c["type"]
        assert frame.schema[name] == POLARS[kind], f"{table}.{name}: polars reads {frame.schema[name]}, schema says {kind}"
        got = arrow.schema.field(name).type
        assert ARROW[kind](got), f"{table}.{name}: pyarrow reads {got}, schema says {kind}"
        if not c["nullable"]:
            assert frame[name].null_count() == 0, f"{table}.{name}: nulls in a non-nullable column"


@pytest.mark.parametrize("table", ["puzzles", "fires"])
def test_pandas_reads_every_column(sample, table):
    frame = pd.read_parquet(sample.table(table))
    assert list(frame.columns) == [c["name"] for c in schema(table)]
    assert len(frame) > 0


def test_every_row_and_every_fire_joins(sample):
    puzzles = pl.read_parquet(sample.glob("puzzles"))
    fires = pl.read_parquet(sample.glob("fires"))
    assert puzzles.height == 2001
    assert (puzzles["status"] == "ok").all()
    assert puzzles["row_number"].to_list() == list(range(1, 2002)), "input order, numbered from 1"
    joined = fires.join(puzzles.select("row_number", "rating"), on="row_number", how="left")
    assert joined["rating"].null_count() == 0, "every fire joins its puzzle"


def test_mate_in_agrees_with_lichess(sample):
    puzzles = pl.read_parquet(sample.glob("puzzles"))
    fires = pl.read_parquet(sample.glob("fires"))
    mate_in = fires.filter(pl.col("label").str.starts_with("mateIn")).height
    lichess = puzzles.filter(
        pl.col("lichess_themes").list.eval(pl.element().str.starts_with("mateIn")).list.any()
    ).height
    assert mate_in == lichess > 0


@pytest.mark.parametrize("table", ["puzzles", "fires"])
def test_every_file_records_its_provenance(sample, table):
    """Each file (each part of a part-file table) names the Koga version, the
    vocabulary version `koga labels` prints, the input file and the options."""
    import glob
    import subprocess

    from conftest import koga_binary

    version = subprocess.run([koga_binary(), "--version"], check=True, capture_output=True, text=True).stdout.split()[-1]
    labels = subprocess.run([koga_binary(), "labels"], check=True, capture_output=True, text=True).stdout
    vocabulary = labels.split("vocabulary version ")[1].split(";")[0]
    files = sorted(glob.glob(sample.glob(table)))
    assert files
    for path in files:
        meta = {k.decode(): v.decode() for k, v in pq.read_metadata(path).metadata.items()}
        assert meta["koga.version"] == version, path
        assert meta["koga.vocabulary"] == vocabulary, path
        assert meta["koga.input"] == "sample.csv.zst", path
        expected_parts = "600" if sample.parts else "none"
        assert meta["koga.options"] == f"form=puzzle min_rating=none max_rating=none limit=none batch_rows=256 part_rows={expected_parts}"
