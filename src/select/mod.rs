//! Puzzle sets for people (`koga select`): pick puzzles by the labels that
//! fire on them, where, their rating, Lichess themes, popularity and plays;
//! then the first N, a reproducible sample, or the best N by an order; and
//! write them as PGN (with the fires drawn as arrows), the Lichess CSV's
//! own columns, or JSON lines ([`export`]).
//!
//! The puzzles come from a puzzle CSV, classified on the way, or from the
//! `puzzles.parquet` of a `koga annotate` output directory, whose rows are
//! classified again: the classifier is deterministic, and replaying a line
//! is cheaper than reading its fires back.

pub mod export;

use std::collections::BinaryHeap;
use std::fmt;

use rayon::prelude::*;

use crate::annotate::{annotate_row, Analysis, Numbers, Outcome, RowFilter};
use crate::input::{Columns, InputError, InputSpec, PuzzleReader};
use crate::label::{Label, LabelSet};
use crate::line::LineForm;

/// Where a label must fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum On {
    /// On the key move (the solver's first move).
    #[default]
    Key,
    /// On a later solver move.
    FollowUp,
    /// On any solver move.
    Any,
}

/// What a puzzle must satisfy to be selected. Every condition holds at
/// once; a bound on a number the row lacks is not met.
#[derive(Debug, Clone, Default)]
pub struct Criteria {
    /// Labels that must all fire, each where `on` says.
    pub labels: Vec<Label>,
    pub on: On,
    /// Count payoff fires (follow-up captures that only collect an earlier
    /// fire's win, spec §2); left out by default.
    pub payoffs: bool,
    /// The rating range, as a pipeline file's row filter reads it.
    pub rating: RowFilter,
    /// Lichess themes that must all be present, and that must all be
    /// absent: the row's published `Themes` where it has the column, else
    /// the themes Koga computes by Lichess's rules (the engine's among them
    /// in the output of an `--engine` run).
    pub themes: Vec<String>,
    pub without_themes: Vec<String>,
    pub min_popularity: Option<i32>,
    pub min_plays: Option<i32>,
}

impl Criteria {
    pub fn accepts(&self, puzzle: &Puzzle) -> bool {
        let at_least = |value: Option<i32>, min: Option<i32>| min.is_none_or(|min| value.is_some_and(|v| v >= min));
        let themes: Vec<&str> = puzzle.lichess_themes().collect();
        let numbers = &puzzle.numbers;
        self.rating.keeps(numbers.rating)
            && at_least(numbers.popularity, self.min_popularity)
            && at_least(numbers.nb_plays, self.min_plays)
            && self.themes.iter().all(|t| themes.contains(&t.as_str()))
            && !self.without_themes.iter().any(|t| themes.contains(&t.as_str()))
            && self.labels.iter().all(|&label| puzzle.fires_where(label, self.on, self.payoffs))
    }
}

/// The order of a selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Input order.
    #[default]
    Input,
    /// Rating, lowest first.
    Rating,
    /// Rating, highest first.
    RatingDown,
    /// Popularity, highest first.
    Popularity,
    /// Times played, most first.
    Plays,
}

/// How many of the matching puzzles to keep, and which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pick {
    /// Every match.
    #[default]
    All,
    /// The first N in `Order`.
    First(usize),
    /// N chosen at random, reproducibly: the same seed picks the same
    /// puzzles from the same input, whatever the thread count or row order.
    Sample { n: usize, seed: u64 },
}

/// One puzzle with what the classifier found in it.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// 0-based data row of the input.
    pub row: u64,
    pub id: String,
    pub fen: String,
    pub moves: String,
    pub numbers: Numbers,
    /// Lichess's published `Themes`, space-separated, where the input has
    /// the column.
    pub themes: Option<String>,
    pub game_url: Option<String>,
    pub opening_tags: Option<String>,
    pub analysis: Analysis,
}

