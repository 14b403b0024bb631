//! Writing: the two Parquet tables of spec §6 through polars' batched writer,
//! zstd-compressed, one row group per batch. Files are written under
//! temporary names in the output directory and renamed into place only when
//! the run succeeds.
//!
//! The column lists here are the source of truth that `schemas/*.json`
//! documents; `tests/pipeline.rs` checks written files against those files.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::annotate::{Analysis, Annotated, Outcome};
use crate::input::Columns;
use crate::manifest::{Manifest, PartRecord, ResumeRefused, FINISHED_MANIFEST_FILE, MANIFEST_FILE, STAGING_DIR};
use crate::pipeline::{OutputError, Sink};
use crate::tactics::Roles;
use shakmaty::{san::SanPlus, uci::UciMove};

pub const PUZZLES_FILE: &str = "puzzles.parquet";
pub const FIRES_FILE: &str = "fires.parquet";

fn list_of_strings() -> DataType {
    DataType::List(Box::new(DataType::String))
}

/// Columns of `puzzles.parquet`, in order.
pub fn puzzles_schema() -> Schema {
    let mut fields = vec![
        Field::new("row_number".into(), DataType::Int64),
        Field::new("puzzle_id".into(), DataType::String),
        Field::new("status".into(), DataType::String),
        Field::new("error".into(), DataType::String),
        Field::new("fen".into(), DataType::String),
        Field::new("moves".into(), DataType::String),
    ];
    for name in ["rating", "rating_deviation", "popularity", "nb_plays"] {
        fields.push(Field::new(name.into(), DataType::Int32));
    }
    fields.extend([
        Field::new("lichess_themes".into(), list_of_strings()),
        Field::new("game_url".into(), DataType::String),
        Field::new("opening_tags".into(), list_of_strings()),
        Field::new("plies".into(), DataType::Int32),
        Field::new("key_labels".into(), list_of_strings()),
        Field::new("follow_up_labels".into(), list_of_strings()),
        Field::new("puzzle_labels".into(), list_of_strings()),
    ]);
    Schema::from_iter(fields)
}

/// Columns of `fires.parquet`, in order: the fixed ones, then one per role.
pub fn fires_schema() -> Schema {
    let mut fields = vec![
        Field::new("row_number".into(), DataType::Int64),
        Field::new("puzzle_id".into(), DataType::String),
        Field::new("ply".into(), DataType::Int32),
        Field::new("uci".into(), DataType::String),
        Field::new("san".into(), DataType::String),
        Field::new("label".into(), DataType::String),
        Field::new("follow_up".into(), DataType::Boolean),
        Field::new("gain".into(), DataType::Int32),
    ];
    fields.extend(Roles::NAMES.iter().map(|&role| Field::new(role.into(), DataType::String)));
    Schema::from_iter(fields)
}

/// Writes `puzzles.parquet` and `fires.parquet` into a directory: as two
/// files, or (with `part_rows`) as two directories of part files.
pub struct ParquetSink {
    layout: Layout,
}

enum Layout {
    Files { dir: PathBuf, puzzles: TableFile, fires: TableFile },
    Parts(Parts),
}

type Writer = polars::io::parquet::write::BatchedWriter<BufWriter<File>>;

