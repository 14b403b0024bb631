//! Lichess's themes, exactly: the theme set Lichess's puzzle tagger
//! (`tagger/cook.py` in the public `ornicar/lichess-puzzler` repository)
//! gives a puzzle, computed from its FEN and moves by Lichess's own rules,
//! quirks included. Koga's own labels ([`crate::tactics`]) follow the seeds
//! and stricter ideas of what a tactic is; this module does not touch them
//! and they do not touch it.
//!
//! [`Theme`] is the one vocabulary of the `themes` column. Most themes come
//! from the moves ([`Source::Moves`], [`themes`]); `crushing`, `advantage`,
//! `equality` and `zugzwang` need an engine's evaluation
//! ([`Source::Engine`]): only the engine stage (`--engine`,
//! [`crate::engine`]) gives them, [`add_puzzle_themes`] puts them beside
//! the others. Left out, because neither decides them: `master`,
//! `masterVsMaster`, `superGM` (the game's players) and the themes the
//! tagger's public source does not emit ([`LEFT_OUT`] says which). The
//! phase (`opening`, `middlegame`, `endgame`) is Lichess's game divider,
//! read on the position the solver faces.
//!
//! Each theme found on one move says which: [`ThemeAt::ply`] is the ply of
//! the solver move the rule is about (for example the deflecting move, not
//! the capture it leads to). Themes of the whole puzzle (length, phase,
//! endgame kind, the side of the attack, sacrifice, the engine's themes)
//! have none.

mod board;
mod rules;

use crate::label::Label;
use crate::line::Line;

/// Koga's label of a theme's name: every theme from the moves has one.
macro_rules! label_of {
    (Moves $variant:ident) => {
        Some(Label::$variant)
    };
    (Engine $variant:ident) => {
        None
    };
}

macro_rules! themes {
    ($($variant:ident $name:literal $sits:ident $source:ident $rule:literal;)*) => {
        /// A theme Lichess's tagger gives. Declared in alphabetical order, as
        /// Lichess lists themes, so that sorting themes sorts their names.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Theme {
            $($variant,)*
        }

        impl Theme {
            /// Every theme, by name.
            pub const ALL: &'static [Theme] = &[$(Theme::$variant,)*];
            /// Theme names, indexed by `Theme as usize`.
            pub const NAMES: &'static [&'static str] = &[$($name,)*];

            /// The theme's name, as Lichess writes it.
            pub fn name(self) -> &'static str {
                Theme::NAMES[self as usize]
            }

            /// Where the theme sits in the line.
            pub fn sits(self) -> Sits {
                match self {
                    $(Theme::$variant => Sits::$sits,)*
                }
            }

            /// What decides the theme.
            pub fn source(self) -> Source {
                match self {
                    $(Theme::$variant => Source::$source,)*
                }
            }

            /// Koga's label of the same name: every theme from the moves
            /// has one (Koga's own rules decide it); the engine's have none.
            #[inline]
            pub fn label(self) -> Option<Label> {
                const LABELS: &[Option<Label>] = &[$(label_of!($source $variant),)*];
                LABELS[self as usize]
            }

            /// Lichess's rule, in a sentence.
            pub fn rule(self) -> &'static str {
                match self {
                    $(Theme::$variant => $rule,)*
                }
            }
        }
    };
}

/// Where a theme sits in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sits {
    /// On one solver move, which [`ThemeAt::ply`] names.
    Move,
    /// On the mating move (the line's last).
    MatingMove,
    /// On the key move, for the whole line (`mateInN`).
    KeyMove,
    /// On the whole puzzle: no ply.
    Puzzle,
}

/// What decides a theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Lichess's tagger's rules on the moves ([`themes`]).
    Moves,
    /// An engine's evaluation (`tagger/cook.py`) or search
    /// (`tagger/zugzwang.py`): the engine stage only ([`crate::engine`]).
    Engine,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Moves => "moves",
            Source::Engine => "engine",
        }
    }
}

impl Sits {
    pub fn describe(self) -> &'static str {
        match self {
            Sits::Move => "its move",
            Sits::MatingMove => "mating move",
            Sits::KeyMove => "key move",
            Sits::Puzzle => "puzzle",
        }
    }
}

