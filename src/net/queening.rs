//! Pawns that queen after the line: one that queens next move whatever the
//! opponent plays, and a queening race in a pawn ending.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, EnPassantMode, Position, Rank, Role};

use crate::board::{attackers, distance, escorted_pawn, legal_plain_move, mate_in_one, runaway_pawn};

/// Whether the side not to move queens a pawn on its next move whatever the
/// side to move plays, pieces on the board or not: a pawn of its on the
/// seventh rank, before an empty square that no man of theirs covers, where
/// after every legal answer (not a check) it may still step there, the queen
/// stands unattacked and they have no mate in one (Lichess 00Uo9: fxe7, and
/// nothing of Black's reaches e8). None where a pawn of theirs is a step or
/// two from queening, nor where they have no legal answer: stalemate.
pub(super) fn queens_next(pos: &Chess) -> bool {
    let (board, them) = (pos.board(), pos.turn());
    let us = !them;
    let ready = ready_to_queen(board, us);
    // A pawn of theirs a step or two from queening would queen after ours
    // (Lichess 02UTq: ...d2, b8=Q d1=Q): a race, not a queen won.
    let near = Bitboard::from_rank(them.fold_wb(Rank::Sixth, Rank::Third))
        | Bitboard::from_rank(them.fold_wb(Rank::Seventh, Rank::Second));
    if ready.is_empty() || (board.by_color(them) & board.pawns() & near).any() {
        return false;
    }
    let answers = pos.legal_moves();
    !answers.is_empty()
        && ready.into_iter().any(|pawn| {
            let Some(queening) = pawn.offset(us.fold_wb(8, -8)) else { return false };
            answers.iter().all(|&answer| {
                let mut after = pos.clone();
                after.play_unchecked(answer);
                // Legal after the answer: not taken, blocked, or pinned to
                // our king off the file.
                let Some(promotion) =
                    (!after.is_check()).then(|| legal_plain_move(&after, pawn, queening, Some(Role::Queen))).flatten()
                else {
                    return false;
                };
                after.play_unchecked(promotion);
                attackers(after.board(), queening, them, after.board().occupied()).is_empty()
                    && mate_in_one(&after, Bitboard::EMPTY).is_none()
            })
        })
}

/// Whether the solver, to move in the premise, queened a pawn anyway: one
/// ready to queen, or, in a pawn ending, one no king could catch. A pawn
/// that queens after the line then is no part of the tactic (convention
/// 1: a man we could take all along; Lichess 07379's a-pawn, 09Z76's
/// f-pawn, both outside the enemy king's square before the key move).
pub(super) fn queens_anyway(premise: &Chess, solver: Color) -> bool {
    let board = premise.board();
    ready_to_queen(board, solver).any()
        || (board.occupied() == board.kings() | board.pawns() && runaway_pawn(board, solver, premise.turn()).is_some())
}

/// The pawns of `us` on their seventh rank before an empty square that no
/// man of the other side attacks.
fn ready_to_queen(board: &Board, us: Color) -> Bitboard {
    let seventh = board.by_color(us) & board.pawns() & Bitboard::from_rank(us.fold_wb(Rank::Seventh, Rank::Second));
    seventh
        .into_iter()
        .filter(|&pawn| {
            pawn.offset(us.fold_wb(8, -8)).is_some_and(|queening| {
                !board.occupied().contains(queening)
                    && attackers(board, queening, !us, board.occupied().without(pawn)).is_empty()
            })
        })
        .collect()
}

/// The side that queens a pawn no king can catch ([`runaway_pawn`]), where
/// the line ends in a pawn ending and the race stood otherwise in the
/// premise (Lichess 02D9k: ...gxh5, and White's king on a4 is far outside
/// the h-pawn's square). Where both sides' pawns run, the first to queen
/// wins the race only where its new queen guards the other's queening
/// square and the other's king does not (0CFUA: ...a1=Q covers h8); else
/// the two queens cancel. None where the loser has a pawn its king escorts
/// ([`escorted_pawn`]), or one may be taken en passant.
pub(super) fn queening_race(pos: &Chess, premise: &Chess) -> Option<Color> {
    fn race(pos: &Chess) -> Option<Color> {
        let (board, turn) = (pos.board(), pos.turn());
        if board.occupied() != board.kings() | board.pawns() || pos.ep_square(EnPassantMode::Legal).is_some() {
            return None;
        }
        let winner = match (runaway_pawn(board, Color::White, turn), runaway_pawn(board, Color::Black, turn)) {
            (None, None) => return None,
            (Some(_), None) => Color::White,
            (None, Some(_)) => Color::Black,
            (Some(white), Some(black)) => {
                let (first, (pawn, queening, _), (other_pawn, other_queening, _)) =
                    if white.2 < black.2 { (Color::White, white, black) } else { (Color::Black, black, white) };
                let occupied = board.occupied().without(pawn).without(other_pawn);
                let guarded = board.king_of(!first).is_some_and(|king| distance(king, other_queening) <= 1);
                if guarded || !attacks::queen_attacks(queening, occupied).contains(other_queening) {
                    return None;
                }
                first
            }
        };
        (!escorted_pawn(board, !winner)).then_some(winner)
    }
    let winner = race(pos)?;
    (race(premise) != Some(winner)).then_some(winner)
}
