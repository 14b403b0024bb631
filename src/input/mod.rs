//! Reading: a path or standard input, plain or zstd (sniffed from the magic
//! bytes), parsed as CSV with columns found by header name (spec §1); or a
//! Parquet file or directory of them, with the CSV's columns or the Hugging
//! Face layout ([`parquet`]), recognised by content too.
//!
//! The reader hands out work in batches ([`Work`]): for a CSV, chunks of
//! whole records (`records.rs`), whose fields the workers split and check as
//! UTF-8, so this stage only decompresses and finds where records end.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use csv::ByteRecord;

use crate::line::RowError;

#[cfg(feature = "parquet")]
pub mod parquet;
mod records;

pub use records::CsvChunk;

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Where the rows come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSpec {
    Path(PathBuf),
    Stdin,
}

impl InputSpec {
    /// `-` means standard input, anything else a path.
    pub fn from_arg(arg: &str) -> InputSpec {
        if arg == "-" {
            InputSpec::Stdin
        } else {
            InputSpec::Path(PathBuf::from(arg))
        }
    }

    /// The name used in messages.
    pub fn name(&self) -> String {
        match self {
            InputSpec::Path(p) => p.display().to_string(),
            InputSpec::Stdin => "<stdin>".to_owned(),
        }
    }
}

/// A problem with the input as a whole: the run cannot go on.
#[derive(Debug)]
pub enum InputError {
    Open {
        input: String,
        source: io::Error,
    },
    Empty {
        input: String,
    },
    NotCsv {
        input: String,
    },
    MissingColumn {
        input: String,
        column: &'static str,
    },
    Read {
        input: String,
        row: u64,
        zstd: bool,
        source: io::Error,
    },
    /// A file that should be Parquet (by name or magic) and cannot be read as such.
    NotParquet {
        input: String,
        detail: String,
    },
    /// A Parquet column of a type that holds no CSV field.
    Unreadable {
        input: String,
        column: String,
        dtype: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Open { input, source } => write!(f, "{input}: cannot open: {source}"),
            InputError::Empty { input } => write!(f, "{input}: empty input, no header row"),
            InputError::NotCsv { input } => {
                write!(f, "{input}: not a puzzle CSV: the header row is not text (binary or corrupt input?)")
            }
            InputError::MissingColumn { input, column } => {
                write!(f, "{input}: header has no {column} column (required: PuzzleId, FEN, Moves)")
            }
            InputError::Read { input, row, zstd, source } => {
                let truncated =
                    source.kind() == io::ErrorKind::UnexpectedEof || source.to_string().contains("incomplete frame");
                let what = match (zstd, truncated) {
                    (true, true) => "truncated zstd stream",
                    (true, false) => "corrupt zstd stream",
                    (false, true) => "truncated input",
                    (false, false) => "read error",
                };
                write!(f, "{input}: {what} after {row} data rows: {source}")
            }
            InputError::NotParquet { input, detail } => write!(f, "{input}: not a readable Parquet file: {detail}"),
            InputError::Unreadable { input, column, dtype } => write!(
                f,
                "{input}: column {column:?} is {dtype}, which Koga cannot read: it takes text or integers \
                 (and lists of text for Themes and OpeningTags)"
            ),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Open { source, .. } | InputError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Positions of the known columns in the header. Required ones always exist.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    pub puzzle_id: usize,
    pub fen: usize,
    pub moves: usize,
    pub rating: Option<usize>,
    pub rating_deviation: Option<usize>,
    pub popularity: Option<usize>,
    pub nb_plays: Option<usize>,
    pub themes: Option<usize>,
    pub game_url: Option<usize>,
    pub opening_tags: Option<usize>,
    /// Not an input column: the run writes the engine stage's columns
    /// (`--engine`), so `puzzles` has them.
    pub engine: bool,
}

impl Columns {
    fn from_header(header: &ByteRecord, input: &str) -> Result<Columns, InputError> {
        let mut names = Vec::with_capacity(header.len());
        for (i, field) in header.iter().enumerate() {
            let field = if i == 0 { field.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(field) } else { field };
            let name = std::str::from_utf8(field).map_err(|_| InputError::NotCsv { input: input.to_owned() })?;
            if name.chars().any(|c| c.is_control() && c != '\t') {
                return Err(InputError::NotCsv { input: input.to_owned() });
            }
            names.push(name.trim().to_owned());
        }
        Columns::find(&names).map_err(|column| InputError::MissingColumn { input: input.to_owned(), column })
    }

