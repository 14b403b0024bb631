"""The Python package (`make python`): `koga.annotate` on Arrow batches gives
the tables `koga annotate` writes, row for row, for the sample and for the
bad-row fixture; any Arrow-speaking library can hand batches over and read
the results."""
import csv as pycsv
import json
import os
import subprocess

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import koga
from conftest import BAD_ROWS, ROOT, SAMPLE, assert_same_table, koga_binary, read_puzzles

LINES = os.path.join(ROOT, "tests", "fixtures", "lines.csv")


@pytest.fixture(scope="module")
def sample_tables():
    return koga.annotate(read_puzzles(SAMPLE))


def test_annotate_equals_the_cli_parquet(sample, sample_tables):
    puzzles, fires = sample_tables
    assert puzzles.num_rows == 2001 and fires.num_rows > 4000
    assert_same_table(puzzles, pq.read_table(sample.table("puzzles")), "puzzles")
    assert_same_table(fires, pq.read_table(sample.table("fires")), "fires")


def test_lichess_themes_by_lichess_rules(sample_tables):
    """`themes` holds Lichess's themes by Lichess's rules: on the sample they
    equal the published Themes (over the themes the tagger emits) on all but
    a handful of tagged rows; each has its ply beside it, and `fires.lichess`
    marks Koga's fire of the same label on that ply."""
    puzzles, fires = (pl.from_arrow(t) for t in sample_tables)
    listed = json.loads(subprocess.run([koga_binary(), "labels", "--lichess", "--format", "json"],
                                       check=True, capture_output=True, text=True).stdout)
    emitted = {t["name"] for t in listed if t["source"] == "moves"}
    tagged = puzzles.filter(pl.col("lichess_themes").list.set_intersection(["oneMove", "short", "long", "veryLong"]).list.len() > 0)
    equal = sum(set(t) == set(p) & emitted for t, p in zip(tagged["themes"], tagged["lichess_themes"]))
    assert tagged.height > 1900 and equal >= tagged.height - 5
    assert (puzzles["themes"].list.len() == puzzles["theme_plies"].list.len()).all()
    pins = puzzles.select("row_number", "themes", "theme_plies").explode("themes", "theme_plies").filter(pl.col("themes") == "pin")
    marked = fires.filter(pl.col("lichess") & (pl.col("label") == "pin")).select("row_number", pl.col("ply").alias("theme_plies"))
    assert pins.height > 50 and marked.height > 0.7 * pins.height
    assert marked.join(pins, on=["row_number", "theme_plies"], how="anti").is_empty()


def test_schemas_are_the_parquet_files(sample_tables):
    puzzles, fires = sample_tables
    assert puzzles.schema.equals(koga.puzzles_schema())
    assert fires.schema.equals(koga.fires_schema())
    for table, name in [(puzzles, "puzzles"), (fires, "fires")]:
        with open(os.path.join(ROOT, "schemas", f"{name}.json")) as f:
            assert table.column_names == [c["name"] for c in json.load(f)["columns"]]


def bad_rows_table():
    """The bad-row fixture as a table: a short row's missing fields are nulls."""
    with open(BAD_ROWS, newline="") as f:
        header, *rows = list(pycsv.reader(f))
    columns = {name: [row[i] if i < len(row) else None for row in rows] for i, name in enumerate(header)}
    return pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()})


def test_bad_rows_give_the_cli_error_rows(bad_rows):
    puzzles, fires = koga.annotate(bad_rows_table())
    want = pq.read_table(bad_rows.table("puzzles"))
    assert_same_table(puzzles, want, "puzzles")
    assert_same_table(fires, pq.read_table(bad_rows.table("fires")), "fires")
    errors = dict(zip(want["puzzle_id"].to_pylist(), want["error"].to_pylist()))
    assert errors["short"] == "missing field Moves"
    assert errors["nomoves"] == "empty Moves"
    assert errors["badrating"].startswith("field Rating is not an integer")
    assert puzzles.filter(pa.compute.equal(puzzles["status"], "error")).num_rows >= 9


