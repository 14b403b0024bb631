//! # enPassant
//!
//! How Koga decides:
//! - The solver's move captures en passant: `enPassant` fires on that ply.
//! - `victim` is the square of the pawn taken (not the landing square),
//!   `moved` the landing square.

use shakmaty::{Move, Square};

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::EnPassant], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let Move::EnPassant { from, to } = facts.mv else { return };
    let victim = Square::from_coords(to.file(), from.rank());
    let roles = Roles { victim: Some(victim), moved: Some(to), ..Roles::default() };
    fires.push(Fire::at(facts, Label::EnPassant).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::line::{Line, LineForm};
    use crate::tactics::classify;
    use shakmaty::Square;

    #[test]
    fn en_passant_real_puzzle() {
        // Lichess 00RPk: ...c5 and dxc6 e.p. on the key move.
        let fen = "8/2p5/5ppp/1PkP4/p4PPP/P1K5/8/8 b - - 0 39";
        let line = Line::parse(fen, "c5b5 c3d4 c7c5 d5c6 b5c6 d4c4", LineForm::Puzzle).unwrap();
        let fires: Vec<_> = classify(&line).into_iter().filter(|f| f.label.name() == "enPassant").collect();
        assert_eq!(fires.len(), 1);
        assert_eq!(fires[0].ply, 3);
        assert!(fires[0].follow_up);
        assert_eq!(fires[0].roles.victim, Some(Square::C5));
        assert_eq!(fires[0].roles.moved, Some(Square::C6));
    }

    #[test]
    fn ordinary_pawn_capture_is_not_en_passant() {
        let fen = "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27";
        let line = Line::parse(fen, "d3d6 f8d8 d6d8 f6d8", LineForm::Puzzle).unwrap();
        assert!(classify(&line).iter().all(|f| f.label.name() != "enPassant"));
    }
}

#[cfg(test)]
mod real_en_passant {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn en_passant_on_real_puzzles() {
        assert_fires(
            "enPassant",
            &[
                ("00RPk", "8/2p5/5ppp/1PkP4/p4PPP/P1K5/8/8 b - - 0 39", "c5b5 c3d4 c7c5 d5c6 b5c6 d4c4", 3),
                (
                    "00pXW",
                    "r2qr1k1/3n1pp1/p2bp2p/1p1b2NQ/5P2/3BB3/PPP3PP/R4RK1 b - - 1 17",
                    "h6g5 f4g5 f7f5 g5f6 d7f6 f1f6",
                    3,
                ),
                (
                    "005gP",
                    "8/8/3p4/2kP4/1p4P1/2pK4/P7/8 w - - 1 42",
                    "g4g5 c5d5 g5g6 d5e6 g6g7 e6f7 a2a4 b4a3 g7g8r f7g8",
                    7,
                ),
            ],
        );
        assert_silent(
            "enPassant",
            &[
                // An ordinary pawn capture.
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 3),
                // The double step that allows it, by the opponent.
                ("00RPk", "8/2p5/5ppp/1PkP4/p4PPP/P1K5/8/8 b - - 0 39", "c5b5 c3d4 c7c5 d5c6 b5c6 d4c4", 1),
            ],
        );
    }
}
