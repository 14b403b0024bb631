"""The gallery (scripts/gallery.py): a page per label, counts that polars
agrees with, every card's board on disk and drawn at the judged move."""
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
    names = re.findall(r'"name": "(\w+)",\s*"kind"', labels)
    assert len(names) == 70
    fires = pl.read_parquet(sample.glob("fires")).filter(pl.col("collects").is_null())
    index = (out / "index.html").read_text()
    for name in names:
        page = (out / f"{name}.html").read_text()
        count = fires.filter(pl.col("label") == name).height
        assert f'<a href="{name}.html">{name}</a>' in index
        assert f"{count} fires" in page, name
        boards = re.findall(r'<img src="(boards/[^"]+)"', page)
        assert len(boards) == min(3, count), name
        for board in boards:
            svg = (out / board).read_text()
            assert svg.startswith("<svg") and "</svg>" in svg
