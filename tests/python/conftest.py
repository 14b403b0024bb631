"""Fixtures for the Python side of `make test`: Koga runs once per layout,
and the tests read what it wrote the way users do.

The binary is $KOGA (the Makefile passes target/release/koga)."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "data", "sample.csv.zst")
BAD_ROWS = os.path.join(ROOT, "tests", "fixtures", "bad_rows.csv")


def koga_binary():
    return os.environ.get("KOGA", os.path.join(ROOT, "target", "release", "koga"))


def annotate(source, out, *options):
    """Runs `koga annotate`; small batches, so that every file holds many
    row groups and readers have something to skip."""
    subprocess.run(
        [koga_binary(), "annotate", source, "--out", str(out), "--no-progress", "--batch-rows", "256", *options],
        check=True,
        capture_output=True,
    )
    return out


class Output:
    """One `koga annotate` output directory, in one layout."""

    def __init__(self, directory, parts):
        self.directory = str(directory)
        self.parts = parts

    def table(self, name):
        """The path a reader opens: a file, or a directory of part files."""
        return os.path.join(self.directory, f"{name}.parquet")

    def glob(self, name):
        """A glob over the table's files (what DuckDB and polars take)."""
        path = self.table(name)
        return os.path.join(path, "*.parquet") if self.parts else path


@pytest.fixture(scope="session", params=["file", "parts"])
def sample(request, tmp_path_factory):
    """The embedded sample, as single files and as part-file directories."""
    parts = request.param == "parts"
    out = tmp_path_factory.mktemp(f"sample-{request.param}")
    annotate(SAMPLE, out, *(["--part-rows", "600"] if parts else []))
    return Output(out, parts)


@pytest.fixture(scope="session", params=["file", "parts"])
def bad_rows(request, tmp_path_factory):
    """The bad-row fixture: error rows among good ones."""
    parts = request.param == "parts"
    out = tmp_path_factory.mktemp(f"bad-{request.param}")
    subprocess.run(
        [koga_binary(), "annotate", BAD_ROWS, "--out", str(out), "--no-progress", "--batch-rows", "3",
         *(["--part-rows", "4"] if parts else [])],
        check=True,
        capture_output=True,
    )
    return Output(out, parts)


def read_puzzles(path):
    """A puzzle CSV (plain or .zst) as a pyarrow table, every column Koga
    reads as text, as it stands in the file (a PuzzleId such as 00008 is
    not a number)."""
    import koga
    import pyarrow as pa
    import pyarrow.csv as csv

    options = csv.ConvertOptions(column_types={name: pa.string() for name in koga.INPUT_COLUMNS})
    source = pa.input_stream(path, compression="zstd" if path.endswith(".zst") else None)
    return csv.read_csv(source, convert_options=options)


def assert_same_table(got, want, what):
    """Equal schemas and values; on a difference, the first column and row
    that differ."""
    assert got.schema.equals(want.schema), f"{what}: schema\n{got.schema}\n!=\n{want.schema}"
    assert got.num_rows == want.num_rows, f"{what}: {got.num_rows} rows, the CLI wrote {want.num_rows}"
    for name in want.column_names:
        a, b = got[name].to_pylist(), want[name].to_pylist()
        if a != b:
            row = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
            pytest.fail(f"{what}.{name} differs first at row {row}: {a[row]!r} != {b[row]!r}")