    /// The known columns among `names` (a header's, or an Arrow table's
    /// column names); `Err` names a missing required column.
    pub fn find<S: AsRef<str>>(names: &[S]) -> Result<Columns, &'static str> {
        let [puzzle_id, fen, moves, rating, rating_deviation, popularity, nb_plays, themes, game_url, opening_tags] =
            COLUMN_NAMES.map(|column| names.iter().position(|name| name.as_ref() == column));
        let require = |found: Option<usize>, column: usize| found.ok_or(COLUMN_NAMES[column]);
        Ok(Columns {
            puzzle_id: require(puzzle_id, 0)?,
            fen: require(fen, 1)?,
            moves: require(moves, 2)?,
            rating,
            rating_deviation,
            popularity,
            nb_plays,
            themes,
            game_url,
            opening_tags,
            engine: false,
        })
    }
}

/// The input columns Koga reads (spec §1), in [`Columns`] order; the first
/// three are required.
pub const COLUMN_NAMES: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// A batch of data rows, every field checked as UTF-8 and copied into one
/// buffer: a row costs no allocation of its own, and a worker reads the
/// batch's rows from contiguous memory. A field that is not UTF-8 is kept
/// lossily and remembered, so its row can be reported.
#[derive(Default)]
pub struct RowBatch {
    text: String,
    /// Each row's field boundaries, `fields + 1` offsets into `text` from its
    /// `first_bound` (see [`FIELD_END`]); the rows of a CSV chunk share the
    /// bound between two lines.
    bounds: Vec<usize>,
    rows: Vec<RowSpan>,
}

/// The size of a typical row: its fields, its bytes.
#[derive(Debug, Clone, Copy)]
struct RowShape {
    fields: usize,
    bytes: usize,
}

struct RowSpan {
    index: u64,
    /// Where the row's boundaries start in `bounds`.
    first_bound: usize,
    fields: usize,
    bad_utf8_field: Option<usize>,
    /// Bit `i` set: field `i` is absent.
    absent: u16,
}

/// What follows each field in a [`RowBatch`]'s text: field `i` of a row
/// is `text[bounds[i]..bounds[i + 1] - 1]`, so that text split from a CSV
/// line is held where it lies, its separators in between.
const FIELD_END: char = ',';

impl RowBatch {
    /// How many leading fields of a row [`RowBatch::push_fields`] can mark absent.
    pub const MAX_ABSENT: usize = 16;

    /// A batch with room for `rows` rows of the given shape, so that its
    /// buffers are allocated once rather than grown (and copied) row by row.
    fn with_capacity(rows: usize, shape: RowShape) -> RowBatch {
        RowBatch {
            text: String::with_capacity(rows * shape.bytes),
            bounds: Vec::with_capacity(rows * (shape.fields + 1)),
            rows: Vec::with_capacity(rows),
        }
    }

    /// The shape of this batch's rows, with some room to spare.
    #[cfg(feature = "parquet")]
    fn shape(&self) -> RowShape {
        let rows = self.len().max(1);
        RowShape { fields: self.bounds.len() / rows, bytes: self.text.len() / rows + self.text.len() / rows / 8 }
    }

    /// Appends a record as the data row numbered `index` (0-based).
    pub fn push(&mut self, index: u64, record: &ByteRecord) {
        self.push_fields(index, record.iter().map(Some));
    }