impl Puzzle {
    /// The Lichess themes the selection filters on: the published ones
    /// where given, else those Koga computed by Lichess's rules (with the
    /// engine's, read back from the output of an `--engine` run).
    pub fn lichess_themes(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        match &self.themes {
            Some(themes) => Box::new(themes.split_ascii_whitespace()),
            None => Box::new(self.analysis.themes.iter().flatten().map(|t| t.theme.name())),
        }
    }

    /// `label` fires where `on` says (payoff fires counted only when asked).
    pub fn fires_where(&self, label: Label, on: On, payoffs: bool) -> bool {
        self.analysis.fires.iter().any(|f| {
            let placed = match on {
                On::Key => !f.follow_up,
                On::FollowUp => f.follow_up,
                On::Any => true,
            };
            f.label == label && placed && (payoffs || f.collects.is_none())
        })
    }

    /// The labels on the key move, for titles.
    pub fn key_labels(&self) -> LabelSet {
        self.analysis.labels(false).collect()
    }

    fn sort_key(&self, order: Order) -> i64 {
        let missing = i64::MAX;
        let up = |v: Option<i32>| v.map_or(missing, i64::from);
        let down = |v: Option<i32>| v.map_or(missing, |v| -i64::from(v));
        match order {
            Order::Input => self.row as i64,
            Order::Rating => up(self.numbers.rating),
            Order::RatingDown => down(self.numbers.rating),
            Order::Popularity => down(self.numbers.popularity),
            Order::Plays => down(self.numbers.nb_plays),
        }
    }
}

/// A puzzle's place in a sample: a hash of the seed and its id (FNV-1a,
/// then a 64-bit finaliser), so the sample is the same for any row order.
fn sample_key(seed: u64, id: &str) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for byte in id.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^ (hash >> 33)
}

/// Collects the selected puzzles: only as many as the pick keeps are held.
struct Collector {
    order: Order,
    pick: Pick,
    matched: u64,
    /// (rank, row) → puzzle; the heap holds the best so far, worst on top.
    kept: BinaryHeap<Ranked>,
}

struct Ranked {
    rank: (u64, i64, u64),
    puzzle: Puzzle,
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank)
    }
}

impl Collector {
    fn new(order: Order, pick: Pick) -> Collector {
        Collector { order, pick, matched: 0, kept: BinaryHeap::new() }
    }

    /// Whether more input can still change the selection: the first N in
    /// input order are known once N have matched.
    fn wants_more(&self) -> bool {
        !(self.order == Order::Input && matches!(self.pick, Pick::First(n) if self.kept.len() >= n))
    }

    /// Offers puzzles in their order until the pick is full.
    fn offer_all(&mut self, puzzles: impl IntoIterator<Item = Puzzle>) {
        for puzzle in puzzles {
            if !self.wants_more() {
                break;
            }
            self.offer(puzzle);
        }
    }

    fn offer(&mut self, puzzle: Puzzle) {
        self.matched += 1;
        let (sample, limit) = match self.pick {
            Pick::All => (0, usize::MAX),
            Pick::First(n) => (0, n),
            Pick::Sample { n, seed } => (sample_key(seed, &puzzle.id), n),
        };
        let rank = (sample, puzzle.sort_key(self.order), puzzle.row);
        if limit == 0 {
            return;
        }
        if self.kept.len() < limit {
            self.kept.push(Ranked { rank, puzzle });
        } else if self.kept.peek().is_some_and(|worst| rank < worst.rank) {
            self.kept.pop();
            self.kept.push(Ranked { rank, puzzle });
        }
    }

    /// The selection, in `order` (a sample too: in `order` once drawn).
    fn finish(self) -> Selection {
        let order = self.order;
        let complete = self.wants_more();
        let mut puzzles: Vec<Puzzle> = self.kept.into_iter().map(|r| r.puzzle).collect();
        puzzles.sort_by_key(|p| (p.sort_key(order), p.row));
        Selection { matched: self.matched, complete, puzzles }
    }
}

