//! # exposedKing
//!
//! How Koga decides:
//! - Before our key move, the enemy king stands on one of its own first
//!   three ranks with no pawn of its side shielding it: none on the square
//!   in front of it, the two beside it, or the two diagonally in front.
//! - It fires on each of our checks after the key move that is not our last
//!   move: the attack that the open king invites (Lichess's theme, read per
//!   move).
//! - Roles: `targets` (the checked king), `moved`.
//!
//! Koga and Lichess:
//! - Lichess 634, Koga 634, both 634: precision, recall and F1 1.000. Lichess
//!   tags the puzzle; Koga names the checks that make it.

use shakmaty::{attacks, Position, Rank, Role};

use super::{Detector, Fire, Label, Roles, Run};
use crate::board::relative_rank;
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::ExposedKing], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.at.is_key() || !facts.gives_check() || !facts.has_next_solver_move() {
        return;
    }
    let start = facts.line.key().before().board();
    let Some(king) = start.king_of(facts.them) else { return };
    if relative_rank(king, facts.them) > Rank::Third {
        return;
    }
    // The shelter: the king's neighbours beside it and one rank towards us.
    let own_pawns = start.by_color(facts.them) & start.by_role(Role::Pawn);
    let rank = relative_rank(king, facts.them);
    let shelter = attacks::king_attacks(king) & own_pawns;
    if shelter.into_iter().any(|sq| relative_rank(sq, facts.them) >= rank) {
        return;
    }
    let targets = facts.after.board().king_of(facts.them).into_iter().collect();
    fires.push(Fire::at(facts, Label::ExposedKing).with_roles(Roles { targets, moved: Some(facts.to), ..Roles::default() }));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "exposedKing",
            &[
                // ...Rc1+ on the bare king.
                ("000qP", "8/7R/8/5p2/4bk1P/8/2r2K2/6R1 w - - 7 51", "f2f1 f4f3 f1e1 c2c1 e1d2 c1g1", 3),
                // Rh7+ after Rh8+.
                ("003eP", "8/r1b1q2k/2p3p1/2Pp4/1P2p1n1/2B1P3/NQ6/2K4R b - - 1 36", "h7g8 h1h8 g8f7 h8h7 f7e8 h7e7", 3),
                // ...Rb2+ chasing the king.
                ("0047P", "8/1N3k2/6p1/8/2P3P1/pr6/R5K1/8 w - - 1 56", "g2f1 b3b1 f1e2 b1b2 e2d1 b2a2", 3),
            ],
        );
        assert_silent(
            "exposedKing",
            &[
                // The last move of the same line: it ends the attack, it does not invite it.
                ("003eP", "8/r1b1q2k/2p3p1/2Pp4/1P2p1n1/2B1P3/NQ6/2K4R b - - 1 36", "h7g8 h1h8 g8f7 h8h7 f7e8 h7e7", 5),
                // A mate in one on a king behind its pawns.
                ("0AERB", "r4rk1/1b3ppp/p3pq2/n7/8/2pQ1N2/PPB2PPP/R3R1K1 b - - 1 18", "c3b2 d3h7", 1),
            ],
        );
    }
}
