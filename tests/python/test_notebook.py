"""The tour notebook (notebooks/tour.ipynb) runs headless on Koga's output, as
single files and as part-file directories, without an error, and draws what
it promises: its charts and at least six boards."""
import os

import nbformat
from nbclient import NotebookClient

from conftest import ROOT, koga_binary

NOTEBOOK = os.path.join(ROOT, "notebooks", "tour.ipynb")


def test_the_tour_runs_and_draws_its_figures(sample, monkeypatch):
    monkeypatch.setenv("KOGA_OUT", sample.directory)
    monkeypatch.setenv("KOGA", koga_binary())
    monkeypatch.delenv("KOGA_SAVE_FIGURES", raising=False)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": ROOT}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    errors = [o for o in outputs if o.output_type == "error"]
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