fn open_parquet(path: &Path, schema: &Schema, provenance: &[(String, String)]) -> Result<Writer, OutputError> {
    let file = File::create(path).map_err(|e| out_err(path, e))?;
    ParquetWriter::new(BufWriter::with_capacity(1 << 20, file))
        // Level 1: most of the size win of zstd at a fraction of the CPU.
        .with_compression(ParquetCompression::Zstd(polars_parquet::write::ZstdLevel::try_new(1).ok()))
        // Min, max and null count per page and per row group. Asking for
        // null counts alone is not an option: polars-parquet then still
        // writes a page index (column index), and marks every page in it as
        // all-null for want of a min value, so DuckDB prunes every page of
        // a filtered scan. With min and max the page index is true, and
        // `row_number` (monotone in input order) lets readers skip row
        // groups in range queries and joins (figures in the README).
        .with_statistics(StatisticsOptions::default())
        // Encoding stays on the writer thread: the workers are busy
        // classifying, and a --threads 1 run uses what it says.
        .set_parallel(false)
        // Readers take column types from the Arrow schema in the footer.
        // Polars would store its newest (string_view) types, which
        // pandas cannot convert; the classic large_string types read
        // everywhere and describe the same Parquet data.
        // After the schema, the run's provenance (`Options::provenance`).
        .with_key_value_metadata(Some(KeyValueMetadata::Static(
            std::iter::once(polars_parquet::write::schema_to_metadata_key(&schema.to_arrow(CompatLevel::oldest())))
                .chain(provenance.iter().map(|(key, value)| polars_parquet::write::KeyValue {
                    key: key.clone(),
                    value: Some(value.clone()),
                }))
                .collect(),
        )))
        .batched(schema)
        .map_err(|e| out_err(path, e))
}

fn write_frame(writer: &mut Writer, path: &Path, df: &DataFrame) -> Result<(), OutputError> {
    if df.height() > 0 {
        writer.write_batch(df).map_err(|e| out_err(path, e))?;
    }
    Ok(())
}

fn close(writer: Writer, path: &Path) -> Result<(), OutputError> {
    writer.finish().map(drop).map_err(|e| out_err(path, e))
}

/// One table as one file, written under a temporary name and renamed into
/// place when the run succeeds.
struct TableFile {
    tmp: PathBuf,
    target: PathBuf,
    writer: Writer,
}

impl TableFile {
    fn create(
        dir: &Path,
        name: &str,
        schema: &Schema,
        provenance: &[(String, String)],
    ) -> Result<TableFile, OutputError> {
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let writer = open_parquet(&tmp, schema, provenance)?;
        Ok(TableFile { tmp, target: dir.join(name), writer })
    }

    fn finish(self) -> Result<(), OutputError> {
        close(self.writer, &self.tmp)?;
        // A previous run may have left a directory of parts under the name.
        if self.target.is_dir() {
            fs::remove_dir_all(&self.target).map_err(|e| out_err(&self.target, e))?;
        }
        fs::rename(&self.tmp, &self.target).map_err(|e| out_err(&self.target, e))
    }

    fn abort(self) {
        drop(self.writer);
        let _ = fs::remove_file(&self.tmp);
    }
}

/// Both tables as directories of parts, each part the same input rows in
/// both, recorded in a manifest as it completes (see [`crate::manifest`]):
/// a stopped run keeps its completed parts, and `--resume` finishes it.
struct Parts {
    dir: PathBuf,
    staging: PathBuf,
    part_rows: u64,
    provenance: Vec<(String, String)>,
    manifest: Manifest,
    open: Option<OpenPart>,
}

/// The part being written: its record so far and one writer per table.
struct OpenPart {
    record: PartRecord,
    puzzles: Writer,
    fires: Writer,
}

impl Parts {
    fn create(
        dir: &Path,
        part_rows: u64,
        provenance: Vec<(String, String)>,
        fresh: Manifest,
        resume: bool,
    ) -> Result<Parts, OutputError> {
        let staging = dir.join(STAGING_DIR);
        let manifest_path = staging.join(MANIFEST_FILE);
        let manifest = if resume {
            let then = Manifest::read(&manifest_path).map_err(|e| out_err(dir, e))?;
            then.check_resumable(&fresh).map_err(|e| out_err(dir, e))?;
            for record in &then.parts {
                for table in [PUZZLES_FILE, FIRES_FILE] {
                    let part = staging.join(table).join(part_name(record.part));
                    if !part.is_file() {
                        return Err(out_err(dir, ResumeRefused(format!("{} is missing", part.display()))));
                    }
                }
            }
            then
        } else {
            if staging.exists() {
                fs::remove_dir_all(&staging).map_err(|e| out_err(&staging, e))?;
            }
            for table in [PUZZLES_FILE, FIRES_FILE] {
                fs::create_dir_all(staging.join(table)).map_err(|e| out_err(&staging, e))?;
            }
            fresh.write(&manifest_path).map_err(|e| out_err(&manifest_path, e))?;
            fresh
        };
        Ok(Parts { dir: dir.to_owned(), staging, part_rows, provenance, manifest, open: None })
    }

