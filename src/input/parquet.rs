//! Puzzle rows from Parquet: a file, or a directory of them, streamed row
//! group by row group. The columns are the CSV's, by name, or the Hugging
//! Face layout of the database (`Lichess/chess-puzzles`): `Themes` and
//! `OpeningTags` as lists of words, `GameId` for `GameUrl` (the link is
//! `https://lichess.org/<GameId>`), integers of any width. Each row becomes
//! the fields a CSV row would hold, so everything downstream is the same.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{Columns, InputError, RowBatch, COLUMN_NAMES};

/// Parquet's magic bytes, at both ends of a file.
pub const MAGIC: &[u8; 4] = b"PAR1";
/// The Hugging Face layout's game column, and what its ids become.
const GAME_ID: &str = "GameId";
const GAME_URL_PREFIX: &str = "https://lichess.org/";

/// One column of a row group, as the CSV field it stands for.
enum Field {
    Text(StringChunked),
    Number(Int64Chunked),
    Words(ListChunked),
}

impl Field {
    fn of(column: &Column, name: &str, input: &str) -> Result<Field, InputError> {
        let unreadable = || InputError::Unreadable {
            input: input.to_owned(),
            column: name.to_owned(),
            dtype: column.dtype().to_string(),
        };
        let dtype = column.dtype();
        Ok(match dtype {
            DataType::String => Field::Text(column.str().map_err(|_| unreadable())?.clone()),
            dtype if dtype.is_integer() => Field::Number(
                column.cast(&DataType::Int64).map_err(|_| unreadable())?.i64().map_err(|_| unreadable())?.clone(),
            ),
            DataType::List(item) if **item == DataType::String && matches!(name, "Themes" | "OpeningTags") => {
                Field::Words(column.list().map_err(|_| unreadable())?.clone())
            }
            DataType::Null => Field::Text(StringChunked::full_null(name.into(), column.len())),
            _ => return Err(unreadable()),
        })
    }

    /// Row `i` as CSV text in `buffer`; `false` where it is null (a null
    /// text or number; a null list reads as empty).
    fn text(&self, i: usize, buffer: &mut String) -> bool {
        buffer.clear();
        match self {
            Field::Text(values) => values.get(i).map(|v| buffer.push_str(v)).is_some(),
            Field::Number(values) => values.get(i).map(|v| buffer.push_str(&v.to_string())).is_some(),
            // A null list reads as an empty one, as the Python package reads it.
            Field::Words(lists) => match lists.get_as_series(i) {
                None => true,
                Some(words) => {
                    let words = words.str().expect("a list of text");
                    for (n, word) in (0..words.len()).filter_map(|w| words.get(w)).enumerate() {
                        if n > 0 {
                            buffer.push(' ');
                        }
                        buffer.push_str(word);
                    }
                    true
                }
            },
        }
    }
}

/// A row group read, and how far into it the batches have come.
struct Group {
    fields: Vec<Field>,
    rows: usize,
    next: usize,
}

struct OpenFile {
    path: PathBuf,
    metadata: Arc<polars_parquet::parquet::metadata::FileMetadata>,
    group: usize,
    offset: usize,
}

/// The rows of a Parquet file or directory, row group by row group.
pub struct ParquetRows {
    input: String,
    files: Vec<PathBuf>,
    /// Source column names, in the order of the fields a row holds.
    sources: Vec<String>,
    /// The source that is a `GameId` standing in for `GameUrl`.
    game_id: Option<usize>,
    file: usize,
    /// The open file: its metadata, its next row group and that group's
    /// first row.
    open: Option<OpenFile>,
    group: Option<Group>,
}

/// The Parquet files of `path`: itself, or a directory's `*.parquet` in
/// name order.
fn files_of(path: &Path, input: &str) -> Result<Vec<PathBuf>, InputError> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let entries = std::fs::read_dir(path).map_err(|source| InputError::Open { input: input.to_owned(), source })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    files.sort();
    if files.is_empty() {
        let detail = "the directory holds no .parquet file".to_owned();
        return Err(InputError::NotParquet { input: input.to_owned(), detail });
    }
    Ok(files)
}

/// The given columns of one row group of a Parquet file (`start` is the
/// group's first row, `rows` its size), decoding that group only: polars'
/// `RowGroups` strategy skips the groups outside the slice, where `None`
/// would decode each group before it.
pub(crate) fn read_row_group(
    file: File,
    metadata: &Arc<polars_parquet::parquet::metadata::FileMetadata>,
    start: usize,
    rows: usize,
    columns: Vec<String>,
) -> PolarsResult<DataFrame> {
    let mut reader = ParquetReader::new(file)
        .with_columns(Some(columns))
        .with_slice(Some((start, rows)))
        .read_parallel(ParallelStrategy::RowGroups);
    reader.set_metadata(metadata.clone());
    reader.finish()
}

