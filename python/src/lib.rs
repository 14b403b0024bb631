//! The `koga` Python module: Koga's classifier over Arrow batches.
//!
//! Batches come in through the Arrow PyCapsule interface (pyarrow, polars,
//! DuckDB, pandas, Ray, Spark: anything with `__arrow_c_array__` or
//! `__arrow_c_stream__`) and go out as pyarrow tables with the columns and
//! types that `koga annotate` writes to `puzzles.parquet` and
//! `fires.parquet`. What each column holds is decided in the library
//! (`koga::table`); this module only reads the input columns as text and
//! builds arrow-rs arrays. The classifier runs without the GIL, its rows
//! spread over rayon's workers.

use std::sync::{Arc, Mutex};

use arrow_array::builder::{Int32Builder, LargeListBuilder, LargeStringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray, Int32Array, Int64Array, LargeBinaryArray, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::input::AnyRecordBatch;
use pyo3_arrow::{PySchema, PyTable};
use rayon::prelude::*;

use koga::annotate::{annotate_row, Annotated, RowFilter};
use koga::engine::{Engine, DEFAULT_NODES};
use koga::input::{Columns, RowBatch, COLUMN_NAMES};
use koga::table::{self, ArrayBuilder, Kind};
use koga::{Line, LineForm};

/// Rows classified together: the unit of parallel work and the bound on
/// the copy of the input's text held at a time.
const CHUNK_ROWS: usize = 8_192;

/// The tables a call returns.
#[derive(Clone, Copy)]
struct Tables {
    puzzles: bool,
    fires: bool,
}

/// Why a batch cannot be annotated at all (bad rows are error rows instead).
#[derive(Debug)]
enum BatchError {
    MissingColumn(&'static str),
    Unreadable { column: String, dtype: DataType },
    Arrow(ArrowError),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::MissingColumn(column) => write!(f, "the batch has no column {column:?}"),
            BatchError::Unreadable { column, dtype } => {
                write!(f, "column {column:?} is {dtype}, which Koga cannot read: it takes text or integers (Themes and OpeningTags: lists of text too)")
            }
            BatchError::Arrow(e) => write!(f, "reading the batch: {e}"),
        }
    }
}

impl From<BatchError> for PyErr {
    fn from(e: BatchError) -> PyErr {
        PyValueError::new_err(e.to_string())
    }
}

fn line_form(form: &str) -> PyResult<LineForm> {
    match form {
        "puzzle" => Ok(LineForm::Puzzle),
        "line" => Ok(LineForm::Line),
        other => Err(PyValueError::new_err(format!("form must be \"puzzle\" or \"line\", not {other:?}"))),
    }
}

/// The tables' arrays in the types pyarrow reads from Koga's Parquet files:
/// large strings, and large lists of them.
struct PyArrays;

/// The item field of list columns, named as Parquet's LIST type names it.
fn list_item() -> Field {
    Field::new("element", DataType::LargeUtf8, true)
}

fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Int64 => DataType::Int64,
        Kind::Int32 => DataType::Int32,
        Kind::Bool | Kind::NullableBool => DataType::Boolean,
        Kind::Text | Kind::RepeatedText | Kind::Vocabulary => DataType::LargeUtf8,
        Kind::Words | Kind::Labels | Kind::Squares | Kind::Themes => DataType::LargeList(Arc::new(list_item())),
        Kind::Plies => DataType::LargeList(Arc::new(Field::new("element", DataType::Int32, true))),
    }
}

fn schema_of(columns: &[(&str, Kind)]) -> SchemaRef {
    Arc::new(Schema::new(
        columns.iter().map(|&(name, kind)| Field::new(name, data_type(kind), true)).collect::<Vec<_>>(),
    ))
}

impl ArrayBuilder for PyArrays {
    type Array = ArrayRef;

    fn int64(&self, values: Vec<i64>) -> ArrayRef {
        Arc::new(Int64Array::from(values))
    }

