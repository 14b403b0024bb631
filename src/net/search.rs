//! The capture search at an exchange's end: captures and recaptures a few
//! plies deep, material only, either side free to stop, and the checks
//! that win material (a forking check; answers to a check).

use std::cell::OnceCell;

use shakmaty::{attacks, Bitboard, Board, ByColor, Chess, Color, Move, MoveList, Position, Rank, Role, Square};

use crate::board::{
    attacked_by, attackers, capture_leaves_king_safe, forced_mate, legal_plain_move, mate_in_one, only_legal_move,
    piece_attacks, see, swap_turn, value,
};
use crate::facts::{capture_square, captured_value};

use super::men::{
    answers, checks_on, guarded_by_the_king_alone, hanging, newly_hanging, newly_won_by_exchange, won_by_taking,
    won_by_taking_seen,
};
use super::premise::SetupHits;

/// Plies the capture search looks ahead at the line's end.
pub(super) const CAPTURE_SEARCH_PLIES: u32 = 4;

/// What the side to move in `pos` nets at best by captures alone (0 where
/// none pays), starting with a capture on `square` (the exchange's last)
/// or of a man left hanging (attacked and undefended now, not so in
/// `premise`, the position before the key move): a small search over
/// those captures and every capture that answers them, a few plies deep,
/// material only, either side free to stop capturing. A recapturer pinned
/// to a piece behind it gives that piece up, and a recapture that unguards
/// another man loses it, as the search sees. A man that stood en prise
/// before the key move is not its business, unless the setup move put it
/// so or the line saved it a while ([`first_targets`]).
pub(super) fn best_captures(pos: &Chess, square: Square, premise: &Chess, hits: &SetupHits) -> i32 {
    let attacks = attacked_by(pos.board(), pos.turn());
    if pos.is_check() {
        let targets = first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks);
        // The men of the side in check that the checking side wins by
        // the exchange on their square, as below, whatever the answer
        // (08GrF: Qxf6+ ...Kg8, and Rxd6 takes a bishop the rook and
        // queen hit and the c7 queen alone guards).
        let by_exchange =
            newly_won_by_exchange(pos.board(), !pos.turn(), pos.us() & !pos.board().kings(), premise.board());
        let net = best_answer_to_check_leaving(pos, targets, by_exchange, premise);
        // A forced answer may walk into a check that wins (Lichess 08QFG:
        // ...Qxf3+ Kg1, and ...Rg8+ wins the queen for the rook).
        if let Some(m) = only_legal_move(pos) {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !after.is_check() {
                let taken = if m.is_capture() && targets.contains(capture_square(m)) { captured_value(m) } else { 0 };
                return net.min(taken - forking_check(&after, premise, After::OnlyAnswer));
            }
        }
        return net;
    }
    let targets = first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks);
    // At the line's end, a man hit more often than guarded falls too
    // (Lichess 0095W: after ...Qxd6, Rxb7 ...Rxb7 Qxb7+ wins the pawn the
    // c7 rook's step cut off from its guard): asked here alone, where
    // the line ends, as it costs a static exchange per man.
    let (board, theirs) = (pos.board(), pos.them() & attacks & !targets);
    let targets = targets | newly_won_by_exchange(board, pos.turn(), theirs, premise.board());
    best_captures_of(board, pos.turn(), targets, Some(attacks), premise, Some(pos))
}

/// Where the search asks for a [`forking_check`], which decides what the
/// check may hit besides a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum After {
    /// After their only answer to our check: also a check by a man that
    /// only a greater man may take, guarded, hitting nothing (Lichess
    /// 08QFG: ...Rg8+, and Qxg8+ Kxg8).
    OnlyAnswer,
    /// After their king took in answer to our check: an undefended pawn
    /// is a man the check may hit too (Lichess 028yE's c2 pawn).
    KingsCapture,
}

