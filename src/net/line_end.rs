//! The line's end: what the side to move there still nets by the capture
//! search.

use std::cell::RefCell;

use shakmaty::{Chess, Color, Position};

use crate::inline_vec::InlineVec;
use crate::line::{Cursor, Line};

use super::premise::SetupHits;
use super::search::best_captures;

/// What the side to move nets by captures ([`best_captures`]: captures and
/// the answers to checks) after `last`, where an exchange or the line
/// ends. A quiet move past it (a loose man picked up, a pawn that runs, a
/// forking check of the side to move) is no part of `gain`: issue 34
/// defines the line's end as a capture search, and judged so it reads
/// 97 % right against 93 % with those tests (docs/gain-judging.md, "What
/// the tests past a capture search were worth").
pub(super) fn nets_after(last: Cursor, premise: &Chess, hits: &SetupHits) -> i32 {
    best_captures(last.after(), last.mv().to(), premise, hits)
}

/// The side to move where `line` ends and what it nets there by the
/// capture search ([`nets_after`]), for `koga explain`; `None` where the
/// line mates, which nets nothing.
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
