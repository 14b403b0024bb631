//! # anastasiaMate
//!
//! How Koga decides:
//! - The line ends in our mate; the king stands on the a or h file, off the
//!   first and last ranks.
//! - The mating move is a rook or queen landing on the king's file.
//! - On the king's rank, the square one file in from the king holds one of
//!   its own pieces, and the square three files in holds our
//!   knight, which takes the squares the blocker leaves.
//! - Gives way to smotheredMate and backRankMate (Lichess's order,
//!   arbitration).
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - anastasiaMate: Lichess 23, Koga 23, both 23: precision 1.000, recall
//!   1.000, F1 1.000.

use shakmaty::{Bitboard, File, Role};

use crate::mate_scene::{offset, MateScene};
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::AnastasiaMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let king = scene.king;
    let inward = match king.file() {
        File::A => 1,
        File::H => -1,
        _ => return,
    };
    if Bitboard::BACKRANKS.contains(king)
        || scene.to.file() != king.file()
        || !matches!(scene.moved_role, Role::Rook | Role::Queen)
    {
        return;
    }
    let blocker = offset(king, inward, 0).filter(|&sq| scene.is_theirs(sq));
    let knight = offset(king, 3 * inward, 0).filter(|&sq| scene.ours(Role::Knight).contains(sq));
    if blocker.is_some() && knight.is_some() {
        fires.push(scene.fire(Label::AnastasiaMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn anastasia_mate_on_real_puzzles() {
        assert_fires(
            "anastasiaMate",
            &[
                // Lichess tags it anastasiaMate.
                ("01J5O", "r4r1k/1pp1NppR/3p4/p3n3/4P3/1PPP2P1/1P1K2P1/3R4 b - - 0 22", "h8h7 d1h1", 1),
                // Lichess tags it anastasiaMate.
                ("01YDB", "8/6p1/4k1N1/5R1P/4n1PK/8/5P2/r7 w - - 11 60", "f2f3 a1h1", 1),
                // Lichess tags it anastasiaMate.
                ("01nzu", "r4rk1/1bp2pp1/p2p4/1pn1pNp1/4P3/1B1P2R1/PPP2PPP/R5K1 b - - 3 19", "c5b3 f5e7 g8h7 g3h3", 3),
            ],
        );
        assert_silent(
            "anastasiaMate",
            &[
                // A near miss with the same mating piece: Lichess tags it operaMate.
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                // A near miss with the same mating piece: Lichess tags it backRankMate.
                ("001Wz", "4r1k1/5ppp/r1p5/p1n1RP2/8/2P2N1P/2P3P1/3R2K1 b - - 0 21", "e8e5 d1d8 e5e8 d8e8", 3),
            ],
        );
        assert_roles(
            "anastasiaMate",
            ("01J5O", "r4r1k/1pp1NppR/3p4/p3n3/4P3/1PPP2P1/1P1K2P1/3R4 b - - 0 22", "h8h7 d1h1", 1),
            &[("mated", "h7"), ("checkers", "h1"), ("guards", "e7"), ("blockers", "g7")],
        );
    }
}
