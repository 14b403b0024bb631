//! # oneMove, short, long, veryLong
//!
//! How Koga decides:
//! - A puzzle-level label (in `puzzle_labels`, not a fire): the length of
//!   the line, counted in plies as in the Lichess layout, setup move
//!   included (a plain `--lines` line counts one more, for the setup it
//!   lacks), so that both input forms agree.
//! - `oneMove`: 2 plies (one solver move). `short`: 4 plies. `veryLong`: 8
//!   plies or more. `long`: anything else.
//! - Exactly one length label per annotated puzzle.
//!
//! Test positions:
//! - Lichess 00008 cut to 2 plies (`f2g3 e6e7`): oneMove.
//! - Lichess 00008 cut to 4 plies (`f2g3 e6e7 b2b1 b3c1`): short.
//! - Lichess 00008, all 6 plies (`f2g3 e6e7 b2b1 b3c1 b1c1 h6c1`): long.
//! - Lichess 02iyq, 10 plies: veryLong.
//! - A plain `--lines` line of 3 plies: short.
//! - The end-to-end test agrees with Lichess's length theme on every tagged
//!   puzzle of the 20,002-puzzle dev set.

use crate::line::Line;
use crate::tactics::{Detector, Label, LabelSet, Run};

pub const DETECTOR: Detector =
    Detector { labels: &[Label::OneMove, Label::Short, Label::Long, Label::VeryLong], run: Run::Puzzle(detect) };

pub fn detect(line: &Line, labels: &mut LabelSet) {
    labels.insert(label(line));
}

/// The length label of a line.
pub fn label(line: &Line) -> Label {
    let plies = line.plies() + (1 - line.key_ply);
    match plies {
        0..=2 => Label::OneMove,
        4 => Label::Short,
        8.. => Label::VeryLong,
        _ => Label::Long,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineForm;

    #[test]
    fn length_labels_follow_the_ply_count() {
        // Lichess 00008, cut to 2, 4 and 6 plies.
        let fen = "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24";
        let moves = ["f2g3 e6e7", "f2g3 e6e7 b2b1 b3c1", "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1"];
        let expected = [Label::OneMove, Label::Short, Label::Long];
        for (m, want) in moves.iter().zip(expected) {
            let line = Line::parse(fen, m, LineForm::Puzzle).unwrap();
            assert_eq!(label(&line), want, "{m}");
        }
        // A plain line of 3 plies counts as a 4-ply puzzle.
        let line = Line::parse(fen, "f2g3 e6e7 b2b1", LineForm::Line).unwrap();
        assert_eq!(label(&line), Label::Short);
        // Lichess 02iyq: 10 plies.
        let line = Line::parse(
            "4r1k1/pp3p1p/q1p2Np1/3nP1Q1/8/1P1P3P/P3R1P1/7K b - - 1 28",
            "d5f6 e5f6 e8e2 g5h6 e2e1 h1h2 e1h1 h2h1 c6c5 h6g7",
            LineForm::Puzzle,
        )
        .unwrap();
        assert_eq!(label(&line), Label::VeryLong);
    }
}