def test_line_form_equals_the_cli(tmp_path):
    subprocess.run(
        [koga_binary(), "annotate", LINES, "--lines", "--out", str(tmp_path), "--no-progress"],
        check=True,
        capture_output=True,
    )
    puzzles, fires = koga.annotate(read_puzzles(LINES), form="line")
    assert_same_table(puzzles, pq.read_table(tmp_path / "puzzles.parquet"), "puzzles")
    assert_same_table(fires, pq.read_table(tmp_path / "fires.parquet"), "fires")
    assert "mate" in fires["label"].to_pylist()


def test_every_arrow_source_gives_the_same_tables(sample_tables):
    table = read_puzzles(SAMPLE)
    puzzles, fires = sample_tables
    relation = duckdb.from_arrow(table)
    sources = {
        "record batch": table.combine_chunks().to_batches()[0],
        "record batch reader": pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=300)),
        "polars": pl.from_arrow(table),
        "duckdb": relation,
        "pandas": table.to_pandas(),
        "integer ratings": table.set_column(
            table.schema.get_field_index("Rating"), "Rating", table["Rating"].cast(pa.int64())
        ),
        "large strings": table.cast(pa.schema([(f.name, pa.large_string()) for f in table.schema])),
    }
    for name, source in sources.items():
        got_puzzles, got_fires = koga.annotate(source)
        assert_same_table(got_puzzles, puzzles, f"{name}: puzzles")
        assert_same_table(got_fires, fires, f"{name}: fires")


def test_single_table_functions(sample_tables):
    table = read_puzzles(SAMPLE)
    puzzles, fires = sample_tables
    assert koga.annotate_fires(table).equals(fires)
    assert koga.annotate_puzzles(table).equals(puzzles)


def test_polars_and_duckdb_read_the_results(sample_tables):
    puzzles, fires = sample_tables
    frame = pl.from_arrow(fires)
    assert frame.schema["label"] == pl.String and frame.height == fires.num_rows
    assert pl.from_arrow(puzzles).schema["key_labels"] == pl.List(pl.String)
    forks = duckdb.sql("select count(*) from fires where label = 'fork'").fetchall()[0][0]
    assert forks == fires["label"].to_pylist().count("fork") > 0
    joined = duckdb.sql(
        "select count(*) from fires join puzzles using (row_number) where puzzles.status = 'ok'"
    ).fetchall()[0][0]
    assert joined == fires.num_rows


def test_roles_that_hold_several_squares_are_lists():
    # Lichess 000Pw: ...Ne2+ forks the king on g1 and the queen on c3, and takes the queen.
    batch = pa.table({
        "PuzzleId": ["000Pw"],
        "FEN": ["6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37"],
        "Moves": ["e4d2 d4e2 g1f1 e2c3"],
    })
    fires = koga.annotate_fires(batch)
    assert fires.schema.field("targets").type == pa.large_list(pa.large_string())
    assert fires.schema.field("victim").type == pa.large_string()
    fork = [row for row in fires.to_pylist() if row["label"] == "fork"]
    assert len(fork) == 1
    assert (fork[0]["attacker"], fork[0]["targets"], fork[0]["victim"]) == ("e2", ["c3", "g1"], "c3")
    assert fork[0]["checkers"] == [] and fork[0]["pinner"] is None
    roles = {r["name"]: r["holds"] for info in koga.labels() for r in info["roles"]}
    assert (roles["targets"], roles["victim"]) == ("many", "one")


def hugging_face_layout(table):
    """The puzzles as the Hugging Face dataset `Lichess/chess-puzzles` lays
    them out: `Themes` and `OpeningTags` as lists, the game as `GameId`,
    unsigned and narrow integers, large strings."""
    import pyarrow.compute as pc

    def words(column):
        return pc.split_pattern(pc.utf8_trim_whitespace(table[column]), " ").cast(pa.list_(pa.large_string()))

    def number(column, dtype):
        return pc.cast(table[column], dtype)

    return pa.table({
        "PuzzleId": table["PuzzleId"].cast(pa.large_string()),
        "GameId": pc.replace_substring_regex(table["GameUrl"], r"^https://lichess\.org/([^/#]+).*$", r"\1"),
        "FEN": table["FEN"].cast(pa.large_string()),
        "Moves": table["Moves"].cast(pa.large_string()),
        "Rating": number("Rating", pa.uint16()),
        "RatingDeviation": number("RatingDeviation", pa.uint16()),
        "Popularity": number("Popularity", pa.int8()),
        "NbPlays": number("NbPlays", pa.uint32()),
        "Themes": words("Themes"),
        "OpeningTags": words("OpeningTags"),
        "Extra": pa.array([1] * table.num_rows),
    })


