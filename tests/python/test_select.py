"""`koga select`: the puzzles it picks meet every filter, as many as DuckDB
counts on the annotated output; PGN that chess software reads back; the
same selection from the CSV and from the output directory; samples that a
seed reproduces."""
import csv
import io
import json
import os
import re
import subprocess

import chess
import chess.pgn
import duckdb
import pytest

from conftest import SAMPLE, koga_binary

FILTERS = ["--label", "fork", "--min-rating", "1200", "--max-rating", "2000", "--min-popularity", "50",
           "--theme", "short", "--without-theme", "mate"]


def select(source, *options):
    """Runs `koga select`; returns its standard output and summary line."""
    done = subprocess.run([koga_binary(), "select", source, *options], check=True, capture_output=True, text=True)
    return done.stdout, done.stderr.strip()


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_a_selection_meets_every_filter_and_duckdb_counts_as_many(sample):
    text, summary = select(SAMPLE, *FILTERS, "--format", "csv")
    rows = csv_rows(text)
    assert rows, "the filters match some of the sample"
    assert summary.startswith(f"koga: {len(rows)} puzzles matched, {len(rows)} selected")
    for row in rows:
        themes = row["Themes"].split()
        assert 1200 <= int(row["Rating"]) <= 2000 and int(row["Popularity"]) >= 50
        assert "short" in themes and "mate" not in themes
    (count,), = duckdb.sql(f"""
        SELECT count(*) FROM read_parquet('{sample.glob("puzzles")}') p
        WHERE p.rating BETWEEN 1200 AND 2000 AND p.popularity >= 50
          AND list_contains(p.lichess_themes, 'short') AND NOT list_contains(p.lichess_themes, 'mate')
          AND EXISTS (SELECT 1 FROM read_parquet('{sample.glob("fires")}') f
                      WHERE f.row_number = p.row_number AND f.label = 'fork'
                        AND NOT f.follow_up AND f.collects IS NULL)
    """).fetchall()
    assert len(rows) == count
    ids = duckdb.sql(f"""
        SELECT DISTINCT p.puzzle_id FROM read_parquet('{sample.glob("puzzles")}') p
        JOIN read_parquet('{sample.glob("fires")}') f USING (row_number)
        WHERE f.label = 'fork' AND NOT f.follow_up AND f.collects IS NULL
    """).fetchall()
    assert {r["PuzzleId"] for r in rows} <= {i for i, in ids}


def test_the_output_directory_gives_the_csvs_selection(sample):
    from_csv, _ = select(SAMPLE, *FILTERS, "--format", "csv", "--order", "rating")
    from_dir, _ = select(sample.directory, *FILTERS, "--format", "csv", "--order", "rating")
    assert from_csv == from_dir
    ratings = [int(r["Rating"]) for r in csv_rows(from_csv)]
    assert ratings == sorted(ratings)


def test_a_file_of_many_row_groups_is_read_a_group_at_a_time_to_the_same_selection(tmp_path):
    # Small batches: one puzzles.parquet of many row groups, which select and
    # compare read a group at a time (memory holds one group, not the file).
    out = tmp_path / "groups"
    subprocess.run([koga_binary(), "annotate", SAMPLE, "--out", str(out), "--batch-rows", "256", "--no-progress"],
                   check=True, capture_output=True)
    (groups,), = duckdb.sql(
        f"SELECT count(DISTINCT row_group_id) FROM parquet_metadata('{out / 'puzzles.parquet'}')").fetchall()
    assert groups > 5
    from_csv, _ = select(SAMPLE, *FILTERS, "--format", "csv", "--order", "rating")
    from_groups, _ = select(str(out), *FILTERS, "--format", "csv", "--order", "rating")
    assert from_groups == from_csv
    compare = lambda source, *options: subprocess.run(  # noqa: E731
        [koga_binary(), "compare", source, "--format", "json", *options], check=True, capture_output=True,
        text=True).stdout
    assert compare(str(out)) == compare(SAMPLE)
    assert compare(str(out), "--exact") == compare(SAMPLE, "--exact")
    assert compare(str(out), "--without-payoffs") == compare(SAMPLE, "--without-payoffs")


