//! Writing: the two Parquet tables of spec §6, zstd-compressed, one row
//! group per batch. Files are written under temporary names in the output
//! directory and renamed into place only when the run succeeds.
//!
//! Batches become compressed Parquet pages on the workers, straight from
//! the annotated rows (`pages`: Koga knows what each column holds, so it
//! picks each column's encoding from its [`Kind`], with no Arrow array in
//! between); the writer thread only appends them and keeps the footer
//! (polars-parquet's file writer).
//!
//! The columns are declared in [`crate::table`], the source of truth that
//! `schemas/*.json` documents; `tests/pipeline.rs` checks written files
//! against those files.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use polars::error::PolarsError;
use polars::prelude::{CompatLevel, DataType, Field, Schema, SchemaExt};
use polars_parquet::parquet::compression::Compression;
use polars_parquet::parquet::metadata::Descriptor;
use polars_parquet::parquet::page::{CompressedDataPage, CompressedDictPage, DataPageHeader, DataPageHeaderV1};
use polars_parquet::parquet::CowBuffer;
use polars_parquet::write::{
    schema_to_metadata_key, to_parquet_schema, CompressedPage, CompressionOptions, DynIter, DynStreamingIterator,
    Encoding, FallibleStreamingIterator, FileWriter, KeyValue, StatisticsOptions, Version, WriteOptions, ZstdLevel,
};

mod pages;

use crate::annotate::Annotated;
use crate::input::Columns;
use crate::manifest::{Manifest, PartRecord, ResumeRefused, FINISHED_MANIFEST_FILE, MANIFEST_FILE, STAGING_DIR};
use crate::pipeline::{OutputError, Sink};
use crate::table::{self, fires_chunk, fires_columns, puzzles_chunk, Kind, PUZZLES_COLUMNS};
use pages::{Column, PageBuilder};

pub const PUZZLES_FILE: &str = "puzzles.parquet";
pub const FIRES_FILE: &str = "fires.parquet";

/// A column's type as polars declares it.
fn dtype(kind: Kind) -> DataType {
    match kind {
        Kind::Int64 => DataType::Int64,
        Kind::Int32 => DataType::Int32,
        Kind::Bool | Kind::NullableBool => DataType::Boolean,
        Kind::Text | Kind::RepeatedText | Kind::Vocabulary => DataType::String,
        Kind::Words | Kind::Labels | Kind::Squares | Kind::Themes => DataType::List(Box::new(DataType::String)),
        Kind::Plies => DataType::List(Box::new(DataType::Int32)),
    }
}

fn schema_of(columns: &[(&str, Kind)]) -> Schema {
    Schema::from_iter(columns.iter().map(|&(name, kind)| Field::new(name.into(), dtype(kind))))
}

/// Columns of `puzzles.parquet`, in order.
pub fn puzzles_schema() -> Schema {
    schema_of(&PUZZLES_COLUMNS)
}

/// Columns of `fires.parquet`, in order: the fixed ones, then one per role.
pub fn fires_schema() -> Schema {
    schema_of(&fires_columns())
}

/// One batch's rows of a table as encoded columns.
type Chunk = table::Chunk<Column>;

/// Writes `puzzles.parquet` and `fires.parquet` into a directory: as two
/// files, or (with `part_rows`) as two directories of part files.
pub struct ParquetSink {
    layout: Layout,
}

// One per run, never moved in a loop: its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Layout {
    Files { dir: PathBuf, puzzles: TableFile, fires: TableFile },
    Parts(Parts),
}

/// An open Parquet file: the polars-parquet writer and the footer's
/// key-value metadata (the columns' types are [`TableTypes`]).
struct Writer {
    file: FileWriter<BufWriter<File>>,
    footer: Vec<KeyValue>,
}

/// The Parquet leaf of each column of a table, and whether its pages are
/// compressed: the same for every file of it.
struct TableTypes {
    descriptors: Vec<Descriptor>,
    compressed: Vec<bool>,
}

