//! # balestraMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "a bishop delivers the checkmate, while a
//! queen blocks the remaining escape squares"):
//! - The line ends in our mate, given by a bishop.
//! - One of our queens stands a knight's jump from the king and takes a
//!   flight square the bishop leaves open: close enough to seal
//!   the king in, without touching it.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - balestraMate: Lichess 7, Koga 37, both 7: precision 0.189, recall 1.000,
//!   F1 0.318. Lichess tags it from votes, so its tags miss many true cases.
//! - All 20 Koga-only fires looked at are a bishop mate with our queen a
//!   knight's jump from the king taking what the bishop leaves: the Balestra
//!   shape, untagged (the voters used the tag only seven times in 20,002
//!   puzzles).

use shakmaty::{attacks, Role};

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::BalestraMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if scene.checker_role() != Role::Bishop {
        return;
    }
    let queens = scene.helpers(scene.ours(Role::Queen)) & attacks::knight_attacks(scene.king);
    if queens.any() {
        fires.push(scene.fire(Label::BalestraMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn balestra_mate_on_real_puzzles() {
        assert_fires(
            "balestraMate",
            &[
                // Lichess tags it balestraMate.
                ("00rwh", "5k2/2p5/r1PpQp2/1pN1p1b1/1P2P1p1/r5Pq/5P2/R2R2K1 w - - 2 37", "c5a6 a3g3 f2g3 g5e3", 3),
                // Lichess tags it balestraMate.
                ("03YMa", "r1b1k2r/pp5p/2nQ2p1/q4pN1/4p3/1B2P3/Pb1P1PPP/RN2K2R b KQkq - 1 17", "b2a1 b3f7", 1),
                // Lichess tags it balestraMate.
                ("04mRD", "6k1/Qppb2p1/6p1/6B1/4PR2/6q1/P1P5/6K1 w - - 2 27", "g1f1 d7b5 c2c4 b5c4", 3),
            ],
        );
        assert_silent(
            "balestraMate",
            &[
                // A near miss with the same mating piece: Lichess tags it bodenMate.
                ("001gi", "r6r/1pNk1ppp/2np4/b3p3/4P1b1/N1Q5/P4PPP/R3KB1R w KQ - 3 18", "c7a8 a5c3", 1),
                // A near miss with the same mating piece: Lichess tags it morphysMate.
                ("001om", "5r1k/pp4pp/5p2/1BbQp1r1/6K1/7P/1PP3P1/3R3R w - - 2 26", "g4h4 c5f2 g2g3 f2g3", 3),
            ],
        );
        assert_roles(
            "balestraMate",
            ("00rwh", "5k2/2p5/r1PpQp2/1pN1p1b1/1P2P1p1/r5Pq/5P2/R2R2K1 w - - 2 37", "c5a6 a3g3 f2g3 g5e3", 3),
            &[("mated", "g1"), ("checkers", "e3"), ("guards", "h3")],
        );
    }
}
