//! The run: reading, classifying and writing joined in one place.
//!
//! Three stages overlap, each on its own thread, joined by bounded channels
//! so memory is bounded by a few batches whatever the input size:
//!
//! ```text
//! reader thread ──batches──▶ rayon pool (split fields, classify, encode, input order kept) ──▶ writer thread (sink)
//! ```
//!
//! Only what must be serial is: the reader decompresses and finds where
//! records end, the workers split a CSV batch's fields, classify it and
//! build its output (`Sink::prepare`: for Parquet, compressed pages), and
//! the writer thread only appends bytes.
//!
//! Batches are cut by row count alone and each becomes one row group, so the
//! output is byte-identical whatever the thread count.

use std::collections::BTreeMap;
use std::fmt;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::annotate::{annotate_row, Annotated, Outcome, RowFilter};
use crate::input::{Columns, InputError, InputSpec, PuzzleReader, Work};
use crate::interrupt::{self, Signal};
use crate::line::LineForm;
use crate::manifest::{InputIdentity, Manifest};

/// Batches classified at once. Each batch is itself spread over all
/// workers; a few in flight keep every core busy while the writer catches
/// up (3 left the cores idle 9 % of the time on two cores), more would only
/// cost memory.
const IN_FLIGHT: usize = 5;

/// Rows per batch (and per Parquet row group) unless told otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 8_192;

/// Everything a run needs to know.
#[derive(Debug, Clone)]
pub struct Options {
    pub input: InputSpec,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Stop after this many data rows.
    pub limit: Option<u64>,
    pub batch_rows: usize,
    pub form: LineForm,
    pub filter: RowFilter,
    /// Draw a progress bar (only ever on a terminal).
    pub progress: bool,
    /// Write each table as a directory of part files of about this many
    /// rows (bounds the writer's memory on huge runs); `None`: one file.
    pub part_rows: Option<u64>,
    /// Finish an interrupted part-file run: keep its completed parts and
    /// annotate the rows after them.
    pub resume: bool,
    /// Replace the tables of an earlier run in the output directory; without
    /// it, a non-empty output directory is refused untouched.
    pub overwrite: bool,
    /// The engine stage (`--engine`): `None` leaves it out, and the output
    /// is what it was without it, byte for byte.
    pub engine: Option<std::sync::Arc<crate::engine::Engine>>,
}

impl Options {
    pub fn new(input: InputSpec) -> Options {
        Options {
            input,
            threads: 0,
            limit: None,
            batch_rows: DEFAULT_BATCH_ROWS,
            form: LineForm::Puzzle,
            filter: RowFilter::default(),
            progress: true,
            part_rows: None,
            resume: false,
            overwrite: false,
            engine: None,
        }
    }

    /// What an output file records about the run that wrote it: the Koga
    /// and vocabulary versions, the input's file name and the options that
    /// shape the output (not the thread count: the bytes do not depend on
    /// it). Key-value pairs, in a fixed order.
    pub fn provenance(&self) -> Vec<(String, String)> {
        let input = match &self.input {
            InputSpec::Stdin => "-".to_owned(),
            InputSpec::Path(path) => path.file_name().unwrap_or(path.as_os_str()).to_string_lossy().into_owned(),
        };
        [
            ("koga.version", env!("CARGO_PKG_VERSION").to_owned()),
            ("koga.vocabulary", crate::label::vocabulary_version()),
            ("koga.input", input),
            ("koga.options", self.output_options()),
        ]
        .into_iter()
        .chain(self.engine.as_ref().map(|engine| ("koga.engine", engine.provenance())))
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }

    /// The options that shape the output, in words (`koga.options`).
    fn output_options(&self) -> String {
        let form = match self.form {
            LineForm::Puzzle => "puzzle",
            LineForm::Line => "lines",
        };
        let or_none = |v: Option<String>| v.unwrap_or_else(|| "none".to_owned());
        let engine = self.engine.as_ref().map(|e| format!(" {}", e.options())).unwrap_or_default();
        format!(
            "form={form} min_rating={} max_rating={} limit={} batch_rows={} part_rows={}{engine}",
            or_none(self.filter.min_rating.map(|v| v.to_string())),
            or_none(self.filter.max_rating.map(|v| v.to_string())),
            or_none(self.limit.map(|v| v.to_string())),
            self.batch_rows,
            or_none(self.part_rows.map(|v| v.to_string())),
        )
    }