themes! {
    AdvancedPawn "advancedPawn" Move Moves "a pawn of ours reaches its seventh or eighth rank";
    Advantage "advantage" Puzzle Engine "no mate at the end; the engine's score before the last solver move above the advantage cut (Lichess: 200 cp), not above the crushing cut";
    AnastasiaMate "anastasiaMate" MatingMove Moves "a rook or queen mates on the edge file, the king's own man beside it and our knight three files in";
    ArabianMate "arabianMate" MatingMove Moves "a rook mates a cornered king next to it, guarded by a knight two files and ranks away";
    AttackingF2F7 "attackingF2F7" Move Moves "our capture on f2 or f7 with the enemy king on its starting square";
    Attraction "attraction" Move Moves "our move to a square where the king, queen or rook takes, and we then hit it there (and take it, unless a king)";
    BackRankMate "backRankMate" MatingMove Moves "mate on the king's back rank, its three front squares held by its own unattacked men, a checker on that rank";
    BishopEndgame "bishopEndgame" Puzzle Moves "only kings, pawns and bishops";
    BodenMate "bodenMate" MatingMove Moves "only bishops attack the king's square and neighbours, one on each side of the king's file";
    CapturingDefender "capturingDefender" Move Moves "we take a man that defended a piece, then take that piece";
    Castling "castling" Move Moves "we castle";
    Clearance "clearance" Move Moves "a move that clears a line our queen, rook or bishop then uses without capturing";
    Crushing "crushing" Puzzle Engine "no mate at the end; the engine's score before the last solver move a mate for the solver or above the crushing cut (Lichess: 600 cp)";
    DefensiveMove "defensiveMove" Move Moves "a quiet last move among three or more, or an early move out of check among three or more";
    Deflection "deflection" Move Moves "a forcing move draws a piece off, and two plies later we capture or promote where it guarded";
    DiscoveredAttack "discoveredAttack" Move Moves "a discovered check, or a move off the line of a later capture";
    DoubleBishopMate "doubleBishopMate" MatingMove Moves "only bishops attack the king's square and neighbours, both on one side";
    DoubleCheck "doubleCheck" Move Moves "two pieces give check";
    DovetailMate "dovetailMate" MatingMove Moves "a queen mates from a diagonal neighbour of a king off the edge, the squares only it covers occupied";
    EnPassant "enPassant" Move Moves "a pawn of ours captures en passant";
    Endgame "endgame" Puzzle Moves "the game phase, by Lichess's divider";
    Equality "equality" Puzzle Engine "no mate at the end; the engine's score before the last solver move at most the advantage cut";
    ExposedKing "exposedKing" Move Moves "a later check on a king high up the board with no pawns around it";
    Fork "fork" Move Moves "a safe piece (not the king) attacks two men worth more, or undefended ones, before the last move";
    HangingPiece "hangingPiece" Move Moves "the key move takes an undefended piece and the material stays won";
    HookMate "hookMate" MatingMove Moves "a rook mates next to the king, guarded by a knight next to the king that a pawn guards";
    Interference "interference" Move Moves "a piece comes between a defender and the hanging piece we then take";
    Intermezzo "intermezzo" Move Moves "an in-between move before taking back on the square the opponent just captured on";
    KingsideAttack "kingsideAttack" Puzzle Moves "checks and captures near the corner of a king castled short";
    KnightEndgame "knightEndgame" Puzzle Moves "only kings, pawns and knights";
    Long "long" Puzzle Moves "three solver moves";
    Mate "mate" MatingMove Moves "the line ends in mate";
    MateIn1 "mateIn1" KeyMove Moves "the line ends in mate after one solver move";
    MateIn2 "mateIn2" KeyMove Moves "the line ends in mate after two solver moves";
    MateIn3 "mateIn3" KeyMove Moves "the line ends in mate after three solver moves";
    MateIn4 "mateIn4" KeyMove Moves "the line ends in mate after four solver moves";
    MateIn5 "mateIn5" KeyMove Moves "the line ends in mate after five solver moves or more";
    Middlegame "middlegame" Puzzle Moves "the game phase, by Lichess's divider";
    OneMove "oneMove" Puzzle Moves "one solver move";
    Opening "opening" Puzzle Moves "the game phase, by Lichess's divider";
    PawnEndgame "pawnEndgame" Puzzle Moves "only kings and pawns";
    Pin "pin" Move Moves "a piece pinned to its king cannot take a man of ours, or cannot escape our attack";
    Promotion "promotion" Move Moves "a pawn of ours promotes";
    QueenEndgame "queenEndgame" Puzzle Moves "only kings, pawns and queens";
    QueenRookEndgame "queenRookEndgame" Puzzle Moves "one queen, rooks, kings and pawns";
    QueensideAttack "queensideAttack" Puzzle Moves "checks and captures near the corner of a king castled long";
    QuietMove "quietMove" Move Moves "a move that gives and escapes no check, takes and attacks nothing, not a king move or advanced pawn, with the line going on";
    RookEndgame "rookEndgame" Puzzle Moves "only kings, pawns and rooks";
    Sacrifice "sacrifice" Puzzle Moves "two pawns' worth down after a later solver move, the opponent never promoting";
    Short "short" Puzzle Moves "two solver moves";
    Skewer "skewer" Move Moves "a valuable piece moves off a line and the piece behind it, badly placed, is taken";
    SmotheredMate "smotheredMate" MatingMove Moves "a knight mates and every square around the king holds the king's own men";
    TrappedPiece "trappedPiece" Move Moves "a piece with no safe square is taken later";
    UnderPromotion "underPromotion" Move Moves "a pawn of ours promotes to a knight, bishop or rook (a knight, on the mating move)";
    VeryLong "veryLong" Puzzle Moves "four solver moves or more";
    XRayAttack "xRayAttack" Move Moves "we take on a square twice, the second time through the square the opponent's taker came from";
    Zugzwang "zugzwang" Puzzle Engine "after a solver move, the opponent (not in check, at most 15 moves) has winning chances 0.3 worse than if it could pass";
}

