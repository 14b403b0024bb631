//! The board facts Lichess's tagger reads (`tagger/util.py`), with its exact
//! meanings, which are looser than Koga's own ([`crate::board`]): a piece is
//! "defended" when any friendly man attacks its square, or would once one
//! enemy slider attacking it is lifted off the board, whichever line that
//! slider stands on; the king counts as a defender; pins are ignored.
//!
//! Squares follow python-chess: a move goes to [`to_square`], which for
//! castling is the king's destination.

use shakmaty::{attacks, Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use crate::board::attacks_from;

/// Lichess's piece values (`util.values`: P 1, N 3, B 3, R 5, Q 9) are
/// Koga's; its king counts 99 (`util.king_values`) where Koga's counts 1000,
/// and the tagger only ever compares it, so the order is all that matters.
pub use crate::board::value;

/// python-chess's piece-type number (pawn 1 … king 6). One of the tagger's
/// rules compares a piece value with it (see `deflection`).
pub const fn type_number(role: Role) -> i32 {
    role as i32
}

/// Whether `role` is one of the tagger's "ray pieces": queen, rook, bishop.
pub fn is_ray(role: Role) -> bool {
    matches!(role, Role::Queen | Role::Rook | Role::Bishop)
}

/// Where a move lands as python-chess says it: castling lands on the king's
/// destination square, every other move on its `to` square.
pub fn to_square(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = if rook < king { CastlingSide::QueenSide } else { CastlingSide::KingSide };
            side.king_to(if king.rank() == shakmaty::Rank::First { Color::White } else { Color::Black })
        }
        other => other.to(),
    }
}

/// The square a move leaves (the king's, for castling).
pub fn from_square(m: Move) -> Square {
    m.from().expect("a standard chess move has a from-square")
}

/// Pieces of `color` attacking `sq` (python-chess `attackers`).
pub fn attackers(board: &Board, color: Color, sq: Square) -> Bitboard {
    board.attacks_to(sq, color, board.occupied())
}

/// `util.is_defended`: a friendly man attacks the square, or would once an
/// enemy queen, rook or bishop attacking it is removed.
pub fn is_defended(board: &Board, color: Color, sq: Square) -> bool {
    let occupied = board.occupied();
    let (straight, diagonal) = (attacks::rook_attacks(sq, occupied), attacks::bishop_attacks(sq, occupied));
    let (ours, theirs) = (board.by_color(color), board.by_color(!color));
    let (rooks, bishops) = (board.rooks_and_queens(), board.bishops_and_queens());
    let sliders = straight & rooks | diagonal & bishops;
    let steppers = attacks::knight_attacks(sq) & board.knights()
        | attacks::king_attacks(sq) & board.kings()
        | attacks::pawn_attacks(!color, sq) & board.pawns();
    if ((sliders | steppers) & ours).any() {
        return true;
    }
    // Lifting an enemy slider off the board opens only its own line: only a
    // slider of ours behind it on that line can then defend.
    (sliders & theirs).into_iter().any(|lifted| {
        let occupied = occupied.without(lifted);
        if straight.contains(lifted) {
            (attacks::rook_attacks(sq, occupied) & rooks & ours).any()
        } else {
            (attacks::bishop_attacks(sq, occupied) & bishops & ours).any()
        }
    })
}

/// `util.is_hanging`: the piece of `color` on `sq` is not defended.
pub fn is_hanging(board: &Board, color: Color, sq: Square) -> bool {
    !is_defended(board, color, sq)
}

/// The men on `board`, the kings left out, worth less than a `role`.
pub fn worth_less_than(board: &Board, role: Role) -> Bitboard {
    match role {
        Role::Pawn => Bitboard::EMPTY,
        Role::Knight | Role::Bishop => board.pawns(),
        Role::Rook => board.pawns() | board.knights() | board.bishops(),
        Role::Queen => board.occupied() & !board.queens() & !board.kings(),
        Role::King => board.occupied() & !board.kings(),
    }
}

/// The men on `board` worth more than a `role` (a king more than anything
/// else).
pub fn worth_more_than(board: &Board, role: Role) -> Bitboard {
    match role {
        Role::Pawn => board.occupied() & !board.pawns(),
        Role::Knight | Role::Bishop => board.rooks() | board.queens() | board.kings(),
        Role::Rook => board.queens() | board.kings(),
        Role::Queen => board.kings(),
        Role::King => Bitboard::EMPTY,
    }
}

/// `util.is_in_bad_spot`: the piece on `sq` is attacked, and hanging or
/// attacked by a man other than the king worth less than it
/// (`util.can_be_taken_by_lower_piece`).
pub fn is_in_bad_spot(board: &Board, sq: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else { return false };
    let takers = attackers(board, !piece.color, sq);
    takers.any() && ((takers & worth_less_than(board, piece.role)).any() || is_hanging(board, piece.color, sq))
}

