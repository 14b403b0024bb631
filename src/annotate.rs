//! One row in, one annotated row out: the per-puzzle work the pipeline's
//! workers do. Pure and allocation-light, so it runs the same in the
//! pipeline, in `explain` and in tests.

use shakmaty::{san::SanPlus, uci::UciMove};

use crate::engine::Engine;
use crate::input::{Columns, TextRow};
use crate::lichess::{self, Themes};
use crate::line::{Line, LineForm, RowError};
use crate::tactics::{self, Fire, Label, LabelSet};

/// Which rows a run keeps (pipeline files may restrict the rating range).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowFilter {
    pub min_rating: Option<i32>,
    pub max_rating: Option<i32>,
}

impl RowFilter {
    pub fn is_active(&self) -> bool {
        self.min_rating.is_some() || self.max_rating.is_some()
    }

    /// Whether a row with this rating is kept; a row without a rating is kept
    /// only when no rating bound is set.
    pub fn keeps(&self, rating: Option<i32>) -> bool {
        if !self.is_active() {
            return true;
        }
        let Some(r) = rating else { return false };
        self.min_rating.is_none_or(|min| r >= min) && self.max_rating.is_none_or(|max| r <= max)
    }
}

/// The numeric columns carried through, parsed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Numbers {
    pub rating: Option<i32>,
    pub rating_deviation: Option<i32>,
    pub popularity: Option<i32>,
    pub nb_plays: Option<i32>,
}

/// The judged moves of a puzzle's fires: most puzzles have at most four
/// fires, whose moves are then held inline.
pub type FireMoves = crate::inline_vec::InlineVec<(UciMove, SanPlus), 4>;

/// What the classifier found in one puzzle.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub plies: usize,
    pub fires: Vec<Fire>,
    /// The judged move of each fire (same order as `fires`), in UCI and SAN.
    pub fire_moves: FireMoves,
    pub puzzle_labels: LabelSet,
    /// Lichess's themes by Lichess's rules, sorted by name, the engine
    /// stage's among them with `--engine`; `None` for a plain line without
    /// the engine.
    pub themes: Option<Themes>,
    /// The engine stage's result (`--engine` only; [`crate::engine`]).
    pub engine: Option<crate::engine::Outcome>,
}

impl Analysis {
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Distinct labels, in label order, of the fires that are (or are not)
    /// follow-ups.
    /// Whether `fire` is where one of Lichess's themes sits: a theme of its
    /// label's name, found on its ply.
    pub fn sits_lichess_theme(&self, fire: &Fire) -> bool {
        self.themes.iter().flatten().any(|t| t.ply == Some(fire.ply) && t.theme.label() == Some(fire.label))
    }

    pub fn labels(&self, follow_up: bool) -> impl Iterator<Item = Label> {
        let set: LabelSet = self.fires.iter().filter(|f| f.follow_up == follow_up).map(|f| f.label).collect();
        set.into_iter()
    }
}

#[derive(Debug, Clone)]
pub enum Outcome {
    Ok(Analysis),
    Error(RowError),
    /// Left out by the run's row filter.
    Filtered,
}

/// A row and what became of it.
#[derive(Debug, Clone)]
pub struct Annotated<'a> {
    pub row: TextRow<'a>,
    pub numbers: Numbers,
    pub outcome: Outcome,
}

/// Classifies one replayed line: the fires and the puzzle-level labels.
pub fn analyse(line: Line) -> Analysis {
    let fires = tactics::classify(&line);
    let puzzle_labels = tactics::puzzle_labels(&line);
    // Fires come ordered by ply: each judged move is written out once.
    let mut fire_moves = FireMoves::default();
    for (i, fire) in fires.iter().enumerate() {
        let same_ply = i > 0 && fires[i - 1].ply == fire.ply;
        let mv = match fire_moves.last() {
            Some(&previous) if same_ply => previous,
            _ => (line.uci(fire.ply as usize), line.san(fire.ply as usize)),
        };
        fire_moves.push(mv);
    }
    let themes = lichess::themes(&line);
    Analysis { plies: line.plies(), fires, fire_moves, puzzle_labels, themes, engine: None }
}

/// Annotates one raw row.
pub fn annotate_row<'a>(row: TextRow<'a>, columns: &Columns, form: LineForm, filter: &RowFilter) -> Annotated<'a> {
    let rating = row.optional_int(columns.rating, "Rating");
    let rating_deviation = row.optional_int(columns.rating_deviation, "RatingDeviation");
    let popularity = row.optional_int(columns.popularity, "Popularity");
    let nb_plays = row.optional_int(columns.nb_plays, "NbPlays");
    let number = |read: &Result<Option<i32>, RowError>| read.as_ref().ok().copied().flatten();
    let numbers = Numbers {
        rating: number(&rating),
        rating_deviation: number(&rating_deviation),
        popularity: number(&popularity),
        nb_plays: number(&nb_plays),
    };
    let outcome = if filter.is_active() && !filter.keeps(numbers.rating) {
        Outcome::Filtered
    } else if let Err(e) = rating.and(rating_deviation).and(popularity).and(nb_plays) {
        // Numbers must parse when present: a mangled row is reported, not
        // guessed (the first that does not, in the columns' order).
        Outcome::Error(e)
    } else {
        // A classifier bug must not take the run down: the row becomes an
        // error row that says so, and the other rows are annotated.
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match parse_row(&row, columns, form) {
            Ok(line) => Outcome::Ok(analyse(line)),
            Err(e) => Outcome::Error(e),
        }));
        attempt.unwrap_or_else(|payload| Outcome::Error(RowError::Internal { reason: panic_message(&payload) }))
    };
    Annotated { row, numbers, outcome }
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "classifier panicked".to_owned())
}

