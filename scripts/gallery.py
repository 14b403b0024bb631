"""A static gallery of Koga's labels: an index of labels with their counts,
and one page per label showing real puzzles at the judged move, the fire's
squares drawn as arrows and shaded squares, the line, the rating and a link
to the puzzle on Lichess.

    python scripts/gallery.py OUTPUT_DIR --koga target/release/koga --out out/gallery

OUTPUT_DIR is a `koga annotate` output directory (single files or part
directories). Boards are drawn by python-chess (`chess.svg`, GPL-3.0-or-later;
its pieces are Colin M.L. Burnett's, GPL-2.0-or-later), both compatible with
Koga's GPL-3.0-or-later (scripts/boards.py). The sample is the same for the same input and seed.
"""
import argparse
import hashlib
import html
import json
import os
import subprocess

import polars as pl

from boards import LEGEND, board_at, squares

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #222; }
h1 { margin-bottom: .2rem; } p.lead { color: #555; margin-top: 0; }
table { border-collapse: collapse; } td, th { padding: .25rem .8rem; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 1.2rem; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: .6rem; background: #fafafa; }
.card img { width: 100%; height: auto; display: block; }
.card p { margin: .35rem 0; font-size: .9rem; line-height: 1.35; }
.line b { background: #ffe08a; padding: 0 .15rem; border-radius: 3px; }
.roles { color: #555; } a { color: #1a5fb4; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; font-size: .85rem; color: #444; margin: 0 0 1rem; padding: 0; }
.legend li { list-style: none; display: flex; align-items: center; gap: .4rem; }
.legend i { display: inline-block; width: 1rem; height: 1rem; border-radius: 2px; border: 1px solid #0003; }
.legend i.arrow { height: .35rem; border: 0; }
"""


def table(directory, name):
    path = os.path.join(directory, f"{name}.parquet")
    return pl.read_parquet(os.path.join(path, "*.parquet") if os.path.isdir(path) else path)


def rank(seed, puzzle_id, ply):
    """A puzzle's place in the sample: a hash of the seed and the fire."""
    return hashlib.sha256(f"{seed}:{puzzle_id}:{ply}".encode()).hexdigest()


def card(fire, puzzle, roles, boards_dir, name):
    """One puzzle at the judged move: the board after it, the line with the
    move marked, the squares by role, the rating and the Lichess link."""
    svg, sans = board_at(puzzle["fen"], puzzle["moves"], fire["ply"], {r: fire.get(r) for r in roles})
    sans = [f"<b>{html.escape(s)}</b>" if i == fire["ply"] else html.escape(s) for i, s in enumerate(sans)]
    with open(os.path.join(boards_dir, name), "w") as f:
        f.write(svg)
    shown = [f"{role} {', '.join(squares(fire.get(role)))}" for role in roles if squares(fire.get(role))]
    gain = "" if fire["gain"] is None else f" · nets {fire['gain']}"
    rating = "" if puzzle["rating"] is None else f" · rating {puzzle['rating']}"
    pid = html.escape(puzzle["puzzle_id"])
    return (f'<div class="card"><img src="boards/{name}" alt="{pid}, ply {fire["ply"]}" loading="lazy">'
            f'<p><a href="https://lichess.org/training/{pid}">{pid}</a>{rating}{gain}</p>'
            f'<p class="line">{" ".join(sans)}</p><p class="roles">{html.escape("; ".join(shown))}</p></div>')


def legend():
    """What the arrows and shaded squares mean."""
    items = "".join(f'<li><i class="{"arrow" if kind == "arrow" else "square"}" style="background:{colour}"></i>'
                    f'<b>{kind}</b> {html.escape(meaning)}</li>' for kind, colour, meaning in LEGEND)
    return f'<ul class="legend">{items}</ul>'


def page(title, lead, body):
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>'
            f'<body><h1>{html.escape(title)}</h1><p class="lead">{lead}</p>{body}</body></html>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="a `koga annotate` output directory")
    parser.add_argument("--koga", default="target/release/koga", help="the koga binary (for the label vocabulary)")
    parser.add_argument("--out", default="out/gallery", help="where to write the site")
    parser.add_argument("--per-label", type=int, default=12, help="puzzles shown per label")
    parser.add_argument("--seed", default="1", help="the sample's seed")
    args = parser.parse_args()

    labels = json.loads(subprocess.run([args.koga, "labels", "--format", "json"], check=True,
                                       capture_output=True, text=True).stdout)
    puzzles = table(args.output, "puzzles").select("row_number", "puzzle_id", "fen", "moves", "rating",
                                                   "puzzle_labels")
    fires = table(args.output, "fires")
    # The fires a reader counts: every fire but the payoffs (spec §2).
    fires = fires.filter(pl.col("collects").is_null()).join(puzzles, on="row_number")
    os.makedirs(os.path.join(args.out, "boards"), exist_ok=True)

    rows = []
    for info in labels:
        name = info["name"]
        roles = [r["name"] for r in info["roles"]]
        if info["kind"] == "puzzle":
            # A label of the whole puzzle: its puzzles, drawn at the key move.
            of_label = puzzles.filter(pl.col("puzzle_labels").list.contains(name)).with_columns(
                ply=pl.lit(1), gain=pl.lit(None))
            key, unit = of_label.height, "puzzles"
        else:
            of_label = fires.filter(pl.col("label") == name)
            key, unit = of_label.filter(~pl.col("follow_up")).height, "fires"
        chosen = sorted(of_label.iter_rows(named=True), key=lambda f: rank(args.seed, f["puzzle_id"], f["ply"]))
        chosen = chosen[:args.per_label]
        cards = [card(f, f, roles, os.path.join(args.out, "boards"), f"{name}-{i:02}.svg")
                 for i, f in enumerate(chosen)]
        where = "a label of the whole puzzle, shown at the key move" if unit == "puzzles" else \
            f"{key} on the key move; shown at the judged move"
        lead = (f"{html.escape(info['description'])}. {of_label.height} {unit} ({where}; "
                f"{len(cards)} chosen at random). <a href=\"index.html\">All labels</a>.")
        body = (legend() + f'<div class="cards">{"".join(cards)}</div>') if cards else \
            "<p>No puzzle in this output has this label.</p>"
        with open(os.path.join(args.out, f"{name}.html"), "w") as f:
            f.write(page(name, lead, body))
        rows.append((info, of_label.height, key, unit))

    body = "<table><tr><th>label</th><th>kind</th><th>family</th><th>count</th><th>on the key move</th><th></th></tr>"
    for info, total, key, unit in rows:
        body += (f'<tr><td><a href="{info["name"]}.html">{info["name"]}</a></td><td>{info["kind"]}</td>'
                 f'<td>{info["family"]}</td><td class="n">{total} {unit}</td><td class="n">{key}</td>'
                 f'<td>{html.escape(info["description"])}</td></tr>')
    body += "</table>"
    lead = (f"{puzzles.height} puzzles, {fires.height} fires (payoffs left out). Each label's page shows "
            f"real puzzles at the move it fires on (a puzzle label's at the key move), its squares drawn; "
            f"move and line labels count fires, puzzle labels count puzzles.")
    with open(os.path.join(args.out, "index.html"), "w") as f:
        f.write(page("Koga's labels", lead, body))
    print(f"gallery: {len(rows)} labels -> {os.path.join(args.out, 'index.html')}")


if __name__ == "__main__":
    main()