    fn int32(&self, values: impl Iterator<Item = Option<i32>>) -> ArrayRef {
        Arc::new(values.collect::<Int32Array>())
    }

    fn bool(&self, values: Vec<bool>) -> ArrayRef {
        Arc::new(BooleanArray::from(values))
    }

    fn nullable_bool(&self, values: impl Iterator<Item = Option<bool>>) -> ArrayRef {
        Arc::new(values.collect::<BooleanArray>())
    }

    fn text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> ArrayRef {
        let mut array = LargeStringBuilder::with_capacity(len, len * 8);
        values.for_each(|value| array.append_option(value));
        Arc::new(array.finish())
    }

    fn vocabulary(&self, vocabulary: &[&str], entries: &[Option<u8>]) -> ArrayRef {
        self.text(entries.len(), entries.iter().map(|entry| entry.map(|entry| vocabulary[usize::from(entry)])))
    }

    fn words<'a, I: Iterator<Item = &'a str>>(&self, lists: impl Iterator<Item = Option<I>>) -> ArrayRef {
        let mut array = LargeListBuilder::new(LargeStringBuilder::new()).with_field(list_item());
        for list in lists {
            let valid = list.is_some();
            list.into_iter().flatten().for_each(|word| array.values().append_value(word));
            array.append(valid);
        }
        Arc::new(array.finish())
    }

    fn vocabulary_lists<I: Iterator<Item = u8>>(
        &self,
        vocabulary: &[&str],
        lists: impl Iterator<Item = Option<I>>,
    ) -> ArrayRef {
        self.words(lists.map(|items| items.map(|items| items.map(|i| vocabulary[usize::from(i)]))))
    }

    fn int32_lists<I: Iterator<Item = Option<i32>>>(&self, lists: impl Iterator<Item = Option<I>>) -> ArrayRef {
        let item = Arc::new(Field::new("element", DataType::Int32, true));
        let mut array = LargeListBuilder::new(Int32Builder::new()).with_field(item);
        for list in lists {
            let valid = list.is_some();
            list.into_iter().flatten().for_each(|ply| array.values().append_option(ply));
            array.append(valid);
        }
        Arc::new(array.finish())
    }
}

/// The Hugging Face layout's game column (`Lichess/chess-puzzles`): the
/// game's id where the CSV has its URL.
const GAME_ID: &str = "GameId";
/// The columns that may come as lists of words (the Hugging Face layout):
/// the CSV holds them space-separated.
const WORD_LISTS: [&str; 2] = ["Themes", "OpeningTags"];
/// What a bare game id becomes in `game_url`.
const GAME_URL_PREFIX: &str = "https://lichess.org/";

/// The columns of a record batch Koga reads, as bytes: where they are in
/// the batch, and the [`Columns`] of the rows built from them.
struct InputColumns {
    sources: Vec<usize>,
    columns: Columns,
    /// The source that is a `GameId` column standing in for `GameUrl`.
    game_id: Option<usize>,
}

impl InputColumns {
    /// The CSV's columns by name; in the Hugging Face layout, `GameId`
    /// stands in for `GameUrl` where the batch has no `GameUrl`.
    fn find(schema: &Schema) -> Result<InputColumns, BatchError> {
        let name = |i: usize| schema.field(i).name().as_str();
        let has_url = schema.fields().iter().any(|f| f.name() == "GameUrl");
        let game_id = (0..schema.fields().len()).find(|&i| !has_url && name(i) == GAME_ID);
        let sources: Vec<usize> =
            (0..schema.fields().len()).filter(|&i| COLUMN_NAMES.contains(&name(i)) || Some(i) == game_id).collect();
        let names: Vec<&str> = sources.iter().map(|&i| if Some(i) == game_id { "GameUrl" } else { name(i) }).collect();
        let columns = Columns::find(&names).map_err(BatchError::MissingColumn)?;
        Ok(InputColumns { sources, columns, game_id })
    }