    /// A part's file in the staging directory: under a temporary name
    /// until the part is complete.
    fn path(&self, table: &str, part: usize, done: bool) -> PathBuf {
        let name = part_name(part);
        self.staging.join(table).join(if done { name } else { format!("{name}.tmp") })
    }

    fn write(&mut self, puzzles: &DataFrame, fires: &DataFrame, input_rows: u64) -> Result<(), OutputError> {
        let part = self.manifest.parts.len();
        let (puzzles_path, fires_path) = (self.path(PUZZLES_FILE, part, false), self.path(FIRES_FILE, part, false));
        if self.open.is_none() {
            let record = PartRecord {
                part,
                first_row: self.manifest.rows_done() + 1,
                input_rows: 0,
                puzzles_rows: 0,
                fires_rows: 0,
            };
            let puzzles_writer = open_parquet(&puzzles_path, &puzzles_schema(), &self.provenance)?;
            let fires_writer = open_parquet(&fires_path, &fires_schema(), &self.provenance)?;
            self.open = Some(OpenPart { record, puzzles: puzzles_writer, fires: fires_writer });
        }
        let open = self.open.as_mut().expect("an open part");
        write_frame(&mut open.puzzles, &puzzles_path, puzzles)?;
        write_frame(&mut open.fires, &fires_path, fires)?;
        open.record.input_rows += input_rows;
        open.record.puzzles_rows += puzzles.height() as u64;
        open.record.fires_rows += fires.height() as u64;
        if open.record.input_rows >= self.part_rows {
            self.close_part()?;
        }
        Ok(())
    }

    /// Completes the open part: its files under their final names, then its
    /// record in the manifest.
    fn close_part(&mut self) -> Result<(), OutputError> {
        let Some(open) = self.open.take() else { return Ok(()) };
        let part = open.record.part;
        for (table, writer) in [(PUZZLES_FILE, open.puzzles), (FIRES_FILE, open.fires)] {
            let (tmp, done) = (self.path(table, part, false), self.path(table, part, true));
            close(writer, &tmp)?;
            fs::rename(&tmp, &done).map_err(|e| out_err(&done, e))?;
        }
        self.manifest.parts.push(open.record);
        let path = self.staging.join(MANIFEST_FILE);
        self.manifest.write(&path).map_err(|e| out_err(&path, e))
    }

    fn finish(mut self) -> Result<(), OutputError> {
        self.close_part()?;
        if self.manifest.parts.is_empty() {
            // An empty input still gives two readable (empty) tables.
            let (puzzles, fires) =
                (DataFrame::empty_with_schema(&puzzles_schema()), DataFrame::empty_with_schema(&fires_schema()));
            self.write(&puzzles, &fires, 0)?;
            self.close_part()?;
        }
        self.manifest.complete = true;
        for table in [PUZZLES_FILE, FIRES_FILE] {
            let target = self.dir.join(table);
            if target.is_dir() {
                fs::remove_dir_all(&target).map_err(|e| out_err(&target, e))?;
            } else if target.exists() {
                fs::remove_file(&target).map_err(|e| out_err(&target, e))?;
            }
            fs::rename(self.staging.join(table), &target).map_err(|e| out_err(&target, e))?;
        }
        let marker = self.dir.join(FINISHED_MANIFEST_FILE);
        self.manifest.write(&marker).map_err(|e| out_err(&marker, e))?;
        fs::remove_dir_all(&self.staging).map_err(|e| out_err(&self.staging, e))
    }