/// Columns written uncompressed: zstd shrinks them by a fifth at most (dev
/// set: dictionary keys of labels, Lichess's themes, popularity, gains and
/// some roles' squares, bit-packed at near their entropy; ratings and play
/// counts as bit-packed differences; plain booleans) while it spends on
/// them about 20 instructions a byte (the key and follow-up labels: 17 %
/// and 20 % smaller, 10 KB of 1.3 MB on the dev set, for 60 instructions a
/// puzzle).
const PUZZLES_UNCOMPRESSED: [&str; 9] = [
    "status",
    "error",
    "popularity",
    "lichess_themes",
    "themes",
    "key_labels",
    "follow_up_labels",
    "rating",
    "nb_plays",
];
const FIRES_UNCOMPRESSED: [&str; 8] = ["label", "follow_up", "gain", "lichess", "victim", "attacker", "moved", "mated"];

impl TableTypes {
    fn of(columns: &[(&str, Kind)], uncompressed: &[&str]) -> TableTypes {
        let schema = schema_of(columns).to_arrow(CompatLevel::newest());
        let descriptor = to_parquet_schema(&schema).expect("Koga's columns have Parquet types");
        // Every column is one leaf: a value, or a list of values.
        assert_eq!(descriptor.columns().len(), columns.len());
        TableTypes {
            descriptors: descriptor.columns().iter().map(|c| c.descriptor.clone()).collect(),
            compressed: columns.iter().map(|(name, _)| !uncompressed.contains(name)).collect(),
        }
    }

    /// `engine`: with the engine stage's columns.
    fn puzzles(engine: bool) -> &'static TableTypes {
        static TYPES: OnceLock<TableTypes> = OnceLock::new();
        static WITH_ENGINE: OnceLock<TableTypes> = OnceLock::new();
        match engine {
            false => TYPES.get_or_init(|| TableTypes::of(&PUZZLES_COLUMNS, &PUZZLES_UNCOMPRESSED)),
            true => WITH_ENGINE.get_or_init(|| TableTypes::of(&table::puzzles_columns(true), &PUZZLES_UNCOMPRESSED)),
        }
    }

    fn fires() -> &'static TableTypes {
        static TYPES: OnceLock<TableTypes> = OnceLock::new();
        TYPES.get_or_init(|| TableTypes::of(&fires_columns(), &FIRES_UNCOMPRESSED))
    }
}

/// One batch's rows of a table as a Parquet row group, encoded and
/// compressed: each column's pages, ready to be appended.
pub struct RowGroup {
    rows: usize,
    columns: Vec<Vec<CompressedPage>>,
}

fn write_options() -> WriteOptions {
    WriteOptions {
        // Min, max and null count per page and per row group. Asking for
        // null counts alone is not an option: polars-parquet then still
        // writes a page index (column index), and marks every page in it as
        // all-null for want of a min value, so DuckDB prunes every page of
        // a filtered scan. With min and max the page index is true, and
        // `row_number` (monotone in input order) lets readers skip row
        // groups in range queries and joins (figures in the README).
        statistics: StatisticsOptions::default(),
        // Pages come compressed ([`compress_column`]); the footer says how.
        compression: CompressionOptions::Zstd(ZstdLevel::try_new(ZSTD_LEVEL).ok()),
        version: Version::V1,
        data_page_size: None,
    }
}

/// The file writer's buffer: page headers and small pages gather there;
/// a page this large or larger (a batch's FEN, moves, URLs) goes to the
/// file without being copied into it.
const WRITE_BUFFER: usize = 64 << 10;

fn open_parquet(path: &Path, columns: &[(&str, Kind)], provenance: &[(String, String)]) -> Result<Writer, OutputError> {
    let file = crate::interrupt::create_temporary(path).map_err(|e| out_err(path, e))?;
    let schema = schema_of(columns);
    let options = write_options();
    let file = FileWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, file),
        schema.to_arrow(CompatLevel::newest()),
        options,
    )
    .map_err(|e| out_err(path, e))?;
    // Readers take column types from the Arrow schema in the footer. The
    // classic large_string types read everywhere (pandas cannot convert
    // the newer string_view) and describe the same Parquet data. After the
    // schema, the run's provenance (`Options::provenance`).
    let footer = std::iter::once(schema_to_metadata_key(&schema.to_arrow(CompatLevel::oldest())))
        .chain(provenance.iter().map(|(key, value)| KeyValue { key: key.clone(), value: Some(value.clone()) }))
        .collect();
    Ok(Writer { file, footer })
}

