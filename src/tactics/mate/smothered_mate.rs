//! # smotheredMate
//!
//! How Koga decides:
//! - The line ends in our mate, and a knight gives check.
//! - Every square next to the king holds one of its own pieces: it is
//!   smothered by its own army.
//! - First in Lichess's order of the patterns it tags: the other seven give
//!   way to it (arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - smotheredMate: Lichess 94, Koga 94, both 94: precision 1.000, recall
//!   1.000, F1 1.000.

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::SmotheredMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if (scene.checkers & scene.board.knights()).any() && scene.blocked() == scene.around {
        fires.push(scene.fire(Label::SmotheredMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn smothered_mate_on_real_puzzles() {
        assert_fires(
            "smotheredMate",
            &[
                // Lichess tags it smotheredMate.
                ("001pC", "r4rk1/pp3ppp/3b4/2p1pPB1/7N/2PP3n/PP4PP/R2Q1RqK w - - 5 18", "f1g1 h3f2", 1),
                // Lichess tags it smotheredMate.
                ("00A9Q", "2rq1rk1/1p3p1p/p1pn2p1/P2p4/1P1PnP2/3NP3/5PBP/R1Q3RK w - - 2 22", "d3c5 e4f2", 1),
                // Lichess tags it smotheredMate.
                ("00Bn0", "r1bqkb1r/pp1pnppp/2n1p3/1N6/5B2/8/PPP1PPPP/R2QKBNR b KQkq - 4 6", "e6e5 b5d6", 1),
            ],
        );
        assert_silent(
            "smotheredMate",
            &[
                // A near miss with the same mating piece: Lichess tags it cornerMate.
                ("002Q2", "7k/p4R1p/3p3r/2pN1n2/2PbBBb1/3P2P1/P3r3/5R1K w - - 1 28", "f4h6 f5g3", 1),
                // A near miss with the same mating piece: Lichess tags it cornerMate.
                ("004JD", "3r4/R7/2p5/p1P2p2/1p4k1/nP6/P2KNP2/8 w - - 3 41", "d2e3 a3c2", 1),
            ],
        );
        assert_roles(
            "smotheredMate",
            ("001pC", "r4rk1/pp3ppp/3b4/2p1pPB1/7N/2PP3n/PP4PP/R2Q1RqK w - - 5 18", "f1g1 h3f2", 1),
            &[("mated", "h1"), ("checkers", "f2"), ("blockers", "g2,h2,g1")],
        );
    }
}