    /// Appends a data row numbered `index` (0-based) from its fields, each
    /// as bytes or `None` where it is absent (a null in an Arrow column):
    /// an absent field reads as a short row's missing one. Only the first
    /// [`RowBatch::MAX_ABSENT`] fields can be absent.
    pub fn push_fields<'f>(&mut self, index: u64, fields: impl IntoIterator<Item = Option<&'f [u8]>>) {
        let first_bound = self.bounds.len();
        let mut bad_utf8_field = None;
        let mut absent = 0u16;
        self.bounds.push(self.text.len());
        for (i, field) in fields.into_iter().enumerate() {
            match field {
                Some(bytes) => match std::str::from_utf8(bytes) {
                    Ok(text) => self.text.push_str(text),
                    Err(_) => {
                        self.text.push_str(&String::from_utf8_lossy(bytes));
                        bad_utf8_field.get_or_insert(i);
                    }
                },
                // Past the mask an absent field reads as an empty one.
                None if i < Self::MAX_ABSENT => absent |= 1 << i,
                None => {}
            }
            self.text.push(FIELD_END);
            self.bounds.push(self.text.len());
        }
        self.close_row(index, first_bound, bad_utf8_field, absent);
    }

    /// Records the row whose boundaries start at `first_bound`.
    fn close_row(&mut self, index: u64, first_bound: usize, bad_utf8_field: Option<usize>, absent: u16) {
        let fields = self.bounds.len() - first_bound - 1;
        self.rows.push(RowSpan { index, first_bound, fields, bad_utf8_field, absent });
    }

    /// A batch of the given rows' fields, numbered from 0.
    pub fn of(rows: &[&[&str]]) -> RowBatch {
        let mut batch = RowBatch::default();
        for (index, fields) in rows.iter().enumerate() {
            batch.push_fields(index as u64, fields.iter().map(|field| Some(field.as_bytes())));
        }
        batch
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The `i`th row of the batch.
    pub fn row(&self, i: usize) -> TextRow<'_> {
        let span = &self.rows[i];
        TextRow {
            index: span.index,
            text: &self.text,
            bounds: &self.bounds[span.first_bound..=span.first_bound + span.fields],
            bad_utf8_field: span.bad_utf8_field,
            absent: span.absent,
        }
    }

    pub fn rows(&self) -> impl ExactSizeIterator<Item = TextRow<'_>> {
        (0..self.len()).map(|i| self.row(i))
    }
}

/// A data row of a [`RowBatch`]: its 0-based index among the data rows and
/// its fields as text.
#[derive(Clone, Copy)]
pub struct TextRow<'a> {
    pub index: u64,
    text: &'a str,
    bounds: &'a [usize],
    bad_utf8_field: Option<usize>,
    absent: u16,
}

impl fmt::Debug for TextRow<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TextRow")
            .field("index", &self.index)
            .field("fields", &(0..self.bounds.len() - 1).map(|i| self.raw_field(i)).collect::<Vec<_>>())
            .finish()
    }
}

