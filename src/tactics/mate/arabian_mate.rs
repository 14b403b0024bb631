//! # arabianMate
//!
//! How Koga decides:
//! - The line ends in our mate; the king stands in a corner.
//! - A rook lands next to the king and mates.
//! - One of our knights guards the rook from two files and two ranks away
//!   from the king: the knight both protects the rook and takes
//!   the last flight square.
//! - Gives way to smotheredMate, backRankMate, anastasiaMate and hookMate
//!   (Lichess's order, arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - arabianMate: Lichess 21, Koga 21, both 21: precision 1.000, recall 1.000,
//!   F1 1.000.

use shakmaty::{Bitboard, Role};

use crate::board::distance;
use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::ArabianMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let king = scene.king;
    if !Bitboard::CORNERS.contains(king) || scene.moved_role != Role::Rook || distance(scene.to, king) != 1 {
        return;
    }
    let knights = scene.attackers(scene.to) & scene.ours(Role::Knight);
    if knights.into_iter().any(|n| king.file().distance(n.file()) == 2 && king.rank().distance(n.rank()) == 2) {
        fires.push(scene.fire(Label::ArabianMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn arabian_mate_on_real_puzzles() {
        assert_fires(
            "arabianMate",
            &[
                // Lichess tags it arabianMate.
                ("00H8a", "5bk1/2R4p/6p1/8/2b1NP1P/4P1K1/r7/8 b - - 2 45", "c4d3 e4f6 g8h8 c7h7", 3),
                // Lichess tags it arabianMate.
                ("00dt1", "Q7/8/3B4/2p5/Krkn4/8/8/8 w - - 1 54", "a4a3 d4b5 a3a2 b5c3 a2a1 b4b1", 5),
                // Lichess tags it arabianMate.
                ("01IvQ", "8/2rN1pk1/2P4p/pB6/1b4RP/5K2/8/4r3 b - - 4 44", "g7h7 d7f6 h7h8 g4g8", 3),
            ],
        );
        assert_silent(
            "arabianMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "arabianMate",
            ("00H8a", "5bk1/2R4p/6p1/8/2b1NP1P/4P1K1/r7/8 b - - 2 45", "c4d3 e4f6 g8h8 c7h7", 3),
            &[("mated", "h8"), ("checkers", "h7"), ("guards", "f6")],
        );
    }
}
