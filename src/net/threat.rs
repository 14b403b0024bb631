//! A threat the line never carries out: what the best escape of its men
//! leaves.

use shakmaty::{Bitboard, Chess, Move, MoveList, Position, Role};

use crate::board::{attacked_by, attackers, value};
use crate::facts::captured_value;

use crate::line::Cursor;

use super::men::{newly_hanging, won_by_taking};
use super::premise::SetupHits;
use super::search::{best_captures_of, best_captures_on};

/// What the other side still nets by captures once the side to move in
/// `pos` saves `men` (one man of its own) as best it can; `None` where it
/// cannot. Not in check, it moves the man to a square the other side does
/// not then attack, and loses what the capture search finds of the men
/// that leaves en prise, the least over its escapes (Lichess 0BJDT: d5
/// unmasks the e3 bishop on the queen and hits the e6 bishop; ...Qc7 dxe6
/// fxe6: 2). It may also take a man of ours on a square we attack: a
/// trade, which nets us what we then take there less what it took (Lichess 01gA2: ...Rh8 shuts the h7 queen in, and Qxh8+ Qxh8
/// gives the queen for the rook: 4, not 9); the captures of their other
/// threatened men count only beside a square it may step to (03mei:
/// ...Bxf3+ Kxf3 leaves the d1 knight to the h1 rook). In check, it must
/// answer with nothing of its own left en prise (Lichess 0BuRD: ...exf2+
/// unmasks the queen on the e1 rook, and Kxf2 guards it; not 01Prn: Nxf6+
/// Qxf6 Qxf6 gxf6 leaves the d8 rook to the d1 rook).
fn escape(pos: &Chess, men: Bitboard, premise: &Chess) -> Option<i32> {
    let man = men.single_square()?;
    if !pos.us().contains(man) {
        return None;
    }
    if pos.is_check() {
        let saved = pos.legal_moves().iter().any(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            // Nothing of theirs left en prise, the man nor one behind it.
            let theirs = after.board().by_color(!after.turn()) & !after.board().kings();
            won_by_taking(after.board(), after.turn(), theirs).is_empty()
        });
        return saved.then_some(0);
    }
    let moves = pos.legal_moves();
    // Most often the threat is on the man alone: it steps away, and leaves
    // nothing that would need a search.
    let threatened = newly_hanging(pos.board(), !pos.turn(), premise.board()) | men;
    let alone = threatened == men;
    let (mut escapes, mut trades) = (MoveList::new(), MoveList::new());
    for &m in moves.iter().filter(|m| m.from() == Some(man)) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        if attacked_by(after.board(), after.turn()).contains(m.to()) {
            // Lost there, but for what it takes on the way.
            if m.is_capture() {
                trades.push(m);
            }
            continue;
        }
        if alone || newly_hanging(after.board(), after.turn(), premise.board()).is_empty() {
            return Some(0);
        }
        escapes.push(m);
    }
    if escapes.is_empty() && trades.is_empty() {
        return None;
    }
    // Else the least our captures then net, over its escapes, its trades
    // and, where it has a square to go to, the captures by their other men
    // we threaten, less what those take (the search lets them stop once
    // we take back: right only where the man may then step away; 03mei's
    // ...Bxf3+ Kxf3 leaves the d1 knight with nowhere to go).
    let stepping = !escapes.is_empty();
    let others = moves.iter().filter(|m| {
        stepping && m.is_capture() && m.from().is_some_and(|from| from != man && threatened.contains(from))
    });
    escapes
        .iter()
        .chain(trades.iter())
        .chain(others)
        .map(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let ours =
                best_captures_on(after.board(), after.turn(), m.to(), premise, &SetupHits::given(Bitboard::EMPTY));
            let promoted = m.promotion().map_or(0, |role| value(role) - value(Role::Pawn));
            ours - if m.is_capture() { captured_value(m) } else { 0 } - promoted
        })
        .min()
        .map(|least| least.max(0))
}