    /// Removes the part being written; the completed ones stay.
    fn drop_open_part(&mut self) {
        if let Some(open) = self.open.take() {
            let part = open.record.part;
            drop(open);
            for table in [PUZZLES_FILE, FIRES_FILE] {
                let _ = fs::remove_file(self.path(table, part, false));
            }
        }
    }
}

fn part_name(part: usize) -> String {
    format!("part-{part:05}.parquet")
}

fn out_err(path: &Path, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> OutputError {
    OutputError::new(path.display(), e)
}

impl ParquetSink {
    /// Creates the output directory (if needed) and starts both tables.
    /// With `part_rows`, each table is a directory of part files of about
    /// that many input rows each (`puzzles.parquet/part-00000.parquet`, …),
    /// the parts recorded in `manifest` as they complete; `resume` keeps an
    /// interrupted run's completed parts instead (refused unless `manifest`
    /// describes the same run). Every file carries `provenance` as
    /// key-value metadata.
    pub fn create(
        dir: &Path,
        part_rows: Option<u64>,
        provenance: Vec<(String, String)>,
        manifest: Manifest,
        resume: bool,
    ) -> Result<ParquetSink, OutputError> {
        fs::create_dir_all(dir).map_err(|e| out_err(dir, format!("cannot create output directory: {e}")))?;
        let layout = match part_rows {
            Some(rows) => Layout::Parts(Parts::create(dir, rows.max(1), provenance, manifest, resume)?),
            None if resume => {
                return Err(out_err(dir, ResumeRefused("only a part-file run (--part-rows) can be resumed".into())))
            }
            None => {
                let puzzles = TableFile::create(dir, PUZZLES_FILE, &puzzles_schema(), &provenance)?;
                let fires = match TableFile::create(dir, FIRES_FILE, &fires_schema(), &provenance) {
                    Ok(f) => f,
                    Err(e) => {
                        puzzles.abort();
                        return Err(e);
                    }
                };
                Layout::Files { dir: dir.to_owned(), puzzles, fires }
            }
        };
        Ok(ParquetSink { layout })
    }
}

impl Sink for ParquetSink {
    /// The two tables' rows for one batch.
    type Prepared = (DataFrame, DataFrame);

    fn prepare(batch: &[Annotated], columns: &Columns) -> Result<Self::Prepared, OutputError> {
        let (puzzles, fires) = rayon::join(|| puzzles_frame(batch, columns), || fires_frame(batch, columns));
        let frame_err = |e: PolarsError| OutputError::new("<batch>", e);
        Ok((puzzles.map_err(frame_err)?, fires.map_err(frame_err)?))
    }

    fn write(&mut self, (puzzles, fires): Self::Prepared, input_rows: u64) -> Result<(), OutputError> {
        match &mut self.layout {
            Layout::Files { puzzles: p, fires: f, .. } => {
                write_frame(&mut p.writer, &p.tmp, &puzzles)?;
                write_frame(&mut f.writer, &f.tmp, &fires)
            }
            Layout::Parts(parts) => parts.write(&puzzles, &fires, input_rows),
        }
    }

    fn finish(self) -> Result<(), OutputError> {
        match self.layout {
            Layout::Files { dir, puzzles, fires } => {
                if let Err(e) = puzzles.finish() {
                    fires.abort();
                    return Err(e);
                }
                fires.finish()?;
                // A part-file run's marker would describe other tables now.
                let marker = dir.join(FINISHED_MANIFEST_FILE);
                if marker.exists() {
                    fs::remove_file(&marker).map_err(|e| out_err(&marker, e))?;
                }
                Ok(())
            }
            Layout::Parts(parts) => parts.finish(),
        }
    }

    fn abort(self) {
        match self.layout {
            Layout::Files { puzzles, fires, .. } => {
                puzzles.abort();
                fires.abort();
            }
            Layout::Parts(parts) => {
                drop(parts.open);
                let _ = fs::remove_dir_all(&parts.staging);
            }
        }
    }

    fn rows_done(&self) -> u64 {
        match &self.layout {
            Layout::Files { .. } => 0,
            Layout::Parts(parts) => parts.manifest.rows_done(),
        }
    }

    fn interrupt(self) -> String {
        match self.layout {
            Layout::Parts(mut parts) if !parts.manifest.parts.is_empty() => {
                parts.drop_open_part();
                let rows = parts.manifest.rows_done();
                format!(
                    "kept {} completed parts (input rows 1 to {rows}) in {}; `--resume` finishes the run",
                    parts.manifest.parts.len(),
                    parts.staging.display()
                )
            }
            layout => {
                ParquetSink { layout }.abort();
                "the partial output was removed, nothing was kept".to_owned()
            }
        }
    }
}

/// A square's name without allocating (`e7`).
fn square_name(square: shakmaty::Square) -> &'static str {
    const NAMES: [&str; 64] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a3", "b3",
        "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5",
        "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7",
        "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
    ];
    NAMES[square as usize]
}