/// Compresses a chunk's columns as one row group. It runs on the worker
/// that built the chunk: the writer thread only appends finished pages, so
/// it holds no core to itself however many workers run (compression is
/// deterministic: the bytes are the same whichever thread makes them).
fn encode(chunk: Chunk, table: &TableTypes) -> Result<RowGroup, OutputError> {
    let fail = |e: PolarsError| OutputError::new("<encoding>", e);
    let mut columns = Vec::with_capacity(chunk.arrays.len());
    for ((column, descriptor), &compressed) in chunk.arrays.into_iter().zip(&table.descriptors).zip(&table.compressed) {
        columns.push(compress_column(column, descriptor, compressed).map_err(fail)?);
    }
    Ok(RowGroup { rows: chunk.rows, columns })
}

thread_local! {
    /// The worker's zstd context, reused for every page it compresses
    /// (making one per page zeroes its tables each time); a frame is the
    /// same bytes whichever context of the same level makes it.
    static ZSTD: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> = const { std::cell::RefCell::new(None) };
}

/// Level 1: most of the size win of zstd at a fraction of the CPU.
const ZSTD_LEVEL: i32 = 1;

/// A hash table of 2^17 positions (level 1 sizes it to the page, 2^14 at
/// most): more matches found in the large pages (FEN, moves, URLs), for
/// files 1.5 % smaller at the same cost (dev set).
const ZSTD_HASH_LOG: u32 = 17;

/// Matches of seven bytes at least (level 1: five): fewer, longer
/// sequences to encode (the short ones in FENs and moves saved little),
/// for 5 % fewer instructions in zstd and files 0.4 % larger (dev set).
const ZSTD_MIN_MATCH: u32 = 7;

fn zstd(input: &[u8]) -> Result<Vec<u8>, PolarsError> {
    ZSTD.with_borrow_mut(|context| {
        if context.is_none() {
            let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
            c.set_parameter(zstd::zstd_safe::CParameter::HashLog(ZSTD_HASH_LOG))?;
            c.set_parameter(zstd::zstd_safe::CParameter::MinMatch(ZSTD_MIN_MATCH))?;
            *context = Some(c);
        }
        context.as_mut().expect("a zstd context").compress(input)
    })
    .map_err(|e| PolarsError::ComputeError(format!("zstd: {e}").into()))
}

/// A column's pages, compressed (or not: `compressed`; a column chunk's
/// pages share one codec): its dictionary page, if any, then its data page.
fn compress_column(
    column: Column,
    descriptor: &Descriptor,
    compressed: bool,
) -> Result<Vec<CompressedPage>, PolarsError> {
    let mut pages = Vec::with_capacity(2);
    let codec = if compressed { Compression::Zstd } else { Compression::Uncompressed };
    if let Some((entries, count)) = column.dictionary {
        let length = entries.len();
        let body = if compressed { zstd(&entries)? } else { entries };
        pages.push(CompressedPage::Dict(CompressedDictPage::new(CowBuffer::Owned(body), codec, length, count, false)));
    }
    let header = DataPageHeader::V1(DataPageHeaderV1 {
        num_values: column.num_values as i32,
        encoding: column.encoding.into(),
        definition_level_encoding: Encoding::Rle.into(),
        repetition_level_encoding: Encoding::Rle.into(),
        statistics: Some(column.statistics),
    });
    let (mut data, start) = (column.data, column.start);
    let length = data.len() - start;
    let body = if compressed {
        zstd(&data[start..])?
    } else {
        data.drain(..start);
        data
    };
    pages.push(CompressedPage::Data(CompressedDataPage::new(
        header,
        CowBuffer::Owned(body),
        codec,
        length,
        descriptor.clone(),
        column.rows,
    )));
    Ok(pages)
}

/// A column's finished pages, handed to the file writer one by one.
struct Pages {
    pages: std::vec::IntoIter<CompressedPage>,
    current: Option<CompressedPage>,
}

impl FallibleStreamingIterator for Pages {
    type Item = CompressedPage;
    type Error = PolarsError;

    fn advance(&mut self) -> Result<(), PolarsError> {
        self.current = self.pages.next();
        Ok(())
    }

    fn get(&self) -> Option<&CompressedPage> {
        self.current.as_ref()
    }
}

