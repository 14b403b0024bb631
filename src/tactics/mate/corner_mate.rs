//! # cornerMate
//!
//! How Koga decides (Lichess tags this pattern from players' votes only; the
//! rules follow its description: "confine the king to the corner using a
//! rook or queen and a knight to engage the checkmate"):
//! - The line ends in our mate; the king stands on an edge of the board. The
//!   literature's corner mate has it in the corner itself; Lichess's voters
//!   give the name to a knight mate anywhere along the edge (of the 42 tagged
//!   on the dev set, 15 have the king in the corner and 37 on the edge), and
//!   Koga follows them.
//! - A knight gives the check.
//! - A rook or queen of ours takes a flight square that the knight leaves
//!   open.
//! - Roles, alike for every mate pattern: `mated`, `checkers` (every piece
//!   giving check), `guards` (our other pieces that take a flight square
//!   from the king, the checker's square included) and `blockers` (the
//!   king's own pieces next to it).
//!
//! Koga and Lichess:
//! - cornerMate: Lichess 42, Koga 136, both 37: precision 0.272, recall 0.881,
//!   F1 0.416. Lichess tags it from votes, so its tags miss many true cases.
//! - Of the 20 Koga-only fires looked at, 5 have the king in the corner (the
//!   literature's corner mate, untagged) and 15 elsewhere on the edge, knight
//!   mates like those the voters tag: the tags are incomplete there rather than
//!   Koga wrong. The five tagged mates Koga misses have the king off the edge
//!   (e3, f6, e7, g7, g3).
//!
//! Judged by hand:
//! - Mate patterns together, 15 random dev fires (seed 23): 14 are the
//!   pattern and all 15 name every checker, guard and blocker. The miss is
//!   this label: 0BB33 Nf6# mates a king on g8, on the edge but not in its
//!   corner (the rule asks for the edge only).
use shakmaty::{Bitboard, Role};

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::CornerMate], run: Run::Mate(detect) };

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let king = scene.king;
    let on_edge = Bitboard::EDGES.contains(king);
    let knight = (scene.checkers & scene.ours(Role::Knight)).any();
    let guard = scene.helpers(scene.ours(Role::Rook) | scene.ours(Role::Queen)).any();
    if on_edge && knight && guard {
        fires.push(scene.fire(Label::CornerMate));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_roles, assert_silent};

    #[test]
    fn corner_mate_on_real_puzzles() {
        assert_fires(
            "cornerMate",
            &[
                // Lichess tags it cornerMate.
                ("002Q2", "7k/p4R1p/3p3r/2pN1n2/2PbBBb1/3P2P1/P3r3/5R1K w - - 1 28", "f4h6 f5g3", 1),
                // Lichess tags it cornerMate.
                ("00eC6", "2kr4/1p3p2/1P6/Q1ppP3/3NnPqp/8/P5KP/2R1R3 w - - 1 29", "g2h1 e4f2", 1),
                // Lichess tags it cornerMate.
                ("00rqm", "2r2r1k/3b3n/p6q/1p1nN3/7P/3P2Q1/PPP2P2/1K4RR b - - 0 30", "d7f5 g3g8 f8g8 e5f7", 3),
            ],
        );
        assert_silent(
            "cornerMate",
            &[
                // A near miss with the same mating piece: Lichess tags it smotheredMate.
                ("001pC", "r4rk1/pp3ppp/3b4/2p1pPB1/7N/2PP3n/PP4PP/R2Q1RqK w - - 5 18", "f1g1 h3f2", 1),
                // A near miss with the same mating piece: Lichess tags it smotheredMate.
                ("00A9Q", "2rq1rk1/1p3p1p/p1pn2p1/P2p4/1P1PnP2/3NP3/5PBP/R1Q3RK w - - 2 22", "d3c5 e4f2", 1),
            ],
        );
        assert_roles(
            "cornerMate",
            ("002Q2", "7k/p4R1p/3p3r/2pN1n2/2PbBBb1/3P2P1/P3r3/5R1K w - - 1 28", "f4h6 f5g3", 1),
            &[("mated", "h1"), ("checkers", "g3"), ("guards", "d4,e2")],
        );
    }
}