def test_the_hugging_face_layout_gives_the_same_tables(sample_tables):
    table = read_puzzles(SAMPLE)
    hf = hugging_face_layout(table)
    assert hf.schema.field("Themes").type == pa.list_(pa.large_string())
    puzzles, fires = koga.annotate(hf)
    want_puzzles, want_fires = sample_tables
    assert fires.equals(want_fires)
    # The game link is derived from the id: the CSV's URL adds the side and the ply.
    urls = puzzles["game_url"].to_pylist()
    assert all(u.startswith("https://lichess.org/") and "/" not in u[len("https://lichess.org/"):] for u in urls)
    assert all(w.startswith(u) for u, w in zip(urls, want_puzzles["game_url"].to_pylist()))
    rest = [c for c in want_puzzles.column_names if c != "game_url"]
    assert_same_table(puzzles.select(rest), want_puzzles.select(rest), "puzzles")


def test_first_row_numbers_the_rows():
    table = read_puzzles(SAMPLE).slice(0, 20)
    puzzles, fires = koga.annotate(table, first_row=1001)
    assert puzzles["row_number"].to_pylist() == list(range(1001, 1021))
    assert min(fires["row_number"].to_pylist()) >= 1001


def test_an_empty_batch_gives_empty_tables():
    empty = read_puzzles(SAMPLE).slice(0, 0)
    puzzles, fires = koga.annotate(empty)
    assert (puzzles.num_rows, fires.num_rows) == (0, 0)
    assert puzzles.schema.equals(koga.puzzles_schema()) and fires.schema.equals(koga.fires_schema())


def test_errors_name_what_is_wrong():
    table = read_puzzles(SAMPLE).slice(0, 5)
    with pytest.raises(ValueError, match='the batch has no column "Moves"'):
        koga.annotate(table.drop_columns(["Moves"]))
    with pytest.raises(ValueError, match='form must be "puzzle" or "line"'):
        koga.annotate(table, form="puzzles")
    with pytest.raises(ValueError, match="first_row must be 1 or more"):
        koga.annotate(table, first_row=0)
    with pytest.raises(TypeError, match="batch must be Arrow data"):
        koga.annotate([{"PuzzleId": "x"}])
    listed = table.set_column(1, "FEN", pa.array([[1]] * 5))
    with pytest.raises(ValueError, match='column "FEN" is .*List.*, which Koga cannot read: it takes text or integers'):
        koga.annotate(listed)
    # Only Themes and OpeningTags may come as lists of words (the Hugging Face layout).
    with pytest.raises(ValueError, match='column "FEN" is .*List.*, which Koga cannot read'):
        koga.annotate(table.set_column(1, "FEN", pa.array([["8/8/8/8/8/8/8/8"]] * 5)))
    with pytest.raises(ValueError, match='column "Rating" is .*Float64.*, which Koga cannot read'):
        koga.annotate(table.set_column(3, "Rating", pa.array([1500.0] * 5)))
    with pytest.raises(ValueError, match="unparsable FEN"):
        koga.explain("not a fen", "e2e4 e7e5")
    # The engine's options are checked before any engine starts.
    with pytest.raises(ValueError, match='engine_rule must be "fitted" or "lichess"'):
        koga.annotate(table, engine="/usr/games/stockfish", engine_rule="strict")
    with pytest.raises(ValueError, match="engine_verify_nodes must be 0 .* more than the 1000 nodes per search, not 500"):
        koga.annotate_puzzles(table, engine="/usr/games/stockfish", engine_nodes=1000, engine_verify_nodes=500)


def test_explain_labels_and_version_match_the_cli():
    fen, moves = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1"

    def cli(*args):
        return subprocess.run([koga_binary(), *args], check=True, capture_output=True, text=True).stdout

    assert koga.explain(fen, moves) == cli("explain", fen, *moves.split())
    assert "+ mateIn2" in koga.explain(fen, moves)
    assert koga.labels() == json.loads(cli("labels", "--format", "json"))
    assert cli("--version").split() == ["koga", koga.__version__]