    /// The batch's known columns as large binary arrays: text as its bytes,
    /// integers as their decimal text (as a CSV holds them).
    fn read(&self, batch: &RecordBatch) -> Result<Vec<LargeBinaryArray>, BatchError> {
        self.sources
            .iter()
            .map(|&i| {
                let column = batch.column(i);
                let unreadable = || BatchError::Unreadable {
                    column: batch.schema().field(i).name().clone(),
                    dtype: column.data_type().clone(),
                };
                let text = match column.data_type() {
                    DataType::Binary | DataType::LargeBinary | DataType::BinaryView => column.clone(),
                    dtype if is_text_or_integer(dtype) => {
                        arrow_cast::cast(column, &DataType::LargeUtf8).map_err(BatchError::Arrow)?
                    }
                    dtype
                        if is_list_of_text(dtype) && WORD_LISTS.contains(&batch.schema().field(i).name().as_str()) =>
                    {
                        joined_words(column).ok_or_else(unreadable)?
                    }
                    _ => return Err(unreadable()),
                };
                let bytes = arrow_cast::cast(&text, &DataType::LargeBinary).map_err(|_| unreadable())?;
                let bytes = bytes.as_binary::<i64>().clone();
                Ok(if Some(i) == self.game_id { prefixed(&bytes, GAME_URL_PREFIX) } else { bytes })
            })
            .collect()
    }
}

