//! # opening, middlegame, endgame
//!
//! How Koga decides:
//! - A puzzle label, one per puzzle, judged on the position the solver faces
//!   (after the opponent's first move), with Lichess's game divider.
//! - `endgame`: at most six pieces besides kings and pawns, and not the
//!   opening.
//! - `opening`: more than ten pieces besides kings and pawns, both sides
//!   still with four or more men on their back rank, and a mixedness score
//!   of 150 or less: the armies have not yet met.
//! - `middlegame` otherwise.
//! - The mixedness score sums, over every 2×2 block of the board, a score for
//!   how many white and black men the block holds and how far up the board it
//!   lies (Lichess's `Divider`). Lichess counts a mixed block's rank from
//!   White's side, so its score changes when the colours are swapped; Koga
//!   takes the mean of the score seen from both sides, so that a mirrored
//!   puzzle gets the same phase.
//!
//! Test positions:
//! - Lichess 000rZ, 001kG, 002Tf (opening); 00008, 0009B, 000aY, 03PeH
//!   (middlegame); 0000D, 0008Q, 000Pw (endgame). Each is a negative for the
//!   two other phases.
//!
//! Koga and Lichess:
//! - opening: Lichess 974, Koga 975, both 967: precision 0.992, recall 0.993, F1 0.992.
//! - middlegame: Lichess 8,957, Koga 8,956, both 8,949: precision 0.999, recall 0.999, F1 0.999.
//! - endgame: Lichess 9,994, Koga 9,994, both 9,994: precision 1.000, recall 1.000, F1 1.000.
//! - With Lichess's one-sided mixedness the opening reaches F1 0.998 (972
//!   of 975); the colour-symmetric mean costs seven puzzles either way.

use shakmaty::{Bitboard, Board, Color, Position, Rank};

use crate::line::Line;
use crate::tactics::{Detector, Label, LabelSet, Run};

pub const DETECTOR: Detector =
    Detector { labels: &[Label::Opening, Label::Middlegame, Label::Endgame], run: Run::Puzzle(detect) };

pub fn detect(line: &Line, labels: &mut LabelSet) {
    labels.insert(phase(line.key().before().board()));
}

/// The phase of the game on `board`.
pub fn phase(board: &Board) -> Label {
    divide(board, mixed)
}

/// The phase of the game on `board` as Lichess's divider gives it: the
/// mixedness seen from White's side only, so a mirrored board may differ.
/// Lichess's themes ([`crate::lichess`]) use it.
pub fn lichess_phase(board: &Board) -> Label {
    divide(board, |board| mixedness_of(board.white(), board.black()) > 150)
}

/// Lichess's divider, the armies' mixing read by `mixed` (asked last: it
/// costs most).
fn divide(board: &Board, mixed: impl FnOnce(&Board) -> bool) -> Label {
    let pieces = (board.occupied() & !board.kings() & !board.pawns()).count();
    if !(pieces <= 10 || back_rank_sparse(board) || mixed(board)) {
        Label::Opening
    } else if pieces <= 6 {
        Label::Endgame
    } else {
        Label::Middlegame
    }
}

/// A side with fewer than four men on its back rank has developed.
fn back_rank_sparse(board: &Board) -> bool {
    [(Color::White, Rank::First), (Color::Black, Rank::Eighth)]
        .into_iter()
        .any(|(color, rank)| (board.by_color(color) & Bitboard::from_rank(rank)).count() < 4)
}

/// The armies have mixed: the mixedness, as a mean of both colours' views,
/// is over 150.
fn mixed(board: &Board) -> bool {
    let (white, black) = (board.white(), board.black());
    mixedness_of(white, black) + mixedness_of(black.flip_vertical(), white.flip_vertical()) > 2 * 150
}

