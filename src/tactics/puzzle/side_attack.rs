//! # kingsideAttack, queensideAttack
//!
//! How Koga decides:
//! - A puzzle label: the attack's side of the board, read from the start
//!   position and our moves, as Lichess reads it.
//! - Before the key move the enemy king stands on its back rank: on the g or
//!   h file for the kingside, on the a, b or c file for the queenside. The
//!   board still holds many pieces (at least 20 for the kingside, 18 for the
//!   queenside): no endgame.
//! - At least one of our moves gives check.
//! - Our moves score: one point per check, one per capture within three
//!   squares of that side's enemy corner (h8/h1 or a8/a1), minus one per
//!   other move that lands five squares or more from it. The attack is on
//!   that side when the score reaches 2.
//! - The kingside is judged first: a puzzle gets at most one of the two.
//!
//! Test positions:
//! - kingsideAttack: Lichess 000h0, 000rZ, 001h8; not on 002CP (a queenside
//!   attack) nor 0000D (no check, few pieces).
//! - queensideAttack: Lichess 002CP, 005wy, 005x9; not on 000rZ (a kingside
//!   attack) nor 0000D.
//!
//! Koga and Lichess:
//! - kingsideAttack: Lichess 1,765, Koga 2,116, both 1,764: precision 0.834,
//!   recall 0.999, F1 0.909. queensideAttack: Lichess 300, Koga 387, both
//!   300: precision 0.775, recall 1.000, F1 0.873.
//! - The difference is deliberate: Lichess leaves the side of the attack out
//!   when it tags the puzzle backRankMate or fork; Koga names the side
//!   whatever the motif, since a fork on the kingside is still a kingside
//!   attack.

use shakmaty::{File, Position, Rank, Square};

use crate::board::{distance, relative_rank};
use crate::line::Line;
use crate::tactics::{Detector, Label, LabelSet, Run};

pub const DETECTOR: Detector =
    Detector { labels: &[Label::KingsideAttack, Label::QueensideAttack], run: Run::Puzzle(detect) };

pub fn detect(line: &Line, labels: &mut LabelSet) {
    if attacks_side(line, File::H, &[File::G, File::H], 20) {
        labels.insert(Label::KingsideAttack);
    } else if attacks_side(line, File::A, &[File::A, File::B, File::C], 18) {
        labels.insert(Label::QueensideAttack);
    }
}

fn attacks_side(line: &Line, corner_file: File, king_files: &[File], min_pieces: u32) -> bool {
    let start = line.key().before();
    let them = !line.solver();
    let Some(king) = start.board().king_of(them) else { return false };
    let on_side = relative_rank(king, them) == Rank::First && king_files.contains(&king.file());
    if !on_side || start.board().occupied().count() < min_pieces as usize {
        return false;
    }
    let corner = Square::from_coords(corner_file, king.rank());
    // Where the moves score, then a point for each check: the checks are
    // asked only where they could lift the score to 2.
    let (mut score, mut plies) = (0, 0);
    for ply in line.solver_plies() {
        plies += 1;
        let from_corner = distance(corner, ply.mv().to());
        if ply.mv().is_capture() && from_corner <= 3 {
            score += 1;
        } else if from_corner >= 5 {
            score -= 1;
        }
    }
    if score + plies < 2 {
        return false;
    }
    let checks = line.solver_plies().filter(|ply| ply.gives_check()).count() as i32;
    checks > 0 && score + checks >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineForm;
    use crate::tactics::puzzle_labels;

    fn side(fen: &str, moves: &str) -> Vec<Label> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        let labels = puzzle_labels(&line);
        [Label::KingsideAttack, Label::QueensideAttack].into_iter().filter(|l| labels.contains(*l)).collect()
    }

    const KINGSIDE: [(&str, &str); 3] = [
        // Lichess 000h0: ...Qxh2+ and the queen hunts the king from h2.
        ("5rk1/p5p1/3bpr1p/1Pp4q/3pR3/1P1Q1N2/P4PPP/4R1K1 w - - 4 22", "e4e6 f6f3 g2f3 h5h2 g1f1 h2h3 f1e2 h3e6"),
        // Lichess 000rZ: ...Qxh2#.
        ("2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13", "d4e6 d6h2"),
        // Lichess 001h8: Qxh7+ and Rc8+.
        ("2r3k1/2r4p/4p1p1/1p1q1pP1/p1bP1P1Q/P6R/5B2/2R3K1 b - - 5 34", "c4e2 h4h7 c7h7 c1c8 g8g7 c8c7"),
    ];
    const QUEENSIDE: [(&str, &str); 3] = [
        // Lichess 002CP: ...Qxc2#.
        ("r5k1/pp4pp/4p1q1/4p3/3n4/P5P1/1PP2Q1P/2KR1R2 w - - 4 24", "f2e3 g6c2"),
        // Lichess 005wy: ...Nb4 and ...Rxc4 against the c1 king.
        ("1r6/pp2kpp1/2n1p1n1/3p2PQ/5P2/2PqP3/PP1N4/2KR3R w - - 3 27", "h5h7 c6b4 c3b4 b8c8 d2c4 c8c4"),
        // Lichess 005x9: ...Qxc2#.
        ("r1b1kb1Q/ppp4p/6pB/3P4/2pn4/8/PPP1qPPP/RN1K3R w q - 2 13", "d1c1 e2c2"),
    ];
    // Lichess 0000D: a queen trade in an endgame, no check.
    const NEITHER: (&str, &str) = ("5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8");

    #[test]
    fn the_side_of_the_attack_on_real_puzzles() {
        for (fen, moves) in KINGSIDE {
            assert_eq!(side(fen, moves), vec![Label::KingsideAttack], "{fen}");
        }
        for (fen, moves) in QUEENSIDE {
            assert_eq!(side(fen, moves), vec![Label::QueensideAttack], "{fen}");
        }
        assert!(side(NEITHER.0, NEITHER.1).is_empty());
    }
}
