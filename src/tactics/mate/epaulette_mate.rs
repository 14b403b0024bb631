//! # epauletteMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow the pattern's description in the literature: the king's own
//! pieces on both its sides, like epaulettes, and a check from the front):
//! - The line ends in our mate, given by a queen or rook along the king's
//!   rank or file.
//! - Both squares beside the king, across the line of the check, are
//!   occupied, at least one of them by the king's own piece.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - epauletteMate: Lichess 87, Koga 86, both 83: precision 0.965, recall
//!   0.954, F1 0.960. Lichess tags it from votes, so its tags miss many true
//!   cases.
//! - The voters call it epaulette when both side squares are filled, one of
//!   them at least by the king's own piece (a piece of ours on the other side
//!   counts); Koga follows them. The three Koga-only fires fit the rule.

use shakmaty::Role;

use crate::mate_scene::{offset, step, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::EpauletteMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let (king, checker) = (scene.king, scene.checker);
    if !matches!(scene.checker_role(), Role::Queen | Role::Rook) {
        return;
    }
    let Some((files, ranks)) = step(king, checker) else { return };
    if files != 0 && ranks != 0 {
        return;
    }
    // Across a file check the sides are on the rank, and the other way round.
    let sides = [offset(king, ranks, files), offset(king, -ranks, -files)];
    if let [Some(a), Some(b)] = sides {
        let occupied = scene.board.occupied();
        if occupied.contains(a) && occupied.contains(b) && (scene.is_theirs(a) || scene.is_theirs(b)) {
            fires.push(scene.fire(Label::EpauletteMate));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn epaulette_mate_on_real_puzzles() {
        assert_fires(
            "epauletteMate",
            &[
                // Lichess tags it epauletteMate.
                ("00LWX", "2r4k/5p2/4pNp1/6Pp/q6P/7r/2PQ4/1RKN4 w - - 2 37", "d2b4 c8c2", 1),
                // Lichess tags it epauletteMate.
                ("00O2z", "r6r/2pk1ppp/p1np4/1pbBpN1q/4P1b1/5N2/PPPP1PRK/R1BQ4 w - - 12 18", "h2g3 h5h3", 1),
                // Lichess tags it epauletteMate.
                ("00uJL", "7Q/5p2/6p1/R3pk1p/P2q3K/7P/5PP1/7r w - - 2 41", "g2g4 d4g4", 1),
            ],
        );
        assert_silent(
            "epauletteMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "epauletteMate",
            ("00LWX", "2r4k/5p2/4pNp1/6Pp/q6P/7r/2PQ4/1RKN4 w - - 2 37", "d2b4 c8c2", 1),
            &[("mated", "c1"), ("checkers", "c2"), ("blockers", "b1,d1")],
        );
    }
}