def test_a_sample_is_reproducible_and_drawn_from_the_matches():
    everything = {r["PuzzleId"] for r in csv_rows(select(SAMPLE, "--label", "fork", "--format", "csv")[0])}
    first = csv_rows(select(SAMPLE, "--label", "fork", "--sample", "10", "--seed", "7", "--format", "csv")[0])
    again = csv_rows(select(SAMPLE, "--label", "fork", "--sample", "10", "--seed", "7", "--format", "csv")[0])
    other = csv_rows(select(SAMPLE, "--label", "fork", "--sample", "10", "--seed", "8", "--format", "csv")[0])
    assert first == again and len(first) == 10
    assert {r["PuzzleId"] for r in first} <= everything
    assert {r["PuzzleId"] for r in first} != {r["PuzzleId"] for r in other}


def test_pgn_replays_the_line_and_draws_on_real_squares(tmp_path):
    out = tmp_path / "forks.pgn"
    _, summary = select(SAMPLE, "--label", "fork", "--limit", "5", "--out", str(out), "--split", "2")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["forks-001.pgn", "forks-002.pgn", "forks-003.pgn"], summary
    rows = {r["PuzzleId"]: r for r in csv_rows(select(SAMPLE, "--label", "fork", "--limit", "5", "--format", "csv")[0])}
    games = []
    for name in files:
        with open(tmp_path / name) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                assert not game.errors, game.errors
                games.append(game)
    assert len(games) == 5
    for game in games:
        row = rows[game.headers["PuzzleId"]]
        assert game.headers["FEN"] == row["FEN"] and game.headers["SetUp"] == "1"
        assert game.headers["Site"] == row["GameUrl"]
        assert [m.uci() for m in game.mainline_moves()] == row["Moves"].split()
        judged = list(game.mainline())[1]
        assert judged.comment.startswith("fork") or "fork" in judged.comment, judged.comment
        arrows = judged.arrows()
        assert arrows, judged.comment
        board = judged.board()
        # The fork's arrows start on the forking piece, which the key move moved.
        assert any(a.tail == judged.move.to_square for a in arrows if a.color == "red"), judged.comment
        assert all(board.piece_at(a.head) is not None for a in arrows), judged.comment


def test_json_lines_carry_the_fires_of_fires_parquet(sample):
    text, _ = select(SAMPLE, "--label", "pin", "--on", "any", "--limit", "20", "--format", "jsonl")
    puzzles = [json.loads(line) for line in text.splitlines()]
    assert len(puzzles) == 20
    for p in puzzles:
        want = duckdb.sql(f"""
            SELECT f.ply, f.label, f.gain FROM read_parquet('{sample.glob("fires")}') f
            JOIN read_parquet('{sample.glob("puzzles")}') p USING (row_number)
            WHERE p.puzzle_id = '{p["puzzle_id"]}' ORDER BY f.ply, f.label
        """).fetchall()
        got = sorted((f["ply"], f["label"], f["gain"]) for f in p["fires"])
        assert got == sorted(want)
        assert any(f["label"] == "pin" and f["collects"] is None for f in p["fires"])


def test_every_arrow_and_square_is_a_square_of_the_fires_roles():
    options = ["--label", "fork", "--on", "any", "--limit", "40"]
    games = io.StringIO(select(SAMPLE, *options)[0])
    puzzles = {p["puzzle_id"]: p for p in map(json.loads, select(SAMPLE, *options, "--format", "jsonl")[0].splitlines())}
    drawn = 0
    while (game := chess.pgn.read_game(games)) is not None:
        fires = puzzles[game.headers["PuzzleId"]]["fires"]
        for ply, node in enumerate(game.mainline()):
            roles = set()
            for f in fires:
                if f["ply"] == ply:
                    for value in f["roles"].values():
                        roles |= {value} if isinstance(value, str) else set(value)
            named = {chess.square_name(a.tail) for a in node.arrows()} | {chess.square_name(a.head) for a in node.arrows()}
            shaded = set(re.findall(r"[RGBY]([a-h][1-8])", "".join(re.findall(r"\[%csl ([^\]]*)\]", node.comment))))
            assert named | shaded <= roles, (game.headers["PuzzleId"], ply, node.comment, roles)
            assert (not roles) == (not node.comment), (game.headers["PuzzleId"], ply, node.comment)
            drawn += len(named | shaded)
    assert drawn > 0