/// `util.is_trapped`, for the side to move (`in_check` says whether it is
/// in check): the piece on `sq` is neither a pawn nor the king, stands
/// badly, is not pinned, its side is not in check, and each of its legal
/// moves lands badly, capturing nothing worth as much as itself.
pub fn is_trapped(pos: &Chess, in_check: bool, sq: Square) -> bool {
    let board = pos.board();
    let Some(piece) = board.piece_at(sq) else { return false };
    if in_check || matches!(piece.role, Role::Pawn | Role::King) || !is_in_bad_spot(board, sq) {
        return false;
    }
    if pin_mask(board, pos.turn(), sq).is_some() {
        return false;
    }
    // Its legal moves: none for a man of the side not to move.
    for to in crate::board::flight_squares(pos, sq) {
        if board.role_at(to).is_some_and(|captured| value(captured) >= value(piece.role)) {
            return false;
        }
        // The board once it steps there: a knight, bishop, rook or queen
        // moving changes no other square.
        let mut after = board.clone();
        after.discard_piece_at(sq);
        after.set_piece_at(to, piece);
        if !is_in_bad_spot(&after, to) {
            return false;
        }
    }
    true
}

/// python-chess `pin`: the line through the king of `color` and the enemy
/// slider that pins the man on `sq` to it, or `None` when no such pin holds.
pub fn pin_mask(board: &Board, color: Color, sq: Square) -> Option<Bitboard> {
    let king = board.king_of(color)?;
    if king == sq {
        return None;
    }
    let (straight, diagonal) = (
        attacks::rook_attacks(king, Bitboard::EMPTY).contains(sq),
        attacks::bishop_attacks(king, Bitboard::EMPTY).contains(sq),
    );
    let sliders = if straight {
        board.rooks_and_queens()
    } else if diagonal {
        board.bishops_and_queens()
    } else {
        return None;
    };
    let line = attacks::ray(king, sq);
    let occupied = board.occupied().with(sq);
    (line & sliders & board.by_color(!color))
        .into_iter()
        .find(|&sniper| attacks::between(sniper, king) & occupied == Bitboard::from_square(sq))
        .map(|sniper| attacks::ray(king, sniper))
}

/// Every man of `color` pinned to its king, with the pin's line: the
/// squares [`pin_mask`] gives each, found from the snipers' side at once.
pub fn pins(board: &Board, color: Color) -> impl Iterator<Item = (Square, Bitboard)> + '_ {
    let occupied = board.occupied();
    // One flat iterator over the snipers (none without a king): a
    // `flat_map` over the king costs more than the pins it finds.
    let king = board.king_of(color);
    let snipers = king.map_or(Bitboard::EMPTY, |king| {
        (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
    });
    (snipers & board.by_color(!color)).into_iter().filter_map(move |sniper| {
        let king = king?;
        let between = attacks::between(sniper, king) & occupied;
        let pinned = between.single_square().filter(|&sq| board.color_at(sq) == Some(color))?;
        Some((pinned, attacks::ray(king, sniper)))
    })
}

/// Whether the man on `sq`, of the side to move, has a pseudo-legal move
/// (pins ignored) to a square outside `mask`.
pub fn has_pseudo_legal_move_outside(pos: &Chess, sq: Square, mask: Bitboard) -> bool {
    let board = pos.board();
    let Some(piece) = board.piece_at(sq) else { return false };
    let own = board.by_color(piece.color);
    let targets = if piece.role == Role::Pawn {
        let forward = if piece.color == Color::White { 8 } else { -8 };
        let mut pushes = Bitboard::EMPTY;
        if let Some(one) = sq.offset(forward).filter(|&s| !board.occupied().contains(s)) {
            pushes.add(one);
            let home = if piece.color == Color::White { shakmaty::Rank::Second } else { shakmaty::Rank::Seventh };
            if sq.rank() == home {
                if let Some(two) = one.offset(forward).filter(|&s| !board.occupied().contains(s)) {
                    pushes.add(two);
                }
            }
        }
        let mut enemies = board.by_color(!piece.color);
        if let Some(ep) = pos.ep_square(EnPassantMode::Always) {
            enemies.add(ep);
        }
        pushes | (attacks::pawn_attacks(piece.color, sq) & enemies)
    } else {
        attacks_from(board, sq) & !own
    };
    (targets & !mask).any()
}

