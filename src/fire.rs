//! A fire: one label on one judged ply, with the squares that play a part.
//!
//! It sits below the detectors (`tactics`), the mate scene and arbitration,
//! which all build or read fires, so none of them imports another back.

use shakmaty::{Color, Square};

use crate::facts::PlyFacts;
use crate::label::Label;
use crate::line::Cursor;
use crate::role::{RoleName, Roles};

/// The plies of the line a fire's `gain` reads: the material after ply
/// `through`, less the material before ply `from`, and, where `searched`,
/// what the capture search finds after ply `through` (after the line, where
/// that is its last ply). The rules that move a gain besides, as a capture
/// of theirs the exchange answers, are `crate::net`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GainSpan {
    pub from: u16,
    pub through: u16,
    pub searched: bool,
}

/// One label on one judged ply, with the squares that play a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fire {
    pub ply: u16,
    pub label: Label,
    /// The ply comes after the key move.
    pub follow_up: bool,
    /// What the tactic nets, in pawns, once the exchange it starts is over
    /// (`crate::net`); set after arbitration.
    pub gain: Option<i16>,
    /// The plies `gain` reads the material of (`koga explain` shows them).
    pub span: Option<GainSpan>,
    /// What the detector's rule sees the move win (the hung, forked or
    /// trapped piece's value, an exchange's result): arbitration weighs
    /// fires by it, and it stands in for `gain` where the line never
    /// collects.
    pub stake: Option<i16>,
    /// A payoff: the ply of the earlier fire of the line whose win this
    /// follow-up capture collects (spec §2); never set on the key move.
    pub collects: Option<u16>,
    pub roles: Roles,
    /// The side that plays the judged move: set roles list their squares
    /// in its colour-relative order.
    pub solver: Color,
    /// A trappedPiece found only by the short-line fallback: it gives way to
    /// any other tactic but a counter-threat.
    pub fallback: bool,
}

impl Fire {
    /// A fire on one ply of a line.
    pub fn on(ply: Cursor, label: Label) -> Fire {
        Fire {
            ply: ply.index() as u16,
            label,
            follow_up: ply.is_follow_up(),
            gain: None,
            span: None,
            stake: None,
            collects: None,
            roles: Roles::default(),
            solver: ply.line().solver(),
            fallback: false,
        }
    }

    /// A fire on the ply the facts describe.
    pub fn at(facts: &PlyFacts, label: Label) -> Fire {
        Fire::on(facts.at, label)
    }

    pub fn with_roles(mut self, roles: Roles) -> Fire {
        self.roles = roles;
        self
    }

    pub fn with_stake(mut self, stake: impl TryInto<i16>) -> Fire {
        self.stake = stake.try_into().ok();
        self
    }

    /// The squares of one role, in the solver's colour-relative order.
    pub fn squares(&self, role: RoleName) -> impl Iterator<Item = Square> {
        self.roles.squares(role, self.solver)
    }
}