// Theme sets are `u64` bitmaps and vocabulary entries `u8` indices.
const _: () = assert!(Theme::NAMES.len() <= 64);

impl Theme {
    /// The theme of this name.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::NAMES.iter().position(|&n| n == name).map(|i| Theme::ALL[i])
    }

    /// Only the engine stage gives it ([`Source::Engine`]).
    pub fn from_engine(self) -> bool {
        self.source() == Source::Engine
    }
}

/// A theme and the ply it sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThemeAt {
    pub theme: Theme,
    pub ply: Option<u16>,
}

/// A puzzle's themes, sorted by name. A puzzle gets a handful (nine at
/// most on the dev set): held inline, they cost no allocation.
pub type Themes = crate::inline_vec::InlineVec<ThemeAt, 12>;

/// Lichess's themes of a puzzle from its moves ([`Source::Moves`]), sorted
/// by name as Lichess's `Themes` column lists them. `None` for a plain
/// line: Lichess's rules read the opponent's setup move, which a plain line
/// does not have.
pub fn themes(line: &Line) -> Option<Themes> {
    if line.key_ply != 1 {
        return None;
    }
    Some(rules::cook(line))
}

/// Adds themes of the whole puzzle (no ply), the engine's, to `themes`,
/// keeping them sorted by name; a theme already there stays as it is.
pub fn add_puzzle_themes(themes: &mut Themes, add: impl IntoIterator<Item = Theme>) {
    let mut merged = themes.to_vec();
    for theme in add {
        let at = merged.partition_point(|t| t.theme < theme);
        if merged.get(at).is_none_or(|t| t.theme != theme) {
            merged.insert(at, ThemeAt { theme, ply: None });
        }
    }
    *themes = merged.into_iter().collect();
}

/// Themes of Lichess's `Themes` column that no [`Theme`] stands for, and
/// why.
pub const LEFT_OUT: &[(&str, &str)] = &[
    ("master masterVsMaster superGM", "the game's players"),
    (
        "discoveredCheck collinearMove cornerMate killBoxMate vukovicMate operaMate pillsburysMate morphysMate \
         triangleMate balestraMate blindSwineMate epauletteMate swallowstailMate",
        "not emitted by the tagger's public source; Koga's own labels of these names follow its seeds",
    ),
    ("overloading", "the tagger's rule is switched off (it never fires)"),
];

