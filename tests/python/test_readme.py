"""The README is executable documentation.

- Every shell command of its ```sh blocks runs as written, in order, in a
  directory laid out as the repository is after `make annotate` (the
  binary, data/, out/sample/), where the whole database is the sample:
  `make download` and the Hugging Face download are stood in for by the
  sample as CSV and as Hugging Face Parquet. Where a command's block is
  followed by its output (an indented block), that output is what it prints.
- Every Python snippet of the README and docs/ runs against `make
  annotate`'s output layout (out/sample/…), and what it shows is not empty.
"""
import ast
import glob
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, SAMPLE, koga_binary

PYTHON = re.compile(r"```python\n(.*?)```", re.S)
# A shell block, and the indented block after it: what the command prints.
SHELL = re.compile(r"```sh\n(.*?)```\n(?:\n((?:    [^\n]*\n|\n)+))?", re.S)

# The README's commands that this test does not run itself, and why.
RUN_ELSEWHERE = {
    "make test": "this test is part of it",
    "make notebook": "tests/python/test_notebook.py runs the same notebook headless",
    "make python": "`make test` builds and installs the package before this test runs",
}


def readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def commands():
    """(command, printed output or None), in README order."""
    found = []
    for block, output in SHELL.findall(readme()):
        lines = [line.split("  #")[0].strip() for line in block.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        for i, line in enumerate(lines):
            shown = output if output and i == len(lines) - 1 and len(lines) == 1 else None
            found.append((line, shown))
    return found


def hugging_face_layout(directory):
    """The sample as the Hugging Face dataset lays it out: two Parquet files,
    lists of themes, `GameId`, unsigned and narrow integers."""
    import polars as pl
    rows = pl.read_csv(SAMPLE, infer_schema_length=0)
    layout = rows.with_columns(
        pl.col("Rating").cast(pl.UInt16), pl.col("Popularity").cast(pl.Int8), pl.col("NbPlays").cast(pl.UInt32),
        pl.col("Themes").str.split(" "), pl.col("OpeningTags").str.split(" "),
        pl.col("GameUrl").str.replace("https://lichess.org/", "").alias("GameId"),
    ).drop("GameUrl")
    os.makedirs(directory)
    half = layout.height // 2
    layout[:half].write_parquet(os.path.join(directory, "train-00000-of-00002.parquet"))
    layout[half:].write_parquet(os.path.join(directory, "train-00001-of-00002.parquet"))


def stand_in(command, work):
    """What a command that needs the network does here, on the sample; None
    where the command runs as written."""
    if command == "make download":
        shutil.copy(SAMPLE, work / "lichess_db_puzzle.csv.zst")
        return "the sample as lichess_db_puzzle.csv.zst"
    if command.startswith("huggingface-cli download Lichess/chess-puzzles"):
        hugging_face_layout(str(work / "chess-puzzles" / "data"))
        return "the sample in the Hugging Face layout"
    return None


def test_readme_has_shell_examples():
    listed = [command for command, _ in commands()]
    assert "make annotate" in listed and "make test" in listed
    assert sum(c.startswith("target/release/koga ") for c in listed) >= 5


def test_every_readme_command_runs_as_written(sample, tmp_path):
    if sample.parts:
        pytest.skip("the README's examples read single files")
    work = tmp_path / "repo"
    work.mkdir()
    # The repository after `make annotate`: the binary, the sample, its output.
    os.makedirs(work / "target" / "release")
    os.symlink(os.path.abspath(koga_binary()), work / "target" / "release" / "koga")
    shutil.copytree(os.path.join(ROOT, "data"), work / "data")
    shutil.copytree(sample.directory, work / "out" / "sample")
    ran = []
    for command, output in commands():
        if command in RUN_ELSEWHERE or stand_in(command, work):
            continue
        if command.startswith("make "):
            # A make target runs in the repository itself: a dry run proves
            # the target and its recipe; `make annotate` runs for real.
            dry = [] if command == "make annotate" else ["-n"]
            result = subprocess.run(command.split()[:1] + dry + command.split()[1:], cwd=ROOT,
                                    capture_output=True, text=True, timeout=600)
        else:
            result = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True, timeout=600)
        printed = result.stdout + result.stderr
        assert result.returncode == 0, f"`{command}` failed:\n{printed[-3000:]}"
        if output:
            for line in output.splitlines():
                line = line[4:].rstrip()  # the Markdown block's indent
                if line and line != "...":
                    assert line in printed, f"`{command}` did not print\n{line}\nbut\n{printed[:3000]}"
        ran.append(command)
    assert len(ran) >= 7, ran
    # What the examples promise to leave.
    assert (work / "forks-001.pgn").exists()
    assert (work / "out" / "lichess" / "koga-manifest.json").exists()
    assert (work / "out" / "hf" / "fires.parquet").exists()


def python_snippets():
    found = []
    for page in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        with open(page) as f:
            found += [(os.path.relpath(page, ROOT), code) for code in PYTHON.findall(f.read())]
    return found


def test_readme_has_python_snippets():
    assert sum(page == "README.md" for page, _ in python_snippets()) >= 3
    assert len(python_snippets()) >= 6


@pytest.mark.parametrize("index", range(len(python_snippets())))
def test_python_snippet_runs_and_shows_rows(index, sample, tmp_path, monkeypatch):
    if sample.parts:
        pytest.skip("the snippets read single files")
    page, code = python_snippets()[index]
    if "import ray" in code or "pyspark" in code:
        pytest.skip("a cluster recipe: tests/python/test_engines.py runs the files it comes from")
    shutil.copytree(sample.directory, tmp_path / "out" / "sample")
    shutil.copytree(os.path.join(ROOT, "data"), tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    tree = ast.parse(code)
    scope = {}
    # Run every statement; each bare expression is what a notebook would
    # show, and must show rows.
    for node in tree.body:
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), page, "eval"), scope)
            rows = len(value.fetchall()) if hasattr(value, "fetchall") else len(value)
            assert rows > 0, f"{page} snippet: `{ast.unparse(node)}` shows no rows"
        else:
            exec(compile(ast.Module([node], []), page, "exec"), scope)