/// Lichess's mixedness, seen from White's side: the sum of [`block_score`]
/// over the 49 2×2 blocks of the board. Each block's men are read off the
/// two ranks it spans, two bits of each side on each, and scored from a
/// table by those eight bits.
fn mixedness_of(white: Bitboard, black: Bitboard) -> u32 {
    let rank_bits = |bb: Bitboard, rank: u32| (bb.0 >> (8 * rank)) as u32 & 0xff;
    let mut total = 0;
    for rank in 0..7 {
        let (w_low, w_high) = (rank_bits(white, rank), rank_bits(white, rank + 1));
        let (b_low, b_high) = (rank_bits(black, rank), rank_bits(black, rank + 1));
        // The blocks that hold a man, by the file of their left edge: an
        // empty block scores nothing.
        let men = w_low | w_high | b_low | b_high;
        let mut blocks = (men | men >> 1) & 0x7f;
        let scores = &BLOCK_SCORES[rank as usize];
        while blocks != 0 {
            let file = blocks.trailing_zeros();
            blocks &= blocks - 1;
            // The block whose lower left square is (file, rank): that square,
            // its right neighbour and the two above them.
            let bits =
                (w_low >> file & 3) | (w_high >> file & 3) << 2 | (b_low >> file & 3) << 4 | (b_high >> file & 3) << 6;
            total += u32::from(scores[bits as usize]);
        }
    }
    total
}

/// [`block_score`] of every rank (0 for the first) and block, by its men's
/// bits: white's on the lower rank, white's on the upper, black's on the
/// lower, black's on the upper, two bits each.
const BLOCK_SCORES: [[u8; 256]; 7] = {
    let mut table = [[0; 256]; 7];
    let mut rank = 0;
    while rank < 7 {
        let mut bits: usize = 0;
        while bits < 256 {
            let white = (bits & 0xf).count_ones();
            let black = (bits >> 4).count_ones();
            table[rank][bits] = block_score(white, black, rank as u32 + 1) as u8;
            bits += 1;
        }
        rank += 1;
    }
    table
};