/// The puzzles selected, and how many matched in all.
#[derive(Debug)]
pub struct Selection {
    /// Puzzles that met the criteria (before the pick), in the rows read.
    pub matched: u64,
    /// Whether every row was read (a `--limit` in input order stops early).
    pub complete: bool,
    pub puzzles: Vec<Puzzle>,
}

#[derive(Debug)]
pub enum SelectError {
    Input(InputError),
    #[cfg(feature = "parquet")]
    Parquet {
        path: std::path::PathBuf,
        source: polars::error::PolarsError,
    },
    /// A word given on the command line that is not a label or theme.
    Unknown(String),
    /// A theme asked for that the puzzles do not carry: no published
    /// `Themes`, and Koga did not compute it.
    NotComputed(String),
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectError::Input(e) => write!(f, "{e}"),
            #[cfg(feature = "parquet")]
            SelectError::Parquet { path, source } => write!(f, "{}: cannot read puzzles: {source}", path.display()),
            SelectError::Unknown(message) | SelectError::NotComputed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SelectError {}

impl From<InputError> for SelectError {
    fn from(e: InputError) -> Self {
        SelectError::Input(e)
    }
}

/// The label named `name`, or an error listing the labels.
pub fn label_named(name: &str) -> Result<Label, SelectError> {
    Label::from_name(name).ok_or_else(|| {
        SelectError::Unknown(crate::label::unknown_name_message(
            name,
            "label",
            Label::NAMES.iter().copied(),
            "`koga labels`",
        ))
    })
}

/// Every theme name Lichess's `Themes` column uses: those its tagger emits
/// and those it leaves to an engine, the players or its seeds.
pub fn theme_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = crate::lichess::Theme::NAMES.to_vec();
    names.extend(crate::lichess::LEFT_OUT.iter().flat_map(|(themes, _)| themes.split_ascii_whitespace()));
    names.sort_unstable();
    names.dedup();
    names
}

/// `name` if Lichess has such a theme, or an error listing them.
pub fn theme_named(name: &str) -> Result<String, SelectError> {
    let names = theme_names();
    if names.contains(&name) {
        Ok(name.to_owned())
    } else {
        Err(SelectError::Unknown(crate::label::unknown_name_message(
            name,
            "Lichess theme",
            names.iter().copied(),
            "`koga labels --lichess`",
        )))
    }
}

/// Refuses a theme the selection cannot read: where the input has no
/// published `Themes`, it reads the themes Koga computed, which hold the
/// engine's (crushing, advantage, equality, zugzwang) only after `koga
/// annotate --engine` (`engine`), and never the players' or the votes':
/// asking for one would select nothing (or, to leave it out, everything)
/// without a word.
pub fn check_computed_themes(criteria: &Criteria, engine: bool) -> Result<(), SelectError> {
    use crate::lichess::{Theme, LEFT_OUT};
    let asked = criteria.themes.iter().map(|t| ("--theme", t));
    for (flag, name) in asked.chain(criteria.without_themes.iter().map(|t| ("--without-theme", t))) {
        let why = match Theme::from_name(name) {
            Some(theme) if !theme.from_engine() || engine => continue,
            Some(_) => {
                "Koga gives it only with `koga annotate --engine`: select from that run's output directory".to_owned()
            }
            None => {
                let left_out = LEFT_OUT.iter().find(|(names, _)| names.split_ascii_whitespace().any(|n| n == name));
                format!("Koga does not compute it ({})", left_out.map_or("not a theme of its rules", |(_, why)| why))
            }
        };
        return Err(SelectError::NotComputed(format!(
            "{flag} {name}: these puzzles have no published Themes to read it from, and {why}"
        )));
    }
    Ok(())
}

