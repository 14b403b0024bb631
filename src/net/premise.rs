//! The puzzle's premise: our men that the setup move put en prise, which
//! are the puzzle's business.

use std::cell::{Cell, OnceCell};

use shakmaty::{Bitboard, Board, Position};

use crate::board::{attackers, least_valuable, see, value};

use crate::line::Line;

use super::men::won_by_taking;

/// The men [`first_targets`](super::search::first_targets) takes as the
/// puzzle's business though they stood en prise before the key move:
/// [`setup_hits`], found where first
/// asked (most lines end with no such man en prise), or given; and those
/// the line saved a while and gave up again ([`SetupHits::relapsed`]).
pub(super) struct SetupHits<'a> {
    line: Option<&'a Line>,
    found: OnceCell<Bitboard>,
    /// The squares [`SetupHits::relapsed`] was asked of, and those it found.
    saved_a_while: Cell<(Bitboard, Bitboard)>,
}

impl<'a> SetupHits<'a> {
    pub(super) fn of(line: &'a Line) -> SetupHits<'a> {
        SetupHits { line: Some(line), found: OnceCell::new(), saved_a_while: Cell::default() }
    }

    pub(super) fn given(men: Bitboard) -> SetupHits<'a> {
        SetupHits { line: None, found: OnceCell::from(men), saved_a_while: Cell::default() }
    }

    pub(super) fn get(&self) -> Bitboard {
        *self.found.get_or_init(|| self.line.map_or(Bitboard::EMPTY, setup_hits))
    }

    /// Those of `men`, our men en prise before the key move, that a move of
    /// ours in the line saved a while: en prise before that move, and after
    /// it, the opponent not in check, standing on its square with no capture
    /// of it that pays (a static exchange, x-rays read, pins not: a taker
    /// pinned for a move saves nothing). The line gave them up again, so
    /// they are no premise (Lichess 03fk0: Qh5 guards the h7 bishop the h8
    /// king hits, Qxg5 leaves it, and ...Kxh7 takes it: 6, not 9). A man is
    /// matched by its kind on its square, as the premise matches men. Read
    /// over the whole line (the moves before its last), so asked only
    /// against the key move's premise (the same board): a desperado's cut
    /// mid-line has another. Each square is asked once a line.
    pub(super) fn relapsed(&self, now: &Board, premise: &Board, men: Bitboard) -> Bitboard {
        let Some(line) = self.line else { return Bitboard::EMPTY };
        let start = line.key().before().board();
        let men = men & start.by_color(line.solver());
        if men.is_empty() || *premise != *start {
            return Bitboard::EMPTY;
        }
        let (mut asked, mut found) = self.saved_a_while.get();
        for man in men & !asked {
            let Some(piece) = start.piece_at(man) else { continue };
            // Whether a capture of the man pays on `board`.
            let en_prise = |board: &Board| {
                let by = attackers(board, man, !piece.color, board.occupied());
                least_valuable(board, by).is_some_and(|(taker, _)| see(board, taker, man, value(piece.role)) > 0)
            };
            let ours = std::iter::once(line.key()).chain(line.key().later()).step_by(2);
            let saved = ours.take_while(|at| at.reply().is_some()).any(|at| {
                let (before, after) = (at.before().board(), at.after().board());
                after.piece_at(man) == Some(piece)
                    && !at.gives_check()
                    && !en_prise(after)
                    && before.piece_at(man) == Some(piece)
                    && en_prise(before)
            });
            if saved {
                found.add(man);
            }
        }
        asked |= men;
        self.saved_a_while.set((asked, found));
        (found & men).into_iter().filter(|&man| now.piece_at(man) == start.piece_at(man)).collect()
    }
}

/// Our men the setup move puts en prise (the king aside): the puzzle's
/// business, where they stand as the line ends, as no man en prise before
/// it is. Its piece hits them (Lichess 06etG: h6 hits the g7 bishop,
/// ...Qh5+ Qh3 ...Qxg6 wins the rook, and hxg7 Kxg7 follows: 3, not 5), it
/// opens a line or a battery onto them (03Q8z: ...e5 opens the d7 bishop on
/// h3; 054n8: Qc2 backs the d3 bishop on h7), or it takes or blocks their
/// guard (046Sy: ...Bxe4 takes the rook that guards e5; 0Ak4D: ...g6 shuts
/// the b1 queen off h7).
pub(super) fn setup_hits(line: &Line) -> Bitboard {
    let Some(setup) = line.key().previous() else { return Bitboard::EMPTY };
    let (before, after) = (setup.before().board(), setup.after().board());
    let us = line.solver();
    let now = won_by_taking(after, !us, after.by_color(us) & !after.kings());
    if now.is_empty() {
        return now;
    }
    now & !won_by_taking(before, !us, now)
}