impl<'a> TextRow<'a> {
    /// Field `column` as read; `None` past the end of a short row, or where
    /// the field is absent.
    #[inline]
    pub fn raw_field(&self, column: usize) -> Option<&'a str> {
        Some(&self.text[self.span(column)?])
    }

    /// Field `column`'s bytes as read, as [`TextRow::raw_field`] cuts them.
    #[inline]
    fn raw_bytes(&self, column: usize) -> Option<&'a [u8]> {
        Some(&self.text.as_bytes()[self.span(column)?])
    }

    /// Where field `column` lies in the row's text; `None` past the end of
    /// a short row, or where the field is absent.
    #[inline]
    fn span(&self, column: usize) -> Option<std::ops::Range<usize>> {
        if column < RowBatch::MAX_ABSENT && self.absent & (1 << column) != 0 {
            return None;
        }
        let &[start, next] = self.bounds.get(column..column + 2)? else { unreachable!("two bounds") };
        Some(start..next - 1)
    }

    /// A field, trimmed of ASCII whitespace; `None` when the column is absent
    /// or the field empty.
    #[inline]
    pub fn field(&self, column: Option<usize>) -> Option<&'a str> {
        let text = self.raw_field(column?)?.trim_ascii();
        (!text.is_empty()).then_some(text)
    }

    #[inline]
    fn checked(&self, column: Option<usize>, name: &'static str) -> Result<Option<&'a str>, RowError> {
        self.check_utf8(column, name)?;
        Ok(self.field(column))
    }

    /// A required field as text; empty or absent is a row error (built only
    /// then: `ok_or` would build and drop one for every present field).
    #[inline]
    pub fn required(&self, column: usize, name: &'static str) -> Result<&'a str, RowError> {
        match self.checked(Some(column), name)? {
            Some(text) => Ok(text),
            None => Err(RowError::MissingField(name)),
        }
    }

    /// `Err` where the field's text is not UTF-8, as [`TextRow::optional`]
    /// says, without cutting the field out (a check of a field not read).
    #[inline]
    pub fn check_utf8(&self, column: Option<usize>, name: &'static str) -> Result<(), RowError> {
        if column.is_some() && column == self.bad_utf8_field {
            return Err(RowError::InvalidUtf8(name));
        }
        Ok(())
    }

    /// An optional field as text: `None` when the column is absent or empty.
    #[inline]
    pub fn optional(&self, column: Option<usize>, name: &'static str) -> Result<Option<&'a str>, RowError> {
        self.checked(column, name)
    }

    /// An optional integer field.
    #[inline]
    pub fn optional_int(&self, column: Option<usize>, name: &'static str) -> Result<Option<i32>, RowError> {
        // The usual field, one to nine digits and nothing else, read off its
        // bytes: no trimming, no text to cut out, no UTF-8 to check (digits
        // are ASCII, so a field that holds only them is valid).
        if let Some(value) = column.and_then(|column| self.raw_bytes(column)).and_then(decimal_digits) {
            return Ok(Some(value));
        }
        match self.checked(column, name)? {
            None => Ok(None),
            Some(text) => match decimal_digits(text.as_bytes()) {
                Some(value) => Ok(Some(value)),
                None => text.parse().map(Some).map_err(|_| RowError::BadNumber { field: name, value: text.into() }),
            },
        }
    }

    /// The puzzle id as far as it can be read, for error rows too.
    pub fn puzzle_id(&self, columns: &Columns) -> Option<&'a str> {
        self.field(Some(columns.puzzle_id))
    }
}

/// `bytes` as a number where they are one to nine ASCII digits, the shape of
/// every count and rating in the puzzle database; anything else (a sign,
/// ten digits, garbage) is left to `str::parse`, which also words the error.
#[inline]
fn decimal_digits(bytes: &[u8]) -> Option<i32> {
    if bytes.is_empty() || bytes.len() > 9 {
        return None;
    }
    bytes.iter().try_fold(0i32, |value, &b| b.is_ascii_digit().then(|| value * 10 + i32::from(b - b'0')))
}

/// Counts the bytes pulled from the underlying file (compressed bytes for a
/// `.zst`), for progress and ETA.
struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

enum Source {
    Csv(records::CsvStream),
    #[cfg(feature = "parquet")]
    Parquet(Box<parquet::ParquetRows>),
}

/// What the reader hands the workers: rows ready to classify, or whole CSV
/// records whose fields the worker splits ([`Work::into_rows`]).
pub enum Work {
    Rows(RowBatch),
    Csv(CsvChunk),
}

impl Work {
    pub fn len(&self) -> usize {
        match self {
            Work::Rows(batch) => batch.len(),
            Work::Csv(chunk) => chunk.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows (splitting a CSV chunk's fields here, on the caller's thread).
    pub fn into_rows(self) -> RowBatch {
        match self {
            Work::Rows(batch) => batch,
            Work::Csv(chunk) => chunk.parse(),
        }
    }
}

/// A streaming reader of puzzle rows.
pub struct PuzzleReader {
    source: Source,
    columns: Arc<Columns>,
    input: String,
    zstd: bool,
    next_index: u64,
    bytes_read: Arc<AtomicU64>,
    total_bytes: Option<u64>,
    /// The last batch's rows, to size the next one's buffers.
    row_shape: RowShape,
}

impl PuzzleReader {
    /// Opens the input, sniffs compression and reads the header.
    pub fn open(spec: &InputSpec) -> Result<PuzzleReader, InputError> {
        let input = spec.name();
        let bytes_read = Arc::new(AtomicU64::new(0));
        #[cfg(feature = "parquet")]
        if let InputSpec::Path(path) = spec {
            if path.is_dir() || sniff(path).is_some_and(|head| head == *parquet::MAGIC) {
                return PuzzleReader::open_parquet(path, input, bytes_read);
            }
            if path.extension().is_some_and(|x| x == "parquet") && path.is_file() {
                let detail = "it does not begin with Parquet's magic bytes".to_owned();
                return Err(InputError::NotParquet { input, detail });
            }
        }
        let (raw, total_bytes): (Box<dyn Read + Send>, Option<u64>) = match spec {
            InputSpec::Path(path) => {
                let file = open_file(path).map_err(|source| InputError::Open { input: input.clone(), source })?;
                let len = file.metadata().ok().map(|m| m.len());
                (Box::new(file), len)
            }
            InputSpec::Stdin => (Box::new(io::stdin()), None),
        };
        let counted = CountingReader { inner: raw, count: bytes_read.clone() };
        let mut buffered = BufReader::with_capacity(1 << 16, counted);
        let head = buffered.fill_buf().map_err(|source| InputError::Read {
            input: input.clone(),
            row: 0,
            zstd: false,
            source,
        })?;
        if head.is_empty() {
            return Err(InputError::Empty { input });
        }
        let zstd = head.starts_with(&ZSTD_MAGIC);
        let decoded: Box<dyn Read + Send> =
            if zstd {
                let decoder = zstd::stream::read::Decoder::with_buffer(buffered)
                    .map_err(|source| InputError::Read { input: input.clone(), row: 0, zstd, source })?;
                Box::new(decoder)
            } else {
                Box::new(buffered)
            };
        let mut stream = records::CsvStream::new(decoded);
        // A header longer than this has no line end: not a CSV.
        // A stream that breaks before its first block is read through
        // still counts the rows that arrived (the header is one of them).
        let header = stream.header(1 << 24).map_err(|source| InputError::Read {
            input: input.clone(),
            row: stream.pending_rows().saturating_sub(1) as u64,
            zstd,
            source,
        })?;
        let header = match header {
            Some(header) if !(header.len() == 1 && header[0].is_empty()) => header,
            _ => return Err(InputError::Empty { input }),
        };
        let columns = Arc::new(Columns::from_header(&header, &input)?);
        Ok(PuzzleReader {
            source: Source::Csv(stream),
            columns,
            input,
            zstd,
            next_index: 0,
            bytes_read,
            total_bytes,
            row_shape: RowShape { fields: header.len(), bytes: 256 },
        })
    }

    #[cfg(feature = "parquet")]
    fn open_parquet(path: &Path, input: String, bytes_read: Arc<AtomicU64>) -> Result<PuzzleReader, InputError> {
        let (rows, columns) = parquet::ParquetRows::open(path, &input)?;
        let fields = rows.fields();
        Ok(PuzzleReader {
            source: Source::Parquet(Box::new(rows)),
            columns: Arc::new(columns),
            input,
            zstd: false,
            next_index: 0,
            bytes_read,
            total_bytes: None,
            row_shape: RowShape { fields, bytes: 256 },
        })
    }

    pub fn columns(&self) -> &Arc<Columns> {
        &self.columns
    }

    /// Bytes pulled from the input so far (compressed, for `.zst`).
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        self.bytes_read.clone()
    }

    /// The input's size on disk, when known.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total_bytes
    }

    /// Reads past `rows` data rows (a resumed run's completed rows): they
    /// keep their row numbers but are not returned.
    pub fn skip(&mut self, rows: u64) -> Result<(), InputError> {
        let mut left = rows;
        while left > 0 {
            let work = self.next_work(left.min(8192) as usize)?;
            if work.is_empty() {
                break;
            }
            left -= work.len() as u64;
        }
        Ok(())
    }

    /// The next `max` rows (fewer at the end; none when the input is done),
    /// as work for a worker: a CSV chunk's fields are split there.
    pub fn next_work(&mut self, max: usize) -> Result<Work, InputError> {
        let first = self.next_index;
        let work = match &mut self.source {
            Source::Csv(stream) => {
                let chunk = stream.next_chunk(max, first, self.row_shape).map_err(|source| InputError::Read {
                    input: self.input.clone(),
                    row: first + stream.pending_rows() as u64,
                    zstd: self.zstd,
                    source,
                })?;
                match chunk {
                    Some(chunk) => {
                        self.row_shape = chunk.shape();
                        Work::Csv(chunk)
                    }
                    None => Work::Rows(RowBatch::default()),
                }
            }
            #[cfg(feature = "parquet")]
            Source::Parquet(parquet) => {
                let mut batch = RowBatch::with_capacity(max, self.row_shape);
                let mut index = first;
                parquet.fill(&mut batch, max, &mut index)?;
                if !batch.is_empty() {
                    self.row_shape = batch.shape();
                }
                Work::Rows(batch)
            }
        };
        self.next_index += work.len() as u64;
        Ok(work)
    }

    /// Reads up to `max` rows; an empty batch means the input is done.
    pub fn next_batch(&mut self, max: usize) -> Result<RowBatch, InputError> {
        Ok(self.next_work(max)?.into_rows())
    }
}

/// Why a puzzle could not be looked up by id.
#[derive(Debug)]
pub enum LookupError {
    Input(InputError),
    NotFound {
        input: String,
        id: String,
    },
    /// The row is there but a field it needs is not.
    Row {
        input: String,
        id: String,
        source: RowError,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::Input(e) => e.fmt(f),
            LookupError::NotFound { input, id } => write!(f, "{input}: no puzzle with id {id}"),
            LookupError::Row { input, id, source } => write!(f, "{input}: puzzle {id}: {source}"),
        }
    }
}