/// A rating range `MIN-MAX` (either end may be left out: `1500-`, `-1800`),
/// as `--rating` gives it.
pub fn rating_range(text: &str) -> Result<RowFilter, SelectError> {
    let refuse = |why: &str| SelectError::Unknown(format!("--rating {text}: {why} (write MIN-MAX, e.g. 1400-1700)"));
    let (low, high) = text.split_once('-').ok_or_else(|| refuse("no '-' between the bounds"))?;
    let bound = |t: &str| -> Result<Option<i32>, SelectError> {
        let t = t.trim();
        if t.is_empty() {
            Ok(None)
        } else {
            t.parse().map(Some).map_err(|_| refuse(&format!("{t:?} is not a whole number")))
        }
    };
    match (bound(low)?, bound(high)?) {
        (None, None) => Err(refuse("no bound given")),
        (Some(low), Some(high)) if low > high => Err(refuse("the lower bound is above the upper one")),
        (min_rating, max_rating) => Ok(RowFilter { min_rating, max_rating }),
    }
}

/// The rating range `--min-rating` and `--max-rating` give, refused where
/// they are reversed.
pub fn rating_bounds(min_rating: Option<i32>, max_rating: Option<i32>) -> Result<RowFilter, SelectError> {
    match (min_rating, max_rating) {
        (Some(low), Some(high)) if low > high => Err(SelectError::Unknown(format!(
            "--min-rating {low} is above --max-rating {high}: no rating can match (swap them?)"
        ))),
        _ => Ok(RowFilter { min_rating, max_rating }),
    }
}

/// Selects from a puzzle CSV, classifying it on the way.
pub fn select_csv(input: &InputSpec, criteria: &Criteria, order: Order, pick: Pick) -> Result<Selection, SelectError> {
    let mut reader = PuzzleReader::open(input)?;
    let columns: Columns = (**reader.columns()).clone();
    if columns.themes.is_none() {
        check_computed_themes(criteria, false)?;
    }
    let mut collector = Collector::new(order, pick);
    while collector.wants_more() {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            break;
        }
        let found: Vec<Puzzle> = (0..batch.len())
            .into_par_iter()
            .filter_map(|i| {
                let annotated = annotate_row(batch.row(i), &columns, LineForm::Puzzle, &RowFilter::default());
                let Outcome::Ok(analysis) = annotated.outcome else { return None };
                let row = &annotated.row;
                let text = |column: Option<usize>| row.field(column).map(str::to_owned);
                let puzzle = Puzzle {
                    row: row.index,
                    id: row.puzzle_id(&columns).unwrap_or_default().to_owned(),
                    fen: text(Some(columns.fen)).unwrap_or_default(),
                    moves: text(Some(columns.moves)).unwrap_or_default(),
                    numbers: annotated.numbers,
                    themes: columns.themes.map(|c| row.field(Some(c)).unwrap_or("").to_owned()),
                    game_url: text(columns.game_url),
                    opening_tags: text(columns.opening_tags),
                    analysis,
                };
                criteria.accepts(&puzzle).then_some(puzzle)
            })
            .collect();
        collector.offer_all(found);
    }
    Ok(collector.finish())
}