/// Lichess's score of one block holding `white` and `black` men, `y` the
/// rank (1 to 7) of its lower edge.
const fn block_score(white: u32, black: u32, y: u32) -> u32 {
    let y = y as i32;
    let score = match (white, black) {
        (0, 0) => 0,
        (1, 0) => 1 + (8 - y),
        (2, 0) if y > 2 => 2 + (y - 2),
        (3, 0) | (4, 0) if y > 1 => 3 + (y - 1),
        (0, 1) => 1 + y,
        (1, 1) => 5 + (3 - y).abs(),
        (2, 1) => 4 + y,
        (3, 1) => 5 + y,
        (0, 2) if y < 6 => 2 + (6 - y),
        (1, 2) => 4 + (6 - y),
        (2, 2) => 7,
        (0, 3) | (0, 4) if y < 7 => 3 + (7 - y),
        (1, 3) => 5 + (6 - y),
        _ => 0,
    };
    score as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::testing::puzzle_labels_of;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode};

    /// [`mixedness_of`] as Lichess computes it: every block's men counted.
    fn mixedness_block_by_block(white: Bitboard, black: Bitboard) -> u32 {
        let mut total = 0;
        for rank in 0..7 {
            for file in 0..7 {
                let block = Bitboard(0x303 << (8 * rank + file));
                total += block_score((block & white).count() as u32, (block & black).count() as u32, rank + 1);
            }
        }
        total
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, failure_persistence: None, ..Default::default() })]

        #[test]
        fn mixedness_by_table_is_block_by_block(white in proptest::prelude::any::<u64>(), black in proptest::prelude::any::<u64>()) {
            let (white, black) = (Bitboard(white & !black), Bitboard(black));
            proptest::prop_assert_eq!(mixedness_of(white, black), mixedness_block_by_block(white, black));
            let (sparse_white, sparse_black) = (Bitboard(white.0 & white.0.rotate_left(17) & white.0.rotate_left(29)), Bitboard(black.0 & black.0.rotate_left(13)));
            let sparse_white = sparse_white & !sparse_black;
            proptest::prop_assert_eq!(mixedness_of(sparse_white, sparse_black), mixedness_block_by_block(sparse_white, sparse_black));
        }
    }

    fn phase_of(fen: &str, moves: &str) -> Vec<Label> {
        puzzle_labels_of(&DETECTOR, fen, moves)
    }

    /// Each puzzle gets exactly one phase, Lichess's; each case is a negative
    /// for the two other phases.
    #[test]
    fn phases_on_real_puzzles() {
        let cases: &[(&str, &str, &str, Label)] = &[
            // Lichess 000rZ, 001kG, 002Tf: full armies, back ranks still manned.
            ("000rZ", "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13", "d4e6 d6h2", Label::Opening),
            (
                "001kG",
                "rnbq3r/1p2bkpp/p4n2/8/2pNP3/2N5/PPP3PP/R1BQ1RK1 b - - 1 11",
                "e7c5 d1h5 f7g8 h5c5",
                Label::Opening,
            ),
            (
                "002Tf",
                "r3kbnr/ppp1qppp/2n5/3pP3/5B2/4PQ2/PPP2PPP/RN2KB1R w KQkq - 1 7",
                "f1b5 e7b4 b1c3 b4b2",
                Label::Opening,
            ),
            // Lichess 00008 (White's back rank is bare), 0009B and 000aY.
            (
                "00008",
                "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24",
                "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1",
                Label::Middlegame,
            ),
            (
                "0009B",
                "r2qr1k1/b1p2ppp/pp4n1/P1P1p3/4P1n1/B2P2Pb/3NBP1P/RN1QR1K1 b - - 1 16",
                "b6c5 e2g4 h3g4 d1g4",
                Label::Middlegame,
            ),
            (
                "000aY",
                "r4rk1/pp3ppp/2n1b3/q1pp2B1/8/P1Q2NP1/1PP1PP1P/2KR3R w - - 0 15",
                "g5e7 a5c3 b2c3 c6e7",
                Label::Middlegame,
            ),
            // Lichess 0000D: six pieces exactly; 0008Q and 000Pw: fewer.
            ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", Label::Endgame),
            ("0008Q", "8/4R3/1p2P3/p4r2/P6p/1P3Pk1/4K3/8 w - - 1 64", "e7f7 f5e5 e2f1 e5e6", Label::Endgame),
            ("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3", Label::Endgame),
            // Lichess 03PeH: its mixedness is over the line from one side only;
            // the mean of both sides keeps it a middlegame, as Lichess says.
            (
                "03PeH",
                "r1b2rk1/2q2pbp/p1N2np1/2pP4/1p2P3/2N4P/PP2BPP1/R2QK2R w KQ - 2 16",
                "e4e5 b4c3 e5f6 g7f6 e1g1 c3b2",
                Label::Middlegame,
            ),
        ];
        for (id, fen, moves, want) in cases {
            assert_eq!(phase_of(fen, moves), vec![*want], "{id}");
        }
    }

    /// The phase does not depend on which colour is which.
    #[test]
    fn mirrored_boards_have_the_same_phase() {
        let fens = [
            // Lichess 00luA and 04ALm: Lichess's one-sided score differs
            // between the position and its mirror image.
            "r2q1rk1/1b3pp1/p3p3/3n2b1/1pnN1P2/3Q4/PPP1NB2/1K1R1B1R b - - 2 20",
            "r1b1k1nr/pppp1pp1/7p/2bNp3/4P1Q1/1P1P4/1PP2qPP/R1BK2NR b kq - 0 9",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ];
        for fen in fens {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let mirrored: Chess =
                pos.to_setup(EnPassantMode::Legal).into_mirrored().position(CastlingMode::Standard).unwrap();
            assert_eq!(phase(pos.board()), phase(mirrored.board()), "{fen}");
        }
        let start = Chess::default();
        assert_eq!(phase(start.board()), Label::Opening);
    }
}