/// Appends a row group of finished pages.
fn write_row_group(writer: &mut Writer, path: &Path, group: RowGroup) -> Result<(), OutputError> {
    if group.rows == 0 {
        return Ok(());
    }
    let columns = group
        .columns
        .into_iter()
        .map(|pages| Ok(DynStreamingIterator::new(Pages { pages: pages.into_iter(), current: None })));
    writer.file.write(group.rows as u64, DynIter::new(columns)).map_err(|e| out_err(path, e))
}

fn close(mut writer: Writer, path: &Path) -> Result<(), OutputError> {
    writer.file.end(Some(writer.footer)).map(drop).map_err(|e| out_err(path, e))
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
        columns: &[(&str, Kind)],
        provenance: &[(String, String)],
    ) -> Result<TableFile, OutputError> {
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let writer = open_parquet(&tmp, columns, provenance)?;
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
    /// The columns of `puzzles` (with the engine's or not).
    puzzles_columns: Vec<(&'static str, Kind)>,
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
        puzzles_columns: Vec<(&'static str, Kind)>,
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
        Ok(Parts { dir: dir.to_owned(), staging, part_rows, provenance, manifest, open: None, puzzles_columns })
    }

    /// A part's file in the staging directory: under a temporary name
    /// until the part is complete.
    fn path(&self, table: &str, part: usize, done: bool) -> PathBuf {
        let name = part_name(part);
        self.staging.join(table).join(if done { name } else { format!("{name}.tmp") })
    }

    fn write(&mut self, puzzles: RowGroup, fires: RowGroup, input_rows: u64) -> Result<(), OutputError> {
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
            let puzzles_writer = open_parquet(&puzzles_path, &self.puzzles_columns, &self.provenance)?;
            let fires_writer = open_parquet(&fires_path, &fires_columns(), &self.provenance)?;
            self.open = Some(OpenPart { record, puzzles: puzzles_writer, fires: fires_writer });
        }
        let open = self.open.as_mut().expect("an open part");
        open.record.input_rows += input_rows;
        open.record.puzzles_rows += puzzles.rows as u64;
        open.record.fires_rows += fires.rows as u64;
        write_row_group(&mut open.puzzles, &puzzles_path, puzzles)?;
        write_row_group(&mut open.fires, &fires_path, fires)?;
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
            let empty = || RowGroup { rows: 0, columns: Vec::new() };
            self.write(empty(), empty(), 0)?;
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

/// Whether `path` is the output directory of `koga annotate` (it holds
/// `puzzles.parquet`); any other directory is puzzle Parquet to read (the
/// Hugging Face layout of the database, say).
pub fn is_output_dir(path: &Path) -> bool {
    path.join(PUZZLES_FILE).exists()
}

/// Refuses an output directory that already holds files (an earlier run's
/// tables, say), naming what it holds: a run replaces them only when told
/// to (`--force`), or finishes them (`--resume`).
pub fn refuse_to_overwrite(dir: &Path) -> Result<(), OutputError> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    if names.is_empty() {
        return Ok(());
    }
    names.sort();
    let shown = names.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ");
    let more = if names.len() > 3 { format!(" and {} more", names.len() - 3) } else { String::new() };
    let resume = if names.iter().any(|n| n == STAGING_DIR) { ", --resume to finish the interrupted run" } else { "" };
    Err(out_err(
        dir,
        format!(
            "the output directory is not empty ({shown}{more}); nothing was changed: \
             pass --force to replace its tables{resume}, or choose another --out"
        ),
    ))
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
        engine: bool,
    ) -> Result<ParquetSink, OutputError> {
        let puzzles_columns = table::puzzles_columns(engine);
        fs::create_dir_all(dir).map_err(|e| out_err(dir, format!("cannot create output directory: {e}")))?;
        let layout = match part_rows {
            Some(rows) => {
                Layout::Parts(Parts::create(dir, rows.max(1), provenance, manifest, resume, puzzles_columns)?)
            }
            None if resume => {
                return Err(out_err(dir, ResumeRefused("only a part-file run (--part-rows) can be resumed".into())))
            }
            None => {
                let puzzles = TableFile::create(dir, PUZZLES_FILE, &puzzles_columns, &provenance)?;
                let fires = match TableFile::create(dir, FIRES_FILE, &fires_columns(), &provenance) {
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
    /// The two tables' row groups for one batch, encoded and compressed.
    type Prepared = (RowGroup, RowGroup);

    fn prepare(batch: &[Annotated], columns: &Columns) -> Result<Self::Prepared, OutputError> {
        let (puzzles, fires) = rayon::join(
            || encode(puzzles_chunk(&PageBuilder, batch, columns), TableTypes::puzzles(columns.engine)),
            || encode(fires_chunk(&PageBuilder, batch, columns), TableTypes::fires()),
        );
        Ok((puzzles?, fires?))
    }

    fn write(&mut self, (puzzles, fires): Self::Prepared, input_rows: u64) -> Result<(), OutputError> {
        match &mut self.layout {
            Layout::Files { puzzles: p, fires: f, .. } => {
                write_row_group(&mut p.writer, &p.tmp, puzzles)?;
                write_row_group(&mut f.writer, &f.tmp, fires)
            }
            Layout::Parts(parts) => parts.write(puzzles, fires, input_rows),
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

#[cfg(test)]
mod tests {
    use polars::prelude::{ParquetReader, SerReader};
    use proptest::prelude::*;

    use super::*;
    use crate::table::ArrayBuilder;

    /// An Int64 column written as a one-column file (zstd-compressed, or
    /// not) and read back by polars.
    fn round_trip(values: Vec<i64>, compressed: bool) -> Vec<i64> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("column.parquet");
        let columns = [("n", Kind::Int64)];
        let mut writer = open_parquet(&path, &columns, &[]).unwrap();
        let chunk = table::Chunk { rows: values.len(), arrays: vec![PageBuilder.int64(values)] };
        write_row_group(
            &mut writer,
            &path,
            encode(chunk, &TableTypes::of(&columns, if compressed { &[] } else { &["n"] })).unwrap(),
        )
        .unwrap();
        close(writer, &path).unwrap();
        let frame = ParquetReader::new(File::open(&path).unwrap()).finish().unwrap();
        frame.column("n").unwrap().i64().unwrap().into_no_null_iter().collect()
    }

    /// An Int32 column of spread values ([`ArrayBuilder::spread_int32`]:
    /// ratings, play counts), nulls among them, written uncompressed as a
    /// one-column file and read back by polars.
    fn spread_round_trip(values: &[Option<i32>]) -> Vec<Option<i32>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("column.parquet");
        let columns = [("n", Kind::Int32)];
        let mut writer = open_parquet(&path, &columns, &[]).unwrap();
        let chunk = table::Chunk { rows: values.len(), arrays: vec![PageBuilder.spread_int32(values.iter().copied())] };
        write_row_group(&mut writer, &path, encode(chunk, &TableTypes::of(&columns, &["n"])).unwrap()).unwrap();
        close(writer, &path).unwrap();
        let frame = ParquetReader::new(File::open(&path).unwrap()).finish().unwrap();
        frame.column("n").unwrap().i32().unwrap().iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]
        /// Ratings (and any integers, the widest too) are delta-encoded
        /// where the differences fit 32 bits, and read back as written.
        #[test]
        fn spread_int32_columns_read_back(
            ratings in proptest::collection::vec(proptest::option::weighted(0.95, 400i32..3300), 0..700),
            wild in proptest::collection::vec(proptest::option::of(any::<i32>()), 1..300),
        ) {
            let encoding = PageBuilder.spread_int32(ratings.iter().copied()).encoding;
            prop_assert_eq!(encoding, Encoding::DeltaBinaryPacked);
            prop_assert_eq!(spread_round_trip(&ratings), ratings);
            prop_assert_eq!(spread_round_trip(&wild), wild);
        }

        /// Row numbers (climbing, with repeats: a puzzle's fires) are
        /// delta-encoded, any integers read back as written.
        #[test]
        fn int64_columns_read_back(
            steps in proptest::collection::vec(0i64..3, 1..700),
            start in -5i64..1_000_000,
            wild in proptest::collection::vec(any::<i64>(), 1..300),
        ) {
            let climbing: Vec<i64> = steps.iter().scan(start, |n, step| { *n += step; Some(*n) }).collect();
            prop_assert_eq!(PageBuilder.int64(climbing.clone()).encoding, Encoding::DeltaBinaryPacked);
            prop_assert_eq!(round_trip(climbing.clone(), true), climbing);
            prop_assert_eq!(round_trip(wild.clone(), false), wild);
        }
    }
}
