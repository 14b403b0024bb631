//! # hookMate
//!
//! How Koga decides:
//! - The line ends in our mate, given by a rook that lands next to the king.
//! - One of our knights next to the king guards the rook, and one of
//!   our pawns guards that knight: rook, knight and pawn hook together.
//! - Gives way to smotheredMate, backRankMate and anastasiaMate (Lichess's
//!   order, arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - hookMate: Lichess 38, Koga 38, both 38: precision 1.000, recall 1.000, F1
//!   1.000.

use shakmaty::Role;

use crate::board::distance;
use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::HookMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    if scene.moved_role != Role::Rook || distance(scene.to, scene.king) != 1 {
        return;
    }
    let knights = scene.attackers(scene.to) & scene.ours(Role::Knight) & scene.around;
    if knights.into_iter().any(|n| (scene.attackers(n) & scene.ours(Role::Pawn)).any()) {
        fires.push(scene.fire(Label::HookMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn hook_mate_on_real_puzzles() {
        assert_fires(
            "hookMate",
            &[
                // Lichess tags it hookMate.
                ("009IO", "3rk3/5p1r/p2Np1p1/3bP3/P2n4/8/1P3RPP/5RK1 b - - 4 25", "e8e7 f2f7 h7f7 f1f7", 3),
                // Lichess tags it hookMate.
                ("00HzH", "2r2Qk1/p2q2p1/1p2p1Np/3p3P/3Pb1P1/2P5/PP3R2/6K1 b - - 4 33", "c8f8 f2f8 g8h7 f8h8", 3),
                // Lichess tags it hookMate.
                ("00bJi", "7k/1p2R3/p3N3/3p4/2n5/2P5/PPK4r/8 w - - 3 36", "c2d3 h2d2", 1),
            ],
        );
        assert_silent(
            "hookMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "hookMate",
            ("009IO", "3rk3/5p1r/p2Np1p1/3bP3/P2n4/8/1P3RPP/5RK1 b - - 4 25", "e8e7 f2f7 h7f7 f1f7", 3),
            &[("mated", "e7"), ("checkers", "f7"), ("guards", "e5,d6")],
        );
    }
}
