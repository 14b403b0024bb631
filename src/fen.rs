//! FENs of the usual kind read straight into a [`Setup`], a table lookup a
//! byte, exactly as shakmaty's [`Fen`](shakmaty::fen::Fen) parser reads them.
//!
//! The usual kind: six fields between single spaces; castling rights `-` or
//! letters of `KQkq`; an en passant square or `-`; counters of one to nine
//! digits. Anything else (and every malformed FEN) is `None`, left to
//! shakmaty's parser, which also explains what is wrong.

use std::num::NonZeroU32;

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, File, Setup, Square};

/// What a byte of a board FEN means: a run of empty squares (`1..=8`), the
/// end of a rank, a piece (`PIECE | color << 3 | role index`), or nothing
/// shakmaty's parser reads here ([`NOT_HERE`]).
const BOARD_BYTES: [u8; 256] = board_bytes();
const RANK_END: u8 = 9;
/// Read as a run longer than a rank, so the rank it is in never ends at the
/// eighth file and the board is refused where the rank ends: a byte that
/// means nothing costs no test of its own.
const NOT_HERE: u8 = 15;
const PIECE: u8 = 0x10;

const fn board_bytes() -> [u8; 256] {
    let mut table = [NOT_HERE; 256];
    let mut run = 1;
    while run <= 8 {
        table[(b'0' + run) as usize] = run;
        run += 1;
    }
    table[b'/' as usize] = RANK_END;
    // Role indices in [`ByRole`] order: pawn, knight, bishop, rook, queen, king.
    let letters = *b"pnbrqk";
    let mut role = 0;
    while role < letters.len() {
        let black = letters[role];
        table[black.to_ascii_uppercase() as usize] = PIECE | role as u8;
        table[black as usize] = PIECE | (1 << 3) | role as u8;
        role += 1;
    }
    table
}

/// The setup a FEN of the usual kind describes, as shakmaty's parser reads
/// it; `None` for any other FEN.
pub fn usual_setup(fen: &[u8]) -> Option<Setup> {
    let board_end = memchr::memchr(b' ', fen)?;
    let board = board(&fen[..board_end])?;
    let mut fields = fen[board_end + 1..].split(|&b| b == b' ');
    let [turn, castling, en_passant, halfmoves, fullmoves] = std::array::from_fn(|_| fields.next());
    if fields.next().is_some() {
        return None;
    }
    let mut setup = Setup::empty();
    setup.turn = match turn? {
        b"w" => Color::White,
        b"b" => Color::Black,
        _ => return None,
    };
    setup.castling_rights = match castling? {
        b"-" => Bitboard::EMPTY,
        letters => castling_rights(&board, letters)?,
    };
    setup.ep_square = match en_passant? {
        b"-" => None,
        square => Some(Square::from_ascii(square).ok()?),
    };
    setup.halfmoves = counter(halfmoves?)?;
    setup.fullmoves = NonZeroU32::new(counter(fullmoves?)?).unwrap_or(NonZeroU32::MIN);
    setup.board = board;
    Some(setup)
}

/// The board of a FEN's first field. Squares are counted from a8, file by
/// file and rank down, each set once (so the bitboards are consistent by
/// construction); a rank that runs past its eighth file is refused where
/// it ends, so no byte within it needs a test of its own.
fn board(fen: &[u8]) -> Option<Board> {
    // By `color << 3 | role index`.
    let mut pieces = [0u64; 16];
    let mut square = 56usize;
    // The square past the current rank's last.
    let mut rank_end = 64usize;
    for &byte in fen {
        let meaning = BOARD_BYTES[usize::from(byte)];
        if meaning >= PIECE {
            // Past the rank's end the bit is wrong, and the board refused.
            pieces[usize::from(meaning & 15)] |= 1u64.wrapping_shl(square as u32);
            square += 1;
        } else if meaning != RANK_END {
            square += usize::from(meaning);
        } else {
            if square != rank_end || rank_end == 8 {
                return None;
            }
            rank_end -= 8;
            square = rank_end - 8;
        }
    }
    if (square, rank_end) != (8, 8) {
        return None;
    }
    let [pawn, knight, bishop, rook, queen, king] =
        std::array::from_fn(|role| Bitboard(pieces[role] | pieces[8 + role]));
    let white = Bitboard(pieces[..8].iter().fold(0, |all, b| all | b));
    let black = Bitboard(pieces[8..].iter().fold(0, |all, b| all | b));
    let by_role = ByRole { pawn, knight, bishop, rook, queen, king };
    Board::try_from_bitboards(by_role, ByColor { white, black }).ok()
}

