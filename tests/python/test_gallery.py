"""The gallery (scripts/gallery.py): a page per label, counts that polars
agrees with, every card's board on disk and drawn at the judged move."""
import json
import os
import re
import subprocess
import sys

import polars as pl

from conftest import ROOT, koga_binary


def test_the_gallery_has_a_page_per_label_with_true_counts(sample, tmp_path):
    out = tmp_path / "gallery"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gallery.py"), sample.directory,
                    "--koga", koga_binary(), "--out", str(out), "--per-label", "3"], check=True, capture_output=True)
    labels = subprocess.run([koga_binary(), "labels", "--format", "json"], check=True, capture_output=True,
                            text=True).stdout
    vocabulary = json.loads(labels)
    assert len(vocabulary) == 70
    fires = pl.read_parquet(sample.glob("fires")).filter(pl.col("collects").is_null())
    puzzles = pl.read_parquet(sample.glob("puzzles"))
    index = (out / "index.html").read_text()
    shown_puzzle_labels = 0
    for info in vocabulary:
        name = info["name"]
        page = (out / f"{name}.html").read_text()
        if info["kind"] == "puzzle":
            # A puzzle label counts puzzles, and draws them at the key move.
            count = puzzles.filter(pl.col("puzzle_labels").list.contains(name)).height
            assert f"{count} puzzles" in page, name
            shown_puzzle_labels += count > 0
        else:
            count = fires.filter(pl.col("label") == name).height
            assert f"{count} fires" in page, name
        assert f'<a href="{name}.html">{name}</a>' in index
        boards = re.findall(r'<img src="(boards/[^"]+)"', page)
        assert len(boards) == min(3, count), name
        # Boards come with the legend of what their colours mean.
        assert ('class="legend"' in page) == (count > 0), name
        for board in boards:
            svg = (out / board).read_text()
            assert svg.startswith("<svg") and "</svg>" in svg
    # The sample has puzzles of most puzzle labels (short, middlegame, kingsideAttack, …).
    assert shown_puzzle_labels >= 10, shown_puzzle_labels