/// What the side to move (not in check) nets at best with a quiet check
/// that hits a man of the other side too, worth more than the checker or
/// undefended: the other side answers the check as it best can (taking
/// the checker where it may), and then loses what the capture search
/// finds. Asked only where the search answers a check: where their king
/// took in answer to ours (Lichess 028yE: ...Bxg2+ Kxg2, and ...Qe4+
/// forks the king and the c2 pawn), and after their only answer to our
/// check (03zMQ: ...Qxe3+ Kh2 ...Qe5+ forks the a5 knight); what else
/// counts depends on which ([`After`]). 0 where no such check pays.
/// Discovered checks and a pawn's are left out.
pub(super) fn forking_check(pos: &Chess, premise: &Chess, after: After) -> i32 {
    let (baits, pawns) = (after == After::OnlyAnswer, after == After::KingsCapture);
    let (board, us) = (pos.board(), pos.turn());
    let Some(king) = board.king_of(!us) else { return 0 };
    let occupied = board.occupied();
    let pieces = board.by_color(!us) & !board.kings() & if pawns { Bitboard::FULL } else { !board.pawns() };
    let mut best = 0;
    // Where the other side, were it to move, mates in one: the mating man.
    let mate = OnceCell::new();
    let mate_threat = || swap_turn(pos).and_then(|passed| mate_in_one(&passed, Bitboard::EMPTY)).and_then(|m| m.from());
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let piece = role.of(us);
        // Squares this kind of man checks the king from.
        let checking = piece_attacks(king, role.of(!us), occupied) & !occupied;
        if checking.is_empty() {
            continue;
        }
        for from in board.by_color(us) & board.by_role(role) {
            let occupied = occupied.without(from);
            for to in piece_attacks(from, piece, board.occupied()) & checking {
                let hit = piece_attacks(to, piece, occupied) & pieces;
                if hit.is_empty() && !baits {
                    continue;
                }
                let takers = attackers(board, to, !us, occupied);
                let guarded = || attackers(board, to, us, occupied).any();
                let greater = |sq: Square| board.role_at(sq).is_some_and(|man| value(man) > value(role));
                // A check that only a greater man may take, guarded: taking
                // it loses, and the answer may lose more (Lichess 08QFG:
                // ...Rg8+, and Qxg8+ Kxg8 or a block the rook takes).
                let bait = baits
                    && (takers & !board.kings()).any()
                    && (takers & !board.kings()).into_iter().all(greater)
                    && guarded();
                if hit.is_empty() && !bait {
                    continue;
                }
                // Else the checker must stand safe: a man that may be taken
                // forks nothing (the king may take only where it is free to).
                if !bait && takers.any() && ((takers & !board.kings()).any() || !guarded()) {
                    continue;
                }
                let worth =
                    bait || hit.into_iter().any(|sq| greater(sq) || attackers(board, sq, !us, occupied).is_empty());
                let Some(m) = worth.then(|| legal_plain_move(pos, from, to, None)).flatten() else { continue };
                let mut after = pos.clone();
                after.play_unchecked(m);
                let wins = -best_answer_to_check(&after, Bitboard::from_square(to), premise);
                // A fork does not pay where the other side has a mate in one
                // to play once we take (Lichess 08bm9: ...Rxg1+ Kxg1, and
                // ...Qb1+ would take the b3 knight, but Ra8# is threatened),
                // unless the man that mates is one the check hits (00IDw:
                // Nd6+ forks the e8 rook that threatens ...Re1#).
                if wins > best && !mate.get_or_init(mate_threat).is_some_and(|from| !hit.contains(from)) {
                    best = wins;
                }
            }
        }
    }
    best
}

/// [`best_captures`] for `turn` to move on `board`, not in check, its first
/// captures answered by captures alone.
pub(super) fn best_captures_on(board: &Board, turn: Color, square: Square, premise: &Chess, hits: &SetupHits) -> i32 {
    let attacks = attacked_by(board, turn);
    let targets = first_targets(board, turn, square, premise.board(), hits, attacks);
    best_captures_of(board, turn, targets, Some(attacks), premise, None)
}

/// [`best_captures_on`] with the first capture's `targets` given; where
/// `pos` is the position itself, no first capture that lets the other side
/// mate (in one, or by forced checks) is played.
pub(super) fn best_captures_of(
    board: &Board,
    turn: Color,
    targets: Bitboard,
    attacks: Option<Bitboard>,
    premise: &Chess,
    pos: Option<&Chess>,
) -> i32 {
    let found = Found::default();
    let loose = Loose::new(board, premise, &found);
    let mut scope = pos.map_or(Scope::root(targets, loose), |pos| Scope::guarded(targets, loose, pos));
    if let Scope::Targets { attacks: known, .. } = &mut scope {
        debug_assert!(attacks.is_none_or(|attacks| attacks == attacked_by(board, turn)));
        *known = attacks;
    }
    capture_search(board, turn, CAPTURE_SEARCH_PLIES, 0, i32::MAX / 2, scope, checks_on(board, !turn))
}

