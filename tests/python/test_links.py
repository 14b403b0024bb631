"""Every link in the README and docs/ resolves: a relative link to a file
that exists, an anchor to a heading of the page it names; and every
`make TARGET` the pages, the notebook and the scripts tell a user to run is
a target of the Makefile."""
import glob
import json
import os
import re

import pytest

from conftest import ROOT

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
MAKE = re.compile(r"`make ([a-z][\w-]*)")


def pages():
    found = [os.path.join(ROOT, "README.md")]
    found += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return found


def anchors(path):
    """GitHub's anchors for a Markdown page's headings."""
    slugs = set()
    with open(path) as f:
        for line in f:
            heading = re.match(r"^#{1,6} +(.*?)\s*$", line)
            if heading:
                text = re.sub(r"[`*_]", "", heading.group(1)).strip().lower()
                slugs.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return slugs


def links(path):
    with open(path) as f:
        text = f.read()
    # Code is not prose: a `[x](y)` inside backticks or a fenced block is no link.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def test_the_pages_have_links():
    assert len(pages()) > 70
    assert len(links(os.path.join(ROOT, "README.md"))) >= 10


@pytest.mark.parametrize("page", pages(), ids=lambda p: os.path.relpath(p, ROOT))
def test_every_link_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # a web address: not checked offline
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(resolved):
            broken.append(f"{target}: no such file")
        elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {os.path.relpath(resolved, ROOT)}")
    assert not broken, broken


def makefile_targets():
    with open(os.path.join(ROOT, "Makefile")) as f:
        return set(re.findall(r"^([a-z][\w-]*):", f.read(), re.M))


def test_every_make_target_a_user_is_told_to_run_exists():
    told = {}
    sources = pages() + [os.path.join(ROOT, "notebooks", "tour.ipynb")] + glob.glob(os.path.join(ROOT, "scripts", "*"))
    for source in sources:
        with open(source) as f:
            text = f.read()
        if source.endswith(".ipynb"):
            text = "".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        for target in MAKE.findall(text):
            told.setdefault(target, os.path.relpath(source, ROOT))
    assert {"annotate", "test", "notebook", "lab", "python", "gallery"} <= set(told)
    missing = {t: where for t, where in told.items() if t not in makefile_targets()}
    assert not missing, missing
