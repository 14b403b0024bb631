//! # promotion, underPromotion
//!
//! How Koga decides:
//! - The solver's move promotes a pawn: `promotion` fires on that ply.
//! - When it promotes to anything but a queen, `underPromotion` fires too —
//!   unless the move mates and a queen on the same square would have mated
//!   as well: then the choice of piece was not the point (as in Lichess,
//!   where `f8=R#` with `f8=Q#` available is no under-promotion).
//! - `moved` is the promotion square; `victim` the piece taken there, if any.

use shakmaty::{Move, Position, Role};

use crate::facts::PlyFacts;
use crate::line::Cursor;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::Promotion, Label::UnderPromotion], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let m = facts.mv;
    let Some(role) = m.promotion() else { return };
    let roles = Roles { moved: Some(m.to()), victim: m.capture().map(|_| m.to()), ..Roles::default() };
    fires.push(Fire::at(facts, Label::Promotion).with_roles(roles));
    if role != Role::Queen && !queen_mates_too(facts.at) {
        fires.push(Fire::at(facts, Label::UnderPromotion).with_roles(roles));
    }
}

/// The move mates, and promoting to a queen instead would mate as well.
fn queen_mates_too(ply: Cursor) -> bool {
    if !ply.mates() {
        return false;
    }
    let Move::Normal { role, from, capture, to, .. } = ply.mv() else { return false };
    let queen = Move::Normal { role, from, capture, to, promotion: Some(Role::Queen) };
    let before = ply.before();
    before.is_legal(queen) && {
        let mut pos = before.clone();
        pos.play_unchecked(queen);
        pos.is_checkmate()
    }
}

#[cfg(test)]
mod tests {
    use crate::line::{Line, LineForm};
    use crate::tactics::classify;

    fn labels(fen: &str, moves: &str) -> Vec<(u16, bool, &'static str)> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        classify(&line)
            .iter()
            .filter(|f| f.label.name().contains("romotion"))
            .map(|f| (f.ply, f.follow_up, f.label.name()))
            .collect()
    }

    #[test]
    fn queen_promotion_real_puzzle() {
        // Lichess 004LZ: ...c1=Q on the key move.
        let fen = "8/7R/5p2/p7/7P/2p5/3k2r1/1K2N3 w - - 3 48";
        assert_eq!(labels(fen, "e1g2 c3c2 b1a2 c2c1q h7d7 d2e2"), vec![(3, true, "promotion")]);
    }

    #[test]
    fn knight_underpromotion_is_both() {
        // Lichess 08kOh: ...e1=N+ forks.
        let fen = "6kr/4q2p/1p4pQ/p1pP4/P1P2RP1/1P2p1K1/6P1/8 w - - 0 39";
        assert_eq!(
            labels(fen, "g3f3 e3e2 d5d6 e2e1n f3g3 e7d6"),
            vec![(3, true, "promotion"), (3, true, "underPromotion")]
        );
    }

    #[test]
    fn late_underpromotion_is_a_follow_up() {
        // Lichess 03kqY: Black solves; ...c1=N+ on ply 9 forks king and queen.
        let fen = "8/2Q2ppk/4b2p/8/4P3/2p3P1/4KP1P/2r5 w - - 4 49";
        let got = labels(fen, "f2f4 e6b3 e4e5 c3c2 e5e6 f7e6 c7c3 c1d1 c3b3 c2c1n e2d1 c1b3");
        assert_eq!(got, vec![(9, true, "promotion"), (9, true, "underPromotion")]);
    }

    #[test]
    fn rook_promotion_that_mates_like_a_queen_is_no_underpromotion() {
        // Lichess 02I5f: f8=R# — f8=Q# mates too.
        let fen = "rr2k3/2p2PQ1/2n5/2n1p1p1/2Pp4/p2P4/P4PK1/8 b - - 0 39";
        assert_eq!(labels(fen, "e8d8 f7f8r"), vec![(1, false, "promotion")]);
    }

    #[test]
    fn opponent_promotion_is_context_only() {
        // White promotes on ply 0 (the setup move); nothing fires for it.
        let fen = "7k/P7/8/8/8/8/6K1/8 w - - 0 1";
        assert!(labels(fen, "a7a8q h8h7 a8b8").is_empty());
    }
}

#[cfg(test)]
mod real_promotions {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn promotions_on_real_puzzles() {
        assert_fires(
            "promotion",
            &[
                ("004LZ", "8/7R/5p2/p7/7P/2p5/3k2r1/1K2N3 w - - 3 48", "e1g2 c3c2 b1a2 c2c1q h7d7 d2e2", 3),
                ("08kOh", "6kr/4q2p/1p4pQ/p1pP4/P1P2RP1/1P2p1K1/6P1/8 w - - 0 39", "g3f3 e3e2 d5d6 e2e1n f3g3 e7d6", 3),
                ("001w5", "1rb2rk1/q5P1/4p2p/3p3p/3P1P2/2P5/2QK3P/3R2R1 b - - 0 29", "f8f7 c2h7 g8h7 g7g8q", 3),
            ],
        );
        assert_fires(
            "underPromotion",
            &[
                ("08kOh", "6kr/4q2p/1p4pQ/p1pP4/P1P2RP1/1P2p1K1/6P1/8 w - - 0 39", "g3f3 e3e2 d5d6 e2e1n f3g3 e7d6", 3),
                (
                    "03kqY",
                    "8/2Q2ppk/4b2p/8/4P3/2p3P1/4KP1P/2r5 w - - 4 49",
                    "f2f4 e6b3 e4e5 c3c2 e5e6 f7e6 c7c3 c1d1 c3b3 c2c1n e2d1 c1b3",
                    9,
                ),
                // Lichess 004LZ with a knight instead of a queen.
                ("constructed", "8/7R/5p2/p7/7P/2p5/3k2r1/1K2N3 w - - 3 48", "e1g2 c3c2 b1a2 c2c1n", 3),
            ],
        );
        assert_silent(
            "underPromotion",
            &[
                // A queen promotion.
                ("004LZ", "8/7R/5p2/p7/7P/2p5/3k2r1/1K2N3 w - - 3 48", "e1g2 c3c2 b1a2 c2c1q h7d7 d2e2", 3),
                // Lichess 02I5f: f8=R# where f8=Q# mates as well.
                ("02I5f", "rr2k3/2p2PQ1/2n5/2n1p1p1/2Pp4/p2P4/P4PK1/8 b - - 0 39", "e8d8 f7f8r", 1),
            ],
        );
        assert_silent(
            "promotion",
            &[("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 1)],
        );
    }
}
