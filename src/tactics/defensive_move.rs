//! # defensiveMove
//!
//! How Koga decides:
//! - Our last move, where we had at least three legal moves to choose from,
//!   is a quiet one: no check, no capture, no enemy piece attacked by the
//!   moved piece, no pawn move to our sixth rank or beyond. The line ends
//!   with it because it holds: the point is defence, not attack.
//! - Or a check escape: our move answers a check, with at least three legal
//!   moves to choose from, and neither it nor any move of ours before it
//!   gives check or captures (Lichess counts the first such escape).
//! - Roles: `moved`.
//!
//! Koga and Lichess:
//! - Lichess 1,237, Koga 1,241, both 1,236: precision 0.996, recall 0.999, F1
//!   0.998.

use shakmaty::{Position, Rank};

use super::{Detector, Fire, Label, Roles, Run};
use crate::facts::PlyFacts;
use crate::line::Cursor;

pub const DETECTOR: Detector = Detector { labels: &[Label::DefensiveMove], run: Run::Move(detect) };

/// At least three legal moves to choose from: a choice, not a forced move.
fn had_choice(ply: Cursor) -> bool {
    ply.before().legal_moves().len() >= 3
}

fn forcing(ply: Cursor) -> bool {
    ply.after().is_check() || ply.mv().is_capture()
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if forcing(facts.at) {
        return;
    }
    let last_and_quiet =
        facts.at.reply().is_none() && facts.moved_piece_attacks().is_empty() && !facts.pawn_reaches(Rank::Sixth);
    let escape = facts.before.is_check();
    if !(last_and_quiet || escape) || !had_choice(facts.at) {
        return;
    }
    let first_escape = escape
        && facts
            .line
            .solver_plies()
            .take_while(|p| p.index() < facts.ply)
            .all(|p| !forcing(p) && had_choice(p) && !p.before().is_check());
    if last_and_quiet || first_escape {
        fires.push(Fire::at(facts, Label::DefensiveMove).with_roles(Roles { moved: Some(facts.to), ..Roles::default() }));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "defensiveMove",
            &[
                // Rh3 closes the h-file: a quiet last move among many.
                ("002e8", "r3nrk1/1b3pp1/4pb2/p3q3/1p1N4/3B2R1/PPPQN2P/1K4R1 b - - 1 23", "a8d8 d2h6 g7g6 g3h3", 3),
                // Kd1 after ...Qxe3+: the quiet last move.
                ("0055Y", "r1b2rk1/p3pp2/2B4b/2Qpq3/3N2pp/4P3/2P2PPP/1R2K2R b K - 1 23", "h6e3 f2e3 e5e3 e1d1", 3),
                // ...Kh8 steps out of the check line.
                ("005YX", "2rr4/2N2pk1/p1Q1b1pp/1p4q1/3pP3/1B1P4/PPP3PP/6RK w - - 7 25", "c7e6 f7e6 c6b7 g7h8", 3),
            ],
        );
        assert_silent(
            "defensiveMove",
            &[
                // Qf7#: a mate, no defence.
                ("00AfZ", "2r3kR/Q7/5q2/1brpN3/5Pp1/4P1P1/6K1/1B6 b - - 2 43", "f6h8 a7f7", 1),
                // Rg7+: a check that wins the bishop.
                ("01DXj", "8/pR6/8/P7/2Pb1rk1/1P1K4/8/8 b - - 0 39", "d4g1 b7g7 g4f5 g7g1", 1),
            ],
        );
    }
}
