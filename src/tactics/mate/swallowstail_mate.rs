//! # swallowstailMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow the pattern's description in the literature, the guéridon:
//! a guarded queen face to face with the king, whose own pieces fill the two
//! squares behind it like a swallow's tail):
//! - The line ends in our mate, given by a queen on a square next to the king,
//!   on its rank or file.
//! - Another piece of ours guards the queen.
//! - Both squares diagonally behind the king, on the side away from the
//!   queen, hold the king's own pieces.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - swallowstailMate: Lichess 23, Koga 66, both 23: precision 0.348, recall
//!   1.000, F1 0.517. Lichess tags it from votes, so its tags miss many true
//!   cases.
//! - All 20 Koga-only fires looked at are a guarded queen face to face with the
//!   king and its own pieces on both squares behind it: swallow's tails the
//!   voters did not tag.

use shakmaty::Role;

use crate::board::distance;
use crate::mate_scene::{offset, step, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::SwallowstailMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let (king, queen) = (scene.king, scene.checker);
    if scene.checker_role() != Role::Queen || distance(queen, king) != 1 {
        return;
    }
    let Some((files, ranks)) = step(king, queen) else { return };
    if files != 0 && ranks != 0 {
        return;
    }
    // Behind the king: one step away from the queen, one step to each side.
    let tail = [offset(king, -files + ranks, -ranks + files), offset(king, -files - ranks, -ranks - files)];
    if scene.attackers(queen).is_empty() {
        return;
    }
    if let [Some(a), Some(b)] = tail {
        if scene.is_theirs(a) && scene.is_theirs(b) {
            fires.push(scene.fire(Label::SwallowstailMate));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn swallowstail_mate_on_real_puzzles() {
        assert_fires(
            "swallowstailMate",
            &[
                // Lichess tags it swallowstailMate.
                ("00CtS", "Q5k1/5q2/p2p4/b1p1pr2/P7/6P1/4KP1R/8 b - - 3 38", "g8g7 a8h8 g7g6 h8h6", 3),
                // Lichess tags it swallowstailMate.
                ("00H1C", "r3r3/1kpRnqpp/p4p2/Qp2P2P/1N6/4Pb2/PPP3P1/2K2R2 b - - 0 22", "e7c6 a5c7", 1),
                // Lichess tags it swallowstailMate.
                ("01CAb", "8/p2Q1p2/1p3p1p/2b1k3/5P2/8/PPBr1q1P/R6K b - - 0 31", "e5f4 d7f5 f4e3 f5e4", 3),
            ],
        );
        assert_silent(
            "swallowstailMate",
            &[
                // A near miss with the same mating piece: Lichess tags it epauletteMate.
                ("00O2z", "r6r/2pk1ppp/p1np4/1pbBpN1q/4P1b1/5N2/PPPP1PRK/R1BQ4 w - - 12 18", "h2g3 h5h3", 1),
                // A near miss with the same mating piece: Lichess tags it dovetailMate.
                ("00j1r", "8/2rkb3/1p6/6P1/5q2/3R4/Q1P1K3/8 b - - 4 37", "d7c6 a2d5", 1),
            ],
        );
        assert_roles(
            "swallowstailMate",
            ("00CtS", "Q5k1/5q2/p2p4/b1p1pr2/P7/6P1/4KP1R/8 b - - 3 38", "g8g7 a8h8 g7g6 h8h6", 3),
            &[("mated", "g6"), ("checkers", "h6"), ("guards", "h2"), ("blockers", "f5,f7")],
        );
    }
}
