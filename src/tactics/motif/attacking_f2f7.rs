//! # attackingF2F7
//!
//! How Koga decides:
//! - Our move captures on f2 or f7, and after it the enemy king stands on
//!   e1 (for f2) or e8 (for f7): the square next to the king that only the
//!   king defends at the start of a game.
//! - Only our first capture on f2 or f7 in the line is judged, as Lichess
//!   judges it: a later one is a different story.
//! - Roles: `victim` (the piece taken on f2 or f7), `moved`, `targets` (the
//!   king next to it).
//!
//! Koga and Lichess:
//! - Lichess 166, Koga 166, both 166: precision, recall and F1 1.000. The rule
//!   is Lichess's, first-capture reading included.

use shakmaty::{Bitboard, Position, Role, Square};

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::AttackingF2F7], run: Run::Move(detect) };

/// The king square each of the two squares shields.
fn king_square(square: Square) -> Option<Square> {
    match square {
        Square::F2 => Some(Square::E1),
        Square::F7 => Some(Square::E8),
        _ => None,
    }
}

fn captures_on_f2_f7(ply: crate::line::Cursor) -> bool {
    ply.mv().is_capture() && king_square(ply.mv().to()).is_some()
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if !captures_on_f2_f7(facts.at)
        || facts.line.solver_plies().take_while(|p| p.index() < facts.ply).any(captures_on_f2_f7)
    {
        return;
    }
    let Some(king) = king_square(facts.to) else { return };
    let board = facts.after.board();
    if board.role_at(king) != Some(Role::King) || board.color_at(king) != Some(facts.them) {
        return;
    }
    let roles = Roles {
        victim: Some(facts.to),
        moved: Some(facts.to),
        targets: Bitboard::from_square(king),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::AttackingF2F7).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "attackingF2F7",
            &[
                // ...Qxf2+ next to the e1 king.
                ("003YF", "r4rk1/1pp2ppp/p2p4/2bPp3/2P1Pn1q/P1N2B2/1P3P2/R1BQK1R1 w Q - 1 15", "c1f4 h4f2", 1),
                // ...Qxf2+ again.
                ("00B2k", "r4rk1/pbp3pp/1p1pp3/6B1/2PPp2q/3nP2P/PP3P2/R2QKBR1 w Q - 8 16", "f1d3 h4f2", 1),
                // Bxf7+ against the e8 king.
                ("00HJd", "r1bqkb1r/pp2pppp/2p2n2/2PnN3/2BP1B2/8/PP3PPP/RN1QR1K1 b kq - 2 12", "d5f4 c4f7", 1),
            ],
        );
        assert_silent(
            "attackingF2F7",
            &[
                // Bxd7: a capture, not on f2 or f7.
                (
                    "00Al5",
                    "2r3k1/p2q1pbp/1p2pnp1/nB1p4/3P4/1Pr1P2P/P1QB1PP1/2R2RK1 w - - 0 19",
                    "b5d7 c3c2 d7c8 c2d2",
                    1,
                ),
                // Qe7#: next to the king, but no capture on f7.
                ("01E8U", "r3k2r/p2n1ppp/q1pBp3/3p2Q1/1PpPb3/5NP1/1P2PPBP/5RK1 b kq - 3 18", "h8g8 g5e7", 1),
            ],
        );
    }
}
