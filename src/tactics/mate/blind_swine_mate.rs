//! # blindSwineMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "two rooks team up to mate the king in an
//! area of 2 by 2 squares", the "blind swine" doubled on the seventh rank):
//! - The line ends in our mate, given by a rook.
//! - Another rook of ours stands with the checker and the king
//!   inside one 2×2 block of squares.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - blindSwineMate: Lichess 15, Koga 16, both 15: precision 0.938, recall
//!   1.000, F1 0.968. Lichess tags it from votes, so its tags miss many true
//!   cases.
//! - The one Koga-only fire has both rooks and the king in one 2×2 block:
//!   untagged.

use shakmaty::Role;

use crate::board::distance;
use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::BlindSwineMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let (king, rook) = (scene.king, scene.checker);
    if scene.checker_role() != Role::Rook || distance(rook, king) != 1 {
        return;
    }
    // Three squares fit in one 2×2 block when each pair is a king step apart
    // and they span two files and two ranks at most.
    let in_block = |other: shakmaty::Square| {
        let files = [king.file(), rook.file(), other.file()];
        let ranks = [king.rank(), rook.rank(), other.rank()];
        let span = |v: [u32; 3]| v.iter().max().unwrap() - v.iter().min().unwrap();
        span(files.map(|f| f as u32)) <= 1 && span(ranks.map(|r| r as u32)) <= 1
    };
    if (scene.ours(Role::Rook) & scene.around).without(rook).into_iter().any(in_block) {
        fires.push(scene.fire(Label::BlindSwineMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn blind_swine_mate_on_real_puzzles() {
        assert_fires(
            "blindSwineMate",
            &[
                // Lichess tags it blindSwineMate.
                ("01VvX", "5rk1/pp1b1Npp/3p2r1/8/PnN5/8/5RP1/5RK1 b - - 1 26", "d7a4 f7h6 g7h6 f2f8 g8g7 f1f7", 5),
                // Lichess tags it blindSwineMate.
                ("02QA4", "2r1k3/pR2R3/6pp/1p4r1/1Pp1P3/5P2/P4K2/2q5 b - - 5 42", "e8d8 b7d7", 1),
                // Lichess tags it blindSwineMate.
                ("02mPu", "5rk1/pp4pp/5q2/3P4/3Pp1p1/6P1/PPQ1R1KP/4Rr2 w - - 1 27", "c2e4 f6f2 e2f2 f8f2", 3),
            ],
        );
        assert_silent(
            "blindSwineMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "blindSwineMate",
            ("01VvX", "5rk1/pp1b1Npp/3p2r1/8/PnN5/8/5RP1/5RK1 b - - 1 26", "d7a4 f7h6 g7h6 f2f8 g8g7 f1f7", 5),
            &[("mated", "g7"), ("checkers", "f7"), ("guards", "f8")],
        );
    }
}