/// `util.attacked_opponent_squares`: the squares attacked from `from` that
/// hold a man of the other side than `color`, the king included.
pub fn attacked_opponent_squares(board: &Board, from: Square, color: Color) -> Bitboard {
    attacks_from(board, from) & board.by_color(!color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::position as pos;
    use shakmaty::uci::UciMove;

    #[test]
    fn castling_lands_on_the_kings_square() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (uci, to) in [("e1g1", Square::G1), ("e1c1", Square::C1)] {
            let m = uci.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            assert!(m.is_castle());
            assert_eq!((from_square(m), to_square(m)), (Square::E1, to));
        }
    }

    #[test]
    fn a_man_behind_an_enemy_slider_defends() {
        // The d4 knight: attacked by the d6 rook, defended through it by
        // the d8 rook; the h4 knight is attacked by the h6 rook alone.
        let p = pos("3R4/7k/3r3r/8/3N3N/8/8/K7 w - - 0 1");
        assert!(is_defended(p.board(), Color::White, Square::D4));
        assert!(is_hanging(p.board(), Color::White, Square::H4));
        assert!(is_in_bad_spot(p.board(), Square::H4) && !is_in_bad_spot(p.board(), Square::D4));
    }

    /// `util.is_defended` as the tagger writes it: every attacker asked,
    /// each enemy ray piece lifted off the board in turn.
    fn is_defended_slowly(board: &Board, color: Color, sq: Square) -> bool {
        if attackers(board, color, sq).any() {
            return true;
        }
        attackers(board, !color, sq).into_iter().any(|attacker| {
            let occupied = board.occupied().without(attacker);
            board.role_at(attacker).is_some_and(is_ray) && (board.attacks_to(sq, color, occupied) & occupied).any()
        })
    }

    /// `util.is_in_bad_spot` as the tagger writes it.
    fn is_in_bad_spot_slowly(board: &Board, sq: Square) -> bool {
        let Some(piece) = board.piece_at(sq) else { return false };
        let takers = attackers(board, !piece.color, sq);
        let lower = takers.into_iter().any(|a| {
            let role = board.role_at(a).unwrap();
            role != Role::King && value(role) < value(piece.role)
        });
        takers.any() && (!is_defended_slowly(board, piece.color, sq) || lower)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// On positions from random games, defended squares and men in bad
        /// spots are the tagger's, for every square and either side.
        #[test]
        fn defence_agrees_with_the_taggers_way(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in crate::board::random_game(start, &picks) {
                let board = pos.board();
                for sq in Square::ALL {
                    for color in [Color::White, Color::Black] {
                        proptest::prop_assert_eq!(is_defended(board, color, sq), is_defended_slowly(board, color, sq));
                    }
                    proptest::prop_assert_eq!(is_in_bad_spot(board, sq), is_in_bad_spot_slowly(board, sq));
                }
            }
        }

        /// A trapped man is the tagger's: each legal move played out.
        #[test]
        fn trapped_men_are_the_taggers(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in crate::board::random_game(start, &picks) {
                for sq in pos.board().occupied() {
                    let piece = pos.board().piece_at(sq).unwrap();
                    let slowly = !pos.is_check()
                        && pin_mask(pos.board(), pos.turn(), sq).is_none()
                        && !matches!(piece.role, Role::Pawn | Role::King)
                        && is_in_bad_spot_slowly(pos.board(), sq)
                        && pos.legal_moves().iter().filter(|m| m.from() == Some(sq)).all(|m| {
                            let mut after = pos.clone();
                            after.play_unchecked(*m);
                            m.capture().is_none_or(|c| value(c) < value(piece.role))
                                && is_in_bad_spot_slowly(after.board(), to_square(*m))
                        });
                    proptest::prop_assert_eq!(is_trapped(&pos, pos.is_check(), sq), slowly, "{}", sq);
                }
            }
        }
    }

    #[test]
    fn pins_are_to_the_king_only() {
        // The e5 knight is pinned on the e-file; the c3 knight stands in
        // front of a queen, not a king; d4 has two men before the king.
        let p = pos("4k3/8/8/4n3/3p4/2n5/8/Q3R1K1 b - - 0 1");
        assert_eq!(pin_mask(p.board(), Color::Black, Square::E5), Some(Bitboard::from_file(shakmaty::File::E)));
        assert_eq!(pin_mask(p.board(), Color::Black, Square::C3), None);
        assert_eq!(pin_mask(p.board(), Color::Black, Square::D4), None);
        let found: Vec<(Square, Bitboard)> = pins(p.board(), Color::Black).collect();
        assert_eq!(found, [(Square::E5, Bitboard::from_file(shakmaty::File::E))]);
        // Pinned, the knight still has pseudo-legal moves off the file.
        assert!(has_pseudo_legal_move_outside(&p, Square::E5, Bitboard::from_file(shakmaty::File::E)));
    }
}
