//! Lichess's themes, exactly: the theme set Lichess's puzzle tagger
//! (`tagger/cook.py` in the public `ornicar/lichess-puzzler` repository)
//! gives a puzzle, computed from its FEN and moves by Lichess's own rules,
//! quirks included. Koga's own labels ([`crate::tactics`]) follow the seeds
//! and stricter ideas of what a tactic is; this module does not touch them
//! and they do not touch it.
//!
//! Left out, because the board alone cannot decide them: `crushing`,
//! `advantage` and `equality` (an engine's evaluation), `master`,
//! `masterVsMaster`, `superGM` (the game's players), `zugzwang` (an engine
//! search) and the themes the tagger's public source does not emit
//! ([`LEFT_OUT`] says which). The phase
//! (`opening`, `middlegame`, `endgame`) is Lichess's game divider, read on
//! the position the solver faces.
//!
//! Each theme found on one move says which: [`ThemeAt::ply`] is the ply of
//! the solver move the rule is about (for example the deflecting move, not
//! the capture it leads to). Themes of the whole puzzle (length, phase,
//! endgame kind, the side of the attack, sacrifice) have none.

mod board;
mod rules;

use crate::label::Label;
use crate::line::Line;

macro_rules! themes {
    ($($variant:ident $name:literal $sits:ident $rule:literal;)*) => {
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

            /// Koga's label of the same name: every Lichess theme has one
            /// (Koga's own rules decide it).
            pub fn label(self) -> Label {
                match self {
                    $(Theme::$variant => Label::$variant,)*
                }
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
    AdvancedPawn "advancedPawn" Move "a pawn of ours reaches its seventh or eighth rank";
    AnastasiaMate "anastasiaMate" MatingMove "a rook or queen mates on the edge file, the king's own man beside it and our knight three files in";
    ArabianMate "arabianMate" MatingMove "a rook mates a cornered king next to it, guarded by a knight two files and ranks away";
    AttackingF2F7 "attackingF2F7" Move "our capture on f2 or f7 with the enemy king on its starting square";
    Attraction "attraction" Move "our move to a square where the king, queen or rook takes, and we then hit it there (and take it, unless a king)";
    BackRankMate "backRankMate" MatingMove "mate on the king's back rank, its three front squares held by its own unattacked men, a checker on that rank";
    BishopEndgame "bishopEndgame" Puzzle "only kings, pawns and bishops";
    BodenMate "bodenMate" MatingMove "only bishops attack the king's square and neighbours, one on each side of the king's file";
    CapturingDefender "capturingDefender" Move "we take a man that defended a piece, then take that piece";
    Castling "castling" Move "we castle";
    Clearance "clearance" Move "a move that clears a line our queen, rook or bishop then uses without capturing";
    DefensiveMove "defensiveMove" Move "a quiet last move among three or more, or an early move out of check among three or more";
    Deflection "deflection" Move "a forcing move draws a piece off, and two plies later we capture or promote where it guarded";
    DiscoveredAttack "discoveredAttack" Move "a discovered check, or a move off the line of a later capture";
    DoubleBishopMate "doubleBishopMate" MatingMove "only bishops attack the king's square and neighbours, both on one side";
    DoubleCheck "doubleCheck" Move "two pieces give check";
    DovetailMate "dovetailMate" MatingMove "a queen mates from a diagonal neighbour of a king off the edge, the squares only it covers occupied";
    EnPassant "enPassant" Move "a pawn of ours captures en passant";
    Endgame "endgame" Puzzle "the game phase, by Lichess's divider";
    ExposedKing "exposedKing" Move "a later check on a king high up the board with no pawns around it";
    Fork "fork" Move "a safe piece (not the king) attacks two men worth more, or undefended ones, before the last move";
    HangingPiece "hangingPiece" Move "the key move takes an undefended piece and the material stays won";
    HookMate "hookMate" MatingMove "a rook mates next to the king, guarded by a knight next to the king that a pawn guards";
    Interference "interference" Move "a piece comes between a defender and the hanging piece we then take";
    Intermezzo "intermezzo" Move "an in-between move before taking back on the square the opponent just captured on";
    KingsideAttack "kingsideAttack" Puzzle "checks and captures near the corner of a king castled short";
    KnightEndgame "knightEndgame" Puzzle "only kings, pawns and knights";
    Long "long" Puzzle "three solver moves";
    Mate "mate" MatingMove "the line ends in mate";
    MateIn1 "mateIn1" KeyMove "the line ends in mate after one solver move";
    MateIn2 "mateIn2" KeyMove "the line ends in mate after two solver moves";
    MateIn3 "mateIn3" KeyMove "the line ends in mate after three solver moves";
    MateIn4 "mateIn4" KeyMove "the line ends in mate after four solver moves";
    MateIn5 "mateIn5" KeyMove "the line ends in mate after five solver moves or more";
    Middlegame "middlegame" Puzzle "the game phase, by Lichess's divider";
    OneMove "oneMove" Puzzle "one solver move";
    Opening "opening" Puzzle "the game phase, by Lichess's divider";
    PawnEndgame "pawnEndgame" Puzzle "only kings and pawns";
    Pin "pin" Move "a piece pinned to its king cannot take a man of ours, or cannot escape our attack";
    Promotion "promotion" Move "a pawn of ours promotes";
    QueenEndgame "queenEndgame" Puzzle "only kings, pawns and queens";
    QueenRookEndgame "queenRookEndgame" Puzzle "one queen, rooks, kings and pawns";
    QueensideAttack "queensideAttack" Puzzle "checks and captures near the corner of a king castled long";
    QuietMove "quietMove" Move "a move that gives and escapes no check, takes and attacks nothing, not a king move or advanced pawn, with the line going on";
    RookEndgame "rookEndgame" Puzzle "only kings, pawns and rooks";
    Sacrifice "sacrifice" Puzzle "two pawns' worth down after a later solver move, the opponent never promoting";
    Short "short" Puzzle "two solver moves";
    Skewer "skewer" Move "a valuable piece moves off a line and the piece behind it, badly placed, is taken";
    SmotheredMate "smotheredMate" MatingMove "a knight mates and every square around the king holds the king's own men";
    TrappedPiece "trappedPiece" Move "a piece with no safe square is taken later";
    UnderPromotion "underPromotion" Move "a pawn of ours promotes to a knight, bishop or rook (a knight, on the mating move)";
    VeryLong "veryLong" Puzzle "four solver moves or more";
    XRayAttack "xRayAttack" Move "we take on a square twice, the second time through the square the opponent's taker came from";
}

// Theme sets are `u64` bitmaps and vocabulary entries `u8` indices.
const _: () = assert!(Theme::NAMES.len() <= 64);

impl Theme {
    /// The theme of this name.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::NAMES.iter().position(|&n| n == name).map(|i| Theme::ALL[i])
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

/// Lichess's themes of a puzzle, sorted by name as Lichess's `Themes`
/// column lists them. `None` for a plain line: Lichess's rules read the
/// opponent's setup move, which a plain line does not have.
pub fn themes(line: &Line) -> Option<Themes> {
    if line.key_ply != 1 {
        return None;
    }
    Some(rules::cook(line))
}

/// Themes of Lichess's `Themes` column that [`themes`] never gives, and why.
pub const LEFT_OUT: &[(&str, &str)] = &[
    ("crushing advantage equality", "the engine's evaluation of the position"),
    ("master masterVsMaster superGM", "the game's players"),
    ("zugzwang", "an engine search (tagger/zugzwang.py)"),
    (
        "discoveredCheck collinearMove cornerMate killBoxMate vukovicMate operaMate pillsburysMate morphysMate \
         triangleMate balestraMate blindSwineMate epauletteMate swallowstailMate",
        "not emitted by the tagger's public source; Koga's own labels of these names follow its seeds",
    ),
    ("overloading", "the tagger's rule is switched off (it never fires)"),
];

/// `koga labels --lichess`: every theme, where it sits, and Lichess's rule.
pub fn vocabulary_text() -> String {
    use std::fmt::Write;
    let mut out = format!("{:<18} {:<12} {}\n", "theme", "sits on", "Lichess's rule");
    for &theme in Theme::ALL {
        let _ = writeln!(out, "{:<18} {:<12} {}", theme.name(), theme.sits().describe(), theme.rule());
    }
    let _ = writeln!(
        out,
        "\n{} themes, computed by Lichess's rules (tagger/cook.py) into puzzles.themes, the ply each sits on in \
         puzzles.theme_plies.\nKoga's label of the same name follows Koga's own rules (docs/tactics/<label>.md); \
         fires.lichess marks its fire where it\nsits on the theme's ply. Left out of themes:",
        Theme::ALL.len()
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
        koga_label: &'static str,
        rule: &'static str,
    }
    let themes: Vec<Entry> = Theme::ALL
        .iter()
        .map(|&t| Entry { name: t.name(), sits: t.sits().describe(), koga_label: t.label().name(), rule: t.rule() })
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
        assert!(Theme::ALL.iter().all(|t| t.label().name() == t.name()));
    }

    #[test]
    fn names_are_unique_and_found_back() {
        for &theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(Theme::from_name("crushing"), None);
    }
}
