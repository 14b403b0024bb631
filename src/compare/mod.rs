//! `koga compare`: how Koga's labels agree with Lichess's `Themes` (spec §5).
//!
//! For every label that is also a Lichess theme, on the rows Lichess has
//! tagged (their `Themes` hold a length theme): the puzzles Lichess tags, the
//! puzzles Koga gives the label (any solver ply, or its puzzle labels), both,
//! and precision, recall and F1 with Lichess as the reference. The input is
//! a puzzle CSV (the classifier runs on it) or, with the `parquet` feature,
//! an output directory of `koga annotate`.

mod exact;

use std::fmt::Write;

use rayon::prelude::*;
use serde::Serialize;

use crate::annotate::{annotate_row, Outcome, RowFilter};
use crate::input::{InputError, InputSpec, PuzzleReader, TextRow};
use crate::label::{Label, LabelSet, LABELS};
use crate::line::{Line, LineForm};
pub use exact::{Cause, ExactReport, ExactTally, ThemeCounts};

/// A report as the CLI prints it.
pub trait Render {
    /// An aligned text table.
    fn to_text(&self) -> String;
    /// JSON, ratios included.
    fn to_json(&self) -> String;
    /// CSV, one line per label or theme.
    fn to_csv(&self) -> String;
}

/// Puzzle ids listed per group by `--examples`.
pub const EXAMPLES: usize = 20;

/// The themes that say Lichess has tagged a row.
const LENGTH_THEMES: [&str; 4] = ["oneMove", "short", "long", "veryLong"];

/// Where Koga's own rule for a label departs from Lichess's on purpose, and
/// why: `koga compare` says so beside the figures. Lichess's exact tags are
/// in the `themes` column (`--exact`).
pub const DEPARTURES: &[(Label, &str)] = &[
    (Label::HangingPiece, "seed 002: pawns and follow-up moves count, plain recaptures do not"),
    (Label::TrappedPiece, "seed 001: the trap our move makes, not one already standing"),
    (Label::DiscoveredAttack, "only discoveries that win what they hit; recaptures the opponent pre-empts left out"),
    (Label::Pin, "a new pin that takes something away; relative pins count"),
    (Label::Fork, "forks by the king and through x-rays count; mating checks that collect nothing do not"),
    (Label::QuietMove, "pawn runs left out; quiet king moves that are the point counted"),
    (Label::DefensiveMove, "only moves that parry a threat, and escapes that attack nothing"),
    (Label::CapturingDefender, "not where the first capture alone wins as much as the piece it unguards"),
    (Label::ExposedKing, "only checks with pieces on the board that attack the king: not wins, trades or lures with no check after, knight forks, skewers, lures, nor a check set up for what our next move wins (a capture, fork, skewer, pin, discovery or promotion) unless the line ends in mate or that move takes a pawn with check and the hunt checks on"),
    (Label::Clearance, "not made in check, not a winning capture, not an even trade for the twin piece"),
    (Label::Attraction, "only lures the follow-up needs: with the piece at home it would fail or do less"),
    (Label::Sacrifice, "on the move that gives the material, not a trade after it"),
    (Label::KingsideAttack, "named whatever the motif (Lichess leaves it out for forks and back-rank mates)"),
    (Label::QueensideAttack, "named whatever the motif (Lichess leaves it out for forks and back-rank mates)"),
];

/// Why Koga's rule for `label` departs from Lichess's, if it does.
pub fn departure(label: Label) -> Option<&'static str> {
    DEPARTURES.iter().find(|(l, _)| *l == label).map(|&(_, why)| why)
}

/// Counts for one label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    pub label: Label,
    /// Tagged puzzles whose `Themes` hold it.
    pub lichess: u64,
    /// Tagged puzzles Koga gives it.
    pub koga: u64,
    pub both: u64,
}

impl Agreement {
    /// Share of Koga's puzzles Lichess agrees with; `None` when Koga has none.
    pub fn precision(&self) -> Option<f64> {
        (self.koga > 0).then(|| self.both as f64 / self.koga as f64)
    }

    /// Share of Lichess's puzzles Koga finds; `None` when Lichess has none.
    pub fn recall(&self) -> Option<f64> {
        (self.lichess > 0).then(|| self.both as f64 / self.lichess as f64)
    }

