#!/usr/bin/env python3
"""Writes docs/tactics/<label>.md, in the seeds' form, from the sources of
truth: the vocabulary (`koga labels --format json`: kind, family, roles,
description), each detector's opening doc comment (its rules) and the
positions its tests use (plus the golden seed cases for the seed tactics),
each drawn as a board at the judged move (docs/tactics/boards/, with the
fire's squares as `koga explain` gives them; scripts/boards.py).

    scripts/gen_tactic_docs.py [--koga BIN]          # (re)write the docs
    scripts/gen_tactic_docs.py [--koga BIN] --check  # fail if a doc is out of date
"""
import json
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boards import board_at, explained_roles  # noqa: E402  (python-chess: the project's environment)

SRC = os.path.join(ROOT, "src", "tactics")
OUT = os.path.join(ROOT, "docs", "tactics")
CASE = re.compile(r'\(\s*"([^"]+)",\s*"([^"]+)",\s*"([^"]*)",\s*(\d+),?\s*\)')


def parse(path):
    text = open(path).read()
    header = [l[4:].rstrip() for l in text.splitlines() if l.startswith("//!")]
    if not header or not header[0].startswith("# "):
        return None
    labels = [l.strip().split(" ")[0] for l in header[0][2:].split(",")]
    rules, listed, lichess, judged, body = [], [], [], [], header[1:]
    target = rules
    for line in body:
        if line.startswith("Test positions"):
            target = listed
        elif line.startswith("Koga and Lichess"):
            target = lichess
        elif line.startswith("Judged by hand"):
            target = judged
        elif line.startswith("- "):
            target.append(line[2:])
        elif line.startswith("  ") and target:
            target[-1] += " " + line.strip()
    # Test positions: tuples in assert_fires / assert_silent calls.
    positions = []
    for block in re.finditer(r'assert_(fires|silent)\(\s*"(\w+)",\s*&\[(.*?)\]\s*,?\s*\)', text, re.S):
        kind, label, cases = block.group(1), block.group(2), block.group(3)
        comment = ""
        # A case is a tuple, on one line or wrapped over several (rustfmt).
        for m in re.finditer(r"//([^\n]*)|" + CASE.pattern, cases):
            if m.group(1) is not None:
                comment = (comment + " " + m.group(1).lstrip("/ ").strip()).strip()
                continue
            positions.append((label, kind == "fires", m.group(2), m.group(3), m.group(4), int(m.group(5)), comment))
            comment = ""
    return labels, rules, positions, listed, lichess, judged


def golden(label):
    cases = []
    with open(os.path.join(ROOT, "tests", "data", "seed_cases.jsonl")) as f:
        for line in f:
            c = json.loads(line)
            if label in c["expect"] or label in c["absent"]:
                cases.append((label in c["expect"], c))
    return cases


def vocabulary(koga):
    """The labels as `koga labels --format json` declares them."""
    text = subprocess.run([koga, "labels", "--format", "json"], check=True, capture_output=True, text=True).stdout
    return {entry["name"]: entry for entry in json.loads(text)}


def role_text(role):
    """A role as the docs name it: a set role says it holds several squares."""
    return f"`{role['name']}`" + (" (several)" if role["holds"] == "many" else "")


