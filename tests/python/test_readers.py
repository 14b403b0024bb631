"""Every mainstream reader answers filtered queries on Koga's Parquet as a
full read does: DuckDB, polars (lazy, predicate pushdown), pyarrow datasets
(`filters=`) and pandas, on single files and on part-file directories.

A reader that prunes row groups or pages from wrong statistics returns too
few rows; each filtered count is compared with the same filter applied to a
full, unfiltered read."""
import duckdb
import pandas as pd
import polars as pl
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

# (table, SQL predicate, polars expression, pyarrow expression)
QUERIES = {
    "ply = 1": ("fires", "ply = 1", pl.col("ply") == 1, pc.field("ply") == 1),
    "label = 'fork'": ("fires", "label = 'fork'", pl.col("label") == "fork", pc.field("label") == "fork"),
    "not follow_up": ("fires", "not follow_up", ~pl.col("follow_up"), ~pc.field("follow_up")),
    "fires row_number range": (
        "fires",
        "row_number between 700 and 900",
        pl.col("row_number").is_between(700, 900),
        (pc.field("row_number") >= 700) & (pc.field("row_number") <= 900),
    ),
    "puzzles row_number range": (
        "puzzles",
        "row_number between 1500 and 1520",
        pl.col("row_number").is_between(1500, 1520),
        (pc.field("row_number") >= 1500) & (pc.field("row_number") <= 1520),
    ),
    "pinner set": ("fires", "pinner is not null", pl.col("pinner").is_not_null(), pc.field("pinner").is_valid()),
    "rating range": (
        "puzzles",
        "rating >= 2000",
        pl.col("rating") >= 2000,
        pc.field("rating") >= 2000,
    ),
}


def full_read(path, predicate):
    """The truth: every row read, then the filter applied in memory."""
    table = pq.read_table(path)
    return pl.from_arrow(table).filter(predicate).height


def duckdb_count(glob, sql):
    return duckdb.sql(f"select count(*) from '{glob}' where {sql}").fetchall()[0][0]


def polars_count(glob, predicate):
    return pl.scan_parquet(glob).filter(predicate).select(pl.len()).collect().item()


def pyarrow_count(path, expression):
    return ds.dataset(path, format="parquet").to_table(filter=expression).num_rows


def pandas_count(path, expression):
    return len(pd.read_parquet(path, filters=expression))


def check_all_readers(output, table, sql, predicate, expression):
    truth = full_read(output.table(table), predicate)
    assert truth > 0, "the query must select something for the comparison to mean anything"
    got = {
        "duckdb": duckdb_count(output.glob(table), sql),
        "polars lazy": polars_count(output.glob(table), predicate),
        "pyarrow dataset": pyarrow_count(output.table(table), expression),
        "pandas": pandas_count(output.table(table), expression),
    }
    wrong = {reader: n for reader, n in got.items() if n != truth}
    assert not wrong, f"{table} where {sql}: full read {truth}, but {wrong}"


@pytest.mark.parametrize("query", list(QUERIES))
def test_filtered_counts_match_a_full_read(sample, query):
    check_all_readers(sample, *QUERIES[query])


def test_error_rows_filter(bad_rows):
    check_all_readers(bad_rows, "puzzles", "status = 'error'", pl.col("status") == "error", pc.field("status") == "error")
    check_all_readers(bad_rows, "puzzles", "status = 'ok'", pl.col("status") == "ok", pc.field("status") == "ok")


def test_join_of_fires_and_puzzles(sample):
    """The README's join: DuckDB and polars give the key-move fires of every puzzle."""
    fires = pl.from_arrow(pq.read_table(sample.table("fires")))
    puzzles = pl.from_arrow(pq.read_table(sample.table("puzzles")))
    truth = fires.filter(~pl.col("follow_up")).join(puzzles, on="row_number").height
    assert truth > 0
    sql = (
        f"select p.puzzle_id, f.san, f.label from '{sample.glob('fires')}' f "
        f"join '{sample.glob('puzzles')}' p using (row_number) where not f.follow_up"
    )
    assert len(duckdb.sql(sql).fetchall()) == truth
    lazy = (
        pl.scan_parquet(sample.glob("fires"))
        .filter(~pl.col("follow_up"))
        .join(pl.scan_parquet(sample.glob("puzzles")), on="row_number")
        .select(pl.len())
        .collect()
        .item()
    )
    assert lazy == truth


def test_no_reader_sees_unsigned_integers(sample):
    """Spark and other JVM engines have no unsigned types: every integer
    column is a signed Parquet type."""
    for table in ("puzzles", "fires"):
        path = sample.table(table)
        files = [f.path for f in ds.dataset(path, format="parquet").get_fragments()]
        schema = pq.read_schema(files[0])
        for field in schema:
            assert not str(field.type).startswith("uint"), f"{table}.{field.name} is {field.type}"