    pub fn f1(&self) -> Option<f64> {
        let total = self.lichess + self.koga;
        (total > 0).then(|| 2.0 * self.both as f64 / total as f64)
    }
}

/// Puzzle ids for one label, by who says it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Examples {
    pub label: String,
    pub both: Vec<String>,
    pub koga_only: Vec<String>,
    pub lichess_only: Vec<String>,
}

/// The agreement report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Rows read.
    pub rows: u64,
    /// Rows Lichess has tagged and Koga annotated: the rows compared.
    pub tagged: u64,
    /// One entry per label Lichess also has, by family, then declaration order.
    pub labels: Vec<Agreement>,
    pub examples: Option<Examples>,
    /// Payoff fires (those that only collect an earlier fire's win) were
    /// left out of Koga's labels.
    pub without_payoffs: bool,
}

/// Accumulates puzzles, in input order, into a [`Report`].
pub struct Tally {
    report: Report,
    /// Index into `report.labels` of each label, if compared.
    slot: Vec<Option<usize>>,
    examples: Option<Label>,
}

impl Tally {
    /// Compares every Lichess-theme label; with `examples`, lists puzzle
    /// ids for that one (which must be a Lichess theme).
    pub fn new(examples: Option<Label>) -> Tally {
        let mut compared: Vec<&crate::label::LabelInfo> = LABELS.iter().filter(|i| i.lichess).collect();
        compared.sort_by_key(|i| (i.family, i.label));
        let mut slot = vec![None; LABELS.len()];
        for (i, info) in compared.iter().enumerate() {
            slot[info.label as usize] = Some(i);
        }
        let labels = compared.iter().map(|i| Agreement { label: i.label, lichess: 0, koga: 0, both: 0 }).collect();
        let listed = examples.map(|l| Examples { label: l.name().to_owned(), ..Examples::default() });
        Tally {
            report: Report { rows: 0, tagged: 0, labels, examples: listed, without_payoffs: false },
            slot,
            examples,
        }
    }

    /// Counts one row: `themes` is its `Themes` field, `koga` every label
    /// Koga gives it, `None` when the row is in error (not compared).
    pub fn add(&mut self, puzzle_id: &str, themes: &str, koga: Option<LabelSet>) {
        self.report.rows += 1;
        let Some(koga) = koga.map(LabelSet::with_implied) else { return };
        let mut lichess = LabelSet::new();
        let mut tagged = false;
        for theme in themes.split_ascii_whitespace() {
            tagged |= LENGTH_THEMES.contains(&theme);
            if let Some(label) = Label::from_name(theme) {
                lichess.insert(label);
            }
        }
        if !tagged {
            return;
        }
        self.report.tagged += 1;
        for (label, slot) in Label::ALL.iter().zip(&self.slot) {
            let Some(i) = *slot else { continue };
            let (theirs, ours) = (lichess.contains(*label), koga.contains(*label));
            let entry = &mut self.report.labels[i];
            entry.lichess += theirs as u64;
            entry.koga += ours as u64;
            entry.both += (theirs && ours) as u64;
            if self.examples == Some(*label) {
                let listed = self.report.examples.as_mut().expect("examples wanted");
                let group = match (ours, theirs) {
                    (true, true) => &mut listed.both,
                    (true, false) => &mut listed.koga_only,
                    (false, true) => &mut listed.lichess_only,
                    (false, false) => continue,
                };
                if group.len() < EXAMPLES {
                    group.push(puzzle_id.to_owned());
                }
            }
        }
    }

    pub fn finish(self) -> Report {
        self.report
    }
}

/// Why a comparison could not be made.
#[derive(Debug)]
pub enum CompareError {
    Input(InputError),
    /// The CSV has no `Themes` column: there is nothing to compare with.
    NoThemes(String),
    /// `--examples` names a label Lichess has no theme for.
    NotATheme(String),
    /// An output directory could not be read.
    #[cfg(feature = "parquet")]
    Parquet {
        path: std::path::PathBuf,
        source: polars::error::PolarsError,
    },
}