/// `koga labels --lichess`: every theme, where it sits, what decides it,
/// and Lichess's rule.
pub fn vocabulary_text() -> String {
    use std::fmt::Write;
    let mut out = format!("{:<18} {:<12} {:<7} {}\n", "theme", "sits on", "from", "Lichess's rule");
    for &theme in Theme::ALL {
        let (name, sits, from) = (theme.name(), theme.sits().describe(), theme.source().name());
        let _ = writeln!(out, "{name:<18} {sits:<12} {from:<7} {}", theme.rule());
    }
    let engine: Vec<&str> = Theme::ALL.iter().filter(|t| t.from_engine()).map(|t| t.name()).collect();
    let _ = writeln!(
        out,
        "\n{} themes, computed by Lichess's rules (tagger/cook.py, tagger/zugzwang.py) into puzzles.themes, the \
         ply each sits on in puzzles.theme_plies;\n{} from an engine's evaluation: only with `koga annotate \
         --engine` (docs/engine.md), with no ply.\n\
         Koga's label of the same name follows Koga's own rules (docs/tactics/<label>.md); fires.lichess marks its \
         fire where it\nsits on the theme's ply. Left out of themes:",
        Theme::ALL.len(),
        engine.join(", ")
    );
    for (themes, why) in LEFT_OUT {
        let _ = writeln!(out, "  {themes}: {why}");
    }
    out
}

/// `koga labels --lichess --format json`: one object per theme.
pub fn vocabulary_json() -> String {
    #[derive(serde::Serialize)]
    struct Entry {
        name: &'static str,
        sits: &'static str,
        source: &'static str,
        koga_label: Option<&'static str>,
        rule: &'static str,
    }
    let themes: Vec<Entry> = Theme::ALL
        .iter()
        .map(|&t| Entry {
            name: t.name(),
            sits: t.sits().describe(),
            source: t.source().name(),
            koga_label: t.label().map(Label::name),
            rule: t.rule(),
        })
        .collect();
    serde_json::to_string_pretty(&themes).expect("plain data")
}

/// Which function of Lichess's tagger decides a theme: the names its test
/// suite calls (`tagger/test.py`), each answering for one puzzle.
pub fn rule_function(name: &str) -> Option<fn(&Line) -> bool> {
    rules::function(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_are_declared_by_name() {
        assert!(Theme::NAMES.windows(2).all(|w| w[0] < w[1]), "{:?}", Theme::NAMES);
        for &theme in Theme::ALL {
            let label = theme.label().map(Label::name);
            assert_eq!(label, (!theme.from_engine()).then_some(theme.name()), "{theme:?}");
            assert!(!theme.from_engine() || theme.sits() == Sits::Puzzle, "{theme:?}: the engine's have no ply");
        }
        let engine: Vec<&str> = Theme::ALL.iter().filter(|t| t.from_engine()).map(|t| t.name()).collect();
        assert_eq!(engine, ["advantage", "crushing", "equality", "zugzwang"]);
    }

    #[test]
    fn puzzle_themes_go_in_name_order_once() {
        let at = |theme, ply| ThemeAt { theme, ply };
        let mut themes: Themes =
            [at(Theme::Endgame, None), at(Theme::Fork, Some(1)), at(Theme::Short, None)].into_iter().collect();
        add_puzzle_themes(&mut themes, [Theme::Zugzwang, Theme::Crushing, Theme::Crushing]);
        let names: Vec<&str> = themes.iter().map(|t| t.theme.name()).collect();
        assert_eq!(names, ["crushing", "endgame", "fork", "short", "zugzwang"]);
        assert_eq!(themes[0].ply, None);
        assert_eq!(themes[2].ply, Some(1));
    }

    #[test]
    fn names_are_unique_and_found_back() {
        for &theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(Theme::from_name("master"), None);
    }
}