    /// Both tables' column names, `puzzles | fires`.
    fn output_columns(&self) -> String {
        let names =
            |columns: Vec<(&str, crate::table::Kind)>| columns.iter().map(|c| c.0).collect::<Vec<_>>().join(" ");
        let puzzles = names(crate::table::puzzles_columns(self.engine.is_some()));
        format!("{puzzles} | {}", names(crate::table::fires_columns()))
    }

    /// The manifest a part-file run of these options starts from (no part
    /// complete yet).
    pub fn manifest(&self) -> Result<Manifest, InputError> {
        let input = match &self.input {
            InputSpec::Stdin => InputIdentity::stdin(),
            InputSpec::Path(path) => {
                InputIdentity::of_file(path).map_err(|source| InputError::Open { input: self.input.name(), source })?
            }
        };
        Ok(Manifest {
            koga_version: env!("CARGO_PKG_VERSION").to_owned(),
            vocabulary: crate::label::vocabulary_version(),
            columns: self.output_columns(),
            input,
            options: self.output_options(),
            parts: Vec::new(),
            complete: false,
        })
    }
}

/// Where annotated batches go, in two steps: `prepare` turns a batch into
/// what will be written (pure, so it runs on the worker pool next to the
/// classification), and `write` writes prepared batches in input order on
/// the writer thread.
pub trait Sink: Send + 'static {
    type Prepared: Send + 'static;
    /// Builds the output of one batch (runs on the worker pool).
    fn prepare(batch: &[Annotated], columns: &Columns) -> Result<Self::Prepared, OutputError>;
    /// Writes one prepared batch of `input_rows` input rows, in input order.
    fn write(&mut self, prepared: Self::Prepared, input_rows: u64) -> Result<(), OutputError>;
    /// Completes the output (e.g. renames temporary files into place).
    fn finish(self) -> Result<(), OutputError>;
    /// Removes whatever was written; the run failed.
    fn abort(self);
    /// Input rows an earlier, interrupted run already wrote (a resumed run
    /// skips them).
    fn rows_done(&self) -> u64 {
        0
    }
    /// The run was stopped: removes what is partial and says what was kept.
    fn interrupt(self) -> String
    where
        Self: Sized,
    {
        self.abort();
        "the partial output was removed, nothing was kept".to_owned()
    }
}

/// A failure writing the output: where, and the error underneath.
#[derive(Debug)]
pub struct OutputError {
    /// The file or directory being written (`<batch>` while building one).
    pub path: String,
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

impl OutputError {
    pub fn new(path: impl fmt::Display, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> OutputError {
        OutputError { path: path.to_string(), source: source.into() }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.source)
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.source.as_ref())
    }
}

/// Why a run stopped.
#[derive(Debug)]
pub enum RunError {
    Input(InputError),
    Output(OutputError),
    /// The worker pool could not start.
    Threads(rayon::ThreadPoolBuildError),
    /// A signal stopped the run after `rows_read` rows were written; `kept`
    /// says what of its output remains.
    Interrupted {
        signal: Signal,
        rows_read: u64,
        kept: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Input(e) => e.fmt(f),
            RunError::Output(e) => e.fmt(f),
            RunError::Threads(e) => write!(f, "cannot start worker threads: {e}"),
            RunError::Interrupted { signal, rows_read, kept } => {
                write!(f, "interrupted by {} after {rows_read} rows written: {kept}", signal.name())
            }
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Input(e) => Some(e),
            RunError::Output(e) => Some(e),
            RunError::Threads(e) => Some(e),
            RunError::Interrupted { .. } => None,
        }
    }
}

impl From<InputError> for RunError {
    fn from(e: InputError) -> Self {
        RunError::Input(e)
    }
}