/// Castling rights of `KQkq` letters, each the rook shakmaty's parser
/// takes for it: the outermost rook on that side of the back rank if no
/// king stands beyond it, else the corner.
fn castling_rights(board: &Board, letters: &[u8]) -> Option<Bitboard> {
    // An empty field is two spaces, which shakmaty's parser reads as one.
    if letters.is_empty() {
        return None;
    }
    let mut rights = Bitboard::EMPTY;
    for &letter in letters {
        let color = Color::from_white(letter.is_ascii_uppercase());
        let backrank = color.backrank();
        let rooks_and_kings = board.by_color(color) & (board.rooks() | board.kings()) & backrank;
        let (outermost, corner) = match letter.to_ascii_lowercase() {
            b'k' => (rooks_and_kings.last(), File::H),
            b'q' => (rooks_and_kings.first(), File::A),
            _ => return None,
        };
        let rook = outermost.filter(|&sq| board.rooks().contains(sq));
        rights.add(rook.unwrap_or(Square::from_coords(corner, backrank)));
    }
    Some(rights)
}

/// A move counter of one to nine digits (no overflow to saturate).
fn counter(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    let mut n = 0;
    for &digit in digits {
        let value = digit.wrapping_sub(b'0');
        if value > 9 {
            return None;
        }
        n = n * 10 + u32::from(value);
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, EnPassantMode, Position};

    /// shakmaty's reading of a FEN.
    fn shakmaty(fen: &str) -> Option<Setup> {
        fen.parse::<Fen>().ok().map(Fen::into_setup)
    }

    /// Whether a FEN is of the usual kind by its fields' shapes.
    fn usual(fen: &str) -> bool {
        let fields: Vec<&str> = fen.split(' ').collect();
        let counter = |f: &str| (1..=9).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit());
        fields.len() == 6
            && fields[0].bytes().all(|b| b"12345678/pnbrqkPNBRQK".contains(&b))
            && (fields[2] == "-" || fields[2].bytes().all(|b| b"KQkq".contains(&b)))
            && (fields[3] == "-" || fields[3].len() == 2)
            && counter(fields[4])
            && counter(fields[5])
    }

    /// `fen` reads as shakmaty reads it, or is left to shakmaty; a FEN of
    /// the usual kind that shakmaty reads is read here too.
    fn reads_as_shakmaty(fen: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let theirs = shakmaty(fen);
        let ours = usual_setup(fen.as_bytes());
        if ours.is_some() {
            proptest::prop_assert_eq!(&ours, &theirs, "{}", fen);
        }
        if theirs.is_some() && usual(fen) {
            proptest::prop_assert!(ours.is_some(), "{} read only by shakmaty", fen);
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, failure_persistence: None, ..Default::default() })]
        /// FENs of positions from random games (castling rights, en passant
        /// squares and counters of every kind), and each mutated: a byte
        /// replaced, dropped or doubled, fields swapped, castling letters
        /// that name no rook.
        #[test]
        fn fens_read_as_shakmaty_reads_them(
            start in 0usize..2,
            picks in proptest::collection::vec(0usize..1000, 0..60),
            halfmoves in 0u32..200,
            fullmoves in 0u32..2000,
            at in 0usize..100,
            byte in proptest::sample::select(&b"12345678/pnbrqkPNBRQK0 9-_~[]wbKQkqa-h+ \t"[..]),
            castling in "[KQkqA-Ha-h-]{1,5}",
            noise in "[ -~]{0,70}",
        ) {
            reads_as_shakmaty(&noise)?;
            for pos in crate::board::random_game(start, &picks) {
                let mut setup = pos.to_setup(EnPassantMode::Always);
                (setup.halfmoves, setup.fullmoves) = (halfmoves, NonZeroU32::new(fullmoves.max(1)).unwrap());
                let fen = Fen::try_from_setup(setup).unwrap().to_string();
                let fen = fen.replace(&format!(" {}", fullmoves.max(1)), &format!(" {fullmoves}"));
                reads_as_shakmaty(&fen)?;
                let at = at % fen.len();
                let (head, tail) = fen.split_at(at);
                let replaced = format!("{head}{}{}", char::from(byte), &tail[1..]);
                reads_as_shakmaty(&replaced)?;
                reads_as_shakmaty(&format!("{head}{}", &tail[1..]))?;
                reads_as_shakmaty(&format!("{head}{}{tail}", &tail[..1]))?;
                let mut fields: Vec<&str> = fen.split(' ').collect();
                fields[2] = &castling;
                reads_as_shakmaty(&fields.join(" "))?;
                fields.swap(at % 6, (at / 6) % 6);
                reads_as_shakmaty(&fields.join(" "))?;
            }
        }
    }

    #[test]
    fn usual_fens_are_read_here() {
        for fen in [
            "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/1P4P1/2n1b3/3pP3/8/2B2q2/1p4p1/R3K2R w KQkq d6 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w KQkqqk - 7 123456789",
            "8/8/8/8/8/8/8/8 w Kq e3 0 0",
        ] {
            assert_eq!(usual_setup(fen.as_bytes()), shakmaty(fen), "{fen}");
            assert!(usual_setup(fen.as_bytes()).is_some(), "{fen}");
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1234567890",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b  - 10 1000",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        ] {
            assert_eq!(usual_setup(fen.as_bytes()), None, "{fen}");
        }
    }
}
