//! # morphysMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "use the bishop to check the king, while
//! your rook helps to confine it"):
//! - The line ends in our mate, given by a bishop.
//! - One of our rooks takes a flight square of the king that the bishop
//!   leaves open.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - morphysMate: Lichess 30, Koga 88, both 29: precision 0.330, recall 0.967,
//!   F1 0.492. Lichess tags it from votes, so its tags miss many true cases.
//! - Of 20 Koga-only fires looked at, 8 have the king on the edge as in
//!   Morphy's game and 12 a king in mid-board, a bishop mating and a rook
//!   helping. The voters tag mid-board cases too (a quarter of their 30), so
//!   Koga keeps the broader rule; requiring the edge would drop recall to
//!   0.733.

use shakmaty::Role;

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::MorphysMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if scene.checker_role() != Role::Bishop {
        return;
    }
    if scene.helpers(scene.ours(Role::Rook)).any() {
        fires.push(scene.fire(Label::MorphysMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn morphys_mate_on_real_puzzles() {
        assert_fires(
            "morphysMate",
            &[
                // Lichess tags it morphysMate.
                ("001om", "5r1k/pp4pp/5p2/1BbQp1r1/6K1/7P/1PP3P1/3R3R w - - 2 26", "g4h4 c5f2 g2g3 f2g3", 3),
                // Lichess tags it morphysMate.
                ("00Vdx", "2k3rr/ppp2p1p/2np1B2/8/4P3/2NB1b2/PPP2PPP/R4RK1 w - - 1 13", "f6h8 g8g2 g1h1 g2g4", 3),
                // Lichess tags it morphysMate.
                ("00Yfi", "1Q6/5p1k/4b1pp/4RB2/3p2KP/6P1/P3q3/5r2 w - - 2 45", "e5e2 e6f5", 1),
            ],
        );
        assert_silent(
            "morphysMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "morphysMate",
            ("001om", "5r1k/pp4pp/5p2/1BbQp1r1/6K1/7P/1PP3P1/3R3R w - - 2 26", "g4h4 c5f2 g2g3 f2g3", 3),
            &[("mated", "h4"), ("checkers", "g3"), ("guards", "f6,g5")],
        );
    }
}