impl std::fmt::Display for CompareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompareError::Input(e) => e.fmt(f),
            CompareError::NoThemes(input) => write!(f, "{input}: no Themes column to compare with"),
            CompareError::NotATheme(name) => {
                let shared = LABELS.iter().filter(|info| info.lichess).map(|info| info.name);
                let message = crate::label::unknown_name_message(
                    name,
                    "Koga label that Lichess also has",
                    shared,
                    "`koga labels`",
                );
                f.write_str(&message)
            }
            #[cfg(feature = "parquet")]
            CompareError::Parquet { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for CompareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompareError::Input(e) => Some(e),
            #[cfg(feature = "parquet")]
            CompareError::Parquet { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<InputError> for CompareError {
    fn from(e: InputError) -> Self {
        CompareError::Input(e)
    }
}

/// Looks up the label `--examples` names.
pub fn examples_label(name: &str) -> Result<Label, CompareError> {
    Label::from_name(name).filter(|l| l.info().lichess).ok_or_else(|| CompareError::NotATheme(name.to_owned()))
}

/// Runs the classifier over a puzzle CSV (batches spread over rayon's
/// workers, counted in input order) and compares.
/// What a comparison counts.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompareOptions {
    /// List puzzle ids for this label.
    pub examples: Option<Label>,
    /// Leave payoff fires out of Koga's labels (spec §2, `collects`).
    pub without_payoffs: bool,
}

/// The labels of a puzzle Koga counts: its fires' (payoffs left out where
/// asked) and its puzzle labels.
fn counted(analysis: &crate::annotate::Analysis, without_payoffs: bool) -> LabelSet {
    let mut set: LabelSet =
        analysis.fires.iter().filter(|f| !(without_payoffs && f.collects.is_some())).map(|f| f.label).collect();
    set.extend(analysis.puzzle_labels);
    set
}

pub fn compare_csv(input: &InputSpec, options: CompareOptions) -> Result<Report, CompareError> {
    let mut reader = PuzzleReader::open(input)?;
    let columns = reader.columns().clone();
    let themes = columns.themes.ok_or_else(|| CompareError::NoThemes(input.name()))?;
    let mut tally = Tally::new(options.examples);
    tally.report.without_payoffs = options.without_payoffs;
    loop {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            break;
        }
        let rows: Vec<(String, String, Option<LabelSet>)> = (0..batch.len())
            .into_par_iter()
            .map(|i| {
                let annotated = annotate_row(batch.row(i), &columns, LineForm::Puzzle, &RowFilter::default());
                let row: &TextRow = &annotated.row;
                let id = row.puzzle_id(&columns).unwrap_or("").to_owned();
                let themes = row.field(Some(themes)).unwrap_or("").to_owned();
                let labels = match &annotated.outcome {
                    Outcome::Ok(analysis) => Some(counted(analysis, options.without_payoffs)),
                    _ => None,
                };
                (id, themes, labels)
            })
            .collect();
        for (id, themes, labels) in rows {
            tally.add(&id, &themes, labels);
        }
    }
    Ok(tally.finish())
}

/// Computes each row's Lichess themes ([`crate::lichess`]) from a puzzle
/// CSV and compares them with its `Themes`; `examples` lists puzzle ids per
/// cause.
pub fn compare_csv_exact(input: &InputSpec, examples: bool) -> Result<ExactReport, CompareError> {
    let mut reader = PuzzleReader::open(input)?;
    let columns = reader.columns().clone();
    let themes = columns.themes.ok_or_else(|| CompareError::NoThemes(input.name()))?;
    let mut tally = ExactTally::new(examples);
    loop {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            break;
        }
        let rows: Vec<(String, String, Option<Vec<&'static str>>)> = (0..batch.len())
            .into_par_iter()
            .map(|i| {
                let row = batch.row(i);
                let id = row.puzzle_id(&columns).unwrap_or("").to_owned();
                let published = row.field(Some(themes)).unwrap_or("").to_owned();
                let fen = row.field(Some(columns.fen)).unwrap_or("");
                let moves = row.field(Some(columns.moves)).unwrap_or("");
                let computed = Line::parse(fen, moves, LineForm::Puzzle)
                    .ok()
                    .and_then(|line| crate::lichess::themes(&line))
                    .map(|found| found.iter().map(|t| t.theme.name()).collect());
                (id, published, computed)
            })
            .collect();
        for (id, published, computed) in rows {
            tally.add(&id, &published, computed.as_ref().map(|names| names.iter().copied()));
        }
    }
    Ok(tally.finish())
}