impl std::error::Error for LookupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LookupError::Input(e) => Some(e),
            LookupError::Row { source, .. } => Some(source),
            LookupError::NotFound { .. } => None,
        }
    }
}

impl From<InputError> for LookupError {
    fn from(e: InputError) -> Self {
        LookupError::Input(e)
    }
}

/// Streams a puzzle CSV for one puzzle id: its FEN and moves.
pub fn find_puzzle(spec: &InputSpec, id: &str) -> Result<(String, String), LookupError> {
    let mut reader = PuzzleReader::open(spec)?;
    let columns = reader.columns().clone();
    loop {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            return Err(LookupError::NotFound { input: spec.name(), id: id.to_owned() });
        }
        for row in batch.rows() {
            if row.puzzle_id(&columns) == Some(id) {
                let field = |column, name| row.required(column, name).map(str::to_owned);
                return field(columns.fen, "FEN")
                    .and_then(|fen| Ok((fen, field(columns.moves, "Moves")?)))
                    .map_err(|source| LookupError::Row { input: spec.name(), id: id.to_owned(), source });
            }
        }
    }
}

/// The first four bytes of a file (`None` where it is shorter or cannot be
/// read: the CSV reader then says why).
#[cfg(feature = "parquet")]
fn sniff(path: &Path) -> Option<[u8; 4]> {
    let mut head = [0u8; 4];
    let mut file = File::open(path).ok()?;
    file.read_exact(&mut head).ok()?;
    Some(head)
}