/// [`best_captures`] for a side in check at the line's end, which cannot
/// stop there: it must answer the check (Lichess 04Kar: after ...Rxc1+ the
/// king steps aside and the queen left on b6 falls). Each answer nets what
/// it takes among `targets` (the men this side's search would start on),
/// less what the other side then nets by captures of the men the exchange
/// left hanging, of the men the answer itself leaves en prise (a man the
/// king stops guarding as it steps away, one on a line its step opens, a
/// block left hanging) and of the man that took, or, where their king took,
/// by a forking check ([`forking_check`], Lichess 028yE's ...Qe4+); below 0
/// where every answer loses.
pub(super) fn best_answer_to_check(pos: &Chess, targets: Bitboard, premise: &Chess) -> i32 {
    best_answer_to_check_leaving(pos, targets, Bitboard::EMPTY, premise)
}

/// [`best_answer_to_check`], where the checking side may also take the
/// men `left` (of the side in check) whatever the answer.
pub(super) fn best_answer_to_check_leaving(pos: &Chess, targets: Bitboard, left: Bitboard, premise: &Chess) -> i32 {
    let board = pos.board();
    let left_hanging = newly_hanging(board, !pos.turn(), premise.board()) | guarded_by_the_king_alone(pos) | left;
    // Most often no answer can take a target or promote, and nothing is
    // left hanging: every answer nets 0, and none need be listed.
    let promoting = pos.our(Role::Pawn) & Bitboard::from_rank(pos.turn().fold_wb(Rank::Seventh, Rank::Second));
    if left_hanging.is_empty()
        && promoting.is_empty()
        && targets.into_iter().all(|sq| attackers(board, sq, pos.turn(), board.occupied()).is_empty())
    {
        return 0;
    }
    // An answer after which the checking side mates in one is played only
    // where every answer allows one (Lichess 07V4V: after ...Bf5+, Kg5
    // meets ...Qg3#, so Qxf5 ...Qxf5+ gives the queen: 7, not 2). Asked of
    // the best answer, and of the next where it does.
    let answers = pos.legal_moves();
    let mut barred = [0u64; 4];
    if answers.len() == 1 {
        // No other answer to play.
        return best_answer_among(pos, &answers, &barred, targets, left_hanging, premise).map_or(0, |(net, _)| net);
    }
    let mut best_of_all = None;
    while let Some((net, i)) = best_answer_among(pos, &answers, &barred, targets, left_hanging, premise) {
        best_of_all.get_or_insert(net);
        let mut after = pos.clone();
        after.play_unchecked(answers[i]);
        if mate_in_one(&after, Bitboard::EMPTY).is_none() {
            return net;
        }
        barred[i / 64] |= 1 << (i % 64);
    }
    best_of_all.unwrap_or(0)
}