/// Reads the `themes` Koga computed from `puzzles.parquet` of a `koga
/// annotate` output directory and compares them with `lichess_themes`;
/// the engine's themes on the rows the engine judged (the rows of an
/// `--engine` run without an `engine_error`).
#[cfg(feature = "parquet")]
pub fn compare_output_exact(dir: &std::path::Path, examples: bool) -> Result<ExactReport, CompareError> {
    use polars::prelude::*;

    let mut tally = ExactTally::new(examples);
    for path in table_files(dir, crate::output::PUZZLES_FILE)? {
        let engine = has_column(&path, ENGINE_ERROR)?;
        let mut names = vec!["puzzle_id", "lichess_themes", "themes"];
        names.extend(engine.then_some(ENGINE_ERROR));
        for frame in row_groups(&path, &names)? {
            let frame = frame?;
            let fail = |source: PolarsError| CompareError::Parquet { path: path.clone(), source };
            let ids = frame.column("puzzle_id").and_then(|c| c.str().cloned()).map_err(fail)?;
            let engine_errors = if engine {
                Some(frame.column(ENGINE_ERROR).and_then(|c| c.str().cloned()).map_err(fail)?)
            } else {
                None
            };
            let list = |name: &str| frame.column(name).and_then(|c| c.list().cloned()).map_err(fail);
            let (published, computed) = (list("lichess_themes")?, list("themes")?);
            for row in 0..frame.height() {
                let published = list_words(&published, row).unwrap_or_default().join(" ");
                let computed = list_words(&computed, row);
                tally.add_judged(
                    ids.get(row).unwrap_or(""),
                    &published,
                    computed.as_ref().map(|c| c.iter().map(String::as_str)),
                    engine_errors.as_ref().is_some_and(|errors| errors.get(row).is_none()),
                );
            }
        }
    }
    Ok(tally.finish())
}

/// The column of an `--engine` run's `puzzles.parquet` that says why the
/// engine gave a row no verdict: present only in such a run.
#[cfg(feature = "parquet")]
pub(crate) const ENGINE_ERROR: &str = "engine_error";

/// Whether the Parquet file at `path` has a column of this name.
#[cfg(feature = "parquet")]
pub(crate) fn has_column(path: &std::path::Path, name: &str) -> Result<bool, CompareError> {
    use polars::prelude::*;
    let fail = |source: PolarsError| CompareError::Parquet { path: path.to_owned(), source };
    let file = std::fs::File::open(path).map_err(|e| fail(e.into()))?;
    let schema = ParquetReader::new(file).schema().map_err(fail)?;
    let found = schema.iter_names().any(|n| n.as_str() == name);
    Ok(found)
}

/// The Parquet files of one table of an output directory: the file, or
/// its part files in order.
#[cfg(feature = "parquet")]
pub(crate) fn table_files(dir: &std::path::Path, name: &str) -> Result<Vec<std::path::PathBuf>, CompareError> {
    let table = dir.join(name);
    if !table.is_dir() {
        return Ok(vec![table]);
    }
    let entries = std::fs::read_dir(&table)
        .map_err(|e| CompareError::Parquet { path: table.clone(), source: polars::error::PolarsError::from(e) })?;
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    files.sort();
    Ok(files)
}

/// Some columns of one Parquet file, a row group at a time: memory holds
/// one group's columns however large the file (a whole database's
/// `puzzles.parquet` written as a single file, say).
#[cfg(feature = "parquet")]
pub(crate) fn row_groups<'a>(
    path: &'a std::path::Path,
    columns: &'a [&str],
) -> Result<impl Iterator<Item = Result<polars::prelude::DataFrame, CompareError>> + 'a, CompareError> {
    use polars::prelude::*;
    let fail = |source: PolarsError| CompareError::Parquet { path: path.to_owned(), source };
    let open = move || std::fs::File::open(path).map_err(|e| fail(e.into()));
    let metadata = ParquetReader::new(open()?).get_metadata().map_err(fail)?.clone();
    let mut sizes: Vec<usize> = metadata.row_groups.iter().map(|group| group.num_rows()).collect();
    if sizes.is_empty() {
        // A table without rows (no fires, say) has no row group: read an
        // empty one, so that a missing column is still reported.
        sizes.push(0);
    }
    let columns: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let mut start = 0;
    Ok(sizes.into_iter().map(move |rows| {
        let frame =
            crate::input::parquet::read_row_group(open()?, &metadata, start, rows, columns.clone()).map_err(fail);
        start += rows;
        frame
    }))
}

