//! # vukovicMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "the rook delivers mate while supported by
//! a third piece, and the knight is used to block the king's escape
//! squares"):
//! - The line ends in our mate, given by a rook on a square next to the king,
//!   on its rank or file.
//! - A piece of ours other than a knight guards the rook.
//! - One of our knights takes at least one of the king's flight squares.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - vukovicMate: Lichess 11, Koga 11, both 10: precision 0.909, recall 0.909,
//!   F1 0.909. Lichess tags it from votes, so its tags miss many true cases.
//! - The one Koga-only fire has the rook, the guard and the knight behind the
//!   rook in place: an untagged Vukovic mate.

use shakmaty::Role;

use crate::mate_scene::{offset, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::VukovicMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let (king, rook) = (scene.king, scene.checker);
    if scene.checker_role() != Role::Rook || !scene.beside(rook) {
        return;
    }
    let supported = (scene.attackers(rook) & !scene.ours(Role::Knight)).any();
    let beyond = offset(rook, rook.file() as i32 - king.file() as i32, rook.rank() as i32 - king.rank() as i32);
    if supported && beyond.is_some_and(|sq| scene.ours(Role::Knight).contains(sq)) {
        fires.push(scene.fire(Label::VukovicMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn vukovic_mate_on_real_puzzles() {
        assert_fires(
            "vukovicMate",
            &[
                // Lichess tags it vukovicMate.
                ("00VIe", "8/8/8/P6p/8/2RnkN2/r7/3K4 w - - 1 60", "f3e1 a2d2", 1),
                // Lichess tags it vukovicMate.
                ("00yzf", "3rk3/3N2R1/4P1pr/3pP3/2p5/6p1/PP6/2K5 b - - 3 29", "g3g2 d7f6 e8f8 g7f7", 3),
                // Lichess tags it vukovicMate.
                ("02tYt", "2k5/1RR3pp/2p5/p1N1p2n/P7/1P5P/2nr4/3r1NK1 b - - 6 28", "c8d8 c5e6 d8e8 c7e7", 3),
            ],
        );
        assert_silent(
            "vukovicMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "vukovicMate",
            ("00VIe", "8/8/8/P6p/8/2RnkN2/r7/3K4 w - - 1 60", "f3e1 a2d2", 1),
            &[("mated", "d1"), ("checkers", "d2"), ("guards", "d3,e3")],
        );
    }
}