fn open_file(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "is a directory"));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn reader_for(bytes: &[u8]) -> Result<PuzzleReader, InputError> {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        let spec = InputSpec::Path(file.path().to_owned());
        let reader = PuzzleReader::open(&spec);
        drop(file);
        reader
    }

    proptest::proptest! {
        /// The digits fast path reads what `str::parse` reads, and declines
        /// only what it must (so `parse` still words every error).
        #[test]
        fn decimal_digits_agree_with_parse(text in "[-+0-9 a]{0,11}|[0-9]{1,12}") {
            let fast = decimal_digits(text.as_bytes());
            if let Some(value) = fast {
                proptest::prop_assert_eq!(Ok(value), text.parse::<i32>());
            } else {
                proptest::prop_assert!(text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) || text.is_empty());
            }
        }
    }

    #[test]
    fn columns_by_name_with_bom_crlf_and_unknown_columns() {
        let csv = b"\xEF\xBB\xBFMoves,DailyDate,FEN,PuzzleId\r\ne2e4 e7e5,2026-01-01,fen here,abc\r\n";
        let mut reader = reader_for(csv).unwrap();
        let c = reader.columns().clone();
        assert_eq!((c.moves, c.fen, c.puzzle_id, c.rating), (0, 2, 3, None));
        let batch = reader.next_batch(10).unwrap();
        let batch: Vec<TextRow> = batch.rows().collect();
        assert_eq!(batch.len(), 1);
        assert_eq!(batch[0].required(c.puzzle_id, "PuzzleId").unwrap(), "abc");
        assert_eq!(batch[0].required(c.moves, "Moves").unwrap(), "e2e4 e7e5");
        assert!(reader.next_batch(10).unwrap().is_empty());
    }

    #[test]
    fn zstd_is_sniffed_from_the_magic_bytes() {
        let plain = b"PuzzleId,FEN,Moves\nx,f,m\ny,f,m\n";
        let compressed = zstd::encode_all(&plain[..], 3).unwrap();
        let mut reader = reader_for(&compressed).unwrap();
        assert_eq!(reader.next_batch(1).unwrap().len(), 1);
        assert_eq!(reader.next_batch(5).unwrap().row(0).index, 1);
    }

    #[test]
    fn fatal_inputs_are_typed() {
        assert!(matches!(reader_for(b""), Err(InputError::Empty { .. })));
        assert!(matches!(reader_for(b"PuzzleId,FEN\nx,y\n"), Err(InputError::MissingColumn { column: "Moves", .. })));
        assert!(matches!(reader_for(b"\x00\x01\x02\xff\xfe,\x00\n"), Err(InputError::NotCsv { .. })));
        let plain = b"PuzzleId,FEN,Moves\nx,f,m\n".repeat(1000);
        let compressed = zstd::encode_all(&plain[..], 3).unwrap();
        let truncated = &compressed[..compressed.len() / 2];
        let result = reader_for(truncated).and_then(|mut r| loop {
            if r.next_batch(100)?.is_empty() {
                break Ok(());
            }
        });
        let err = result.unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
    }

    #[test]
    fn absent_fields_read_as_a_short_row_s_missing_ones() {
        let mut batch = RowBatch::default();
        batch.push_fields(7, [Some(&b"x"[..]), None, Some(b""), Some(b"\xff")]);
        let row = batch.row(0);
        assert_eq!((row.index, row.raw_field(0), row.raw_field(1), row.raw_field(2)), (7, Some("x"), None, Some("")));
        assert_eq!(row.required(1, "FEN"), Err(RowError::MissingField("FEN")));
        assert_eq!(row.required(3, "Moves"), Err(RowError::InvalidUtf8("Moves")));
        assert_eq!(row.raw_field(4), None);
    }

    /// The digits read off a field's bytes, and every other shape through
    /// the text: padded, signed, absent, empty, too long, not UTF-8.
    #[test]
    fn optional_ints_read_every_shape() {
        let mut batch = RowBatch::default();
        let fields: [Option<&[u8]>; 8] = [
            Some(b"1500"),
            Some(b" 42 "),
            Some(b"-7"),
            None,
            Some(b""),
            Some(b"12345678901"),
            Some(b"1\xff"),
            Some(b"0"),
        ];
        batch.push_fields(0, fields);
        let row = batch.row(0);
        let read = |column| row.optional_int(Some(column), "Rating");
        assert_eq!(
            (read(0), read(1), read(2), read(3), read(4)),
            (Ok(Some(1500)), Ok(Some(42)), Ok(Some(-7)), Ok(None), Ok(None))
        );
        assert_eq!(read(5), Err(RowError::BadNumber { field: "Rating", value: "12345678901".into() }));
        assert_eq!(read(6), Err(RowError::InvalidUtf8("Rating")));
        assert_eq!((read(7), row.optional_int(None, "Rating")), (Ok(Some(0)), Ok(None)));
    }

    #[test]
    fn short_rows_are_row_errors_not_fatal() {
        let mut reader = reader_for(b"PuzzleId,FEN,Moves,Rating\nx,f\ny,f,m,abc\nz,\xff\xfe,m\n").unwrap();
        let c = reader.columns().clone();
        let batch = reader.next_batch(10).unwrap();
        let batch: Vec<TextRow> = batch.rows().collect();
        assert_eq!(batch[2].required(c.fen, "FEN"), Err(RowError::InvalidUtf8("FEN")));
        assert_eq!(batch[2].required(c.puzzle_id, "PuzzleId"), Ok("z"));
        assert_eq!(batch[0].required(c.moves, "Moves"), Err(RowError::MissingField("Moves")));
        assert_eq!(
            batch[1].optional_int(c.rating, "Rating"),
            Err(RowError::BadNumber { field: "Rating", value: "abc".into() })
        );
    }
}
