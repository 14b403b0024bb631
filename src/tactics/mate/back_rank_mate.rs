//! # backRankMate
//!
//! How Koga decides:
//! - The line ends in our mate; the mated king stands on its own back rank.
//! - Every square in front of the king (straight ahead and the two diagonals
//!   ahead, where on the board) holds one of its own pieces, and none of them
//!   is attacked by us: the king is walled in by its own men, not by ours.
//! - A piece on the back rank gives the check.
//! - Lichess's order between the patterns it tags: a smothered mate is not
//!   also a back-rank mate (arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - backRankMate: Lichess 682, Koga 682, both 682: precision 1.000, recall
//!   1.000, F1 1.000.

use shakmaty::Rank;

use crate::board::relative_rank;
use crate::mate_scene::{offset, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::BackRankMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if relative_rank(scene.king, scene.them) != Rank::First {
        return;
    }
    let ahead = if scene.them.is_white() { 1 } else { -1 };
    let walled = (-1..=1)
        .filter_map(|files| offset(scene.king, files, ahead))
        .all(|sq| scene.is_theirs(sq) && scene.attackers(sq).is_empty());
    let back_rank_checker =
        scene.first(scene.checkers.into_iter().filter(|&c| relative_rank(c, scene.them) == Rank::First).collect());
    if walled && back_rank_checker.is_some() {
        fires.push(scene.fire(Label::BackRankMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn back_rank_mate_on_real_puzzles() {
        assert_fires(
            "backRankMate",
            &[
                // Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
                // Lichess tags it backRankMate.
                ("0030b", "6k1/5ppp/5nb1/pp6/6rP/5N1Q/Pq2r1P1/3R2RK b - - 4 32", "g6e4 d1d8 f6e8 d8e8", 3),
                // Lichess tags it backRankMate.
                ("003Tx", "2r5/pR5p/5p1k/4p3/4r3/B4nPP/PP3P2/1K2R3 w - - 0 27", "e1e4 f3d2 b1a1 c8c1", 3),
            ],
        );
        assert_silent(
            "backRankMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it pillsburysMate.
                ("0071N", "6k1/p4pp1/1p5p/4b3/4B3/4P1P1/PpR2PKP/3r4 b - - 1 30", "b2b1q c2c8 d1d8 c8d8", 3),
            ],
        );
        assert_roles(
            "backRankMate",
            ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            &[("mated", "g8"), ("checkers", "e8"), ("blockers", "f7,g7,h7")],
        );
    }
}
