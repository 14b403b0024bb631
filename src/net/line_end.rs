//! The line's end: what the side to move there still nets, by the capture
//! search, a forking check, a pawn that queens, or the loose men it cannot
//! save.

use std::cell::RefCell;

use shakmaty::{Chess, Color, Position, Role};

use crate::board::value;

use crate::inline_vec::InlineVec;
use crate::line::{Cursor, Line};

use super::loose_men::lost_loose_men;
use super::premise::SetupHits;
use super::queening::{queening_race, queens_anyway, queens_next};
use super::search::{best_captures, forking_check};

/// What the side to move nets after `last`, where an exchange or the line
/// ends: by captures ([`best_captures`]), or, not in check, by a forking
/// check instead; where that is nothing and the side to move is the
/// opponent, less what it cannot save of its loose men ([`lost_loose_men`],
/// meeting our mate threat where there is one). At the line's end, a
/// queening race the solver wins ([`queening_race`]), or a pawn of its that
/// queens next move ([`queens_next`]), adds a queen less its pawn to the
/// captures.
pub(super) fn nets_after(last: Cursor, premise: &Chess, hits: &SetupHits) -> i32 {
    end_search(last, premise, hits).0
}

/// Which part of the end search gives its figure: the capture search, or
/// one of the tests of what falls past it (docs/gain.md, "The line's end,
/// rule by rule").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndTest {
    /// The capture search, with what answers a capture at its root past
    /// it (a forking check, or the loose men left once it is taken back).
    Captures,
    /// A forking check of the side to move.
    ForkingCheck,
    /// A pawn of the solver's that queens.
    Queening,
    /// The loose men of the opponent's that no answer saves.
    LooseMen,
}

impl EndTest {
    /// The test in words, as `koga explain` names it.
    pub fn name(self) -> &'static str {
        match self {
            EndTest::Captures => "the capture search",
            EndTest::ForkingCheck => "a forking check",
            EndTest::Queening => "a pawn that queens",
            EndTest::LooseMen => "the loose men no answer saves",
        }
    }
}

/// [`nets_after`], with the part of the search that gives the figure.
fn end_search(last: Cursor, premise: &Chess, hits: &SetupHits) -> (i32, EndTest) {
    let (pos, square) = (last.after(), last.mv().to());
    if pos.is_check() {
        return (best_captures(pos, square, premise, hits, false), EndTest::Captures);
    }
    // At the line's end, a capture there is answered by a forking check too.
    let forks = last.reply().is_none();
    // A queening race the solver wins, or a pawn of the solver's that queens
    // next move whatever they play, with the opponent to move (as a
    // puzzle's line ends): a queen less its pawn, besides what the opponent
    // takes meanwhile, in place of the loose men's count. A race the solver
    // would lose is read as the square rule's miss: a puzzle's line wins.
    let solver = last.line().solver();
    if forks
        && pos.turn() != solver
        && (queening_race(pos, premise) == Some(solver) || (queens_next(pos) && !queens_anyway(premise, solver)))
    {
        let captures = best_captures(pos, square, premise, hits, forks);
        return (captures - (value(Role::Queen) - value(Role::Pawn)), EndTest::Queening);
    }
    let captures = best_captures(pos, square, premise, hits, forks);
    let fork = forking_check(pos, premise, false, false);
    match captures.max(fork) {
        0 if pos.turn() != solver => match lost_loose_men(pos, premise) {
            0 => (0, EndTest::Captures),
            lost => (-lost, EndTest::LooseMen),
        },
        nets if fork > captures => (nets, EndTest::ForkingCheck),
        nets => (nets, EndTest::Captures),
    }
}

/// What the end search of `gain` finds where a line ends, for `koga
/// explain`: the side to move there, what it nets, the part of the search
/// that says so, and what the capture search alone gives (nothing answers a
/// capture past it, and no test past it runs; a capture that lets the other
/// side mate is still not played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinesEnd {
    pub side: Color,
    pub nets: i32,
    pub by: EndTest,
    pub by_captures_alone: i32,
}

/// [`LinesEnd`] of `line`; `None` where the line mates, which nets nothing.
pub fn lines_end(line: &Line) -> Option<LinesEnd> {
    let last = line.last();
    if last.mates() {
        return None;
    }
    let (premise, hits) = (line.key().before(), SetupHits::of(line));
    let (nets, by) = end_search(last, premise, &hits);
    let by_captures_alone = best_captures(last.after(), last.mv().to(), premise, &hits, false);
    Some(LinesEnd { side: last.after().turn(), nets, by, by_captures_alone })
}

/// The side to move at the line's end and what it nets there by the end
/// search ([`lines_end`]'s side and figure); `None` where the line mates,
/// which nets nothing.
#[cfg(test)]
pub(super) fn at_the_lines_end(line: &Line) -> Option<(Color, i32)> {
    lines_end(line).map(|end| (end.side, end.nets))
}

/// What the searches at a line's end share, each found the first time an
/// exchange reaches the end and asks for it.
pub(super) struct LineEnd<'a> {
    pub(super) hits: SetupHits<'a>,
    /// What the opponent nets past an exchange's last move (its index)
    /// against a premise (its address), each pair searched once.
    pub(super) pending: RefCell<InlineVec<(usize, usize, i32), 4>>,
}
