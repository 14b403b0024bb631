//! The role vocabulary: the parts a piece can play in a fire, each with one
//! meaning for every label that uses it (documented once, in
//! `schemas/fires.json`).
//!
//! A role holds either one square or a set of them. A one-square role is
//! an `Option<Square>` and a nullable text column; a set role (a plural
//! name: `targets`, `checkers`, `guards`, …) is a [`Bitboard`], so that
//! [`Roles`] stays small and `Copy`, and a list column whose squares are in
//! colour-relative order (rank by rank from the solver's back rank, see
//! [`Roles::squares`]) — the order mirrored puzzles share.
//!
//! This module sits below the detectors, arbitration and the output: it
//! knows squares, nothing of labels or lines.

use shakmaty::{Bitboard, Color, Square};

use crate::board::relative_squares;

/// How many squares a role holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arity {
    /// At most one square: a nullable square column.
    One,
    /// Any number of squares: a list column.
    Many,
}

impl Arity {
    pub const fn name(self) -> &'static str {
        match self {
            Arity::One => "one",
            Arity::Many => "many",
        }
    }
}

macro_rules! roles {
    (one: [$($one:ident,)*] many: [$($many:ident,)*]) => {
        /// A role name: one meaning for every label that uses it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(non_camel_case_types)]
        pub enum RoleName { $($one,)* $($many,)* }

        /// The squares that play a part in a fire: an optional square per
        /// one-square role, a square set per set role.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct Roles {
            $(pub $one: Option<Square>,)*
            $(pub $many: Bitboard,)*
        }

        impl RoleName {
            /// Every role, in output column order: the one-square roles, then the sets.
            pub const ALL: &'static [RoleName] = &[$(RoleName::$one,)* $(RoleName::$many,)*];

            pub const fn name(self) -> &'static str {
                match self { $(RoleName::$one => stringify!($one),)* $(RoleName::$many => stringify!($many),)* }
            }

            /// Whether the role holds one square or several.
            pub const fn arity(self) -> Arity {
                match self { $(RoleName::$one => Arity::One,)* $(RoleName::$many => Arity::Many,)* }
            }
        }

        impl Roles {
            /// The square of a one-square role (`None` for a set role).
            pub fn square(&self, role: RoleName) -> Option<Square> {
                match role {
                    $(RoleName::$one => self.$one,)*
                    $(RoleName::$many => None,)*
                }
            }

            /// The squares of one role, as a set (one bit at most for a
            /// one-square role).
            pub fn get(&self, role: RoleName) -> Bitboard {
                match role {
                    $(RoleName::$one => self.$one.into_iter().collect(),)*
                    $(RoleName::$many => self.$many,)*
                }
            }
        }
    };
}

roles! {
    one: [
    victim,
    defender,
    pinner,
    pinned,
    behind,
    attacker,
    moved,
    threatened,
    mated,
    ]
    many: [
    targets,
    checkers,
    guards,
    blockers,
    escapes,
    ]
}

impl RoleName {
    pub fn from_name(name: &str) -> Option<RoleName> {
        RoleName::ALL.iter().copied().find(|r| r.name() == name)
    }
}

impl Roles {
    /// Every role with its squares, in [`RoleName::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (RoleName, Bitboard)> + '_ {
        RoleName::ALL.iter().map(|&role| (role, self.get(role)))
    }

    /// The roles that hold a square.
    pub fn filled(&self) -> impl Iterator<Item = (RoleName, Bitboard)> + '_ {
        self.iter().filter(|(_, squares)| squares.any())
    }

    /// The squares of one role in colour-relative order: rank by rank from
    /// `solver`'s back rank, files a to h. A mirrored puzzle lists the
    /// mirrored squares in the same order.
    pub fn squares(&self, role: RoleName, solver: Color) -> impl Iterator<Item = Square> {
        relative_squares(self.get(role), solver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_round_trip_and_sets_have_plural_names() {
        for &role in RoleName::ALL {
            assert_eq!(RoleName::from_name(role.name()), Some(role));
            assert_eq!(role.arity() == Arity::Many, role.name().ends_with('s'), "{}", role.name());
        }
        assert_eq!(RoleName::from_name("target"), None);
        // One-square roles first, then the sets: the column order.
        let first_set = RoleName::ALL.iter().position(|r| r.arity() == Arity::Many).unwrap();
        assert!(RoleName::ALL[first_set..].iter().all(|r| r.arity() == Arity::Many));
    }

    #[test]
    fn a_role_reads_as_a_square_set() {
        let roles = Roles {
            pinned: Some(Square::E4),
            targets: Bitboard::from_square(Square::A8) | Square::H1 | Square::B2,
            ..Roles::default()
        };
        assert_eq!(roles.get(RoleName::pinned), Bitboard::from_square(Square::E4));
        assert_eq!(roles.get(RoleName::victim), Bitboard::EMPTY);
        assert_eq!((roles.square(RoleName::pinned), roles.square(RoleName::targets)), (Some(Square::E4), None));
        assert_eq!(roles.filled().map(|(r, _)| r).collect::<Vec<_>>(), [RoleName::pinned, RoleName::targets]);
        let white: Vec<Square> = roles.squares(RoleName::targets, Color::White).collect();
        assert_eq!(white, [Square::H1, Square::B2, Square::A8]);
        // For Black the order starts from rank 8: the mirror of White's.
        let black: Vec<Square> = roles.squares(RoleName::targets, Color::Black).collect();
        assert_eq!(black, [Square::A8, Square::B2, Square::H1]);
    }
}
