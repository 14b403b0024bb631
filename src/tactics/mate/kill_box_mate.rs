//! # killBoxMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "a rook is next to the enemy king and
//! supported by a queen that also blocks the king's escape squares; the rook
//! and the queen catch the enemy king in a 3 by 3 kill box"):
//! - The line ends in our mate, given by a rook or a queen.
//! - A rook and a queen of ours stand on one diagonal with one square between
//!   them: opposite corners of a 3×3 box, the queen guarding the rook.
//! - The king stands inside that box, next to the rook.
//! - One of the two gives check.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - killBoxMate: Lichess 13, Koga 16, both 12: precision 0.750, recall 0.923,
//!   F1 0.828. Lichess tags it from votes, so its tags miss many true cases.
//! - The Koga-only fires (all four looked at) are a rook next to the king with
//!   the queen two diagonal steps away, the box closed: kill boxes the voters
//!   did not tag.

use shakmaty::Role;

use crate::board::distance;
use crate::mate_scene::{offset, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::KillBoxMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let king = scene.king;
    for rook in scene.ours(Role::Rook) & scene.around {
        for (files, ranks) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            let Some(queen) = offset(rook, files, ranks).filter(|&q| scene.ours(Role::Queen).contains(q)) else {
                continue;
            };
            let Some(centre) = offset(rook, files / 2, ranks / 2) else { continue };
            let checks = scene.checkers.contains(rook) || scene.checkers.contains(queen);
            if distance(centre, king) <= 1 && checks {
                fires.push(scene.fire(Label::KillBoxMate));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn kill_box_mate_on_real_puzzles() {
        assert_fires(
            "killBoxMate",
            &[
                // Lichess tags it killBoxMate.
                (
                    "01DhL",
                    "1r4k1/2q3p1/p3R2p/b2p4/1rpP3N/6P1/1PQ1RPP1/6K1 b - - 0 31",
                    "b4b2 e6e8 b8e8 e2e8 g8f7 c2g6",
                    5,
                ),
                // Lichess tags it killBoxMate.
                ("02sI2", "3R4/ppp3rk/5Q2/8/2q5/5P2/1P1R2Pr/5K2 w - - 6 34", "f1f2 g7g2 f2e3 g2e2 d2e2 h2e2", 5),
                // Lichess tags it killBoxMate.
                ("02vo8", "2R2bk1/5p1p/3p1p1Q/3P4/7P/q5P1/4R1K1/2n5 b - - 0 43", "c1e2 c8f8", 1),
            ],
        );
        assert_silent(
            "killBoxMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "killBoxMate",
            ("01DhL", "1r4k1/2q3p1/p3R2p/b2p4/1rpP3N/6P1/1PQ1RPP1/6K1 b - - 0 31", "b4b2 e6e8 b8e8 e2e8 g8f7 c2g6", 5),
            &[("mated", "f7"), ("checkers", "g6"), ("guards", "h4,e8")],
        );
    }
}