/// The best of `answers` to the check in `pos` not `barred` (a bit per
/// index), and its index, as [`best_answer_to_check`] counts them.
fn best_answer_among(
    pos: &Chess,
    answers: &[Move],
    barred: &[u64; 4],
    targets: Bitboard,
    left_hanging: Bitboard,
    premise: &Chess,
) -> Option<(i32, usize)> {
    // The search nets the other side at least 0, so an answer nets at most
    // what it takes: one that cannot beat the best so far is not played,
    // and the search of one that can stops once it cannot.
    let mut best: Option<(i32, usize)> = None;
    for (i, &m) in answers.iter().enumerate() {
        if barred[i / 64] & 1 << (i % 64) != 0 {
            continue;
        }
        let counts = m.is_capture() && targets.contains(capture_square(m));
        let mut answered = left_hanging;
        if m.from().is_some_and(|from| answered.contains(from)) {
            answered.discard(m.from().expect("a board move"));
            answered.add(m.to());
        }
        if counts {
            answered.add(m.to());
        }
        let taken = if counts { captured_value(m) } else { 0 } + m.promotion().map_or(0, |role| value(role) - 1);
        if best.is_some_and(|(best, _)| taken <= best) {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        // What the answer itself leaves en prise may be taken too (Lichess
        // 07dNV: ...Ke6 clears the seventh rank for Rxd7).
        answered |= newly_hanging(after.board(), after.turn(), pos.board());
        if answered.is_empty() {
            best = Some((taken, i)); // nothing for the other side to take
            continue;
        }
        let found = Found::default();
        let bound = best.map_or(i32::MAX / 2, |(best, _)| taken - best);
        let theirs = capture_search(
            after.board(),
            after.turn(),
            CAPTURE_SEARCH_PLIES,
            0,
            bound,
            Scope::root(answered & after.them(), Loose::new(after.board(), premise, &found)),
            after.is_check(),
        );
        // Their king that takes steps into the open, and may walk into a
        // forking check, which may hit an undefended pawn too (Lichess
        // 028yE: ...Bxg2+ Kxg2, and ...Qe4+ forks the king and the c2 pawn).
        // Asked of a king's capture that would be the best answer so far
        // alone: each fork's answers are searched (asked of every capture,
        // 2 more dev gains for 35 instructions more). A capture that counts
        // leaves its square among `answered`, so it is asked here.
        let theirs = if theirs < bound && counts && m.role() == Role::King && !after.is_check() {
            theirs.max(forking_check(&after, premise, After::KingsCapture))
        } else {
            theirs
        };
        if theirs < bound {
            best = Some((taken - theirs, i));
        }
    }
    best
}

/// The men [`best_captures`] starts on: the man on `square`, and those of
/// the other side `turn` wins by taking them ([`won_by_taking`]) that were not
/// so in `premise`, are among `hits`, or that the line saved a while and
/// gave up again ([`SetupHits::relapsed`]).
pub(super) fn first_targets(
    board: &Board,
    turn: Color,
    square: Square,
    premise: &Board,
    hits: &SetupHits,
    attacks: Bitboard,
) -> Bitboard {
    let now = won_by_taking_seen(board, turn, board.by_color(!turn), attacks);
    let stood = won_by_taking(premise, turn, now);
    let stood = if stood.is_empty() { stood } else { stood & !hits.get() };
    let won = if stood.is_empty() { now } else { now & !(stood & !hits.relapsed(board, premise, stood)) };
    Bitboard::from_square(square) | won
}

/// Which captures a side may make in the [`capture_search`]: the side it
/// measures (the one that moves first) takes `men`, then anything; the
/// other side only answers.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scope<'a> {
    /// The measured side's captures: of `men`, and of another man with
    /// check where it loses nothing by its exchange (not one en prise in
    /// the premise). `loose`: its men the line left en prise since the key
    /// move, which the other side may take whenever it answers. `guard`:
    /// at the root, the position searched, where a capture that lets the
    /// other side mate (in one, or by checks with one answer each) is not
    /// played.
    /// `premise_off`: the measured side's captures once the other side
    /// has answered, which may not take a man en prise in the premise.
    /// `attacks`: at the root, where already found, the squares the
    /// measured side attacks (found as its first targets were).
    Targets { men: Bitboard, loose: Loose<'a>, guard: Option<&'a Chess>, premise_off: bool, attacks: Option<Bitboard> },
    /// The other side's, answering the capture that left `before` and
    /// landed on `to`: of the men that capture changed ([`answers`]) and the
    /// loose men, or of any man by a man the measured side attacks (it
    /// escapes with what it takes) or with check.
    Answers { before: &'a Board, to: Square, loose: Loose<'a> },
}

/// The measured side's men left en prise since the key move: hanging to
/// the other side at the search's root (`end`), not in `premise` (the
/// position before the key move), found once, where an answer first asks;
/// and the men its captures in the search put where they took (`took`),
/// which the other side may take back later, once it has answered a
/// check (Lichess 09vCU: Bxc8+ Kd8 Rxa1 Kxc8).
#[derive(Clone, Copy, Debug)]
pub(super) struct Loose<'a> {
    pub(super) end: &'a Board,
    pub(super) premise: &'a Board,
    /// The side to move in the premise: the solver, or the opponent where
    /// the premise is the position before its desperado ([`premise_of`](super::exchange::premise_of)).
    pub(super) to_move: Color,
    pub(super) found: &'a Found,
    pub(super) took: Bitboard,
}

/// What a search's [`Loose`] men find once, where first asked.
#[derive(Default, Debug)]
pub(super) struct Found {
    /// The measured side's men hanging at the root, not in the premise.
    hanging: OnceCell<Bitboard>,
    /// Each side's men en prise in the premise.
    premise: ByColor<OnceCell<Bitboard>>,
}

