"""The tour notebook (notebooks/tour.ipynb) runs headless on Koga's output, as
single files and as part-file directories, without an error, and draws what
it promises: its charts and at least six boards."""
import os
import re

import nbformat
from nbclient import NotebookClient

from conftest import ROOT, koga_binary

NOTEBOOK = os.path.join(ROOT, "notebooks", "tour.ipynb")


def test_the_tour_runs_and_draws_its_figures(sample, monkeypatch):
    monkeypatch.setenv("KOGA_OUT", sample.directory)
    monkeypatch.setenv("KOGA", koga_binary())
    monkeypatch.delenv("KOGA_SAVE_FIGURES", raising=False)
    figures = os.path.join(ROOT, "docs", "img")
    tracked = {name: os.stat(os.path.join(figures, name)).st_mtime_ns for name in os.listdir(figures)}
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": ROOT}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    errors = [o for o in outputs if o.output_type == "error"]
    # As `make notebook` runs it, the notebook leaves the tracked pictures alone.
    assert tracked == {name: os.stat(os.path.join(figures, name)).st_mtime_ns for name in os.listdir(figures)}
    assert not errors, [f"{e.ename}: {e.evalue}" for e in errors]
    warnings = [o.text for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    assert not warnings, warnings
    charts = [o for o in outputs if "image/png" in o.get("data", {})]
    # Fires per label, puzzle labels, the rating heat map, agreement with Lichess.
    assert len(charts) == 4, len(charts)
    boards = sum(o["data"]["text/html"].count("<svg") for o in outputs if "text/html" in o.get("data", {}))
    assert boards >= 6, boards
    printed = "".join(o.text for o in outputs if o.output_type == "stream")
    assert "polars: " in printed and "DuckDB: " in printed
    # `make notebook`'s page (its template, notebooks/offline) loads no
    # script from the network: it opens offline without a console error.
    from nbconvert import HTMLExporter
    exporter = HTMLExporter(template_name="offline", extra_template_basedirs=[os.path.join(ROOT, "notebooks")])
    page, _ = exporter.from_notebook_node(notebook)
    assert "<svg" in page and "image/png" in page
    remote = re.findall(r'<script[^>]+src="(https?:[^"]+)"', page)
    assert not remote, remote