def test_polars_is_not_in_the_package():
    tree = subprocess.run(
        ["cargo", "tree", "--locked", "-p", "koga-python", "-e", "normal", "--prefix", "none"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "pyo3-arrow" in tree and "shakmaty" in tree
    assert not [line for line in tree.splitlines() if line.startswith("polars")]


def test_the_type_stubs_describe_the_module():
    import ast
    import inspect

    with open(os.path.join(ROOT, "python", "koga.pyi")) as f:
        stub = ast.parse(f.read())
    functions = {node.name: node for node in stub.body if isinstance(node, ast.FunctionDef)}
    public = {name for name in dir(koga) if not name.startswith("_") and callable(getattr(koga, name))}
    assert set(functions) == public
    for name, node in functions.items():
        params = [(a.arg, ast.literal_eval(d) if d else None) for a, d in zip(
            node.args.args, [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults
        )]
        actual = [
            (p.name, None if p.default is inspect.Parameter.empty else p.default)
            for p in inspect.signature(getattr(koga, name)).parameters.values()
        ]
        assert params == actual, f"koga.{name}: the stub says {params}, the module {actual}"
        assert getattr(koga, name).__doc__, f"koga.{name} has no docstring"


def test_any_input_gives_one_row_per_input_row_and_no_crash():
    """Random text, nulls, invalid UTF-8 and mangled real lines: every row
    comes back, annotated or as an error row with its reason."""
    import random

    rng = random.Random(11)
    real = read_puzzles(SAMPLE).slice(0, 200).to_pylist()
    alphabet = "rnbqkpRNBQKP12345678/ wb-KQkq0aeh\x00\u00e9"

    def noise():
        return None if rng.random() < 0.1 else "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 70)))

    rows = []
    for row in real:
        kind = rng.randrange(4)
        if kind == 0:
            row = {name: noise() for name in row}
        elif kind == 1:
            moves = row["Moves"].split()
            rng.shuffle(moves)
            row = {**row, "Moves": " ".join(moves)}
        elif kind == 2:
            row = {**row, "FEN": row["FEN"][: rng.randrange(len(row["FEN"]) + 1)]}
        rows.append(row)
    table = pa.Table.from_pylist(rows)
    fen_bytes = [None if r["FEN"] is None else r["FEN"].encode() for r in rows]
    fen_bytes[5] = b"\xff\xfe not UTF-8"
    table = table.set_column(table.schema.get_field_index("FEN"), "FEN", pa.array(fen_bytes, pa.binary()))
    puzzles, fires = koga.annotate(table)
    assert puzzles.num_rows == len(rows)
    assert puzzles["row_number"].to_pylist() == list(range(1, len(rows) + 1))
    status, error = puzzles["status"].to_pylist(), puzzles["error"].to_pylist()
    assert all((s == "ok") == (e is None) for s, e in zip(status, error))
    assert error[5] == "field FEN is not valid UTF-8"
    assert 0 < status.count("ok") < len(rows)
    ok_rows = {n for n, s in zip(puzzles["row_number"].to_pylist(), status) if s == "ok"}
    assert set(fires["row_number"].to_pylist()) <= ok_rows


def test_the_gil_is_released_while_classifying():
    """Another Python thread keeps running during the call. With the GIL
    held it would get at most a switch interval's worth of steps; here it
    must get a quarter of what it gets while this thread sleeps."""
    import threading
    import time

    table = read_puzzles(os.path.join(ROOT, "tests", "data", "lichess_puzzles_dev.csv.zst"))
    steps, done = [0], threading.Event()

    def step():
        while not done.is_set():
            steps[0] += 1

    thread = threading.Thread(target=step)
    thread.start()
    try:
        first = steps[0]
        time.sleep(0.2)
        rate = (steps[0] - first) / 0.2
        start, before = time.perf_counter(), steps[0]
        koga.annotate_fires(table)
        seconds, during = time.perf_counter() - start, steps[0] - before
    finally:
        done.set()
        thread.join()
    assert during > rate * seconds / 4, f"{during} steps in {seconds:.2f} s, {rate:.0f} steps/s otherwise"