impl<'a> Loose<'a> {
    pub(super) fn new(end: &'a Board, premise: &'a Chess, found: &'a Found) -> Loose<'a> {
        Loose { end, premise: premise.board(), to_move: premise.turn(), found, took: Bitboard::EMPTY }
    }

    /// These and the man our capture put on `to`.
    fn with_taker_on(self, to: Square) -> Loose<'a> {
        Loose { took: self.took.with(to), ..self }
    }

    /// The men of the side to move in the premise en prise there.
    pub(super) fn premise_men(self) -> Bitboard {
        self.premise_men_of(self.to_move)
    }

    /// The men of `side` en prise in the premise.
    fn premise_men_of(self, side: Color) -> Bitboard {
        let premise = self.premise;
        *self.found.premise.get(side).get_or_init(|| won_by_taking(premise, !side, premise.by_color(side)))
    }

    /// Those men, of `side`'s opponent, that still stand on `board`
    /// (`side` is the answering side, the same throughout a search).
    fn on(self, board: &Board, side: Color) -> Bitboard {
        (*self.found.hanging.get_or_init(|| newly_hanging(self.end, side, self.premise)) | self.took)
            & board.by_color(!side)
    }
}

impl<'a> Scope<'a> {
    /// The measured side's scope at the search's root.
    pub(super) fn root(men: Bitboard, loose: Loose<'a>) -> Scope<'a> {
        Scope::Targets { men, loose, guard: None, premise_off: false, attacks: None }
    }

    /// [`Scope::root`] on the position `guard`, whose first captures may
    /// not let the other side mate ([`Scope::lets_them_mate`]).
    fn guarded(men: Bitboard, loose: Loose<'a>, guard: &'a Chess) -> Scope<'a> {
        Scope::Targets { men, loose, guard: Some(guard), premise_off: false, attacks: None }
    }

    /// Whether the capture of the man on `to` by the `role` on `from`, where
    /// this scope guards the position, lets the other side mate: in one
    /// (Lichess 04uIX: ...Qxc6 takes the pinning queen, and Rd8# follows)
    /// or by checks with one answer each ([`forced_mate`], two deep:
    /// 08O6I's ...Rxd6 meets Re8+ ...Rf8 Rxf8#). Such a capture is not
    /// played.
    fn lets_them_mate(self, role: Role, from: Square, to: Square, promotion: Option<Role>) -> bool {
        let Scope::Targets { guard: Some(pos), .. } = self else { return false };
        let mut after = pos.clone();
        after.play_unchecked(Move::Normal { role, from, capture: pos.board().role_at(to), to, promotion });
        forced_mate(&after, 2)
    }

    /// The next side's scope once a capture landing on `to` has been
    /// played on `before`. Once the other side has answered, the measured
    /// side may take any man but one of theirs that stood en prise to it
    /// before the key move, the premise, as at the root: a first capture
    /// of it is no part of the tactic (Lichess 02JPn: after ...Nxc3+ bxc3
    /// ...Nxe4 Rxe4, ...Bxf2 takes a pawn the f5 rook hit all along: 6,
    /// not 7; c6330: 16 of 18 right by captures alone, the old none); nor
    /// may the opponent take a man of ours so (05uHR: after ...cxb3, axb3
    /// ...Nxd5 and Qxa7 would take a pawn the queen hit before the key
    /// move: 0, not 1). (The men the setup move's piece hit, which the
    /// root counts, are not told apart here: a later capture of one is
    /// rare. Where the premise is the position before a desperado, the
    /// sides turn round, as [`first_targets`] holds both sides to the
    /// premise.)
    pub(super) fn next(self, before: &'a Board, to: Square) -> Scope<'a> {
        match self {
            Scope::Targets { loose, .. } => Scope::Answers { before, to, loose: loose.with_taker_on(to) },
            Scope::Answers { loose, .. } => {
                Scope::Targets { men: Bitboard::FULL, loose, guard: None, premise_off: true, attacks: None }
            }
        }
    }

    /// The men the line left loose, and the premise, this scope holds to.
    fn loose(self) -> Loose<'a> {
        match self {
            Scope::Targets { loose, .. } | Scope::Answers { loose, .. } => loose,
        }
    }