/// Where `men` (enemy men right after `ply`) stand once the line is over,
/// followed as the opponent moves them (none of them taken: a fire whose
/// man the line collects is settled by its exchange).
fn men_at_end(ply: Cursor, men: Bitboard) -> Bitboard {
    ply.later().filter(|at| !at.is_solver()).fold(men, |men, at| at.moves_along(men))
}

/// What a threat on `men` (enemy men right after `ply`), none of which the
/// line takes, still wins once the line is over with the opponent to move,
/// where it comes to nothing: 0 where none of them is attacked any more
/// (the threat was met on the way), or what the best escape of the one
/// that is leaves us ([`escape`]; Lichess 083dK: the queen dxe5 unmasks
/// takes the pawn and is safe; 04Dbs: Bb4 unmasks the queen on the d4
/// bishop, and the fork it makes is what wins), or the best answer of
/// several leaves us ([`escape_several`]). `None` where it stands.
pub(super) fn left_at_end(ply: Cursor, men: Bitboard) -> Option<i32> {
    let end = ply.line().last().after();
    if end.turn() == ply.line().solver() {
        return None;
    }
    let threatened = men_at_end(ply, men) & end.us() & attacked_by(end.board(), !end.turn());
    if threatened.is_empty() {
        return Some(0);
    }
    let premise = ply.line().key().before();
    escape(end, threatened, premise).or_else(|| escape_several(end, threatened, premise))
}

/// What our captures still net once the side to move in `pos` (not in
/// check) saves what it can of `men`, two or more of its men we threaten:
/// the least over letting the threat be, the moves of the men we threaten
/// (here or newly since the key move) and the captures of the men that
/// threaten them, less what those take; never below 0 (Lichess 06ZIT: Ng3
/// unmasks the bishop on the queen and the queen on the e7 bishop, and hits
/// the f5 bishop; ...Qc7 guards e7, and Nxf5 follows: 3, not 9). `None`
/// for one man, which [`escape`] saves, or in check.
fn escape_several(pos: &Chess, men: Bitboard, premise: &Chess) -> Option<i32> {
    if pos.is_check() || !men.more_than_one() {
        return None;
    }
    let (board, them) = (pos.board(), !pos.turn());
    let threatened = newly_hanging(board, them, premise.board()) | men;
    let anywhere = men.first().expect("two men");
    let mut least = best_captures_on(board, them, anywhere, premise, &SetupHits::given(men));
    let attacking =
        threatened.into_iter().fold(Bitboard::EMPTY, |all, man| all | attackers(board, man, them, board.occupied()));
    let answers = pos.legal_moves();
    let answering = |m: &&Move| {
        m.from().is_some_and(|from| threatened.contains(from)) || (m.is_capture() && attacking.contains(m.to()))
    };
    for &m in answers.iter().filter(answering) {
        if least <= 0 {
            break;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let followed = match m.from() {
            Some(from) if threatened.contains(from) => threatened.without(from).with(m.to()),
            _ => threatened,
        };
        // The man that moved, and those it leaves threatened, guarded or
        // not: a guard may be drawn off (...Qe6 guards both bishops, and
        // Nxf5 Qxf5 Qxe7 follows).
        let targets =
            (followed.with(m.to()) | newly_hanging(after.board(), after.turn(), premise.board())) & after.them();
        let ours = best_captures_of(after.board(), after.turn(), targets, None, premise, Some(&after));
        least = least.min(ours - if m.is_capture() { captured_value(m) } else { 0 });
    }
    Some(least.max(0))
}

/// Whether one of `men` (enemy men right after `ply`), followed as the
/// opponent moves them, takes a man of ours later in the line.
pub(super) fn traded_itself(ply: Cursor, men: Bitboard) -> bool {
    let mut men = men;
    for at in ply.later().filter(|at| !at.is_solver()) {
        if at.mv().is_capture() && at.mv().from().is_some_and(|from| men.contains(from)) {
            return true;
        }
        men = at.moves_along(men);
    }
    false
}
