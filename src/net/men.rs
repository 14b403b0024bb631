//! Which men hang, and which a side wins by taking: bitboard tests of a
//! position, no search.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position, Square};

use crate::board::{
    attacked_by, attacked_by_at, attackers, least_valuable, piece_attacks, pins_off_the_line, see, value,
    xray_defenders,
};

/// The pieces of the side in check in `pos` that a checker hits and only
/// their king guards: the king that steps away gives them up (Lichess
/// 0CIBR: ...Qxg2+ hits the f1 rook, and after Kd1 or Rf2 it falls).
pub(super) fn guarded_by_the_king_alone(pos: &Chess) -> Bitboard {
    let (board, side) = (pos.board(), pos.turn());
    let Some(king) = board.king_of(side) else { return Bitboard::EMPTY };
    let pieces = board.by_color(side) & !board.pawns() & !board.kings() & attacks::king_attacks(king);
    let hit = pos.checkers().into_iter().fold(Bitboard::EMPTY, |hit, checker| {
        hit | board.piece_at(checker).map_or(Bitboard::EMPTY, |piece| piece_attacks(checker, piece, board.occupied()))
    }) & pieces;
    hit.into_iter()
        .filter(|&man| {
            attackers(board, man, side, board.occupied()) == Bitboard::from_square(king)
                && xray_defenders(board, man, side).is_empty()
        })
        .collect()
}

/// The men `attacker` could win on `board` that it could not win in
/// `start`: en prise now, not so then.
pub(super) fn newly_hanging(board: &Board, attacker: Color, start: &Board) -> Bitboard {
    let now = won_by_taking(board, attacker, board.by_color(!attacker));
    if now.is_empty() {
        return now;
    }
    now & !won_by_taking(start, attacker, now)
}

/// Those of `men` that `attacker` wins by taking them on `board`: the
/// [`hanging`] ones, and those a lesser man of its attacks (Lichess 03Lyw:
/// the rook on b3 a pawn takes, however well guarded), unless that man is
/// pinned to its king, or to a greater man behind it, on a line the
/// capture leaves (042kS: the e7 bishop pinned to its king does not win
/// the f6 queen). This is what `gain`'s docs call en prise. The labels'
/// [`crate::board::en_prise`] is a static exchange that pays, which also
/// counts a man hit more often than it is guarded: tried here, it moved
/// gains both ways (docs/gain-judging.md).
pub(super) fn won_by_taking(board: &Board, attacker: Color, men: Bitboard) -> Bitboard {
    if men.is_empty() {
        return men;
    }
    won_by_taking_seen(board, attacker, men, attacked_by_at(board, attacker, men))
}

/// [`won_by_taking`], with the squares `attacker` attacks on `board` (of
/// `men` at least) given.
pub(super) fn won_by_taking_seen(board: &Board, attacker: Color, men: Bitboard, attacks: Bitboard) -> Bitboard {
    let attacked = men & board.by_color(!attacker) & attacks;
    let mut won = hanging_among(board, attacker, attacked);
    let occupied = board.occupied();
    for sq in attacked & !won & !board.pawns() {
        let Some(man) = board.role_at(sq) else { continue };
        let lesser = |by: Bitboard| least_valuable(board, by).is_some_and(|(_, cheapest)| value(cheapest) < value(man));
        let by = attackers(board, sq, attacker, occupied);
        if lesser(by)
            && lesser(by.into_iter().filter(|&taker| pins_off_the_line(board, taker, sq).next().is_none()).collect())
        {
            won.add(sq);
        }
    }
    won
}

/// Those of `men` that `attacker` wins by the exchange on their square,
/// not so in `start` (Lichess 08GrF: after Qxf6+ ...Kg8 the rook and
/// queen hit the d6 bishop, which only the c7 queen guards): the men
/// [`won_by_taking`] leaves out, guarded, hit by no lesser man, for a
/// search to start on. A static exchange, pins unasked: the search that
/// starts on them plays only legal captures.
pub(super) fn newly_won_by_exchange(board: &Board, attacker: Color, men: Bitboard, start: &Board) -> Bitboard {
    // Whether the exchange on the man pays, asked only where it is hit
    // `twice` (a guarded man hit once by a man worth as much or more is not
    // won): in `start`, any man it pays on, hanging ones too.
    let won = |board: &Board, sq: Square, twice: bool| {
        let by = attackers(board, sq, attacker, board.occupied());
        (by.more_than_one() || (!twice && by.any()))
            && least_valuable(board, by)
                .is_some_and(|(from, _)| see(board, from, sq, board.role_at(sq).map_or(0, value)) > 0)
    };
    let now: Bitboard = men.into_iter().filter(|&sq| won(board, sq, true)).collect();
    if now.is_empty() {
        return now;
    }
    now & !now
        .into_iter()
        .filter(|&sq| start.by_color(!attacker).contains(sq) && won(start, sq, false))
        .collect::<Bitboard>()
}

/// Whether `side` gives check on `board`.
pub(super) fn checks_on(board: &Board, side: Color) -> bool {
    board.king_of(!side).is_some_and(|king| attackers(board, king, side, board.occupied()).any())
}

/// Those of `men` that stand on `board` as men of `attacker`'s opponent,
/// attacked by `attacker` and undefended: the attack maps first, then an
/// x-ray defender asked only of the men they leave. A king guards only
/// where it may take back: not a man whose capture leaves its square
/// attacked still (Lichess 0CKgM: fxg4 opens the f-file, and the king no
/// longer guards f7 against Bxf7+).
pub(super) fn hanging(board: &shakmaty::Board, attacker: shakmaty::Color, men: Bitboard) -> Bitboard {
    hanging_among(board, attacker, men & board.by_color(!attacker) & attacked_by(board, attacker))
}

/// [`hanging`] of `open`, men of `attacker`'s opponent it attacks.
fn hanging_among(board: &Board, attacker: Color, open: Bitboard) -> Bitboard {
    if open.is_empty() {
        return open;
    }
    let defended = attacked_by_at(board, !attacker, open);
    let mut hanging = Bitboard::EMPTY;
    for sq in open & !defended {
        if xray_defenders(board, sq, !attacker).is_empty() {
            hanging.add(sq);
        }
    }
    let Some(king) = board.king_of(!attacker) else { return hanging };
    let occupied = board.occupied();
    for sq in open & defended & attacks::king_attacks(king) {
        let by = attackers(board, sq, attacker, occupied);
        let king_retakes = by
            .into_iter()
            .all(|first| (attackers(board, sq, attacker, occupied.without(first)).without(first)).is_empty());
        if !king_retakes
            && attackers(board, sq, !attacker, occupied) == Bitboard::from_square(king)
            && xray_defenders(board, sq, !attacker).is_empty()
        {
            hanging.add(sq);
        }
    }
    hanging
}

/// Whether taking the man on `victim` (attacked by `side` on `after`)
/// answers the capture that turned `before` into `after`, landing on `to`:
/// it is the man that took, or a man that capture unmasked to `side` or
/// left undefended. A capture of `side`'s own, there before it (Lichess
/// 01Dmj: ...Bxf3, a trade it had anyway; 0BxG7: ...Qxd7, a man en prise
/// since the setup move), does not answer: the line is over, and it would
/// cancel what the opponent still wins.
pub(super) fn answers(before: &Board, after: &Board, side: Color, to: Square, victim: Square) -> bool {
    let guarded = |board: &Board| {
        attackers(board, victim, !side, board.occupied()).any() || xray_defenders(board, victim, !side).any()
    };
    victim == to
        || attackers(before, victim, side, before.occupied()).is_empty()
        || (!guarded(after) && guarded(before))
}