    /// Whether `us`, to move on `board`, may take the man on `victim` with
    /// the man on `from` (without check: an answer off the men the last
    /// capture changed must give check).
    pub(super) fn allows(self, board: &Board, us: Color, from: Square, victim: Square) -> bool {
        match self {
            Scope::Targets { men, loose, premise_off, .. } => {
                men.contains(victim) && !(premise_off && loose.premise_men_of(!us).contains(victim))
            }
            Scope::Answers { before, to, loose } => {
                // Besides: a man of ours they attack escapes with what it
                // takes, and a lesser man takes a greater whatever follows,
                // but not a man that stood en prise before the key move
                // (Lichess 0A74b: the bishop that took our queen on the
                // setup move).
                answers(before, board, us, to, victim)
                    || loose.on(board, us).contains(victim)
                    || ((attackers(board, from, !us, board.occupied()).any()
                        || board.role_at(victim).map_or(0, value) > board.role_at(from).map_or(0, value))
                        && hanging(loose.premise, us, Bitboard::from_square(victim)).is_empty())
            }
        }
    }
}

/// Negamax over captures by `us` on `board` within `scope` with alpha-beta
/// bounds: what the side to move nets, at least 0, a capture without check
/// on the last ply counted by its static exchange ([`see`]). Captures need
/// only the men: no castling, en passant or clocks, so the search plays
/// them on a bare [`Board`] rather than on a `Chess`.
pub(super) fn capture_search(
    board: &Board,
    us: Color,
    plies: u32,
    mut alpha: i32,
    beta: i32,
    scope: Scope,
    check: bool,
) -> i32 {
    if plies == 0 {
        return alpha.max(0);
    }
    let (occupied, king) = (board.occupied(), board.king_of(us));
    if check {
        let checkers = king.map_or(Bitboard::EMPTY, |king| attackers(board, king, !us, occupied));
        return evade(board, us, checkers, plies, alpha, beta, scope);
    }
    alpha = alpha.max(0);
    if alpha >= beta {
        return alpha;
    }
    // No capture nets more than the most valuable man it may take (and a
    // promotion on the way), unless it gives check: a side in check may not
    // stop. Where that cannot raise `alpha`, nothing to look at.
    let them = board.by_color(!us)
        & match scope {
            Scope::Targets { men, .. } => men,
            Scope::Answers { .. } => Bitboard::FULL,
        };
    let most = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
        .into_iter()
        .find(|&role| (them & board.by_role(role)).any())
        .map_or(0, value);
    let promoting = board.by_color(us) & board.pawns() & Bitboard::from_rank(us.fold_wb(Rank::Seventh, Rank::Second));
    let bonus = if promoting.any() { value(Role::Queen) - 1 } else { 0 };
    // One pass over our men says which of theirs are attacked at all: most
    // are not, and their attackers need not be asked.
    let attacked = match scope {
        Scope::Targets { attacks: Some(attacks), .. } => attacks,
        _ => attacked_by(board, us),
    };
    let mut victims = them & attacked;
    if let Scope::Targets { loose, premise_off: true, .. } = scope {
        if victims.any() {
            victims &= !loose.premise_men_of(!us);
        }
    }
    // Found where a capture first asks.
    let checks = OnceCell::new();
    let checks = || checks.get_or_init(|| Checks::of(board, us));
    // Where the first captures are held to their targets, a capture of
    // another man with check may still come first: the side it checks must
    // answer, and the capture on the targets follows (Lichess 04fOl: hxg7+
    // Kxg7, then Kxd2, a pawn traded, not lost).
    if let Scope::Targets { men, .. } = scope {
        let others = board.by_color(!us) & !men & attacked;
        if others.any() {
            // A discoverer, or a pawn on the king's lines that promotes,
            // may check whatever it takes.
            let may = if checks().discoverers.any() || (promoting & checks().lines).any() {
                others
            } else {
                others & checks().lines
            };
            if may.any() {
                victims |= may;
            }
        }
    }
    if victims.is_empty() {
        return alpha;
    }
    if most + bonus <= alpha && !checks().any(victims, promoting) {
        return alpha;
    }
    // Value-ordered (the most valuable victims first, the least valuable
    // capturer first among equals): the best answers are searched first.
    let last_rank = us.fold_wb(Rank::Eighth, Rank::First);
    let classes = [
        (value(Role::King), board.kings()),
        (value(Role::Queen), board.queens()),
        (value(Role::Rook), board.rooks()),
        (value(Role::Bishop), board.bishops() | board.knights()),
        (value(Role::Pawn), board.pawns()),
    ];
    let capturers = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    for (worth, men) in classes {
        let class = men & victims;
        if class.is_empty() {
            continue;
        }
        // Every capture from here on nets at most `worth` and a promotion,
        // checks aside: none can raise `alpha`.
        if worth + bonus <= alpha && !checks().any(victims, promoting) {
            break;
        }
        // The victims of the class, by square, with their attackers (a side
        // has at most 16 men).
        let mut hit = [(Square::A1, Bitboard::EMPTY); 16];
        let (mut hits, mut capturing) = (0, Bitboard::EMPTY);
        for to in class {
            hit[hits] = (to, attackers(board, to, us, occupied));
            capturing |= hit[hits].1;
            hits += 1;
        }
        for role in capturers {
            let ours = board.by_role(role) & capturing;
            if ours.is_empty() {
                continue;
            }
            for &(to, attacking) in &hit[..hits] {
                let promotes = role == Role::Pawn && to.rank() == last_rank;
                let won = worth + if promotes { value(Role::Queen) - 1 } else { 0 };
                for from in attacking & ours {
                    // An answer not in check nets at least 0, so this
                    // capture nets at most `won`: where that cannot raise
                    // `alpha`, nothing need be played, nor its legality asked.
                    let may_check = checks().may(from, to, promotes);
                    if (won <= alpha && !may_check)
                        || !capture_leaves_king_safe(board, us, king, Bitboard::EMPTY, role, from, to)
                    {
                        continue;
                    }
                    let answering = !scope.allows(board, us, from, to);
                    // On the last ply, no plies left to answer in, a capture
                    // without check counts as its exchange on the square
                    // (Lichess 07GSL: Rxb6, which the king takes back).
                    let on_the_last_ply = || if promotes { won } else { see(board, from, to, worth) }.min(beta);
                    let net = if plies == 1 && !answering && !may_check {
                        on_the_last_ply()
                    } else {
                        let mut after = board.clone();
                        after.discard_piece_at(from);
                        after.set_piece_at(to, if promotes { Role::Queen } else { role }.of(us));
                        let check = may_check && checks_on(&after, us);
                        if (answering || won <= alpha) && !check {
                            continue;
                        }
                        // A check off the targets is no way in where it
                        // loses its man, or takes one that stood en prise
                        // before the key move: that is the puzzle's premise.
                        if let Scope::Targets { loose, .. } = scope {
                            if answering
                                && (see(board, from, to, worth) < 0
                                    || won_by_taking(loose.premise, us, Bitboard::from_square(to)).any())
                            {
                                continue;
                            }
                        }
                        let net = if plies == 1 && !check {
                            on_the_last_ply()
                        } else {
                            let next = scope.next(board, to);
                            won - capture_search(
                                &after,
                                !us,
                                beyond(plies, check),
                                won - beta,
                                won - alpha,
                                next,
                                check,
                            )
                        };
                        // Asked only of a capture that would count.
                        if net > alpha && scope.lets_them_mate(role, from, to, promotes.then_some(Role::Queen)) {
                            continue;
                        }
                        net
                    };
                    alpha = alpha.max(net);
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
        }
    }
    alpha
}

/// Where `us`'s captures on a board may give check: landing on a square
/// that sees the enemy king (a man a slider would check from, a knight's
/// square or a pawn's), or leaving one between the king and a slider of
/// ours. Moves it flags are played out to find out; every one it leaves is
/// no check.
struct Checks {
    /// Squares on the enemy king's lines (up to the first man each way) and
    /// its knight squares.
    lines: Bitboard,
    /// Our men that alone stand between the enemy king and a slider of ours.
    discoverers: Bitboard,
}

impl Checks {
    fn of(board: &Board, us: Color) -> Checks {
        let Some(king) = board.king_of(!us) else {
            return Checks { lines: Bitboard::EMPTY, discoverers: Bitboard::EMPTY };
        };
        let occupied = board.occupied();
        let lines = attacks::queen_attacks(king, occupied) | attacks::knight_attacks(king);
        let ours = board.by_color(us);
        let aimed = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for slider in aimed {
            let between = attacks::between(king, slider) & occupied;
            if between.single_square().is_some() && (between & ours).any() {
                discoverers |= between;
            }
        }
        Checks { lines, discoverers }
    }

    /// Whether the capture from `from` to `to` may give check: landing on
    /// the king's lines, uncovering a slider, or a pawn promoting from them
    /// (a queen on a8 checks through b7, the square it left).
    fn may(&self, from: Square, to: Square, promotes: bool) -> bool {
        self.lines.contains(to) || self.discoverers.contains(from) || (promotes && self.lines.contains(from))
    }

    /// Whether any capture of `victims`, or by one of the `promoting` pawns,
    /// may give check.
    fn any(&self, victims: Bitboard, promoting: Bitboard) -> bool {
        (victims & self.lines).any() || self.discoverers.any() || (promoting & self.lines).any()
    }
}

/// The plies left to the answer of a capture played with `plies` left: a
/// capture with check on the last ply is answered all the same (Lichess
/// 05Vzs: ...Qxf2+ is met by Kxf2). The answer to a check ([`evade`])
/// takes a ply whatever it does, so a search runs at most twice its
/// plies deep.
fn beyond(plies: u32, check: bool) -> u32 {
    if check {
        plies.max(2) - 1
    } else {
        plies - 1
    }
}

/// [`capture_search`] for `us`, in check on `board` from `checkers`: it
/// may not stop, so it plays its best legal answer, a capture or not, and
/// the other side's search goes on from there (Lichess 040Jq: ...Qxf1+
/// Kd2 ...Qxf2+ wins the pawn too; the king steps only where it may
/// stand). A mated side stops where it is: the search weighs material
/// only. Answers above `beta` return `beta`.
fn evade(board: &Board, us: Color, checkers: Bitboard, plies: u32, mut alpha: i32, beta: i32, scope: Scope) -> i32 {
    let Some(king) = board.king_of(us) else { return alpha.max(0) };
    let (occupied, ours) = (board.occupied(), board.by_color(us));
    // Every legal answer: king steps, captures of a lone checker, and
    // blocks of a slider's line (a pawn by a push), each asked whether it
    // leaves the king safe.
    // (A move list is filled without first clearing its room.)
    let mut answers = MoveList::new();
    let mut add = |role: Role, from: Square, to: Square| {
        if capture_leaves_king_safe(board, us, Some(king), checkers, role, from, to) {
            answers.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    };
    for to in attacks::king_attacks(king) & !ours {
        add(Role::King, king, to);
    }
    if let Some(checker) = checkers.single_square() {
        let others = ours & !board.kings();
        for from in attackers(board, checker, us, occupied) & others {
            add(board.role_at(from).expect("a man"), from, checker);
        }
        let forward = us.fold_wb(8, -8);
        for to in attacks::between(checker, king) {
            for from in attackers(board, to, us, occupied) & others & !board.pawns() {
                add(board.role_at(from).expect("a man"), from, to);
            }
            // A pawn blocks by a push, one square or two from its rank.
            let pawns = others & board.pawns();
            let behind = to.offset(-forward).filter(|&sq| pawns.contains(sq));
            let double = to
                .offset(-forward)
                .filter(|&sq| !occupied.contains(sq) && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth))
                .and_then(|sq| sq.offset(-forward))
                .filter(|&sq| pawns.contains(sq));
            if let Some(from) = behind.or(double) {
                add(Role::Pawn, from, to);
            }
        }
    }
    if answers.is_empty() {
        return alpha.max(0);
    }
    let last_rank = us.fold_wb(Rank::Eighth, Rank::First);
    // The opponent's answer that takes a man of ours en prise before the
    // key move takes the puzzle's premise, no part of the tactic, as its
    // captures are held off it in the search (Lichess 0AHFA: Qxh8+ ...Ke7
    // Qxh7+ ...Ke6 Qxg6+ ...Kxe5 takes a bishop the a1 bishop hit all
    // along).
    let loose = scope.loose();
    let premise = || if us == loose.to_move { Bitboard::EMPTY } else { loose.premise_men() };
    for &answer in &answers {
        let Move::Normal { role, from, to, .. } = answer else { continue };
        let promotes = role == Role::Pawn && to.rank() == last_rank;
        let taken =
            if occupied.contains(to) && !premise().contains(to) { board.role_at(to).map_or(0, value) } else { 0 };
        let won = taken + if promotes { value(Role::Queen) - 1 } else { 0 };
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, if promotes { Role::Queen } else { role }.of(us));
        let check = checks_on(&after, us);
        // As in the search: a move nets at most what it takes, checks aside.
        if won <= alpha && !check {
            continue;
        }
        let net = won - capture_search(&after, !us, plies - 1, won - beta, won - alpha, scope.next(board, to), check);
        alpha = alpha.max(net);
        if alpha >= beta {
            return beta;
        }
    }
    alpha
}