def render(info, rules, positions, listed, lichess, judged, koga, boards):
    """The doc's Markdown; `boards` collects its board files (name → SVG)."""
    label = info["name"]

    def board(fen, moves, ply, fires):
        roles = explained_roles(koga, fen, moves, ply, label) if fires else {}
        svg, _ = board_at(fen, moves, ply, roles, size=320, coordinates=True, white_below=True)
        name = f"{label}-{len(boards) + 1:02}.svg"
        boards[name] = svg
        verdict = "fires" if fires else "does not fire"
        return f"  ![{label} {verdict} on ply {ply}: the board after it, White below](boards/{name})"

    seed = info["family"] == "seed"
    out = [f"# {label}", "", f"{info['description']}.", ""]
    out.append(f"A {info['kind']} label of the {info['family']} family.")
    if seed:
        out.append("A seed tactic: its rules are those of its seed document, word for word, as the code states them.")
    if info["roles"]:
        out.append("Roles: " + ", ".join(role_text(r) for r in info["roles"]) + " (meanings: `schemas/fires.json`).")
    out += ["", "## How Koga decides", ""]
    out += [f"- {r}" for r in rules]
    out += ["", "## Test positions", "", "The examples that guard against regressions.", ""]
    n = 0
    for fires, c in (golden(label) if seed else []):
        n += 1
        verdict = "fires" if fires else "does not fire"
        out.append(f"- **{c['title']}** ({c['kind']}, golden `{c['id']}`): {label} {verdict} on ply {c['judged_ply']}.  ")
        out.append(f"  `{c['fen']}` — `{c['moves']}`  ")
        out.append(board(c["fen"], c["moves"], c["judged_ply"], fires))
    for lab, fires, name, fen, moves, ply, comment in positions:
        if lab != label:
            continue
        n += 1
        verdict = "fires" if fires else "does not fire"
        what = f"Lichess {name}" if re.fullmatch(r"[0-9A-Za-z]{5}", name) else name[0].upper() + name[1:]
        note = f" {comment}" if comment else ""
        out.append(f"- **{what}**: {label} {verdict} on ply {ply}.{note}  ")
        out.append(f"  `{fen}` — `{moves}`  ")
        out.append(board(fen, moves, ply, fires))
    out += [f"- {p}" for p in listed]
    if n == 0 and not listed:
        out.append("- See the unit tests of `src/tactics/` for this label.")
    if lichess:
        out += ["", "## Koga and Lichess", "", "`koga compare` on the 20,002-puzzle dev set.", ""]
        out += [f"- {p}" for p in lichess]
    if judged:
        out += ["", "## Judged by hand", "", "Random dev-set fires, read as a strong player would.", ""]
        out += [f"- {p}" for p in judged]
    out.append("")
    return "\n".join(out)


def main():
    check = "--check" in sys.argv
    koga = sys.argv[sys.argv.index("--koga") + 1] if "--koga" in sys.argv else os.path.join(ROOT, "target", "release", "koga")
    labels = vocabulary(koga)
    docs, boards = {}, {}
    # The detectors, in folders by family, read in order of file name.
    for path in sorted(glob.glob(os.path.join(SRC, "**", "*.rs"), recursive=True), key=os.path.basename):
        name = os.path.relpath(path, SRC)
        parsed = parse(path)
        if not parsed:
            continue
        names, rules, positions, listed, lichess, judged = parsed
        for label in names:
            if label not in labels:
                sys.exit(f"{name}: documents {label!r}, which `koga labels` does not declare")
            docs[label] = render(labels[label], rules, positions, listed, lichess, judged, koga, boards)
    missing = sorted(set(labels) - set(docs))
    if missing:
        sys.exit(f"no detector documents {missing} (a `//! # label` header in src/tactics/)")
    os.makedirs(OUT, exist_ok=True)
    stale = []
    for label, text in docs.items():
        path = os.path.join(OUT, f"{label}.md")
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(path)
            if not check:
                open(path, "w").write(text)
    board_dir = os.path.join(OUT, "boards")
    os.makedirs(board_dir, exist_ok=True)
    for name, svg in boards.items():
        path = os.path.join(board_dir, name)
        old = open(path).read() if os.path.exists(path) else None
        if old != svg:
            stale.append(path)
            if not check:
                open(path, "w").write(svg)
    for name in sorted(set(os.listdir(board_dir)) - set(boards)):
        stale.append(os.path.join(board_dir, name))
        if not check:
            os.remove(os.path.join(board_dir, name))
    if check and stale:
        print("out of date (run scripts/gen_tactic_docs.py):", *stale, sep="\n  ")
        sys.exit(1)
    print(f"docs/tactics: {len(docs)} labels, {len(boards)} boards{' checked' if check else ' written'}")


if __name__ == "__main__":
    main()
