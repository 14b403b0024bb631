//! # dovetailMate
//!
//! How Koga decides:
//! - The line ends in our mate; the king stands off the edges of the board.
//! - A queen mates from a square diagonally next to the king.
//! - Every other square next to the king is either empty and attacked by the
//!   queen alone, or attacked by none of our pieces (so held by the king's
//!   own men): the queen does the whole job, the king's pieces
//!   close the tail.
//! - Gives way to the other six patterns Lichess tags (its order,
//!   arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - dovetailMate: Lichess 18, Koga 18, both 18: precision 1.000, recall 1.000,
//!   F1 1.000.

use shakmaty::{Bitboard, Role};

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::DovetailMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let (king, queen) = (scene.king, scene.to);
    if Bitboard::EDGES.contains(king) || scene.moved_role != Role::Queen || !scene.diagonally_next(queen) {
        return;
    }
    let queen_alone = scene.around.without(queen).into_iter().all(|sq| {
        let attackers = scene.attackers(sq);
        attackers.is_empty() || (attackers == queen.into() && !scene.board.occupied().contains(sq))
    });
    if queen_alone {
        fires.push(scene.fire(Label::DovetailMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn dovetail_mate_on_real_puzzles() {
        assert_fires(
            "dovetailMate",
            &[
                // Lichess tags it dovetailMate.
                ("00j1r", "8/2rkb3/1p6/6P1/5q2/3R4/Q1P1K3/8 b - - 4 37", "d7c6 a2d5", 1),
                // Lichess tags it dovetailMate.
                ("01QgQ", "r1qk4/pp4Q1/2p1p3/4Pp1B/7P/6P1/P5K1/8 b - - 4 41", "c6c5 g7f8 d8c7 f8d6", 3),
                // Lichess tags it dovetailMate.
                ("03XdS", "4rk2/ppp2p1p/2qp4/8/8/3K4/PPPP1Q1P/R1B3N1 w - - 0 17", "c2c3 c6e4", 1),
            ],
        );
        assert_silent(
            "dovetailMate",
            &[
                // A near miss with the same mating piece: Lichess tags it swallowstailMate.
                ("00CtS", "Q5k1/5q2/p2p4/b1p1pr2/P7/6P1/4KP1R/8 b - - 3 38", "g8g7 a8h8 g7g6 h8h6", 3),
                // A near miss with the same mating piece: Lichess tags it swallowstailMate.
                ("00H1C", "r3r3/1kpRnqpp/p4p2/Qp2P2P/1N6/4Pb2/PPP3P1/2K2R2 b - - 0 22", "e7c6 a5c7", 1),
            ],
        );
        assert_roles(
            "dovetailMate",
            ("00j1r", "8/2rkb3/1p6/6P1/5q2/3R4/Q1P1K3/8 b - - 4 37", "d7c6 a2d5", 1),
            &[("mated", "c6"), ("checkers", "d5"), ("blockers", "b6,c7")],
        );
    }
}
