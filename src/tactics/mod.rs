//! Labels, fires and the detectors that produce them.
//!
//! A detector is a pure function of the line and one judged ply; it returns
//! the fires it sees and never decides what another label does — which label
//! gives way to which is [`crate::arbitrate`]'s job. One file per label (or per
//! family of labels that one rule set defines), each opening with its rules.

use shakmaty::{Position, Square};

use crate::arbitrate::{self, Removed};
use crate::facts::{self, PlyFacts};
use crate::line::Line;

pub mod capturing_defender;
pub mod castling;
pub mod counter_threat;
pub mod deflection;
pub mod discovered_check;
pub mod double_attack;
pub mod en_passant;
pub mod fork;
pub mod hanging_piece;
pub mod insufficiently_defended;
pub mod length;
pub mod mate;
pub mod pin;
pub mod pinned_defender;
pub mod promotion;
pub mod skewer;
pub mod threats;
pub mod trapped_piece;

macro_rules! labels {
    ($($variant:ident => $name:literal,)*) => {
        /// Every label Koga emits, named as the Lichess theme for the same idea.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Label { $($variant,)* }

        impl Label {
            /// All labels, in declaration order.
            pub const ALL: &'static [Label] = &[$(Label::$variant,)*];

            /// The lowerCamelCase name written to the output.
            pub const fn name(self) -> &'static str {
                match self { $(Label::$variant => $name,)* }
            }
        }
    };
}

labels! {
    // The seed tactics.
    PinnedDefender => "pinnedDefender",
    TrappedPiece => "trappedPiece",
    HangingPiece => "hangingPiece",
    DiscoveredCheck => "discoveredCheck",
    DiscoveredAttack => "discoveredAttack",
    DoubleCheck => "doubleCheck",
    // The labels the seeds refer to.
    Pin => "pin",
    Fork => "fork",
    DoubleAttack => "doubleAttack",
    Skewer => "skewer",
    CapturingDefender => "capturingDefender",
    Deflection => "deflection",
    InsufficientlyDefended => "insufficientlyDefended",
    CounterThreat => "counterThreat",
    // Mates (per line).
    Mate => "mate",
    MateIn1 => "mateIn1",
    MateIn2 => "mateIn2",
    MateIn3 => "mateIn3",
    MateIn4 => "mateIn4",
    MateIn5 => "mateIn5",
    // Special moves (per ply).
    Promotion => "promotion",
    UnderPromotion => "underPromotion",
    Castling => "castling",
    EnPassant => "enPassant",
    // Puzzle-level: length.
    OneMove => "oneMove",
    Short => "short",
    Long => "long",
    VeryLong => "veryLong",
}

// Label sets are kept as u64 bit sets (see `Analysis::labels`).
const _: () = assert!(Label::ALL.len() <= 64);

impl Label {
    /// Motifs about winning material, silent on a mating move.
    pub const fn is_material_motif(self) -> bool {
        matches!(
            self,
            Label::PinnedDefender
                | Label::TrappedPiece
                | Label::HangingPiece
                | Label::Pin
                | Label::Fork
                | Label::DoubleAttack
                | Label::Skewer
                | Label::CapturingDefender
                | Label::Deflection
                | Label::InsufficientlyDefended
                | Label::CounterThreat
        )
    }

    /// Looks a label up by its output name.
    pub fn from_name(name: &str) -> Option<Label> {
        Label::ALL.iter().copied().find(|l| l.name() == name)
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! roles {
    ($($role:ident,)*) => {
        /// The squares that play a part in a fire, one optional square per role.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct Roles { $(pub $role: Option<Square>,)* }

        impl Roles {
            /// Role names, in output column order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($role),)*];

            /// The roles as `(name, square)` pairs, in [`Roles::NAMES`] order.
            pub fn iter(&self) -> impl Iterator<Item = (&'static str, Option<Square>)> {
                [$((stringify!($role), self.$role),)*].into_iter()
            }

            /// Sets a role by name; returns false for an unknown name.
            pub fn set(&mut self, name: &str, square: Square) -> bool {
                match name {
                    $(stringify!($role) => { self.$role = Some(square); true })*
                    _ => false,
                }
            }
        }
    };
}

roles! {
    victim,
    defender,
    pinner,
    behind,
    attacker,
    target,
    checker,
    moved,
    escape,
    threatened,
}

/// One label on one judged ply, with the squares that play a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fire {
    pub ply: u16,
    pub label: Label,
    /// The ply comes after the key move.
    pub follow_up: bool,
    /// Material the tactic wins, in pawns, where that is defined.
    pub gain: Option<i16>,
    pub roles: Roles,
    /// A trappedPiece found only by the short-line fallback: it gives way to
    /// any other tactic but a counter-threat.
    pub fallback: bool,
}

impl Fire {
    pub fn new(line: &Line, ply: usize, label: Label) -> Fire {
        Fire {
            ply: ply as u16,
            label,
            follow_up: line.is_follow_up(ply),
            gain: None,
            roles: Roles::default(),
            fallback: false,
        }
    }