/// The words of one row of a list column; `None` for a null row.
#[cfg(feature = "parquet")]
pub(crate) fn list_words(list: &polars::prelude::ListChunked, row: usize) -> Option<Vec<String>> {
    let series = list.get_as_series(row)?;
    let values = series.str().ok()?;
    Some((0..values.len()).filter_map(|i| values.get(i)).map(str::to_owned).collect())
}

/// Each row's labels from the fires that are no payoffs, by row number.
#[cfg(feature = "parquet")]
fn labels_without_payoffs(dir: &std::path::Path) -> Result<std::collections::HashMap<i64, LabelSet>, CompareError> {
    use polars::prelude::*;
    let mut by_row = std::collections::HashMap::<i64, LabelSet>::new();
    for path in table_files(dir, crate::output::FIRES_FILE)? {
        for frame in row_groups(&path, &["row_number", "label", "collects"])? {
            let frame = frame?;
            let fail = |source: PolarsError| CompareError::Parquet { path: path.clone(), source };
            let rows = frame.column("row_number").and_then(|c| c.i64().cloned()).map_err(fail)?;
            let labels = frame.column("label").and_then(|c| c.str().cloned()).map_err(fail)?;
            let collects = frame.column("collects").and_then(|c| c.i32().cloned()).map_err(fail)?;
            for i in 0..frame.height() {
                let (Some(row), Some(label)) = (rows.get(i), labels.get(i).and_then(Label::from_name)) else {
                    continue;
                };
                if collects.get(i).is_none() {
                    by_row.entry(row).or_default().insert(label);
                }
            }
        }
    }
    Ok(by_row)
}

/// Reads `puzzles.parquet` (a file or a directory of part files) of a
/// `koga annotate` output directory and compares; without payoffs, Koga's
/// labels come from `fires.parquet` instead.
#[cfg(feature = "parquet")]
pub fn compare_output(dir: &std::path::Path, options: CompareOptions) -> Result<Report, CompareError> {
    use polars::prelude::*;

    let fire_labels = if options.without_payoffs { Some(labels_without_payoffs(dir)?) } else { None };
    let mut tally = Tally::new(options.examples);
    tally.report.without_payoffs = options.without_payoffs;
    let columns =
        ["row_number", "puzzle_id", "status", "lichess_themes", "key_labels", "follow_up_labels", "puzzle_labels"];
    for path in table_files(dir, crate::output::PUZZLES_FILE)? {
        for frame in row_groups(&path, &columns)? {
            let frame = frame?;
            let fail = |source: PolarsError| CompareError::Parquet { path: path.clone(), source };
            let text = |name: &str| frame.column(name).and_then(|c| c.str().cloned()).map_err(fail);
            let list = |name: &str| frame.column(name).and_then(|c| c.list().cloned()).map_err(fail);
            let (ids, status) = (text("puzzle_id")?, text("status")?);
            let row_numbers = frame.column("row_number").and_then(|c| c.i64().cloned()).map_err(fail)?;
            let themes = list("lichess_themes")?;
            let label_lists = match fire_labels {
                Some(_) => vec![list("puzzle_labels")?],
                None => vec![list("key_labels")?, list("follow_up_labels")?, list("puzzle_labels")?],
            };
            for row in 0..frame.height() {
                let mut set = LabelSet::new();
                if let (Some(by_row), Some(number)) = (&fire_labels, row_numbers.get(row)) {
                    set.extend(by_row.get(&number).copied().unwrap_or_default());
                }
                for list in &label_lists {
                    set.extend(
                        list_words(list, row).unwrap_or_default().iter().filter_map(|name| Label::from_name(name)),
                    );
                }
                let ok = status.get(row) == Some("ok");
                tally.add(
                    ids.get(row).unwrap_or(""),
                    &list_words(&themes, row).unwrap_or_default().join(" "),
                    ok.then_some(set),
                );
            }
        }
    }
    Ok(tally.finish())
}

/// The columns of the text and CSV reports.
const HEADER: [&str; 8] = ["label", "family", "lichess", "koga", "both", "precision", "recall", "f1"];

