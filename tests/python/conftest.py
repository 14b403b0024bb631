"""Fixtures for the Python side of `make test`: Koga runs once per layout,
and the tests read what it wrote the way users do.

The binary is $KOGA (the Makefile passes target/debug/koga)."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "data", "sample.csv.zst")
BAD_ROWS = os.path.join(ROOT, "tests", "fixtures", "bad_rows.csv")


def koga_binary():
    return os.environ.get("KOGA", os.path.join(ROOT, "target", "debug", "koga"))


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