impl From<OutputError> for RunError {
    fn from(e: OutputError) -> Self {
        RunError::Output(e)
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub rows_read: u64,
    pub ok: u64,
    pub errors: u64,
    pub filtered: u64,
    pub fires: u64,
    pub elapsed: Duration,
    /// Peak resident memory of the process, where the OS tells (Linux).
    pub peak_rss_bytes: Option<u64>,
}

impl Summary {
    pub fn rows_per_second(&self) -> f64 {
        self.rows_read as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rows read, {} ok, {} errors", self.rows_read, self.ok, self.errors)?;
        if self.filtered > 0 {
            write!(f, ", {} filtered out", self.filtered)?;
        }
        write!(
            f,
            ", {} fires in {:.2} s ({:.0} rows/s)",
            self.fires,
            self.elapsed.as_secs_f64(),
            self.rows_per_second()
        )?;
        if let Some(rss) = self.peak_rss_bytes {
            write!(f, ", peak RSS {:.0} MB", rss as f64 / 1e6)?;
        }
        Ok(())
    }
}

/// Peak resident set size of this process (Linux `VmHWM`).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Row counts of one batch.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    rows: u64,
    ok: u64,
    errors: u64,
    filtered: u64,
    fires: u64,
}

impl Counts {
    fn of(batch: &[Annotated]) -> Counts {
        let mut counts = Counts { rows: batch.len() as u64, ..Counts::default() };
        for a in batch {
            match &a.outcome {
                Outcome::Ok(analysis) => {
                    counts.ok += 1;
                    counts.fires += analysis.fires.len() as u64;
                }
                Outcome::Error(_) => counts.errors += 1,
                Outcome::Filtered => counts.filtered += 1,
            }
        }
        counts
    }

    fn add_to(self, summary: &mut Summary) {
        summary.rows_read += self.rows;
        summary.ok += self.ok;
        summary.errors += self.errors;
        summary.filtered += self.filtered;
        summary.fires += self.fires;
    }
}

/// One batch's result, tagged with its place in the input.
type Done<P> = (u64, Counts, Result<P, OutputError>);

/// Runs the whole pipeline. The input is opened (and its header checked)
/// before `make_sink` creates any output, so a bad input leaves nothing
/// behind; on a later fatal error the sink is aborted, so nothing
/// half-written is left under the final names.
///
/// Several batches are classified at once (each a job on the worker pool,
/// itself split over the workers), so no core waits for the slowest row of
/// a batch; the writer puts them back in input order. At most `IN_FLIGHT`
/// batches are in flight whatever the thread count, which bounds memory.
pub fn run<S: Sink>(
    options: &Options,
    make_sink: impl FnOnce() -> Result<S, OutputError>,
) -> Result<Summary, RunError> {
    let started = Instant::now();
    let reader = PuzzleReader::open(&options.input)?;
    let sink = make_sink()?;
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .thread_name(|i| format!("koga-worker-{i}"))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            sink.abort();
            return Err(RunError::Threads(e));
        }
    };
    let mut columns = reader.columns().clone();
    if options.engine.is_some() {
        std::sync::Arc::make_mut(&mut columns).engine = true;
    }
    let progress = Progress::new(options.progress, &reader);
    let batch_rows = options.batch_rows.max(1);
    let limit = options.limit;
    let skip = sink.rows_done();

    let (batch_tx, batch_rx) = sync_channel::<Result<Work, InputError>>(2);
    let (token_tx, token_rx) = sync_channel::<()>(IN_FLIGHT);
    let (done_tx, done_rx) = channel::<Done<S::Prepared>>();

    let mut reader = reader;
    let reader_thread = thread::Builder::new()
        .name("koga-reader".into())
        .spawn(move || {
            // A resumed run: the completed parts' rows are read past, not annotated.
            if skip > 0 {
                if let Err(e) = reader.skip(skip) {
                    let _ = batch_tx.send(Err(e));
                    return;
                }
            }
            let mut remaining = limit.unwrap_or(u64::MAX).saturating_sub(skip);
            while remaining > 0 && interrupt::received().is_none() {
                let want = (batch_rows as u64).min(remaining) as usize;
                let batch = reader.next_work(want);
                let stop = match &batch {
                    Ok(b) => b.is_empty(),
                    Err(_) => true,
                };
                if let Ok(b) = &batch {
                    remaining -= b.len() as u64;
                }
                if stop {
                    if batch.is_err() {
                        let _ = batch_tx.send(batch);
                    }
                    break;
                }
                if batch_tx.send(batch).is_err() {
                    break;
                }
            }
        })
        .expect("spawn reader thread");

    let writer_thread = thread::Builder::new()
        .name("koga-writer".into())
        .spawn(move || write_in_order(sink, done_rx, token_rx, progress))
        .expect("spawn writer thread");

    let mut input_error = None;
    let mut spawned = 0u64;
    for batch in batch_rx.iter() {
        if interrupt::received().is_some() {
            break;
        }
        let batch = match batch {
            Ok(b) => b,
            Err(e) => {
                input_error = Some(e);
                break;
            }
        };
        if token_tx.send(()).is_err() {
            break; // the writer failed; its error is collected below
        }
        let (columns, form, filter, done) = (columns.clone(), options.form, options.filter.clone(), done_tx.clone());
        let engine = options.engine.clone();
        let seq = spawned;
        pool.spawn(move || {
            // A CSV chunk's fields are split here, on a worker.
            let batch = batch.into_rows();
            let annotated: Vec<Annotated> = (0..batch.len())
                .into_par_iter()
                .with_min_len(64)
                .map(|i| {
                    let annotate = || annotate_row(batch.row(i), &columns, form, &filter);
                    match &engine {
                        Some(engine) => crate::annotate::add_engine_verdict(annotate(), &columns, form, engine),
                        // Returned as it comes: a row (some 300 bytes) is
                        // not copied on its way to the batch.
                        None => annotate(),
                    }
                })
                .collect();
            let counts = Counts::of(&annotated);
            let prepared = S::prepare(&annotated, &columns);
            drop(annotated);
            let _ = done.send((seq, counts, prepared));
        });
        spawned += 1;
    }
    drop(batch_rx);
    drop(done_tx);
    drop(token_tx);
    let _ = reader_thread.join();
    let (sink, mut summary, written, write_result) = writer_thread.join().expect("writer thread panicked");
    if let Some(e) = input_error {
        sink.abort();
        return Err(e.into());
    }
    if let Some(signal) = interrupt::received() {
        let kept = sink.interrupt();
        return Err(RunError::Interrupted { signal, rows_read: summary.rows_read, kept });
    }
    let write_result = write_result.and_then(|()| {
        if written == spawned {
            Ok(())
        } else {
            Err(OutputError::new("<pipeline>", format!("internal error: {} batches lost", spawned - written)))
        }
    });
    if let Err(e) = write_result {
        sink.abort();
        return Err(e.into());
    }
    sink.finish()?;
    summary.elapsed = started.elapsed();
    summary.peak_rss_bytes = peak_rss_bytes();
    Ok(summary)
}

