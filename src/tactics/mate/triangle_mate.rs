//! # triangleMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "the queen and rook, one square away from
//! the enemy king, are on the same rank or file, forming a triangle"):
//! - The line ends in our mate, given by a queen on a square diagonally next
//!   to the king.
//! - One of our rooks stands on another square diagonally next to the king,
//!   on the queen's rank or file: queen, rook and king form the
//!   triangle, and the rook guards the queen.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - triangleMate: Lichess 18, Koga 26, both 18: precision 0.692, recall 1.000,
//!   F1 0.818. Lichess tags it from votes, so its tags miss many true cases.
//! - All eight Koga-only fires are a queen and rook on two diagonal neighbours
//!   of the king on one rank or file: untagged triangles.

use shakmaty::Role;

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::TriangleMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let queen = scene.checker;
    if scene.checker_role() != Role::Queen || !scene.diagonally_next(queen) {
        return;
    }
    let mut rooks = (scene.ours(Role::Rook) & scene.around).into_iter();
    if rooks.any(|rook| scene.diagonally_next(rook) && (rook.file() == queen.file() || rook.rank() == queen.rank())) {
        fires.push(scene.fire(Label::TriangleMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn triangle_mate_on_real_puzzles() {
        assert_fires(
            "triangleMate",
            &[
                // Lichess tags it triangleMate.
                ("00qX2", "1r2r2k/Q1R4p/4q1p1/4Bb2/8/8/PP3PPP/3R2K1 b - - 0 28", "e6e5 c7h7 h8g8 a7f7", 3),
                // Lichess tags it triangleMate.
                ("012uA", "r4r2/p1p2k1R/6R1/3n1pB1/1q1Pb3/8/1P2Q1PP/6K1 b - - 2 35", "f7g6 e2h5", 1),
                // Lichess tags it triangleMate.
                ("01YV3", "1r3rk1/p3R2p/3p2pQ/3q4/3b4/3p4/PP3PPP/1RB4K b - - 3 22", "f8f2 h6h7 g8f8 c1h6 d4g7 h7g7", 5),
            ],
        );
        assert_silent(
            "triangleMate",
            &[
                // A near miss with the same mating piece: Lichess tags it swallowstailMate.
                ("00CtS", "Q5k1/5q2/p2p4/b1p1pr2/P7/6P1/4KP1R/8 b - - 3 38", "g8g7 a8h8 g7g6 h8h6", 3),
                // A near miss with the same mating piece: Lichess tags it swallowstailMate.
                ("00H1C", "r3r3/1kpRnqpp/p4p2/Qp2P2P/1N6/4Pb2/PPP3P1/2K2R2 b - - 0 22", "e7c6 a5c7", 1),
            ],
        );
        assert_roles(
            "triangleMate",
            ("00qX2", "1r2r2k/Q1R4p/4q1p1/4Bb2/8/8/PP3PPP/3R2K1 b - - 0 28", "e6e5 c7h7 h8g8 a7f7", 3),
            &[("mated", "g8"), ("checkers", "f7"), ("guards", "h7")],
        );
    }
}
