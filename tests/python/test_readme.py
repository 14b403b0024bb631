"""Every Python snippet of the README runs, against `make annotate`'s
output layout (out/sample/…), and what it shows is not empty: a snippet in
the README can no longer rot."""
import ast
import os
import re
import shutil

import pytest

from conftest import ROOT

FENCE = re.compile(r"```python\n(.*?)```", re.S)


def snippets():
    with open(os.path.join(ROOT, "README.md")) as f:
        return FENCE.findall(f.read())


def test_readme_has_python_snippets():
    assert len(snippets()) >= 3


@pytest.mark.parametrize("index", range(len(snippets())))
def test_readme_snippet_runs_and_shows_rows(index, sample, tmp_path, monkeypatch):
    if sample.parts:
        pytest.skip("the README's snippets read single files")
    shutil.copytree(sample.directory, tmp_path / "out" / "sample")
    shutil.copytree(os.path.join(ROOT, "data"), tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    code = snippets()[index]
    tree = ast.parse(code)
    scope = {}
    # Run every statement; each bare expression is what a notebook would
    # show, and must show rows.
    for node in tree.body:
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), "README.md", "eval"), scope)
            rows = len(value.fetchall()) if hasattr(value, "fetchall") else len(value)
            assert rows > 0, f"README snippet {index}: `{ast.unparse(node)}` shows no rows"
        else:
            exec(compile(ast.Module([node], []), "README.md", "exec"), scope)