/// The writer thread: batches arrive as they finish and are written in
/// input order; each written batch frees a slot for the next one.
fn write_in_order<S: Sink>(
    mut sink: S,
    done: Receiver<Done<S::Prepared>>,
    slots: Receiver<()>,
    progress: Progress,
) -> (S, Summary, u64, Result<(), OutputError>) {
    let mut summary = Summary::default();
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (seq, counts, prepared) in done.iter() {
        if interrupt::received().is_some() {
            break; // the run is stopping: what is in flight is not written
        }
        pending.insert(seq, (counts, prepared));
        while let Some((counts, prepared)) = pending.remove(&next) {
            if let Err(e) = prepared.and_then(|p| sink.write(p, counts.rows)) {
                progress.finish();
                return (sink, summary, next, Err(e));
            }
            counts.add_to(&mut summary);
            progress.update(summary.rows_read);
            next += 1;
            let _ = slots.recv();
        }
    }
    progress.finish();
    (sink, summary, next, Ok(()))
}

/// The progress bar: on stderr, only when it is a terminal; position is the
/// input bytes read (compressed for `.zst`), so the ETA holds for any input.
struct Progress {
    bar: Option<ProgressBar>,
    bytes_read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    started: Instant,
}

impl Progress {
    fn new(wanted: bool, reader: &PuzzleReader) -> Progress {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = match reader.total_bytes() {
                Some(total) => ProgressBar::new(total),
                None => ProgressBar::new_spinner(),
            };
            let style = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}",
            )
            .expect("valid template");
            bar.set_style(style);
            bar
        });
        Progress { bar, bytes_read: reader.bytes_read(), started: Instant::now() }
    }

    fn update(&self, rows: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes_read.load(Ordering::Relaxed));
            let rate = rows as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{rows} rows, {rate:.0} rows/s"));
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