/// Selects from the `puzzles.parquet` of a `koga annotate` output directory
/// (its rows classified again).
#[cfg(feature = "parquet")]
pub fn select_output(
    dir: &std::path::Path,
    criteria: &Criteria,
    order: Order,
    pick: Pick,
) -> Result<Selection, SelectError> {
    use polars::prelude::*;

    use crate::compare::{has_column, row_groups, table_files, CompareError, ENGINE_ERROR};
    use crate::lichess::{add_puzzle_themes, Theme};

    let parquet = |e: CompareError| match e {
        CompareError::Parquet { path, source } => SelectError::Parquet { path, source },
        other => SelectError::Unknown(other.to_string()),
    };
    let names = [
        "row_number",
        "puzzle_id",
        "status",
        "fen",
        "moves",
        "rating",
        "rating_deviation",
        "popularity",
        "nb_plays",
        "lichess_themes",
        "game_url",
        "opening_tags",
        "themes",
    ];
    let mut collector = Collector::new(order, pick);
    for path in table_files(dir, crate::output::PUZZLES_FILE).map_err(parquet)? {
        if !collector.wants_more() {
            break;
        }
        // The engine's themes are read back from `themes`; the rest are
        // computed again.
        let engine = has_column(&path, ENGINE_ERROR).map_err(parquet)?;
        for frame in row_groups(&path, &names).map_err(parquet)? {
            if !collector.wants_more() {
                break;
            }
            let frame = frame.map_err(parquet)?;
            let fail = |source: PolarsError| SelectError::Parquet { path: path.clone(), source };
            let text = |name: &str| -> Result<StringChunked, SelectError> {
                Ok(frame
                    .column(name)
                    .map_err(fail)?
                    .cast(&DataType::String)
                    .map_err(fail)?
                    .str()
                    .map_err(fail)?
                    .clone())
            };
            let int = |name: &str| -> Result<Int32Chunked, SelectError> {
                Ok(frame.column(name).map_err(fail)?.cast(&DataType::Int32).map_err(fail)?.i32().map_err(fail)?.clone())
            };
            let words = |name: &str| -> Result<ListChunked, SelectError> {
                Ok(frame.column(name).map_err(fail)?.list().map_err(fail)?.clone())
            };
            let rows = frame.column("row_number").map_err(fail)?.i64().map_err(fail)?.clone();
            let (ids, status, fens, moves, urls) =
                (text("puzzle_id")?, text("status")?, text("fen")?, text("moves")?, text("game_url")?);
            let (ratings, deviations, popularity, plays) =
                (int("rating")?, int("rating_deviation")?, int("popularity")?, int("nb_plays")?);
            let (themes, openings, computed) = (words("lichess_themes")?, words("opening_tags")?, words("themes")?);
            if themes.null_count() == frame.height() && frame.height() > 0 {
                check_computed_themes(criteria, engine)?;
            }
            let joined =
                |list: &ListChunked, i: usize| crate::compare::list_words(list, i).map(|words| words.join(" "));
            let found: Vec<Puzzle> = (0..frame.height())
                .into_par_iter()
                .filter_map(|i| {
                    if status.get(i) != Some("ok") {
                        return None;
                    }
                    let line = crate::Line::parse(fens.get(i)?, moves.get(i)?, LineForm::Puzzle).ok()?;
                    let mut analysis = crate::annotate::analyse(line);
                    if let (true, Some(found)) = (engine, analysis.themes.as_mut()) {
                        let names = crate::compare::list_words(&computed, i).unwrap_or_default();
                        let from_engine = names.iter().filter_map(|n| Theme::from_name(n)).filter(|t| t.from_engine());
                        add_puzzle_themes(found, from_engine);
                    }
                    let puzzle = Puzzle {
                        row: (rows.get(i)? - 1) as u64,
                        id: ids.get(i).unwrap_or_default().to_owned(),
                        fen: fens.get(i)?.to_owned(),
                        moves: moves.get(i)?.to_owned(),
                        numbers: Numbers {
                            rating: ratings.get(i),
                            rating_deviation: deviations.get(i),
                            popularity: popularity.get(i),
                            nb_plays: plays.get(i),
                        },
                        themes: joined(&themes, i),
                        game_url: urls.get(i).map(str::to_owned),
                        opening_tags: joined(&openings, i),
                        analysis,
                    };
                    criteria.accepts(&puzzle).then_some(puzzle)
                })
                .collect();
            collector.offer_all(found);
        }
    }
    Ok(collector.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_depends_on_the_seed_and_the_id_only() {
        assert_eq!(sample_key(7, "00BnG"), sample_key(7, "00BnG"));
        assert_ne!(sample_key(7, "00BnG"), sample_key(8, "00BnG"));
        assert_ne!(sample_key(7, "00BnG"), sample_key(7, "00BnH"));
    }
}
