//! Labels, fires and the detectors that produce them.
//!
//! A detector is a pure function of the line and one judged ply; it returns
//! the fires it sees and never decides what another label does — which label
//! gives way to which is [`crate::arbitrate`]'s job. One file per label (or per
//! family of labels that one rule set defines), each opening with its rules.

use shakmaty::Square;

use crate::line::Line;

pub mod castling;
pub mod en_passant;
pub mod mate;
pub mod promotion;

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

impl Label {
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
}

impl Fire {
    pub fn new(line: &Line, ply: usize, label: Label) -> Fire {
        Fire {
            ply: ply as u16,
            label,
            follow_up: line.is_follow_up(ply),
            gain: None,
            roles: Roles::default(),
        }
    }

    pub fn with_roles(mut self, roles: Roles) -> Fire {
        self.roles = roles;
        self
    }

    pub fn with_gain(mut self, gain: i16) -> Fire {
        self.gain = Some(gain);
        self
    }
}

/// Runs every detector on every solver ply, then arbitration; fires come out
/// ordered by ply, then label.
pub fn classify(line: &Line) -> Vec<Fire> {
    let mut fires = Vec::new();
    mate::detect_line(line, &mut fires);
    for ply in line.solver_plies() {
        promotion::detect(line, ply, &mut fires);
        castling::detect(line, ply, &mut fires);
        en_passant::detect(line, ply, &mut fires);
    }
    fires.sort_by_key(|f| (f.ply, f.label));
    fires
}

/// The puzzle-level labels (spec §5): the length of the line.
pub fn puzzle_labels(line: &Line) -> Vec<Label> {
    // Counted as in the Lichess layout, setup move included, so that both
    // input forms agree on what "short" means.
    let plies = line.plies() + (1 - line.key_ply);
    let length = match plies {
        0..=2 => Label::OneMove,
        4 => Label::Short,
        8.. => Label::VeryLong,
        _ => Label::Long,
    };
    vec![length]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineForm;

    #[test]
    fn label_names_round_trip() {
        for &label in Label::ALL {
            assert_eq!(Label::from_name(label.name()), Some(label));
        }
        assert_eq!(Label::MateIn2.name(), "mateIn2");
        assert_eq!(Label::from_name("nonsense"), None);
    }

    #[test]
    fn length_labels_follow_the_ply_count() {
        let fen = "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24";
        let moves = ["f2g3 e6e7", "f2g3 e6e7 b2b1 b3c1", "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1"];
        let expected = [Label::OneMove, Label::Short, Label::Long];
        for (m, want) in moves.iter().zip(expected) {
            let line = Line::parse(fen, m, LineForm::Puzzle).unwrap();
            assert_eq!(puzzle_labels(&line), vec![want], "{m}");
        }
        let line = Line::parse(fen, "f2g3 e6e7 b2b1", LineForm::Line).unwrap();
        assert_eq!(puzzle_labels(&line), vec![Label::Short]);
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