fn str_column<'a>(name: &str, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Column {
    let mut builder = StringChunkedBuilder::new(name.into(), len);
    for v in values {
        builder.append_option(v);
    }
    builder.finish().into_column()
}

fn list_column<'a, I>(name: &str, len: usize, values: impl Iterator<Item = Option<I>>) -> Column
where
    I: Iterator<Item = &'a str>,
{
    let mut builder = ListStringChunkedBuilder::new(name.into(), len, len * 4);
    for v in values {
        match v {
            Some(items) => builder.append_values_iter(items),
            None => builder.append_null(),
        }
    }
    builder.finish().into_column()
}

fn field(a: &Annotated, column: Option<usize>) -> Option<&str> {
    a.row.field(column)
}

/// A space-separated field as a list; null when the input has no such column.
/// Splitting on the space byte alone (memchr-fast) is what the format
/// promises; runs of spaces give no empty words.
fn words(a: &Annotated, column: Option<usize>) -> Option<impl Iterator<Item = &str>> {
    column?;
    Some(field(a, column).unwrap_or("").split(' ').filter(|w| !w.is_empty()))
}

fn analysis(a: &Annotated) -> Option<&Analysis> {
    match &a.outcome {
        Outcome::Ok(an) => Some(an),
        _ => None,
    }
}

