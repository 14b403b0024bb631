//! # pillsburysMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "the rook delivers checkmate, while the
//! bishop helps to confine it"):
//! - The line ends in our mate, given by a rook.
//! - One of our bishops takes a flight square of the king that the rook
//!   leaves open, and does not guard the rook; a bishop guarding
//!   the rook makes the Opera mate.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - pillsburysMate: Lichess 248, Koga 285, both 220: precision 0.772, recall
//!   0.887, F1 0.826. Lichess tags it from votes, so its tags miss many true
//!   cases.
//! - The 20 Koga-only fires looked at all have a bishop taking a flight square
//!   the mating rook leaves open, as in Pillsbury's mate; many are mates on the
//!   back rank, which the voters leave untagged.

use shakmaty::Role;

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::PillsburysMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if scene.checker_role() != Role::Rook {
        return;
    }
    let confining = scene.helpers(scene.ours(Role::Bishop)) & !scene.attackers(scene.checker);
    if confining.any() {
        fires.push(scene.fire(Label::PillsburysMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn pillsburys_mate_on_real_puzzles() {
        assert_fires(
            "pillsburysMate",
            &[
                // Lichess tags it pillsburysMate.
                ("0071N", "6k1/p4pp1/1p5p/4b3/4B3/4P1P1/PpR2PKP/3r4 b - - 1 30", "b2b1q c2c8 d1d8 c8d8", 3),
                // Lichess tags it pillsburysMate.
                (
                    "00BrZ",
                    "r6r/pp2kb2/3p1p1Q/1N1Pp3/3bP3/P2B2P1/1P4PP/7K w - - 6 28",
                    "h6d2 h8h2 h1h2 a8h8 d2h6 h8h6",
                    5,
                ),
                // Lichess tags it pillsburysMate.
                ("00KVb", "2k2r2/pp5p/3p4/3Nb1p1/8/1P1P3P/P1Pn4/1K1R1R2 w - - 3 28", "d1d2 f8f1 d2d1 f1d1", 3),
            ],
        );
        assert_silent(
            "pillsburysMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "pillsburysMate",
            ("0071N", "6k1/p4pp1/1p5p/4b3/4B3/4P1P1/PpR2PKP/3r4 b - - 1 30", "b2b1q c2c8 d1d8 c8d8", 3),
            &[("mated", "g8"), ("checkers", "d8"), ("guards", "e4")],
        );
    }
}