def test_the_csv_export_annotates_to_the_same_fires(sample, tmp_path):
    exported = tmp_path / "set.csv"
    select(SAMPLE, "--label", "pin", "--on", "any", "--limit", "30", "--format", "csv", "--out", str(exported))
    out = tmp_path / "again"
    subprocess.run([koga_binary(), "annotate", str(exported), "--out", str(out), "--no-progress"], check=True,
                   capture_output=True)
    query = """SELECT p.puzzle_id, f.ply, f.label, f.gain, f.collects, f.targets, f.victim
               FROM read_parquet('{f}') f JOIN read_parquet('{p}') p USING (row_number)
               WHERE p.puzzle_id IN (SELECT puzzle_id FROM read_parquet('{again}'))
               ORDER BY ALL"""
    again = duckdb.sql(query.format(f=out / "fires.parquet", p=out / "puzzles.parquet",
                                    again=out / "puzzles.parquet")).fetchall()
    original = duckdb.sql(query.format(f=sample.glob("fires"), p=sample.glob("puzzles"),
                                       again=out / "puzzles.parquet")).fetchall()
    assert again and again == original


def test_bad_arguments_are_refused_with_a_reason(tmp_path):
    def refused(*options):
        done = subprocess.run([koga_binary(), "select", SAMPLE, *options], capture_output=True, text=True)
        assert done.returncode != 0, options
        return done.stderr
    # A name that does not exist: the nearest one, and where the list is.
    assert refused("--label", "forks") == 'koga: error: "forks" is not a label; did you mean "fork"? ' \
        '(`koga labels` lists them all)\n'
    assert refused("--label", "zzzzzz") == 'koga: error: "zzzzzz" is not a label (`koga labels` lists them all)\n'
    assert 'is not a Lichess theme; did you mean "mateIn2"?' in refused("--theme", "mateIn22")
    # The flags as typed.
    assert refused("--rating", "1700-1400") == "koga: error: --rating 1700-1400: the lower bound is above the " \
        "upper one (write MIN-MAX, e.g. 1400-1700)\n"
    assert refused("--min-rating", "1800", "--max-rating", "1200") == \
        "koga: error: --min-rating 1800 is above --max-rating 1200: no rating can match (swap them?)\n"
    # The path that cannot be written, named before any work.
    missing = tmp_path / "nodir" / "x.pgn"
    assert refused("--label", "fork", "--out", str(missing)) == \
        f"koga: error: cannot write {missing}: no directory {missing.parent}\n"
    assert "--out" in refused("--split", "3")
    empty = tmp_path / "none.pgn"
    done = subprocess.run([koga_binary(), "select", SAMPLE, "--label", "fork", "--rating", "4000-", "--out", str(empty)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "no puzzle matched" in done.stderr
    assert empty.read_text() == ""
    # An existing file is left alone unless --force.
    empty.write_text("mine")
    assert refused("--label", "fork", "--out", str(empty)) == \
        f"koga: error: {empty} already exists; nothing was written: pass --force to replace it\n"
    assert empty.read_text() == "mine"
    forced = subprocess.run([koga_binary(), "select", SAMPLE, "--label", "fork", "--limit", "2", "--out", str(empty),
                             "--force"], capture_output=True, text=True)
    assert forced.returncode == 0 and empty.read_text().count("[Event ") == 2
