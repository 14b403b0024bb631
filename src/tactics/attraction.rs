//! # attraction
//!
//! How Koga decides:
//! - Our move goes to a square, and the opponent's answer brings its king,
//!   queen or rook onto that square (taking what we put there, as a rule).
//! - Our next move attacks the lured piece on that square with the piece
//!   that moves.
//! - A lured king is then in check: that is the point. A lured queen or rook
//!   is captured on that square by our move after next.
//! - It fires on the luring move.
//! - Roles: `moved` (the square the piece is lured to), `targets` (the lured
//!   piece, there), `attacker` (our piece that then attacks it).
//!
//! Koga and Lichess:
//! - Lichess 703, Koga 703, both 703: precision, recall and F1 1.000.

use shakmaty::{Bitboard, Position, Role};

use super::{Detector, Fire, Label, Roles, Run};
use crate::board::attackers;
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Attraction], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(reply), Some(follow)) = (facts.at.reply(), facts.at.next_own()) else { return };
    let square = facts.to;
    if reply.mv().to() != square {
        return;
    }
    let lured = reply.after().board().role_at(square);
    if !matches!(lured, Some(Role::King | Role::Queen | Role::Rook)) {
        return;
    }
    let board = follow.after().board();
    let attacker = follow.mv().to();
    if !attackers(board, square, facts.us, board.occupied()).contains(attacker) {
        return;
    }
    let cashed = lured == Some(Role::King) || follow.next_own().is_some_and(|p| p.mv().to() == square);
    if cashed {
        let roles = Roles { moved: Some(square), targets: Bitboard::from_square(square), attacker: Some(attacker), ..Roles::default() };
        fires.push(Fire::at(facts, Label::Attraction).with_roles(roles));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "attraction",
            &[
                // Qh7+ Kxh7 g8=Q+: the king is drawn to h7.
                ("001w5", "1rb2rk1/q5P1/4p2p/3p3p/3P1P2/2P5/2QK3P/3R2R1 b - - 0 29", "f8f7 c2h7 g8h7 g7g8q", 1),
                // Qxf7+ draws the king to f7 for Rd7+.
                ("00TJN", "r3r1k1/pp3pB1/2q3pp/3R1b2/8/P4Q2/BP3PPP/1R4K1 b - - 0 23", "f5b1 f3f7 g8f7 d5d7", 1),
                // Rh8+ draws the king to h8 for Qh7#.
                ("00Ueq", "r1b2rk1/pp4b1/n1pqp1Q1/4p3/2P2PP1/P2B4/1P6/R1B1K2R b KQ - 1 19", "f8f6 h1h8 g8h8 g6h7", 1),
            ],
        );
        assert_silent(
            "attraction",
            &[
                // ...Qa1#: a mate in one, no lure.
                ("02pdl", "3r1rk1/5p1p/2p2R2/4q1P1/p3p3/P2BQ3/2P3P1/2KR4 w - - 1 27", "d3e4 e5a1", 1),
                // ...Qxe1#: a mate in one, no lure.
                ("0AFf5", "1r2kb1r/1p2q2p/p1p3p1/1P1pBp2/P1P5/1Q1P1B2/3P1PPP/RN2R1K1 w k - 1 18", "e5b8 e7e1", 1),
            ],
        );
    }
}
