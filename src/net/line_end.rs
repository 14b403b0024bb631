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
    let (pos, square) = (last.after(), last.mv().to());
    if pos.is_check() {
        return best_captures(pos, square, premise, hits, false);
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
        return best_captures(pos, square, premise, hits, forks) - (value(Role::Queen) - value(Role::Pawn));
    }
    match best_captures(pos, square, premise, hits, forks).max(forking_check(pos, premise, false, false)) {
        0 if pos.turn() != solver => -lost_loose_men(pos, premise),
        nets => nets,
    }
}

/// What the side to move at the line's end nets by what [`settle`](super::settle) searches
/// there (captures, or a check that wins), against the puzzle's premise;
/// `None` where the line mates, which nets nothing. `koga explain` shows it
/// beside the material after each ply, so that a gain can be read off.
pub fn at_the_lines_end(line: &Line) -> Option<(Color, i32)> {
    let last = line.last();
    if last.mates() {
        return None;
    }
    Some((last.after().turn(), nets_after(last, line.key().before(), &SetupHits::of(line))))
}

/// What the searches at a line's end share, each found the first time an
/// exchange reaches the end and asks for it.
pub(super) struct LineEnd<'a> {
    pub(super) hits: SetupHits<'a>,
    /// What the opponent nets past an exchange's last move (its index)
    /// against a premise (its address), each pair searched once.
    pub(super) pending: RefCell<InlineVec<(usize, usize, i32), 4>>,
}