fn puzzles_frame(batch: &[Annotated], c: &Columns) -> PolarsResult<DataFrame> {
    let rows: Vec<&Annotated> = batch.iter().filter(|a| !matches!(a.outcome, Outcome::Filtered)).collect();
    let n = rows.len();
    let columns = vec![
        Int64Chunked::from_iter_values("row_number".into(), rows.iter().map(|a| a.row.index as i64 + 1)).into_column(),
        str_column("puzzle_id", n, rows.iter().map(|a| a.row.puzzle_id(c))),
        str_column("status", n, rows.iter().map(|a| Some(if analysis(a).is_some() { "ok" } else { "error" }))),
        {
            let mut builder = StringChunkedBuilder::new("error".into(), n);
            for a in &rows {
                match &a.outcome {
                    Outcome::Error(e) => builder.append_value(e.to_string()),
                    _ => builder.append_null(),
                }
            }
            builder.finish().into_column()
        },
        str_column("fen", n, rows.iter().map(|a| field(a, Some(c.fen)))),
        str_column("moves", n, rows.iter().map(|a| field(a, Some(c.moves)))),
        Int32Chunked::from_iter_options("rating".into(), rows.iter().map(|a| a.numbers.rating)).into_column(),
        Int32Chunked::from_iter_options("rating_deviation".into(), rows.iter().map(|a| a.numbers.rating_deviation))
            .into_column(),
        Int32Chunked::from_iter_options("popularity".into(), rows.iter().map(|a| a.numbers.popularity)).into_column(),
        Int32Chunked::from_iter_options("nb_plays".into(), rows.iter().map(|a| a.numbers.nb_plays)).into_column(),
        list_column("lichess_themes", n, rows.iter().map(|a| words(a, c.themes))),
        str_column("game_url", n, rows.iter().map(|a| field(a, c.game_url))),
        list_column("opening_tags", n, rows.iter().map(|a| words(a, c.opening_tags))),
        Int32Chunked::from_iter_options("plies".into(), rows.iter().map(|a| analysis(a).map(|an| an.plies() as i32)))
            .into_column(),
        list_column(
            "key_labels",
            n,
            rows.iter().map(|a| Some(analysis(a).into_iter().flat_map(|an| an.labels(false)).map(|l| l.name()))),
        ),
        list_column(
            "follow_up_labels",
            n,
            rows.iter().map(|a| Some(analysis(a).into_iter().flat_map(|an| an.labels(true)).map(|l| l.name()))),
        ),
        list_column(
            "puzzle_labels",
            n,
            rows.iter().map(|a| {
                Some(analysis(a).map(|an| an.puzzle_labels).unwrap_or_default().into_iter().map(|l| l.name()))
            }),
        ),
    ];
    DataFrame::new(n, columns)
}

fn fires_frame(batch: &[Annotated], c: &Columns) -> PolarsResult<DataFrame> {
    // (row, its analysis, the fire, the fire's judged move)
    type FireRow<'a> = (&'a Annotated, &'a Analysis, &'a crate::tactics::Fire, &'a (UciMove, SanPlus));
    let fires: Vec<FireRow> = batch
        .iter()
        .filter_map(|a| match &a.outcome {
            Outcome::Ok(an) => Some(an.fires.iter().zip(&an.fire_moves).map(move |(f, m)| (a, an, f, m))),
            _ => None,
        })
        .flatten()
        .collect();
    let n = fires.len();
    let mut text = String::new();
    let mut uci = StringChunkedBuilder::new("uci".into(), n);
    let mut san = StringChunkedBuilder::new("san".into(), n);
    for (_, _, _, (fire_uci, fire_san)) in &fires {
        text.clear();
        fire_uci.append_to_string(&mut text);
        uci.append_value(&text);
        text.clear();
        fire_san.append_to_string(&mut text);
        san.append_value(&text);
    }
    let mut columns = vec![
        Int64Chunked::from_iter_values("row_number".into(), fires.iter().map(|(a, _, _, _)| a.row.index as i64 + 1))
            .into_column(),
        str_column("puzzle_id", n, fires.iter().map(|(a, _, _, _)| a.row.puzzle_id(c))),
        Int32Chunked::from_iter_values("ply".into(), fires.iter().map(|(_, _, f, _)| i32::from(f.ply))).into_column(),
        uci.finish().into_column(),
        san.finish().into_column(),
        str_column("label", n, fires.iter().map(|(_, _, f, _)| Some(f.label.name()))),
        BooleanChunked::from_iter_values("follow_up".into(), fires.iter().map(|(_, _, f, _)| f.follow_up))
            .into_column(),
        Int32Chunked::from_iter_options("gain".into(), fires.iter().map(|(_, _, f, _)| f.gain.map(i32::from)))
            .into_column(),
    ];
    let mut roles: Vec<StringChunkedBuilder> =
        Roles::NAMES.iter().map(|&role| StringChunkedBuilder::new(role.into(), n)).collect();
    for (_, _, f, _) in &fires {
        for (builder, (_, square)) in roles.iter_mut().zip(f.roles.iter()) {
            builder.append_option(square.map(square_name));
        }
    }
    columns.extend(roles.into_iter().map(|b| b.finish().into_column()));
    DataFrame::new(n, columns)
}