/// A list of text (the Hugging Face layout's `Themes`, `OpeningTags`).
fn is_list_of_text(dtype: &DataType) -> bool {
    match dtype {
        DataType::List(item) | DataType::LargeList(item) | DataType::ListView(item) | DataType::LargeListView(item) => {
            matches!(item.data_type(), DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
        }
        _ => false,
    }
}

/// A list-of-text column as the CSV holds it: each row's words joined by a
/// space (a null row stays null).
fn joined_words(column: &ArrayRef) -> Option<ArrayRef> {
    let lists =
        arrow_cast::cast(column, &DataType::LargeList(Arc::new(Field::new("item", DataType::LargeUtf8, true)))).ok()?;
    let lists = lists.as_list::<i64>();
    let mut text = LargeStringBuilder::new();
    for row in 0..lists.len() {
        if lists.is_null(row) {
            text.append_null();
            continue;
        }
        let words = lists.value(row);
        let words = words.as_string::<i64>();
        let joined: Vec<&str> = words.iter().flatten().collect();
        text.append_value(joined.join(" "));
    }
    Some(Arc::new(text.finish()))
}

/// `prefix` before every value (a null stays null).
fn prefixed(values: &LargeBinaryArray, prefix: &str) -> LargeBinaryArray {
    values.iter().map(|value| value.map(|v| [prefix.as_bytes(), v].concat())).collect()
}

/// Whether a column's values read as a CSV field would: text, integers
/// (in decimal), nulls, or a dictionary of those.
fn is_text_or_integer(dtype: &DataType) -> bool {
    match dtype {
        DataType::Dictionary(_, values) => is_text_or_integer(values),
        dtype => {
            dtype.is_integer()
                || matches!(
                    dtype,
                    DataType::Utf8
                        | DataType::LargeUtf8
                        | DataType::Utf8View
                        | DataType::Binary
                        | DataType::LargeBinary
                        | DataType::BinaryView
                        | DataType::Null
                )
        }
    }
}

/// Annotates every row of `input`, giving the first the 0-based index
/// `first_index`.
fn annotate_batches(
    input: AnyRecordBatch,
    form: LineForm,
    first_index: u64,
    tables: Tables,
    engine: Option<Arc<Engine>>,
    py: Python<'_>,
) -> PyResult<(Option<PyTable>, Option<PyTable>)> {
    let reader = input.into_reader()?;
    let puzzles_schema = schema_of(&table::puzzles_columns(engine.is_some()));
    let fires_schema = schema_of(&table::fires_columns());
    let mut columns = InputColumns::find(&reader.schema())?;
    columns.columns.engine = engine.is_some();
    let (puzzles, fires) = py.detach(|| -> Result<_, BatchError> {
        let filter = RowFilter::default();
        let (mut puzzles, mut fires) = (Vec::new(), Vec::new());
        let mut next_index = first_index;
        for batch in reader {
            let batch = batch.map_err(BatchError::Arrow)?;
            for start in (0..batch.num_rows()).step_by(CHUNK_ROWS) {
                let chunk = batch.slice(start, CHUNK_ROWS.min(batch.num_rows() - start));
                let fields = columns.read(&chunk)?;
                let mut rows = RowBatch::default();
                for row in 0..chunk.num_rows() {
                    let values = fields.iter().map(|field| field.is_valid(row).then(|| field.value(row)));
                    rows.push_fields(next_index + row as u64, values);
                }
                next_index += chunk.num_rows() as u64;
                let annotated: Vec<Annotated> = (0..rows.len())
                    .into_par_iter()
                    .map(|i| {
                        let row = annotate_row(rows.row(i), &columns.columns, form, &filter);
                        match &engine {
                            Some(engine) => koga::annotate::add_engine_verdict(row, &columns.columns, form, engine),
                            None => row,
                        }
                    })
                    .collect();
                let (p, f) = rayon::join(
                    || tables.puzzles.then(|| table::puzzles_chunk(&PyArrays, &annotated, &columns.columns)),
                    || tables.fires.then(|| table::fires_chunk(&PyArrays, &annotated, &columns.columns)),
                );
                if let Some(p) = p {
                    puzzles.push(RecordBatch::try_new(puzzles_schema.clone(), p.arrays).map_err(BatchError::Arrow)?);
                }
                if let Some(f) = f {
                    fires.push(RecordBatch::try_new(fires_schema.clone(), f.arrays).map_err(BatchError::Arrow)?);
                }
            }
        }
        Ok((puzzles, fires))
    })?;
    let puzzles = tables.puzzles.then(|| PyTable::try_new(puzzles, puzzles_schema)).transpose()?;
    let fires = tables.fires.then(|| PyTable::try_new(fires, fires_schema)).transpose()?;
    Ok((puzzles, fires))
}

/// A table handed to pyarrow through its C stream (zero-copy). Not through
/// `pyarrow.table()`, which imports pandas on its first call: half a second.
fn pyarrow_table(py: Python<'_>, table: PyTable) -> PyResult<Bound<'_, PyAny>> {
    let table = table.into_pyobject(py)?;
    py.import("pyarrow")?.getattr("RecordBatchReader")?.call_method1("from_stream", (table,))?.call_method0("read_all")
}

/// A `pyarrow.Table`.
type PyArrowTable<'py> = Bound<'py, PyAny>;

/// What the `annotate*` functions share: their arguments checked, the rows
/// annotated, the tables asked for as pyarrow tables.
fn annotate_call<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    form: &str,
    first_row: i64,
    tables: Tables,
    engine: Option<Arc<Engine>>,
) -> PyResult<(Option<PyArrowTable<'py>>, Option<PyArrowTable<'py>>)> {
    let input = batch.extract().map_err(|_| {
        let kind = batch.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
        PyTypeError::new_err(format!(
            "batch must be Arrow data (an object with __arrow_c_array__ or __arrow_c_stream__: a pyarrow \
             Table or RecordBatch, a polars DataFrame, a DuckDB relation...), not {kind}"
        ))
    })?;
    let form = line_form(form)?;
    let first_index = first_row
        .checked_sub(1)
        .and_then(|index| u64::try_from(index).ok())
        .ok_or_else(|| PyValueError::new_err(format!("first_row must be 1 or more, not {first_row}")))?;
    let (puzzles, fires) = annotate_batches(input, form, first_index, tables, engine, py)?;
    Ok((puzzles.map(|t| pyarrow_table(py, t)).transpose()?, fires.map(|t| pyarrow_table(py, t)).transpose()?))
}

// The Python signatures spell the default budget out (a text signature
// shows a literal, not a constant's name).
const _: () = assert!(DEFAULT_NODES == 100000);

/// The engine stage of this process, started on first use and kept (with
/// its pool of engine processes) for the calls that ask for the same one.
static ENGINE: Mutex<Option<Arc<Engine>>> = Mutex::new(None);

/// The engine stage `engine` (a path) asks for, or none; a path that is not
/// a UCI engine raises `ValueError`.
fn engine_stage(
    py: Python<'_>,
    engine: Option<std::path::PathBuf>,
    nodes: u64,
    verify_nodes: Option<u64>,
    rule: &str,
    timeout: f64,
) -> PyResult<Option<Arc<Engine>>> {
    let Some(path) = engine else { return Ok(None) };
    let mut config = koga::engine::Config::new(path);
    config.nodes = nodes.max(1);
    config.verify_nodes = verify_nodes;
    if let Some(problem) = config.verify_problem() {
        return Err(PyValueError::new_err(format!("engine_verify_nodes {problem}")));
    }
    config.rule = match rule {
        "fitted" => koga::engine::Rule::Fitted,
        "lichess" => koga::engine::Rule::Lichess,
        other => {
            return Err(PyValueError::new_err(format!("engine_rule must be \"fitted\" or \"lichess\", not {other:?}")))
        }
    };
    if !(timeout > 0.0 && timeout.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "engine_timeout must be a positive number of seconds, not {timeout}"
        )));
    }
    config.timeout = std::time::Duration::from_secs_f64(timeout);
    let mut cached = ENGINE.lock().map_err(|_| PyValueError::new_err("the engine stage failed earlier"))?;
    if let Some(engine) = cached.as_ref().filter(|e| e.config == config) {
        return Ok(Some(engine.clone()));
    }
    let engine = py.detach(|| Engine::open(config)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let engine = Arc::new(engine);
    *cached = Some(engine.clone());
    Ok(Some(engine))
}

