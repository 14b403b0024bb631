//! What the side to move cannot save of its loose men: a bitboard test of
//! each answer, no search.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

use crate::board::{
    attacked_by, attackers, least_valuable, least_valuable_legal_capture, mate_in_one, piece_attacks, pins_of, see,
    swap_turn, value, value_at, Pin,
};

use super::men::{newly_hanging, won_by_taking};

/// What the side to move (not in check) loses of its men that the line
/// left undefended under our attack, pieces a lesser man of ours hits
/// (for the difference), or men we hit more often than they guard them
/// (for what the static exchange wins: Lichess 04aWV, b4 hit by bishop and
/// rook, guarded by a knight), not en prise before the key move, by
/// bitboards alone: the least, over its answers, of the most it must still
/// leave.
/// An answer saves a man where the man steps to a square it stands safe on
/// (one we do not hit, or one they guard that only men worth as much as it
/// hit, no more often than they guard it; else it loses what the exchange
/// there wins us), or where a man of theirs, standing safe itself, takes
/// its only attacker, steps between, or guards it against attackers worth
/// as much, itself or by stepping off the line of a slider of theirs that
/// then guards it (Lichess 04bIW: Na3 lets the f1 rook guard a1); so two men that no one answer saves lose the lesser (Lichess
/// 037nc: ...Rxe2 hits b2 and f2). Nothing is lost where the side can give
/// check with a man that stands safe (a check that gives the checker away
/// saves nothing: 01E0R's ...Qxe3+; and it leaves another loose man
/// beside our king that none of theirs then guards, which the king takes
/// in answer: 09TiY's ...Bf4+ Kxg4; nor does a spite check, which our king
/// steps off while the threats stand: 07s3C's ...Rd2+), promote, take a
/// man of ours en prise
/// (not one whose only taker is pinned to its king: 0B9Ov) or start an
/// even trade (Lichess 044aV: ...Kxf3, and Kxh5 evens it; not
/// by a loose man pinned to its king, off the pin's line: 05Uxg), with
/// check or not, where a loose man trades itself or the man it takes hits
/// one of them (any other trade leaves the threats standing: 0BQgG's
/// cxb5 axb5 after ...Nxd3 forks the rooks; 07ohA's ...Bxc3+ bxc3), and
/// only for what we would rather take than take back: a loose man the
/// trade leaves hit, worth more than it took (04VV5: ...fxe4, and Qxd6
/// takes the rook). A loose man that takes a man of ours where it falls
/// in turn loses only its worth less what it took.
/// Where we threaten mate in one, their king has no free square and a man
/// is loose, only an answer that meets the mate saves anything, and the
/// man it moves loses what the exchange on its new square wins us (Lichess
/// 05ZTT).
/// (Not seen: an answer that hits a man of ours, Lichess 02lIm's ...Kb6,
/// 01YXn's Be7, 08VvA's ...Rg8; a rule for it read worse than none, as
/// most such counter-attacks are parried.)
pub(super) fn lost_loose_men(pos: &Chess, premise: &Chess) -> i32 {
    let (board, them) = (pos.board(), pos.turn());
    let us = !them;
    let occupied = board.occupied();
    let (theirs, ours) = (board.by_color(them), board.by_color(us));
    let cheapest = |men: Bitboard| least_valuable(board, men).map_or(i32::MAX, |(_, role)| value(role));
    let (Some(our_king), Some(their_king)) = (board.king_of(us), board.king_of(them)) else { return 0 };
    // Their men pinned to their king, and the line each may keep to: its
    // pinner and the squares between.
    let snipers = (attacks::rook_attacks(their_king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(their_king, Bitboard::EMPTY) & board.bishops_and_queens())
        & ours;
    let pinned: Bitboard =
        snipers.into_iter().filter_map(|s| (attacks::between(their_king, s) & occupied).single_square()).collect();
    let pin_line = |from: Square| {
        snipers
            .into_iter()
            .find(|&s| attacks::between(their_king, s) & occupied == Bitboard::from_square(from))
            .map_or(Bitboard::FULL, |s| attacks::between(their_king, s).with(s))
    };
    // Of their men that attack `sq`, those that guard it against our men
    // `by`: not one pinned to their king off the line to it, where a man
    // other than its pinner hits `sq` (Lichess 03eUB: the f7 pawn, pinned by
    // the d5 bishop, does not guard g6 against the queen; 09LYf: the e2 rook
    // the c4 queen pins takes back on c2 once the queen has taken there).
    let guarding = |men: Bitboard, sq: Square, by: Bitboard| {
        if (men & pinned).is_empty() {
            return men;
        }
        men.into_iter()
            .filter(|&g| {
                let line = pin_line(g);
                !pinned.contains(g) || line.contains(sq) || (by & !line).is_empty()
            })
            .collect()
    };
    // What we win by taking each man of theirs we attack: all of it where
    // it is undefended, the static exchange where we hit it more often than
    // they guard it, else what a piece is worth over our cheapest taker
    // (Lichess 0AddK: the queen the e7 rook pins, 5 not 1). The counts come
    // first: most guarded men are hit no more often than guarded, and the
    // exchange is not worth playing out for them.
    let mut stakes = [0i32; 64];
    let mut exposed = Bitboard::EMPTY;
    let hit = attacked_by(board, us);
    for sq in theirs & !board.kings() & hit {
        let worth = value_at(board, sq);
        let by = attackers(board, sq, us, occupied);
        let guards = guarding(attackers(board, sq, them, occupied), sq, by);
        let stake = if guards.is_empty() {
            worth
        } else if by.count() > guards.count() {
            least_valuable(board, by).map_or(0, |(from, _)| see(board, from, sq, worth))
        } else if board.pawns().contains(sq) {
            0
        } else {
            worth - cheapest(by)
        };
        if stake > 0 {
            stakes[sq as usize] = stake;
            exposed.add(sq);
        }
    }
    if exposed.is_empty() {
        return 0;
    }
    // Where a man of theirs may go: along the pin where one pins it to its
    // king; a pawn two steps from its first rank (Lichess 001kG: ...b5
    // guards c4).
    let moves = |from: Square, role: Role| {
        let to = if role == Role::Pawn {
            let ahead = |sq: Square| sq.offset(them.fold_wb(8, -8)).filter(|&to| !occupied.contains(to));
            let mut to = attacks::pawn_attacks(them, from) & ours;
            if let Some(one) = ahead(from) {
                to.add(one);
                if let Some(two) = ahead(one).filter(|_| from.rank() == them.fold_wb(Rank::Second, Rank::Seventh)) {
                    to.add(two);
                }
            }
            to
        } else {
            piece_attacks(from, role.of(them), occupied) & !theirs
        };
        if !pinned.contains(from) {
            return to;
        }
        to & pin_line(from)
    };
    // Whether their man on `from`, which attacks `sq`, may take there: not
    // off the line of a pin to their king.
    let free_to = |from: Square, sq: Square| !pinned.contains(from) || pin_line(from).contains(sq);
    // The board once their man on `from` has stepped to `to`.
    let stepped = |from: Square, role: Role, to: Square| {
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, role.of(them));
        after
    };
    // What the man on `from` loses where it stands on `to`: nothing where
    // we do not hit it there, or where they guard it against men worth as
    // much and we hit it no more often than they guard it; else the
    // exchange where it pays us (Lichess 0BZrl: ...f3, guarded by e4, hit
    // by g2 and the e2 bishop, falls all the same; 0CZjr: ...Nf6 blocks the
    // queen's line to the h8 rook and costs 1 for it, not 5). None where it
    // does not stand there at all.
    let stands = |from: Square, role: Role, to: Square| {
        let rest = occupied.without(from);
        let by = attackers(board, to, us, rest);
        if by.is_empty() || value_at(board, to) >= value(role) {
            return Some(0);
        }
        let guards = guarding(attackers(board, to, them, rest), to, by);
        if role == Role::King || guards.is_empty() || cheapest(by) < value(role) {
            return None;
        }
        if by.count() <= guards.count() {
            return Some(0);
        }
        let after = stepped(from, role, to);
        Some(least_valuable(&after, by).map_or(0, |(taker, _)| see(&after, taker, to, value(role)).max(0)))
    };
    // What the loose man on `man` still loses once that move is played.
    let still_lost = |from: Square, role: Role, to: Square, man: Square| {
        let stake = stakes[man as usize];
        if from == man {
            return 0;
        }
        let after = occupied.without(from).with(to);
        let by = attackers(board, man, us, after).without(to);
        if by.is_empty() {
            return 0;
        }
        if cheapest(by) < value_at(board, man) {
            return stake;
        }
        let guard =
            if role == Role::Pawn { attacks::pawn_attacks(them, to) } else { piece_attacks(to, role.of(them), after) };
        let (hits, here) = (by.count(), guard.contains(man));
        // Their other guards are asked only where one more is wanted.
        let guards = if hits == 1 && here {
            1
        } else {
            guarding(attackers(board, man, them, after).without(from), man, by).count() + usize::from(here)
        };
        // Hit by men worth as much, and guarded: saved where it is guarded
        // as often as hit, else it loses what the exchange there pays us
        // (Lichess 04bsZ: Qh6 guards the g5 knight, which the e7 bishop and
        // the g1 rook hit, and still falls; 07SwC: ...b5 guards the pinned
        // c4 rook, hit twice, and Rxc4 bxc4 Qxc4+ nets a pawn, not the
        // rook). A slider on a line with the man may guard it through our
        // man that hits it (Lichess 004u0: ...R5e7 guards b7 behind the d7
        // queen).
        if guards >= hits {
            return 0;
        }
        if guards == 0
            && !(matches!(role, Role::Bishop | Role::Rook | Role::Queen)
                && piece_attacks(to, role.of(them), Bitboard::EMPTY).contains(man))
        {
            return stake;
        }
        let moved = stepped(from, role, to);
        least_valuable(&moved, by).map_or(0, |(taker, _)| see(&moved, taker, man, value_at(board, man)).clamp(0, stake))
    };
    let stake = |men: Bitboard| men.into_iter().map(|sq| stakes[sq as usize]).max().unwrap_or(0);
    // The most any of the loose `men` still loses once that move is played.
    let most_left = |from: Square, role: Role, to: Square, men: Bitboard| {
        men.into_iter().map(|man| still_lost(from, role, to, man)).max().unwrap_or(0)
    };
    // What a loose man gives up behind it by stepping off the line of one
    // of our sliders that pins it to a greater man (its king's pins keep it
    // on the line already): the exchange our slider then starts there
    // (Lichess 04sEF: after Qxe5 the d4 knight, hit twice and guarded by
    // the d8 queen alone, is pinned to it by the d1 rook, and a step away
    // loses the queen to Rxd8).
    let pin_of = |from: Square| {
        (!pinned.contains(from)).then(|| pins_of(board, from).find(|pin| !board.kings().contains(pin.behind))).flatten()
    };
    let behind_it = |pin: Option<Pin>, role: Role, to: Square| match pin {
        Some(pin) if !attacks::ray(pin.pinner, pin.behind).contains(to) => {
            see(&stepped(pin.pinned, role, to), pin.pinner, pin.behind, value_at(board, pin.behind)).max(0)
        }
        _ => 0,
    };
    // Whether their man on `from` stepping to `to` lets us mate in one: such
    // an answer saves nothing (Lichess 067RG: ...a5 guards b4, and Qd8#).
    // Asked last, of an answer that would save more than any before it.
    let allows_mate = |from: Square, role: Role, to: Square| {
        let promotion =
            (role == Role::Pawn && to.rank() == them.fold_wb(Rank::Eighth, Rank::First)).then_some(Role::Queen);
        let m = Move::Normal { role, from, capture: board.role_at(to), to, promotion };
        let mut after = pos.clone();
        after.play_unchecked(m);
        mate_in_one(&after, Bitboard::EMPTY).is_some()
    };
    let least_left = |loose: Bitboard| {
        let mut lost = stake(loose);
        let mut answer = |from: Square, role: Role, to: Bitboard| {
            let pin = if loose.contains(from) { pin_of(from) } else { None };
            for to in to {
                let left = |men: Bitboard| most_left(from, role, to, men);
                let leaves = if let Some(loss) = stands(from, role, to) {
                    let loss = loss.max(behind_it(pin, role, to));
                    left(loose).max(loss)
                } else if loose.contains(from) && ours.contains(to) {
                    // A loose man that takes a man of ours where it is taken
                    // in turn sells itself for what it takes (Lichess 02e7X:
                    // the trapped knight's ...Nxh2, Kxh2: 2, not 3).
                    left(loose.without(from)).max(value_at(board, from) - value_at(board, to))
                } else {
                    continue;
                };
                if leaves < lost && !allows_mate(from, role, to) {
                    lost = leaves;
                }
                if lost == 0 {
                    return true;
                }
            }
            false
        };
        // A loose man steps away (or takes) first: most often that is all.
        for from in loose {
            let Some(role) = board.role_at(from) else { continue };
            if answer(from, role, moves(from, role)) {
                return 0;
            }
        }
        // Then another man takes an attacker, steps between or guards.
        let (mut helps, mut guards) = (Bitboard::EMPTY, [Bitboard::EMPTY; 6]);
        for man in loose {
            let by = attackers(board, man, us, occupied);
            helps |= by;
            if let Some(only) = by.single_square() {
                helps |= attacks::between(only, man);
            }
            guards[0] |= attacks::pawn_attacks(us, man);
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                guards[role as usize - 1] |= piece_attacks(man, role.of(us), occupied);
            }
        }
        // A man of theirs that masks a slider of theirs from a loose man
        // guards it by stepping anywhere off that line (Lichess 088eB: after
        // Qxd8, ...Bb5 lets the h7 rook guard c7).
        let unmasks = maskers(board, loose, them);
        for from in theirs & !loose {
            let Some(role) = board.role_at(from) else { continue };
            let to = if unmasks.contains(from) { Bitboard::FULL } else { helps | guards[role as usize - 1] };
            if answer(from, role, moves(from, role) & to) {
                return 0;
            }
        }
        lost
    };
    let loose = exposed & !won_by_taking(premise.board(), us, exposed);
    if loose.is_empty() {
        return 0;
    }
    // Where we threaten mate in one, only a move that meets it may save
    // anything: the least such a move leaves, of the loose men and of the
    // man it moves, which loses what the exchange on its new square pays
    // us, less what it took (Lichess 08U8Z: Qh8# is threatened, and ...Qxe5
    // or ...f6 gives the queen for the bishop that hits it; 05ZTT: each
    // answer that meets ...Qg2# gives up the h3 bishop). Asked only where
    // their king has no square to step to now (most mates in one) and a man
    // is loose: the test is the cost (asked with no man loose as well, it
    // finds 09SDg's ...Qg5, which Rxg5 takes, and 07Ivz's ...f6, for 69
    // instructions more).
    let flights = attacks::king_attacks(their_king) & !theirs & !hit;
    if flights.is_empty() && swap_turn(pos).and_then(|p| mate_in_one(&p, Bitboard::EMPTY)).is_some() {
        let left_by = |m: Move| {
            let Move::Normal { role, from, to, capture, .. } = m else { return stake(loose) };
            let left = most_left(from, role, to, loose);
            // The exchange on its new square, from our least man that may
            // legally take there, their guards pinned to their king off the
            // line to it left out where a man of ours off that line hits it
            // (as `guarding` reads them: the pinner that takes frees its
            // man).
            let mut after = stepped(from, role, to);
            let occupied = after.occupied();
            let by = attackers(&after, to, us, occupied);
            let taker = by.any().then(|| {
                let mut played = pos.clone();
                played.play_unchecked(m);
                least_valuable_legal_capture(&played, to).and_then(|take| take.from())
            });
            let moved = taker.flatten().map_or(0, |taker| {
                for guard in attackers(&after, to, them, occupied) & pinned {
                    let line = pin_line(guard);
                    if !line.contains(to) && (by & !line).any() {
                        after.discard_piece_at(guard);
                    }
                }
                see(&after, taker, to, value(role)).max(0)
            });
            (left.max(moved) - capture.map_or(0, value)).max(0)
        };
        let mut costed: Vec<(i32, Move)> = pos.legal_moves().into_iter().map(|m| (left_by(m), m)).collect();
        costed.sort_by_key(|&(cost, _)| cost);
        let meets = |m: Move| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            mate_in_one(&after, Bitboard::EMPTY).is_none()
        };
        if let Some(&(cost, _)) = costed.iter().find(|&&(_, m)| meets(m)) {
            return cost;
        }
    }
    // A check of theirs answers everything, where the checker stands safe,
    // but another loose man next to our king that none of theirs guards
    // once the check is given: the king may answer by taking it (Lichess
    // 02XhI: ...Rh8+ Kxg2; 09TiY: ...Bf4+ Kxg4). The check that leaves
    // them least.
    let next_to_our_king = loose & attacks::king_attacks(our_king);
    // Our men that hit a loose man: a trade they start (below) saves the
    // loose men only where it takes one of them or a loose man trades
    // itself; any other leaves the threats as they stood.
    let hitting = loose.into_iter().fold(Bitboard::EMPTY, |by, man| by | attackers(board, man, us, occupied));
    let trades_for_them = |from: Square, to: Square| loose.contains(from) || hitting.contains(to);
    // A spite check saves nothing: one by a man that is not loose itself,
    // takes none of our men that hit them nor one it wins (worth what the
    // loose men stake, not en prise before the key move: 02N7B's ...Qxh1+
    // saves no man), and hits no man of ours it could win (one unguarded,
    // or one worth more) worth that stake, which our king answers by a
    // step to a free square, our men that hit the loose men staying where
    // they are: they then face the same threats (Lichess 07s3C: ...Rd2+
    // hits the b2 pawn, and after Kg3 ...Rxb2 the d8 bishop still falls:
    // 8, not 5).
    let (at_stake, may_spite) = (stake(loose), !hitting.contains(our_king));
    let mut after_a_check = i32::MAX;
    for from in theirs & !board.pawns() & !board.kings() {
        let Some(role) = board.role_at(from) else { continue };
        for to in moves(from, role) & piece_attacks(our_king, role.of(them), occupied) {
            if stands(from, role, to) != Some(0) {
                continue;
            }
            // A check that takes a man of ours we take back is a trade.
            if ours.contains(to) && attackers(board, to, us, occupied.without(from)).any() && !trades_for_them(from, to)
            {
                continue;
            }
            // Seen with our king off its square, a slider's check reaches
            // the man behind it (a skewer is no spite check); the king
            // still guards, as the square it steps to may.
            let checked = occupied.without(from).with(to);
            let off_the_king = checked.without(our_king);
            let wins_a_man = |man: Square| {
                let worth = value_at(board, man);
                worth >= at_stake && (worth > value(role) || attackers(board, man, us, checked).is_empty())
            };
            let takes_what_counts = ours.contains(to)
                && (hitting.contains(to)
                    || (value_at(board, to) >= at_stake
                        && won_by_taking(premise.board(), them, Bitboard::from_square(to)).is_empty()));
            if may_spite
                && !loose.contains(from)
                && !takes_what_counts
                && !(piece_attacks(to, role.of(them), off_the_king) & ours)
                    .without(our_king)
                    .into_iter()
                    .any(wins_a_man)
            {
                let after = stepped(from, role, to);
                let steps = attacks::king_attacks(our_king) & !ours;
                if steps.into_iter().any(|sq| attackers(&after, sq, them, off_the_king).is_empty()) {
                    continue;
                }
            }
            let by_the_king = next_to_our_king.without(from);
            if by_the_king.is_empty() {
                return 0;
            }
            // Seen with the checker on `to` and our king off its square
            // (a slider's check covers the square behind the king).
            let checked = occupied.without(from).with(to).without(our_king);
            let taken: Bitboard = by_the_king
                .into_iter()
                .filter(|&sq| {
                    attackers(board, sq, them, checked).without(from).is_empty()
                        && !piece_attacks(to, role.of(them), checked).contains(sq)
                })
                .collect();
            if taken.is_empty() {
                return 0;
            }
            after_a_check = after_a_check.min(stake(taken));
        }
    }
    // So does a pawn that promotes where no man of ours takes the new
    // queen, and a man of ours en prise, which they take instead.
    for pawn in theirs & board.pawns() & Bitboard::from_rank(them.fold_wb(Rank::Seventh, Rank::Second)) {
        if moves(pawn, Role::Pawn).into_iter().any(|to| attackers(board, to, us, occupied.without(pawn)).is_empty()) {
            return 0;
        }
    }
    let mut lost = least_left(loose).min(after_a_check);
    if lost == 0 {
        return 0;
    }
    // A man of ours they may take instead saves them: not one that stood
    // en prise before the key move, the puzzle's premise, taken or not
    // (Lichess 07FFK: Rxb4 takes such a pawn, and ...Nxf1 still wins the
    // other rook for the knight: 11, not 9), nor one whose only taker is
    // pinned to its king off the line (0B9Ov: the pinned a7 queen "hits"
    // the d7 queen; 9, not 5).
    let newly = newly_hanging(board, them, premise.board());
    if newly.into_iter().any(|sq| attackers(board, sq, them, occupied).single_square().is_none_or(|t| free_to(t, sq))) {
        return 0;
    }
    // Or a trade they start, which we must take back: it keeps them the move
    // (Lichess 00Qm5: ...Bxg5 hxg5, and ...d4 saves the pawn), where a loose
    // man trades itself or the man it takes hits one of them. Another trade
    // leaves the threats as they stood (07ohA: after Bxe5, ...Bxc3+ bxc3
    // and the bishop still hits the b8 rook and the g7 pawn: 6, not 1).
    // Not by a loose man pinned to their king, off the pin's line: the pin
    // holds while we take it (Lichess 05Uxg: Bxc4 pins the e6 rook, which
    // cannot take the e5 queen, and Bxe6+ follows).
    let hit_by_them = ours & !board.kings() & attacked_by(board, them);
    let held = pinned & loose;
    let takers = |sq: Square| {
        attackers(board, sq, them, occupied)
            .into_iter()
            .filter(|&from| trades_for_them(from, sq) && (!held.contains(from) || free_to(from, sq)))
            .collect::<Bitboard>()
    };
    // We need not take back: where a loose man the trade leaves hit is worth
    // more than what they took, we take it instead (Lichess 04VV5: ...fxe4
    // takes the pawn that hits f5, and Qxd6 takes the loose rook).
    for sq in hit_by_them {
        let by = takers(sq);
        let Some((taker, _)) = least_valuable(board, by).filter(|&(_, role)| value(role) <= value_at(board, sq)) else {
            continue;
        };
        let others = occupied.without(taker);
        let still: Bitboard = loose
            .without(taker)
            .into_iter()
            .filter(|&man| attackers(board, man, us, others).without(sq).any())
            .collect();
        lost = lost.min((stake(still) - value_at(board, sq)).max(0));
        if lost == 0 {
            return 0;
        }
    }
    lost
}

/// Their men that stand alone between a slider of theirs and one of the
/// loose `men`: a step off that line lets the slider guard it.
fn maskers(board: &Board, men: Bitboard, them: Color) -> Bitboard {
    let occupied = board.occupied();
    let theirs = board.by_color(them);
    let mut found = Bitboard::EMPTY;
    for man in men {
        let rook_blockers = attacks::rook_attacks(man, occupied) & theirs;
        let bishop_blockers = attacks::bishop_attacks(man, occupied) & theirs;
        let sliders = attacks::rook_attacks(man, occupied & !rook_blockers) & board.rooks_and_queens()
            | attacks::bishop_attacks(man, occupied & !bishop_blockers) & board.bishops_and_queens();
        for slider in sliders & theirs {
            if let Some(masker) = (attacks::between(man, slider) & occupied).single_square() {
                found |= Bitboard::from_square(masker) & theirs;
            }
        }
    }
    found
}
