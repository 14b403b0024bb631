#!/usr/bin/env python3
"""Reads Koga's Parquet back the way its users do (Python polars and pyarrow)
and checks it against schemas/*.json.

    scripts/check_parquet.py path/to/koga

Installs polars, pyarrow and pandas into target/pyenv on first use (a virtual
environment of its own; nothing is installed system-wide).
"""
import json
import os
import subprocess
import sys
import tempfile
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = os.path.join(ROOT, "target", "pyenv")
PACKAGES = ["polars>=1.0", "pyarrow>=15", "pandas>=2"]


def ensure_env():
    python = os.path.join(ENV, "bin", "python")
    if not os.path.exists(python):
        venv.create(ENV, with_pip=True)
    probe = subprocess.run([python, "-c", "import polars, pyarrow, pandas"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES], check=True)
    return python


CHECK = r'''
import json, sys
import polars as pl
import pyarrow.parquet as pq

root, out = sys.argv[1], sys.argv[2]
POLARS = {"uint64": pl.UInt64, "uint32": pl.UInt32, "int32": pl.Int32, "bool": pl.Boolean,
          "string": pl.String, "list<string>": pl.List(pl.String)}
import pyarrow as pa
T = pa.types
def is_text(t):
    return T.is_string(t) or T.is_large_string(t) or getattr(T, "is_string_view", lambda _: False)(t)
ARROW = {"uint64": T.is_uint64, "uint32": T.is_uint32, "int32": T.is_int32, "bool": T.is_boolean,
         "string": is_text,
         "list<string>": lambda t: (T.is_list(t) or T.is_large_list(t)) and is_text(t.value_type)}
failures = 0
for table in ("puzzles", "fires"):
    schema = json.load(open(f"{root}/schemas/{table}.json"))
    path = f"{out}/{table}.parquet"
    df = pl.read_parquet(path)
    arrow = pq.read_table(path)
    cols = schema["columns"]
    if df.columns != [c["name"] for c in cols]:
        print(f"{table}: columns {df.columns} != schema {[c['name'] for c in cols]}"); failures += 1; continue
    for c in cols:
        name, kind = c["name"], c["type"]
        if df.schema[name] != POLARS[kind]:
            print(f"{table}.{name}: polars type {df.schema[name]} != {kind}"); failures += 1
        got = arrow.schema.field(name).type
        if not ARROW[kind](got):
            print(f"{table}.{name}: arrow type {got} is not {kind}"); failures += 1
        if not c["nullable"] and df[name].null_count() > 0:
            print(f"{table}.{name}: {df[name].null_count()} nulls in a non-nullable column"); failures += 1
    print(f"{table}: {df.height} rows, {len(cols)} columns match schemas/{table}.json (polars, pyarrow)")
import pandas as pd
for table in ("puzzles", "fires"):
    frame = pd.read_parquet(f"{out}/{table}.parquet")
    assert list(frame.columns) == [c["name"] for c in json.load(open(f"{root}/schemas/{table}.json"))["columns"]]
    print(f"{table}: pandas reads {len(frame)} rows")
puzzles = pl.read_parquet(f"{out}/puzzles.parquet")
fires = pl.read_parquet(f"{out}/fires.parquet")
assert puzzles.height == 2001, puzzles.height
assert (puzzles["status"] == "ok").all()
joined = fires.join(puzzles.select("row_number", "rating"), on="row_number", how="left")
assert joined["rating"].null_count() == 0, "every fire joins its puzzle"
mate_in = fires.filter(pl.col("label").str.starts_with("mateIn")).height
lichess_mate_in = puzzles.filter(pl.col("lichess_themes").list.eval(pl.element().str.starts_with("mateIn")).list.any()).height
assert mate_in == lichess_mate_in, (mate_in, lichess_mate_in)
print(f"join fires->puzzles ok; {mate_in} mateIn fires = {lichess_mate_in} Lichess mateIn puzzles")
sys.exit(1 if failures else 0)
'''


def main():
    koga = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "koga")
    python = ensure_env()
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([koga, "annotate", os.path.join(ROOT, "data", "sample.csv.zst"), "--out", out, "--no-progress"], check=True)
        result = subprocess.run([python, "-c", CHECK, ROOT, out])
    if result.returncode != 0:
        print("python check FAILED")
        sys.exit(1)
    print("python check: 2 passed, 0 failed")


if __name__ == "__main__":
    main()