/// Every `annotate*` function asks for at least one table.
const ASKED: &str = "the table the call asked for";

/// Annotates a batch of puzzles: returns `(puzzles, fires)`, two
/// `pyarrow.Table`s with the columns and types of `puzzles.parquet` and
/// `fires.parquet`.
///
/// `batch` is Arrow data with the columns `PuzzleId`, `FEN`, `Moves` and
/// optionally `Rating`, `RatingDeviation`, `Popularity`, `NbPlays`,
/// `Themes`, `GameUrl`, `OpeningTags` (text or integers; other columns are
/// ignored). `form` is `"puzzle"` (Lichess: the first move is the
/// opponent's) or `"line"` (the first move is the solver's). Rows are
/// numbered from `first_row` in the `row_number` column. A row that cannot
/// be annotated is a `puzzles` row with `status` `"error"` and the reason.
///
/// `engine` (a path to a UCI engine such as Stockfish) adds the engine
/// stage's columns to `puzzles`, as `koga annotate --engine` does, with
/// `engine_nodes`, `engine_verify_nodes`, `engine_rule` and
/// `engine_timeout` as its options; the
/// engine processes stay up for the next call of this process.
#[pyfunction]
#[pyo3(signature = (batch, form = "puzzle", first_row = 1, engine = None, engine_nodes = 100000,
                    engine_verify_nodes = None, engine_rule = "fitted", engine_timeout = 60.0))]
