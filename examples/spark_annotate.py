"""Koga on PySpark: read a puzzle CSV, label every partition with
`mapInArrow`, write Parquet.

    python examples/spark_annotate.py puzzles.csv out/spark-fires --master 'local[2]'

Spark hands each partition to a Python worker as Arrow record batches;
`koga.annotate_fires` turns each into the fires of its puzzles, and Spark
writes them. Spark reads plain (or gzip/bzip2) CSV; decompress a .zst first.
On a cluster, submit this with `spark-submit` and `koga` installed on the
executors.

`row_number` counts from 1 within each Arrow batch: join fires to puzzles on
`puzzle_id`.
"""
import argparse
import os
import sys

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql.pandas.types import from_arrow_schema

import koga


def spark_schema(schema):
    """Koga's schema as Spark's Arrow bridge takes it: Spark reads large
    strings (with `useLargeVarTypes`) but not large lists, so the role
    columns that hold several squares become plain lists of them."""
    return pa.schema(
        [f.with_type(pa.list_(f.type.value_type)) if pa.types.is_large_list(f.type) else f for f in schema]
    )


FIRES = spark_schema(koga.fires_schema())


def annotate_batches(batches):
    """mapInArrow's function: record batches in, record batches out."""
    for batch in batches:
        for fires in koga.annotate_fires(batch).to_batches():
            yield fires.cast(FIRES)


def annotate_fires(spark, source, out):
    """Writes the fires of every puzzle in the CSV `source` as Parquet under `out`."""
    # Without a schema Spark reads every column as text, as the file holds it.
    puzzles = spark.read.csv(source, header=True)
    fires = puzzles.mapInArrow(annotate_batches, from_arrow_schema(FIRES))
    fires.write.mode("overwrite").parquet(out)


def session(master):
    if master.startswith("local"):
        # Local workers run this interpreter, the one koga is installed in.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master(master)
        .appName("koga")
        # Koga's tables hold large strings; Spark reads them as they are.
        .config("spark.sql.execution.arrow.useLargeVarTypes", "true")
        .getOrCreate()
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="puzzle CSV (plain, gzip or bzip2)")
    parser.add_argument("out", help="output directory for the fires' Parquet files")
    parser.add_argument("--master", default="local[*]", help="Spark master (default: local[*])")
    args = parser.parse_args()
    spark = session(args.master)
    try:
        annotate_fires(spark, args.source, args.out)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