impl Agreement {
    /// The row's cells, ratios written by `ratio`.
    fn cells(&self, ratio: impl Fn(Option<f64>) -> String) -> [String; 8] {
        [
            self.label.name().to_owned(),
            self.label.family().name().to_owned(),
            self.lichess.to_string(),
            self.koga.to_string(),
            self.both.to_string(),
            ratio(self.precision()),
            ratio(self.recall()),
            ratio(self.f1()),
        ]
    }
}

impl Render for Report {
    /// An aligned text table, then the examples.
    fn to_text(&self) -> String {
        let mut out = String::new();
        let payoffs = if self.without_payoffs { " (payoff fires left out)" } else { "" };
        let _ = writeln!(out, "{} rows, {} tagged by Lichess and compared{payoffs}", self.rows, self.tagged);
        let line = |out: &mut String, c: &[&str]| {
            let _ = writeln!(
                out,
                "{:<20} {:<12} {:>8} {:>8} {:>8} {:>9} {:>7} {:>6}",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
            );
        };
        line(&mut out, &HEADER);
        for a in &self.labels {
            let cells = a.cells(|v| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}")));
            line(&mut out, &cells.each_ref().map(String::as_str));
        }
        let departing: Vec<&Agreement> = self.labels.iter().filter(|a| departure(a.label).is_some()).collect();
        if !departing.is_empty() {
            let _ =
                writeln!(out, "\nwhere Koga's rule departs from Lichess's on purpose (Lichess's exact tags: --exact):");
            for a in departing {
                let f1 = a.f1().map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
                let _ = writeln!(out, "  {:<20} F1 {f1:>5}  {}", a.label.name(), departure(a.label).unwrap_or(""));
            }
        }
        if let Some(examples) = &self.examples {
            for (title, ids) in
                [("both", &examples.both), ("koga only", &examples.koga_only), ("lichess only", &examples.lichess_only)]
            {
                let _ = writeln!(out, "\n{} — {title} ({}): {}", examples.label, ids.len(), ids.join(" "));
            }
        }
        out
    }

    /// One line per label, with a header.
    fn to_csv(&self) -> String {
        let mut out = HEADER.join(",") + "\n";
        for a in &self.labels {
            out += &a.cells(|v| v.map_or_else(String::new, |v| format!("{v:.4}"))).join(",");
            out.push('\n');
        }
        out
    }

    /// The report as JSON, ratios included.
    fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Row {
            label: &'static str,
            family: &'static str,
            lichess: u64,
            koga: u64,
            both: u64,
            precision: Option<f64>,
            recall: Option<f64>,
            f1: Option<f64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            departs: Option<&'static str>,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            rows: u64,
            tagged: u64,
            without_payoffs: bool,
            labels: Vec<Row>,
            #[serde(skip_serializing_if = "Option::is_none")]
            examples: Option<&'a Examples>,
        }
        let labels = self
            .labels
            .iter()
            .map(|a| Row {
                label: a.label.name(),
                family: a.label.family().name(),
                lichess: a.lichess,
                koga: a.koga,
                both: a.both,
                precision: a.precision(),
                recall: a.recall(),
                f1: a.f1(),
                departs: departure(a.label),
            })
            .collect();
        let json = Json {
            rows: self.rows,
            tagged: self.tagged,
            without_payoffs: self.without_payoffs,
            labels,
            examples: self.examples.as_ref(),
        };
        serde_json::to_string_pretty(&json).expect("plain data")
    }
}

