//! # operaMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description, "check the king with a rook and use a
//! bishop to defend the rook", after Morphy's Opera game):
//! - The line ends in our mate, given by a rook on a square next to the king,
//!   on its rank or file.
//! - One of our bishops guards the rook, so the king cannot take it.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - operaMate: Lichess 228, Koga 255, both 228: precision 0.894, recall 1.000,
//!   F1 0.944. Lichess tags it from votes, so its tags miss many true cases.
//! - All 20 Koga-only fires looked at are a rook mating beside the king with a
//!   bishop guarding it: Opera mates the voters did not tag.

use shakmaty::Role;

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::OperaMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let rook = scene.checker;
    if scene.checker_role() != Role::Rook || !scene.beside(rook) {
        return;
    }
    if (scene.attackers(rook) & scene.ours(Role::Bishop)).any() {
        fires.push(scene.fire(Label::OperaMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn opera_mate_on_real_puzzles() {
        assert_fires(
            "operaMate",
            &[
                // Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // Lichess tags it operaMate.
                ("008LD", "8/6pp/4N1k1/5p2/5P2/5rPb/4R2P/6K1 w - - 0 35", "e6g5 f3f1", 1),
                // Lichess tags it operaMate.
                ("009wR", "1R2R3/p7/1p1k3p/1Pb5/P5p1/6P1/5rKP/8 w - - 6 41", "g2h1 f2f1 h1g2 f1g1", 3),
            ],
        );
        assert_silent(
            "operaMate",
            &[
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("0030b", "6k1/5ppp/5nb1/pp6/6rP/5N1Q/Pq2r1P1/3R2RK b - - 4 32", "g6e4 d1d8 f6e8 d8e8", 3),
            ],
        );
        assert_roles(
            "operaMate",
            ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
            &[("mated", "f2"), ("checkers", "f1"), ("guards", "b5,f4")],
        );
    }
}