    /// A fire on the ply the facts describe.
    pub fn at(facts: &PlyFacts, label: Label) -> Fire {
        Fire::new(facts.line, facts.ply, label)
    }

    pub fn with_roles(mut self, roles: Roles) -> Fire {
        self.roles = roles;
        self
    }

    pub fn with_gain(mut self, gain: impl TryInto<i16>) -> Fire {
        self.gain = gain.try_into().ok();
        self
    }
}

/// A detector: reads one judged ply's facts, pushes the fires it sees.
pub type Detector = fn(&PlyFacts, &mut Vec<Fire>);

/// Every per-ply detector, in no particular order: arbitration decides.
/// The first ones are the material motifs: on a move that mates they stay
/// silent, since the mate is the whole story of such a move.
pub const DETECTORS: &[(Label, Detector)] = &[
    (Label::PinnedDefender, pinned_defender::detect),
    (Label::TrappedPiece, trapped_piece::detect),
    (Label::HangingPiece, hanging_piece::detect),
    (Label::DiscoveredCheck, discovered_check::detect),
    (Label::Pin, pin::detect),
    (Label::Fork, fork::detect),
    (Label::DoubleAttack, double_attack::detect),
    (Label::Skewer, skewer::detect),
    (Label::CapturingDefender, capturing_defender::detect),
    (Label::Deflection, deflection::detect),
    (Label::InsufficientlyDefended, insufficiently_defended::detect),
    (Label::CounterThreat, counter_threat::detect),
    // Always judged, mate or not.
    (Label::Promotion, promotion::detect),
    (Label::Castling, castling::detect),
    (Label::EnPassant, en_passant::detect),
];

/// Fires after arbitration, and what arbitration removed (with why).
#[derive(Debug, Clone, Default)]
pub struct Classified {
    pub fires: Vec<Fire>,
    pub removed: Vec<Removed>,
}

/// Runs every detector on every solver ply, arbitrates each ply, and keeps
/// what arbitration removed; fires come out ordered by ply, then label.
pub fn classify_explained(line: &Line) -> Classified {
    let balances = facts::balances(line);
    let mut out = Classified::default();
    let mut ply_fires = Vec::new();
    for ply in line.solver_plies() {
        let facts = PlyFacts::new(line, ply, &balances);
        ply_fires.clear();
        let mates = facts.after.is_checkmate();
        for (label, detect) in DETECTORS {
            if !mates || !label.is_material_motif() {
                detect(&facts, &mut ply_fires);
            }
        }
        arbitrate::arbitrate(&facts, &mut ply_fires, &mut out.removed);
        out.fires.extend_from_slice(&ply_fires);
    }
    mate::detect_line(line, &mut out.fires);
    out.fires.sort_by_key(|f| (f.ply, f.label));
    out
}

/// Runs every detector on every solver ply, then arbitration; fires come out
/// ordered by ply, then label.
pub fn classify(line: &Line) -> Vec<Fire> {
    classify_explained(line).fires
}

/// The puzzle-level labels (spec §5).
pub fn puzzle_labels(line: &Line) -> Vec<Label> {
    vec![length::label(line)]
}

/// Helpers for the detectors' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::line::LineForm;

    /// The fires (after arbitration) on one ply of a Lichess-layout line.
    pub fn fires_on(fen: &str, moves: &str, ply: u16) -> Vec<Fire> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap_or_else(|e| panic!("{fen} {moves}: {e}"));
        classify(&line).into_iter().filter(|f| f.ply == ply).collect()
    }

    /// Their label names.
    pub fn labels_on(fen: &str, moves: &str, ply: u16) -> Vec<&'static str> {
        fires_on(fen, moves, ply).iter().map(|f| f.label.name()).collect()
    }

    /// A real or constructed case: (name, FEN, moves, judged ply).
    pub type Case = (&'static str, &'static str, &'static str, u16);

    /// Asserts `label` fires on every case's judged ply.
    pub fn assert_fires(label: &str, cases: &[Case]) {
        for (name, fen, moves, ply) in cases {
            let got = labels_on(fen, moves, *ply);
            assert!(got.contains(&label), "{name}: expected {label} on ply {ply}, got {got:?}");
        }
    }

    /// Asserts `label` does not fire on any case's judged ply.
    pub fn assert_silent(label: &str, cases: &[Case]) {
        for (name, fen, moves, ply) in cases {
            let got = labels_on(fen, moves, *ply);
            assert!(!got.contains(&label), "{name}: {label} must not fire on ply {ply}, got {got:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_names_round_trip() {
        for &label in Label::ALL {
            assert_eq!(Label::from_name(label.name()), Some(label));
        }
        assert_eq!(Label::MateIn2.name(), "mateIn2");
        assert_eq!(Label::from_name("nonsense"), None);
    }

    #[test]
    fn roles_set_by_name() {
        let mut roles = Roles::default();
        assert!(roles.set("victim", Square::E4));
        assert!(!roles.set("nobody", Square::E4));
        assert_eq!(roles.victim, Some(Square::E4));
        assert_eq!(roles.iter().count(), Roles::NAMES.len());
    }
}
