//! The run: reading, classifying and writing joined in one place.
//!
//! Three stages overlap, each on its own thread, joined by bounded channels
//! so memory is bounded by a few batches whatever the input size:
//!
//! ```text
//! reader thread ──batches──▶ rayon pool (classify, input order kept) ──▶ writer thread (sink)
//! ```
//!
//! Batches are cut by row count alone and each becomes one row group, so the
//! output is byte-identical whatever the thread count.

use std::fmt;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::annotate::{annotate_row, Annotated, Outcome, RowFilter};
use crate::input::{Columns, InputError, InputSpec, PuzzleReader, RawRow};
use crate::line::LineForm;

/// Rows per batch (and per Parquet row group) unless told otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 16_384;

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
        }
    }
}

/// Where annotated batches go.
pub trait Sink: Send {
    /// Writes one batch, in input order.
    fn write(&mut self, batch: &[Annotated], columns: &Columns) -> Result<(), OutputError>;
    /// Completes the output (e.g. renames temporary files into place).
    fn finish(self: Box<Self>) -> Result<(), OutputError>;
    /// Removes whatever was written; the run failed.
    fn abort(self: Box<Self>);
}

/// A failure writing the output.
#[derive(Debug)]
pub struct OutputError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for OutputError {}

/// Why a run stopped.
#[derive(Debug)]
pub enum RunError {
    Input(InputError),
    Output(OutputError),
    Config(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Input(e) => e.fmt(f),
            RunError::Output(e) => e.fmt(f),
            RunError::Config(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for RunError {}

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
        write!(
            f,
            "{} rows read, {} ok, {} errors",
            self.rows_read, self.ok, self.errors
        )?;
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

/// Runs the whole pipeline. The input is opened (and its header checked)
/// before `make_sink` creates any output, so a bad input leaves nothing
/// behind; on a later fatal error the sink is aborted, so nothing
/// half-written is left under the final names.
pub fn run(
    options: &Options,
    make_sink: impl FnOnce() -> Result<Box<dyn Sink>, OutputError>,
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
            return Err(RunError::Config(format!("cannot start worker threads: {e}")));
        }
    };
    let columns = reader.columns().clone();
    let progress = Progress::new(options.progress, &reader);
    let batch_rows = options.batch_rows.max(1);
    let limit = options.limit;

    let (batch_tx, batch_rx) = sync_channel::<Result<Vec<RawRow>, InputError>>(1);
    let (done_tx, done_rx) = sync_channel::<Vec<Annotated>>(1);

    let mut reader = reader;
    let reader_thread = thread::Builder::new()
        .name("koga-reader".into())
        .spawn(move || {
            let mut remaining = limit.unwrap_or(u64::MAX);
            while remaining > 0 {
                let want = (batch_rows as u64).min(remaining) as usize;
                let batch = reader.next_batch(want);
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

    let writer_columns = columns.clone();
    let writer_thread = thread::Builder::new()
        .name("koga-writer".into())
        .spawn(move || write_all(sink, done_rx, &writer_columns))
        .expect("spawn writer thread");

    let mut summary = Summary::default();
    let mut input_error = None;
    for batch in batch_rx.iter() {
        let batch = match batch {
            Ok(b) => b,
            Err(e) => {
                input_error = Some(e);
                break;
            }
        };
        let form = options.form;
        let filter = &options.filter;
        let columns = &columns;
        let annotated: Vec<Annotated> = pool.install(|| {
            batch
                .into_par_iter()
                .with_min_len(64)
                .map(|row| annotate_row(row, columns, form, filter))
                .collect()
        });
        for a in &annotated {
            summary.rows_read += 1;
            match &a.outcome {
                Outcome::Ok(analysis) => {
                    summary.ok += 1;
                    summary.fires += analysis.fires.len() as u64;
                }
                Outcome::Error(_) => summary.errors += 1,
                Outcome::Filtered => summary.filtered += 1,
            }
        }
        progress.update(summary.rows_read);
        if done_tx.send(annotated).is_err() {
            break; // the writer failed; its error is collected below
        }
    }
    drop(batch_rx);
    drop(done_tx);
    let _ = reader_thread.join();
    let (sink, write_result) = writer_thread.join().expect("writer thread panicked");
    progress.finish();
    if let Some(e) = input_error {
        sink.abort();
        return Err(e.into());
    }
    if let Err(e) = write_result {
        sink.abort();
        return Err(e.into());
    }
    sink.finish()?;
    summary.elapsed = started.elapsed();
    summary.peak_rss_bytes = peak_rss_bytes();
    Ok(summary)
}

fn write_all(
    mut sink: Box<dyn Sink>,
    batches: Receiver<Vec<Annotated>>,
    columns: &Columns,
) -> (Box<dyn Sink>, Result<(), OutputError>) {
    for batch in batches.iter() {
        if let Err(e) = sink.write(&batch, columns) {
            return (sink, Err(e));
        }
    }
    (sink, Ok(()))
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