fn parse_row(row: &TextRow, columns: &Columns, form: LineForm) -> Result<Line, RowError> {
    row.required(columns.puzzle_id, "PuzzleId")?;
    let fen = row.required(columns.fen, "FEN")?;
    let moves = match row.raw_field(columns.moves) {
        None => return Err(RowError::MissingField("Moves")),
        Some(_) => row.optional(Some(columns.moves), "Moves")?.unwrap_or(""),
    };
    row.check_utf8(columns.themes, "Themes")?;
    row.check_utf8(columns.game_url, "GameUrl")?;
    row.check_utf8(columns.opening_tags, "OpeningTags")?;
    Line::parse(fen, moves, form)
}

/// Adds the engine's verdict to a classified row, and its themes to the
/// row's `themes` (rows in error and rows filtered out are left alone; a
/// plain line, which has no themes from its moves, gets the engine's
/// alone). A run that is stopping skips the engine: its rows in flight are
/// not written.
pub fn add_engine_verdict<'a>(
    mut annotated: Annotated<'a>,
    columns: &Columns,
    form: LineForm,
    engine: &Engine,
) -> Annotated<'a> {
    if crate::interrupt::received().is_some() {
        return annotated;
    }
    if let Outcome::Ok(analysis) = &mut annotated.outcome {
        let fen = annotated.row.field(Some(columns.fen)).unwrap_or("");
        let moves = annotated.row.field(Some(columns.moves)).unwrap_or("");
        let outcome = engine.evaluate(fen, moves, form);
        if let Ok(verdict) = &outcome {
            lichess::add_puzzle_themes(
                analysis.themes.get_or_insert_with(Default::default),
                verdict.themes.iter().copied(),
            );
        }
        analysis.engine = Some(outcome);
    }
    annotated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RowBatch;

    fn columns() -> Columns {
        Columns { puzzle_id: 0, fen: 1, moves: 2, rating: Some(3), ..Columns::default() }
    }

    fn annotate(fields: &[&str], filter: &RowFilter) -> (Numbers, Outcome) {
        let batch = RowBatch::of(&[fields]);
        let a = annotate_row(batch.row(0), &columns(), LineForm::Puzzle, filter);
        (a.numbers, a.outcome)
    }

    const FEN: &str = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35";

    #[test]
    fn ok_row_is_analysed() {
        let (numbers, outcome) = annotate(&["000Zo", FEN, "e5f6 e8e1 g1f2 e1f1", "1500"], &RowFilter::default());
        let Outcome::Ok(analysis) = outcome else { panic!("{outcome:?}") };
        assert_eq!(analysis.plies(), 4);
        assert_eq!(analysis.labels(false).collect::<Vec<_>>(), vec![Label::MateIn2]);
        assert_eq!(analysis.labels(true).collect::<Vec<_>>(), vec![Label::Mate, Label::OperaMate]);
        assert_eq!(analysis.puzzle_labels.iter().collect::<Vec<_>>(), vec![Label::Short, Label::Endgame]);
        assert_eq!(numbers.rating, Some(1500));
    }

    #[test]
    fn bad_rows_become_errors() {
        let cases: &[(&[&str], &str)] = &[
            (&["x", FEN], "missing field Moves"),
            (&["", FEN, "e5f6 e8e1"], "missing field PuzzleId"),
            (&["x", "", "e5f6 e8e1"], "missing field FEN"),
            (&["x", FEN, "e5f6 e8e1", "12a"], "field Rating is not an integer: \"12a\""),
            (&["x", FEN, "e5f6 e8a1"], "illegal move e8a1 at ply 1"),
            (&["x", FEN, "e5f6 zz"], "malformed UCI move \"zz\" at ply 1"),
        ];
        for (fields, want) in cases {
            match annotate(fields, &RowFilter::default()).1 {
                Outcome::Error(e) => assert_eq!(e.to_string(), *want),
                other => panic!("{fields:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn rating_filter() {
        let filter = RowFilter { min_rating: Some(1000), max_rating: Some(1600) };
        assert!(filter.keeps(Some(1000)) && filter.keeps(Some(1600)));
        assert!(!filter.keeps(Some(999)) && !filter.keeps(Some(1601)) && !filter.keeps(None));
        assert!(matches!(annotate(&["x", FEN, "e5f6 e8e1", "2000"], &filter).1, Outcome::Filtered));
    }
}
