"""Koga labels the tactics in chess puzzles, move by move, on Arrow batches.

Every function that takes a `batch` accepts Arrow data through the Arrow
PyCapsule interface: a pyarrow Table, RecordBatch or RecordBatchReader, a
polars DataFrame, a DuckDB relation, a pandas DataFrame, or anything else
with `__arrow_c_array__` or `__arrow_c_stream__`. The batch holds the columns
`PuzzleId`, `FEN`, `Moves` and optionally `Rating`, `RatingDeviation`,
`Popularity`, `NbPlays`, `Themes`, `GameUrl`, `OpeningTags` (text or
integers; other columns are ignored).

The classifier runs without the GIL, a batch's rows spread over rayon's
worker threads (`RAYON_NUM_THREADS` caps them).
"""
from typing import Literal, Protocol, TypedDict

import pyarrow

__version__: str
INPUT_COLUMNS: list[str]
"""The input columns Koga reads, by name; the first three are required."""

class _ArrowStream(Protocol):
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

class _ArrowArray(Protocol):
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

ArrowBatch = _ArrowStream | _ArrowArray
Form = Literal["puzzle", "line"]

def annotate(
    batch: ArrowBatch,
    form: Form = "puzzle",
    first_row: int = 1,
    engine: str | None = None,
    engine_nodes: int = 100_000,
    engine_verify_nodes: int | None = None,
    engine_rule: Literal["fitted", "lichess"] = "fitted",
    engine_timeout: float = 60.0,
) -> tuple[pyarrow.Table, pyarrow.Table]:
    """Annotates a batch of puzzles: returns `(puzzles, fires)`, with the
    columns and types of `puzzles.parquet` and `fires.parquet`.

    `form` is `"puzzle"` (Lichess: the first move is the opponent's) or
    `"line"` (the first move is the solver's). Rows are numbered from
    `first_row` in `row_number`. A row that cannot be annotated is a
    `puzzles` row with `status` `"error"` and the reason in `error`.

    Raises `ValueError` when a required column is missing or a column holds
    neither text, integers nor lists of text, `TypeError` when `batch` is
    not Arrow data. The Hugging Face layout (`Themes`, `OpeningTags` as
    lists, `GameId` for `GameUrl`) reads as well.

    `engine`, the path of a UCI engine (Stockfish), adds the engine stage's
    columns to `puzzles` as `koga annotate --engine` does (`engine_cp`,
    `engine_mate`, `sound`, `alt_moves`, `alt_cp`, `alt_mate`, `move_cp`,
    `move_mate`, `engine_error`) and its themes (crushing, advantage or
    equality, and zugzwang) to `themes`, with `engine_nodes` per search and the
    cuts of `engine_rule`. A solver move that fails the only-move test is
    searched again at `engine_verify_nodes` (None: 10 times `engine_nodes`;
    0: never; otherwise more than `engine_nodes`, else `ValueError`), and
    that search decides `sound` there. The engine processes (one per rayon worker) stay
    up for the process's next call. A path that is not a UCI engine raises
    `ValueError`.
    """

def annotate_fires(batch: ArrowBatch, form: Form = "puzzle", first_row: int = 1) -> pyarrow.Table:
    """The `fires` table of `annotate` alone: one row per label on a move."""

def annotate_puzzles(
    batch: ArrowBatch,
    form: Form = "puzzle",
    first_row: int = 1,
    engine: str | None = None,
    engine_nodes: int = 100_000,
    engine_verify_nodes: int | None = None,
    engine_rule: Literal["fitted", "lichess"] = "fitted",
    engine_timeout: float = 60.0,
) -> pyarrow.Table:
    """The `puzzles` table of `annotate` alone: one row per input row (with
    the engine stage's columns when `engine` names one)."""

def explain(fen: str, moves: str, form: Form = "puzzle") -> str:
    """The line ply by ply with the labels on each move, their roles and
    gain, and what arbitration removed (what `koga explain` prints).
    `moves` is UCI, space-separated. Raises `ValueError` when the line
    cannot be read."""

class RoleInfo(TypedDict):
    name: str
    holds: Literal["one", "many"]
    """`one`: a nullable string column; `many`: a list column (squares in colour-relative order)."""

class LabelInfo(TypedDict):
    name: str
    kind: str
    family: str
    material: bool
    lichess: bool
    payoff: bool
    """A capture whose follow-up fires may only collect an earlier fire's win (`collects`)."""
    implies: list[str]
    """Lichess themes the label implies besides its own name."""
    roles: list[RoleInfo]
    description: str
    doc: str

def labels() -> list[LabelInfo]:
    """Koga's labels (what `koga labels --format json` prints)."""

def puzzles_schema(engine: bool = False) -> pyarrow.Schema:
    """The columns of `puzzles.parquet` and of `annotate`'s first table;
    `engine=True`: with the engine stage's columns."""

def fires_schema() -> pyarrow.Schema:
    """The columns of `fires.parquet` and of `annotate_fires`'s table."""

__all__ = [
    "INPUT_COLUMNS",
    "annotate",
    "annotate_fires",
    "annotate_puzzles",
    "explain",
    "fires_schema",
    "labels",
    "puzzles_schema",
]