#[allow(clippy::too_many_arguments)]
fn annotate<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    form: &str,
    first_row: i64,
    engine: Option<std::path::PathBuf>,
    engine_nodes: u64,
    engine_verify_nodes: Option<u64>,
    engine_rule: &str,
    engine_timeout: f64,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let engine = engine_stage(py, engine, engine_nodes, engine_verify_nodes, engine_rule, engine_timeout)?;
    let (puzzles, fires) = annotate_call(py, batch, form, first_row, Tables { puzzles: true, fires: true }, engine)?;
    Ok((puzzles.expect(ASKED), fires.expect(ASKED)))
}

/// The `fires` table of [`annotate`] alone: one row per label on a move.
#[pyfunction]
#[pyo3(signature = (batch, form = "puzzle", first_row = 1))]
fn annotate_fires<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    form: &str,
    first_row: i64,
) -> PyResult<Bound<'py, PyAny>> {
    let (_, fires) = annotate_call(py, batch, form, first_row, Tables { puzzles: false, fires: true }, None)?;
    Ok(fires.expect(ASKED))
}

/// The `puzzles` table of [`annotate`] alone: one row per input row (with
/// the engine stage's columns when `engine` names one).
#[pyfunction]
#[pyo3(signature = (batch, form = "puzzle", first_row = 1, engine = None, engine_nodes = 100000,
                    engine_verify_nodes = None, engine_rule = "fitted", engine_timeout = 60.0))]
#[allow(clippy::too_many_arguments)]
fn annotate_puzzles<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    form: &str,
    first_row: i64,
    engine: Option<std::path::PathBuf>,
    engine_nodes: u64,
    engine_verify_nodes: Option<u64>,
    engine_rule: &str,
    engine_timeout: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let engine = engine_stage(py, engine, engine_nodes, engine_verify_nodes, engine_rule, engine_timeout)?;
    let (puzzles, _) = annotate_call(py, batch, form, first_row, Tables { puzzles: true, fires: false }, engine)?;
    Ok(puzzles.expect(ASKED))
}

/// The line ply by ply, each move in SAN, with the labels on it, their
/// roles and gain, and the fires arbitration removed (what `koga explain`
/// prints). `moves` is UCI, space-separated. Raises `ValueError` when the
/// line cannot be read.
#[pyfunction]
#[pyo3(signature = (fen, moves, form = "puzzle"))]
fn explain(py: Python<'_>, fen: &str, moves: &str, form: &str) -> PyResult<String> {
    let form = line_form(form)?;
    let line = Line::parse(fen, moves, form).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| koga::explain::explain(&line)))
}

/// Koga's labels, one dict per label: `name`, `kind`, `family`,
/// `material`, `lichess`, `roles`, `description`, `doc` (what
/// `koga labels --format json` prints).
#[pyfunction]
fn labels(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("json")?.call_method1("loads", (koga::label::vocabulary_json(),))
}

/// The columns of `puzzles.parquet` (and of [`annotate`]'s first table),
/// as a `pyarrow.Schema`; `engine=True`: with the engine stage's columns.
#[pyfunction]
#[pyo3(signature = (engine = false))]
fn puzzles_schema(py: Python<'_>, engine: bool) -> PyResult<Bound<'_, PyAny>> {
    PySchema::new(schema_of(&table::puzzles_columns(engine))).into_pyarrow(py)
}

/// The columns of `fires.parquet` (and of [`annotate_fires`]'s table), as a
/// `pyarrow.Schema`: what a Spark or Ray plan declares as its output.
#[pyfunction]
fn fires_schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    PySchema::new(schema_of(&table::fires_columns())).into_pyarrow(py)
}

#[pymodule]
#[pyo3(name = "koga")]
fn koga_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("INPUT_COLUMNS", COLUMN_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(annotate, m)?)?;
    m.add_function(wrap_pyfunction!(annotate_fires, m)?)?;
    m.add_function(wrap_pyfunction!(annotate_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(labels, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles_schema, m)?)?;
    m.add_function(wrap_pyfunction!(fires_schema, m)?)?;
    Ok(())
}