#[cfg(test)]
mod tests {
    /// A file written with row groups of `group` rows (all in one without).
    #[cfg(feature = "parquet")]
    fn write_ids(path: &std::path::Path, ids: &[String], group: Option<usize>) {
        use polars::prelude::*;
        let mut frame = DataFrame::new_infer_height(vec![Column::new("puzzle_id".into(), ids.to_vec())]).unwrap();
        ParquetWriter::new(std::fs::File::create(path).unwrap()).with_row_group_size(group).finish(&mut frame).unwrap();
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn row_groups_give_every_row_in_order_and_report_a_missing_column_even_without_rows() {
        let dir = tempfile::tempdir().unwrap();
        let grouped = dir.path().join("grouped.parquet");
        let ids: Vec<String> = (0..10).map(|i| format!("id{i}")).collect();
        write_ids(&grouped, &ids, Some(3));
        let frames: Vec<_> = row_groups(&grouped, &["puzzle_id"]).unwrap().map(Result::unwrap).collect();
        // One frame a group (polars writes these ten rows as 3 + 3 + 4).
        assert_eq!(frames.iter().map(|f| f.height()).collect::<Vec<_>>(), [3, 3, 4]);
        let read: Vec<String> = frames
            .iter()
            .flat_map(|f| {
                let column = f.column("puzzle_id").unwrap().str().unwrap().clone();
                (0..column.len()).map(move |i| column.get(i).unwrap().to_owned())
            })
            .collect();
        assert_eq!(read, ids);
        assert!(row_groups(&grouped, &["nope"]).unwrap().all(|frame| frame.is_err()));
        // No rows, no row group: a missing column is still an error.
        let empty = dir.path().join("empty.parquet");
        write_ids(&empty, &[], None);
        let frames: Vec<_> = row_groups(&empty, &["puzzle_id"]).unwrap().collect();
        assert!(frames.iter().all(|f| f.as_ref().is_ok_and(|f| f.height() == 0)));
        assert!(row_groups(&empty, &["nope"]).unwrap().any(|frame| frame.is_err()));
    }

    use super::*;

    #[test]
    fn counts_only_tagged_rows_and_the_lichess_vocabulary() {
        let mut tally = Tally::new(Some(Label::Fork));
        let set = |labels: &[Label]| Some(labels.iter().copied().collect::<LabelSet>());
        tally.add("a", "fork short middlegame", set(&[Label::Fork, Label::Short]));
        tally.add("b", "pin short", set(&[Label::Fork, Label::Short]));
        tally.add("c", "fork long", set(&[Label::Long]));
        // Not tagged (no length theme): not compared.
        tally.add("d", "fork", set(&[Label::Fork]));
        // An error row: not compared.
        tally.add("e", "fork short", None);
        let report = tally.finish();
        assert_eq!((report.rows, report.tagged), (5, 3));
        let fork = report.labels.iter().find(|a| a.label == Label::Fork).unwrap();
        assert_eq!((fork.lichess, fork.koga, fork.both), (2, 2, 1));
        assert_eq!((fork.precision(), fork.recall(), fork.f1()), (Some(0.5), Some(0.5), Some(0.5)));
        let pin = report.labels.iter().find(|a| a.label == Label::Pin).unwrap();
        assert_eq!((pin.lichess, pin.koga, pin.precision()), (1, 0, None));
        assert!(report.labels.iter().all(|a| a.label.info().lichess), "only labels Lichess also has");
        assert!(!report.labels.iter().any(|a| a.label == Label::PinnedDefender));
        let examples = report.examples.unwrap();
        assert_eq!(
            (examples.both, examples.koga_only, examples.lichess_only),
            (vec!["a".into()], vec!["b".into()], vec!["c".into()])
        );
    }

    #[test]
    fn a_label_counts_for_the_themes_it_implies() {
        let mut tally = Tally::new(None);
        let set = |labels: &[Label]| Some(labels.iter().copied().collect::<LabelSet>());
        tally.add("a", "pin short", set(&[Label::PinnedDefender, Label::Short]));
        tally.add("b", "short", set(&[Label::PinnedDefender, Label::Short]));
        let report = tally.finish();
        let pin = report.labels.iter().find(|a| a.label == Label::Pin).unwrap();
        assert_eq!((pin.lichess, pin.koga, pin.both), (1, 2, 1));
    }

    #[test]
    fn labels_come_by_family() {
        let report = Tally::new(None).finish();
        let families: Vec<_> = report.labels.iter().map(|a| a.label.family()).collect();
        assert!(families.windows(2).all(|w| w[0] <= w[1]));
        assert!(report.to_csv().starts_with("label,family,lichess,koga,both,precision,recall,f1\ntrappedPiece,seed,"));
    }

    #[test]
    fn departures_name_lichess_themes_and_show_in_the_report() {
        assert!(DEPARTURES.iter().all(|(label, why)| label.info().lichess && !why.is_empty()));
        let text = Tally::new(None).finish().to_text();
        assert!(text.contains("where Koga's rule departs") && text.contains("quietMove"), "{text}");
    }

    #[test]
    fn examples_need_a_lichess_theme() {
        assert_eq!(examples_label("fork").unwrap(), Label::Fork);
        assert!(matches!(examples_label("pinnedDefender"), Err(CompareError::NotATheme(_))));
        assert!(matches!(examples_label("nonsense"), Err(CompareError::NotATheme(_))));
    }
}
