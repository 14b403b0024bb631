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

/// What the capture search finds where a line ends, for `koga explain`:
/// the side to move there and what it nets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinesEnd {
    pub side: Color,
    pub nets: i32,
}

/// [`LinesEnd`] of `line`; `None` where the line mates, which nets nothing.
pub fn lines_end(line: &Line) -> Option<LinesEnd> {
    let last = line.last();
    if last.mates() {
        return None;
    }
    let (premise, hits) = (line.key().before(), SetupHits::of(line));
    Some(LinesEnd { side: last.after().turn(), nets: nets_after(last, premise, &hits) })
}

/// The side to move at the line's end and what it nets there
/// ([`lines_end`]'s side and figure); `None` where the line mates.
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