fn parquet_error(input: &str, path: &Path, e: impl std::fmt::Display) -> InputError {
    InputError::NotParquet { input: input.to_owned(), detail: format!("{}: {e}", path.display()) }
}

impl ParquetRows {
    /// Opens the Parquet input at `path` and finds its columns.
    pub fn open(path: &Path, input: &str) -> Result<(ParquetRows, Columns), InputError> {
        let files = files_of(path, input)?;
        let first = &files[0];
        let file = File::open(first).map_err(|source| InputError::Open { input: input.to_owned(), source })?;
        let mut reader = ParquetReader::new(file);
        let schema = reader.schema().map_err(|e| parquet_error(input, first, e))?;
        let names: Vec<&str> = schema.iter_names().map(|n| n.as_str()).collect();
        let has_url = names.contains(&"GameUrl");
        let sources: Vec<String> = names
            .iter()
            .filter(|n| COLUMN_NAMES.contains(n) || (!has_url && **n == GAME_ID))
            .map(|n| n.to_string())
            .collect();
        let game_id = sources.iter().position(|n| n == GAME_ID);
        let as_csv: Vec<&str> = sources.iter().map(|n| if n == GAME_ID { "GameUrl" } else { n.as_str() }).collect();
        let columns =
            Columns::find(&as_csv).map_err(|column| InputError::MissingColumn { input: input.to_owned(), column })?;
        let rows = ParquetRows { input: input.to_owned(), files, sources, game_id, file: 0, open: None, group: None };
        Ok((rows, columns))
    }

    /// The fields each row has: one per column read.
    pub fn fields(&self) -> usize {
        self.sources.len()
    }

    /// The next row group, or `None` at the end of the input.
    fn next_group(&mut self) -> Result<Option<Group>, InputError> {
        loop {
            if self.open.is_none() {
                let Some(path) = self.files.get(self.file).cloned() else { return Ok(None) };
                let file =
                    File::open(&path).map_err(|source| InputError::Open { input: self.input.clone(), source })?;
                let metadata =
                    ParquetReader::new(file).get_metadata().map_err(|e| parquet_error(&self.input, &path, e))?.clone();
                self.open = Some(OpenFile { path, metadata, group: 0, offset: 0 });
            }
            let OpenFile { path, metadata, group, offset } = self.open.as_mut().expect("an open file");
            let Some(row_group) = metadata.row_groups.get(*group) else {
                self.open = None;
                self.file += 1;
                continue;
            };
            let (start, rows) = (*offset, row_group.num_rows());
            *group += 1;
            *offset += rows;
            let file = File::open(&*path).map_err(|source| InputError::Open { input: self.input.clone(), source })?;
            let frame = read_row_group(file, metadata, start, rows, self.sources.clone())
                .map_err(|e| parquet_error(&self.input, path, e))?;
            let fields = self
                .sources
                .iter()
                .map(|name| {
                    let column = frame.column(name).map_err(|e| parquet_error(&self.input, path, e))?;
                    Field::of(column, name, &self.input)
                })
                .collect::<Result<_, _>>()?;
            return Ok(Some(Group { fields, rows: frame.height(), next: 0 }));
        }
    }

    /// Adds up to `max` rows to `batch`, numbered from `*index`.
    pub fn fill(&mut self, batch: &mut RowBatch, max: usize, index: &mut u64) -> Result<(), InputError> {
        let mut texts: Vec<String> = vec![String::new(); self.sources.len()];
        while batch.len() < max {
            if self.group.as_ref().is_none_or(|g| g.next >= g.rows) {
                match self.next_group()? {
                    Some(group) => self.group = Some(group),
                    None => return Ok(()),
                }
                continue;
            }
            let group = self.group.as_mut().expect("a row group");
            let row = group.next;
            let present: Vec<bool> = group
                .fields
                .iter()
                .zip(texts.iter_mut())
                .enumerate()
                .map(|(i, (field, text))| {
                    let present = field.text(row, text);
                    if present && Some(i) == self.game_id {
                        text.insert_str(0, GAME_URL_PREFIX);
                    }
                    present
                })
                .collect();
            batch.push_fields(*index, texts.iter().zip(&present).map(|(t, &p)| p.then_some(t.as_bytes())));
            group.next += 1;
            *index += 1;
        }
        Ok(())
    }
}
