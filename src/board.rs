//! Board analysis primitives shared by every detector: values, attackers and
//! x-ray defenders, pins, static exchange, profitable captures and flight
//! squares. Bitboards throughout, nothing allocates.
//!
//! Definitions follow spec §3:
//!
//! * **Attacks / defends** are pseudo-legal attack geometry (pawns attack
//!   diagonally), as [`shakmaty::attacks`] gives it.
//! * An **x-ray defender** would defend a square once one enemy slider
//!   standing between it and the square on the same line is removed.
//! * A **profitable capture** of the piece on X: the static exchange on X,
//!   starting with the least valuable *legal* capture, is > 0.
//! * The **static exchange** alternates least valuable attackers, reveals
//!   x-rays behind them, lets a king capture only onto an unattacked square,
//!   and ignores pins; each side may stop.

use shakmaty::{
    attacks, Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Move, Piece,
    Position, Rank, Role, Square,
};

/// A king is worth more than anything: it is "behind" an absolute pin and can
/// never be defended by trading.
pub const KING_VALUE: i32 = 1000;

/// Piece values in pawns: P 1, N 3, B 3, R 5, Q 9, K [`KING_VALUE`].
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => KING_VALUE,
    }
}

/// Value of the piece on `sq`, 0 for an empty square.
pub fn value_at(board: &Board, sq: Square) -> i32 {
    board.role_at(sq).map_or(0, value)
}

/// Material of one side, kings excluded.
pub fn material(board: &Board, color: Color) -> i32 {
    let side = board.by_color(color);
    // Knights and bishops are worth the same: counted together.
    let count = |men: Bitboard| (men & side).count() as i32;
    value(Role::Pawn) * count(board.pawns())
        + value(Role::Knight) * count(board.knights() | board.bishops())
        + value(Role::Rook) * count(board.rooks())
        + value(Role::Queen) * count(board.queens())
}

/// The solver's material minus the opponent's.
pub fn balance(board: &Board, solver: Color) -> i32 {
    material(board, solver) - material(board, !solver)
}

/// Squares of `bb` in an order that is the same for both colours once the
/// board is mirrored: rank by rank from `color`'s own back rank. Detectors
/// that pick one of several candidates iterate this way, so a mirrored
/// puzzle picks the mirrored candidate.
pub fn relative_squares(bb: Bitboard, color: Color) -> impl Iterator<Item = Square> {
    let oriented = if color == Color::White { bb } else { bb.flip_vertical() };
    oriented.into_iter().map(move |sq| if color == Color::White { sq } else { sq.flip_vertical() })
}

/// The rank of `sq` as `color` counts them (its first rank is `Rank::First`).
pub fn relative_rank(sq: Square, color: Color) -> Rank {
    match color {
        Color::White => sq.rank(),
        Color::Black => sq.rank().flip_vertical(),
    }
}

/// Position of `sq` in the colour-relative order of [`relative_squares`].
pub fn relative_index(sq: Square, color: Color) -> u8 {
    if color == Color::White {
        sq as u8
    } else {
        sq.flip_vertical() as u8
    }
}

/// Pseudo-legal attackers of `sq` by `color`, with `occupied` as the blockers.
pub fn attackers(board: &Board, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
    board.attacks_to(sq, color, occupied) & occupied
}

/// Every square some man of `color` attacks (pseudo-legal geometry, its own
/// men's squares included): `sq` is in it exactly where
/// `attackers(board, sq, color, board.occupied())` is not empty. One pass
/// over the side's men answers that for every square at once.
pub fn attacked_by(board: &Board, color: Color) -> Bitboard {
    let (side, occupied) = (board.by_color(color), board.occupied());
    let pawns = side & board.pawns();
    // A pawn attacks one rank ahead, a file either way (off the edge files).
    let (not_a, not_h) = (!Bitboard::from_file(shakmaty::File::A), !Bitboard::from_file(shakmaty::File::H));
    let mut attacked = match color {
        Color::White => (pawns & not_a).shift(7) | (pawns & not_h).shift(9),
        Color::Black => (pawns & not_a).shift(-9) | (pawns & not_h).shift(-7),
    };
    for sq in side & board.knights() {
        attacked |= attacks::knight_attacks(sq);
    }
    for sq in side & board.kings() {
        attacked |= attacks::king_attacks(sq);
    }
    for sq in side & board.bishops_and_queens() {
        attacked |= attacks::bishop_attacks(sq, occupied);
    }
    for sq in side & board.rooks_and_queens() {
        attacked |= attacks::rook_attacks(sq, occupied);
    }
    attacked
}

/// Those of `squares` that `color` attacks: `attacked_by`'s answer. Where
/// `squares` is one square (most of `gain`'s questions are of one man), its
/// attackers alone are asked, which spares the map of every man's attacks.
pub fn attacked_by_at(board: &Board, color: Color, squares: Bitboard) -> Bitboard {
    match squares.single_square() {
        Some(sq) if attackers(board, sq, color, board.occupied()).is_empty() => Bitboard::EMPTY,
        Some(_) => squares,
        None => attacked_by(board, color) & squares,
    }
}

/// The king's-move distance between two squares: shakmaty's
/// `Square::distance`, which is not marked inline, so that it inlines
/// where Koga asks (the per-ply corner distances of the side-attack rules).
#[inline]
pub fn distance(a: Square, b: Square) -> u32 {
    let files = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    files.max(ranks)
}

/// The squares a `piece` on `sq` attacks, `occupied` the blockers:
/// shakmaty's `attacks::attacks`, which is not marked inline, so that the
/// per-role lookups inline where Koga asks (0.5 % of its instructions were
/// the calls).
#[inline]
pub fn piece_attacks(sq: Square, piece: Piece, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => attacks::pawn_attacks(piece.color, sq),
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
    }
}

/// What the man on `sq` attacks (`Board::attacks_from`, inlined as
/// [`piece_attacks`] is); nothing on an empty square.
#[inline]
pub fn attacks_from(board: &Board, sq: Square) -> Bitboard {
    board.piece_at(sq).map_or(Bitboard::EMPTY, |piece| piece_attacks(sq, piece, board.occupied()))
}

/// Whether `role` slides along the line through `a` and `b`.
fn slides_between(role: Role, a: Square, b: Square) -> bool {
    let rook_line = attacks::rook_attacks(a, Bitboard::EMPTY).contains(b);
    let bishop_line = attacks::bishop_attacks(a, Bitboard::EMPTY).contains(b);
    match role {
        Role::Rook => rook_line,
        Role::Bishop => bishop_line,
        Role::Queen => rook_line || bishop_line,
        _ => false,
    }
}

/// Sliders of `by` aimed at `sq` along their line with at most one man
/// between: the ones that check it now, pin what stands in front of it, or
/// would once that man moves.
pub fn sliders_aimed_at(board: &Board, sq: Square, by: Color) -> Bitboard {
    let occupied = board.occupied();
    let mut aimed = Bitboard::EMPTY;
    for slider in board.by_color(by) & board.sliders() {
        let role = board.role_at(slider).expect("slider on its square");
        if slider != sq && slides_between(role, slider, sq) && (attacks::between(slider, sq) & occupied).count() <= 1 {
            aimed.add(slider);
        }
    }
    aimed
}

/// X-ray defenders of `sq` for `color` (spec §3): sliders of `color` with
/// exactly one piece between them and `sq` on their line, an enemy slider
/// that attacks `sq` along that same line, and so is traded off in the
/// exchange there first. An enemy piece that only blocks the line (a
/// bishop across a rook's file) cuts the guard off: that is interference.
pub fn xray_defenders(board: &Board, sq: Square, color: Color) -> Bitboard {
    // Looking out from `sq`: each line's first man, and where that man is
    // an enemy slider of the line, the man behind it once it is lifted.
    let occupied = board.occupied();
    let (ours, theirs) = (board.by_color(color), board.by_color(!color));
    let behind = |sliders: Bitboard, line: fn(Square, Bitboard) -> Bitboard| {
        let first = line(sq, occupied);
        let lifted = first & theirs & sliders;
        line(sq, occupied & !lifted) & !first & ours & sliders
    };
    behind(board.rooks_and_queens(), attacks::rook_attacks)
        | behind(board.bishops_and_queens(), attacks::bishop_attacks)
}

/// Spec §3 "defended": any friendly man attacks the square (the king
/// included, even where its recapture would be illegal), or an x-ray
/// defender stands behind an enemy slider.
pub fn is_defended(board: &Board, sq: Square, defender: Color) -> bool {
    attackers(board, sq, defender, board.occupied()).any() || xray_defenders(board, sq, defender).any()
}

/// The piece on `sq` stands badly: it is attacked, and either undefended or
/// attackable by a cheaper piece than itself (a king aside).
pub fn in_bad_spot(board: &Board, sq: Square) -> bool {
    let (Some(color), Some(role)) = (board.color_at(sq), board.role_at(sq)) else { return false };
    let enemies = attackers(board, sq, !color, board.occupied());
    let cheaper =
        enemies.into_iter().any(|a| board.role_at(a).is_some_and(|r| r != Role::King && value(r) < value(role)));
    enemies.any() && (!is_defended(board, sq, color) || cheaper)
}

/// The least valuable piece in `candidates`, if any; ties go to the first
/// in colour-relative order.
pub fn least_valuable(board: &Board, candidates: Bitboard) -> Option<(Square, Role)> {
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        let of_role = candidates & board.by_role(role);
        if let Some(sq) = of_role.first() {
            return Some((sq, role));
        }
    }
    None
}

/// Whether `by` wins material by taking the piece on `sq` with its least
/// valuable attacker that no pin to its king holds off the square, by the
/// static exchange, whoever is to move: the piece stands en prise on this
/// board, even where a check to answer makes the capture wait.
pub fn en_prise(board: &Board, sq: Square, by: Color) -> bool {
    let free: Bitboard =
        attackers(board, sq, by, board.occupied()).into_iter().filter(|&a| !held_off(board, a, sq)).collect();
    let Some((from, _)) = least_valuable(board, free) else { return false };
    see(board, from, sq, value_at(board, sq)) > 0
}

/// The piece on `piece` is pinned to its king on a line that `sq` is off:
/// it cannot legally move to `sq`.
pub fn held_off(board: &Board, piece: Square, sq: Square) -> bool {
    pins_off_the_line(board, piece, sq).any(|pin| board.role_at(pin.behind) == Some(Role::King))
}

/// The pins of the piece on `piece` whose line `sq` is off: moving there
/// gives up what stands behind it (its king, or a man worth more).
pub fn pins_off_the_line(board: &Board, piece: Square, sq: Square) -> impl Iterator<Item = Pin> + '_ {
    pins_of(board, piece).filter(move |pin| !attacks::ray(pin.pinner, pin.behind).contains(sq))
}

/// The piece on `sq` is pinned to its king.
pub fn pinned_to_king(board: &Board, sq: Square) -> bool {
    pins_of(board, sq).any(|pin| board.role_at(pin.behind) == Some(Role::King))
}

/// Static exchange evaluation: material won by the side moving the piece on
/// `from` when it captures on `to`, if both sides then capture with their
/// least valuable attacker and either may stop. `captured` is the value of
/// what the first capture takes (it differs from the piece on `to` only for
/// en passant). Pins are ignored; x-rays are revealed as pieces leave.
pub fn see(board: &Board, from: Square, to: Square, captured: i32) -> i32 {
    let Some(first) = board.role_at(from) else { return 0 };
    let Some(mut side) = board.color_at(from) else { return 0 };
    let mut occupied = board.occupied();
    occupied.discard(from);
    occupied.add(to);
    // Both sides' attackers, found once; as a man leaves, only the sliders
    // it uncovers join (the x-rays), rather than every attacker asked anew.
    let (diagonal, straight) = (board.bishops() | board.queens(), board.rooks() | board.queens());
    let sliders_through = |occupied: Bitboard| {
        (attacks::bishop_attacks(to, occupied) & diagonal | attacks::rook_attacks(to, occupied) & straight) & occupied
    };
    let mut all = (board.attacks_to(to, Color::White, occupied) | board.attacks_to(to, Color::Black, occupied))
        & occupied
        & !Bitboard::from(to);
    let mut gains = [0i32; 33];
    gains[0] = captured;
    let mut on_square = value(first);
    let mut depth = 0;
    while depth < 32 {
        side = !side;
        let Some((sq, role)) = least_valuable(board, all & board.by_color(side)) else {
            break;
        };
        let mut left = occupied;
        left.discard(sq);
        // A knight stands on no line through `to`: nothing behind it.
        let after = if role == Role::Knight { all.without(sq) } else { (all & left) | sliders_through(left) };
        // The king takes only where nothing takes it back.
        if role == Role::King && (after & board.by_color(!side)).any() {
            break;
        }
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = value(role);
        occupied = left;
        all = after;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The least valuable legal capture onto `sq` for the side to move; ties
/// go to the better exchange (a pawn that reaches the last rank promotes
/// to a queen).
pub fn least_valuable_legal_capture(pos: &Chess, sq: Square) -> Option<Move> {
    legal_capture_and_gain(pos, sq).map(|(m, _)| m)
}

/// [`least_valuable_legal_capture`], and its static exchange where a tie
/// had it computed already.
fn legal_capture_and_gain(pos: &Chess, sq: Square) -> Option<(Move, Option<i32>)> {
    let board = pos.board();
    if !board.by_color(!pos.turn()).contains(sq) {
        return None;
    }
    // Nothing attacks it, most often: no checkers to find.
    let attacking = attackers(board, sq, pos.turn(), board.occupied());
    if attacking.is_empty() {
        return None;
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        // Only the king moves: shakmaty's candidates.
        return candidate_capture(pos, sq).map(|m| (m, None));
    }
    let victim = board.role_at(sq);
    let captured = victim.map_or(0, value);
    let last_rank = pos.turn().fold_wb(Rank::Eighth, Rank::First);
    let gain = |m: Move| see(board, m.from().expect("board move"), sq, captured);
    let king = board.king_of(pos.turn());
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        let promotion = (role == Role::Pawn && sq.rank() == last_rank).then_some(Role::Queen);
        // Each attacker reaches the square by its own rules already: only
        // whether its king stands safe afterwards is left to ask.
        let mut legal = (attacking & board.by_role(role))
            .into_iter()
            .filter(|&from| capture_leaves_king_safe(board, pos.turn(), king, checkers, role, from, sq))
            .map(|from| Move::Normal { role, from, capture: victim, to: sq, promotion });
        let Some(first) = legal.next() else { continue };
        // A lone capture of its kind needs no exchange to pick it; among
        // several the last of the best wins (as `max_by_key` picks).
        let mut best = (first, None);
        for m in legal {
            let best_gain = best.1.unwrap_or_else(|| gain(best.0));
            let m_gain = gain(m);
            best = if m_gain >= best_gain { (m, Some(m_gain)) } else { (best.0, Some(best_gain)) };
        }
        return Some(best);
    }
    None
}

/// [`least_valuable_legal_capture`] from shakmaty's legal moves.
fn candidate_capture(pos: &Chess, sq: Square) -> Option<Move> {
    let board = pos.board();
    let attacking = attackers(board, sq, pos.turn(), board.occupied());
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        if (attacking & board.by_role(role)).is_empty() {
            continue;
        }
        let candidates = pos.san_candidates(role, sq);
        let best = candidates.iter().filter(|m| m.is_capture()).max_by_key(|m| {
            (see(pos.board(), m.from().expect("board move"), sq, value_at(pos.board(), sq)), m.promotion())
        });
        if let Some(m) = best {
            return Some(*m);
        }
    }
    None
}

/// Whether the side to move in `pos` can legally capture on `to` with the
/// piece on `from` (seed 001's "could already legally capture").
pub fn can_capture(pos: &Chess, from: Square, to: Square) -> bool {
    let Some(role) = pos.board().role_at(from) else { return false };
    if !pos.board().by_color(!pos.turn()).contains(to) {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return pos.san_candidates(role, to).iter().any(|m| m.from() == Some(from) && m.is_capture());
    }
    let last_rank = pos.turn().fold_wb(Rank::Eighth, Rank::First);
    let promotion = (role == Role::Pawn && to.rank() == last_rank).then_some(Role::Queen);
    legal_plain_move_with(pos, from, to, promotion, checkers).is_some()
}

/// The move of the man on `from` to `to` by its own rules, `Some` only
/// where it is legal: a few bitboard lookups, no move list. `None` also
/// where this cannot tell cheaply (castling, en passant, double check):
/// ask shakmaty there. A man moving by its own rules is legal when its king
/// is not attacked afterwards; with the king standing still and at most
/// one checker, only that checker (unless taken or blocked) and sliders the
/// move uncovers can attack it.
pub fn legal_plain_move(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    plain_move(pos, from, to, promotion, None)
}

/// [`legal_plain_move`] where the pieces giving check (`pos.checkers()`)
/// are known already: a caller judging many moves asks for them once.
pub fn legal_plain_move_with(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    checkers: Bitboard,
) -> Option<Move> {
    plain_move(pos, from, to, promotion, Some(checkers))
}

/// [`legal_plain_move`], with the pieces giving check where they are known.
/// Where they are not, a man other than the king is legal where no enemy
/// man but one it takes attacks its king once it moved: one look from the
/// king, rather than the checkers found first and then the lines asked.
fn plain_move(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    checkers: Option<Bitboard>,
) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let role = board.role_at(from)?;
    let ours = board.by_color(us);
    if !ours.contains(from) || ours.contains(to) {
        return None;
    }
    let occupied = board.occupied();
    let capture = board.role_at(to);
    let reaches = match role {
        Role::Pawn => {
            let last = us.fold_wb(Rank::Eighth, Rank::First);
            let promotes = matches!(promotion, Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen));
            if promotes != (to.rank() == last) || (promotion.is_some() && !promotes) {
                return None;
            }
            let forward = us.fold_wb(8, -8);
            let one = from.offset(forward).filter(|&one| !occupied.contains(one));
            let two = one
                .filter(|_| from.rank() == us.fold_wb(Rank::Second, Rank::Seventh))
                .and_then(|one| one.offset(forward));
            match capture {
                Some(_) => attacks::pawn_attacks(us, from).contains(to),
                // A diagonal step to an empty square (en passant) is not read here.
                None => one == Some(to) || two == Some(to),
            }
        }
        // Two squares, or onto its own rook, is castling: not read here.
        Role::King => promotion.is_none() && attacks::king_attacks(from).contains(to),
        _ => promotion.is_none() && piece_attacks(from, role.of(us), occupied).contains(to),
    };
    if !reaches {
        return None;
    }
    let after = occupied.without(from).with(to);
    let them = board.by_color(!us).without(to);
    let safe = if role == Role::King {
        // Whatever gives check: every attacker of the square is seen.
        (board.attacks_to(to, !us, after) & them).is_empty()
    } else if let Some(checkers) = checkers {
        if checkers.more_than_one() {
            return None;
        }
        let king = board.king_of(us)?;
        let answers_check = checkers
            .single_square()
            .is_none_or(|checker| to == checker || attacks::between(checker, king).contains(to));
        let uncovered = attacks::rook_attacks(king, after) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, after) & board.bishops_and_queens();
        answers_check && (uncovered & them).is_empty()
    } else {
        let king = board.king_of(us)?;
        (board.attacks_to(king, !us, after) & them).is_empty()
    };
    safe.then_some(Move::Normal { role, from, capture, to, promotion })
}

/// Whether `us`, with its king on `king` and `checkers` (at most one)
/// giving check, may take the enemy man on `to` with its `role` on `from`,
/// which attacks it: `plain_move`'s test of the king's safety.
pub fn capture_leaves_king_safe(
    board: &Board,
    us: Color,
    king: Option<Square>,
    checkers: Bitboard,
    role: Role,
    from: Square,
    to: Square,
) -> bool {
    let after = board.occupied().without(from).with(to);
    let them = board.by_color(!us).without(to);
    if role == Role::King {
        return (board.attacks_to(to, !us, after) & them).is_empty();
    }
    let Some(king) = king else { return false };
    let answers_check =
        checkers.single_square().is_none_or(|checker| to == checker || attacks::between(checker, king).contains(to));
    let uncovered = attacks::rook_attacks(king, after) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, after) & board.bishops_and_queens();
    answers_check && (uncovered & them).is_empty()
}

/// What the side to move wins by capturing the piece on `sq`, starting with
/// its least valuable legal capture; `None` when it cannot capture there.
pub fn capture_gain(pos: &Chess, sq: Square) -> Option<i32> {
    let (m, gain) = legal_capture_and_gain(pos, sq)?;
    Some(gain.unwrap_or_else(|| see(pos.board(), m.from().expect("board move"), sq, value_at(pos.board(), sq))))
}

/// Spec §3 "profitable capture": the side to move wins material by capturing
/// the piece on `sq`.
pub fn profitable_capture(pos: &Chess, sq: Square) -> bool {
    capture_gain(pos, sq).is_some_and(|g| g > 0)
}

/// The same position with the other side to move (no en passant), or `None`
/// where that is impossible (the side not to move would be in check). The
/// move clocks aside, it is the position `swap_turn_by_setup` builds; it
/// is not validated again: a legal position with the other side to move is
/// legal unless the side to move stands in check. A man "moved" onto its
/// own square passes the turn and leaves the board, the castling rights and
/// everything else as they were (a king or a rook with castling rights
/// would drop them: none is used).
pub fn swap_turn(pos: &Chess) -> Option<Chess> {
    if pos.is_check() {
        return None;
    }
    let board = pos.board();
    let still = pos.us() & !board.kings() & !(board.rooks() & pos.castles().castling_rights());
    let Some(from) = still.first() else { return swap_turn_by_setup(pos) };
    let role = board.role_at(from).expect("a man on its square");
    let mut passed = pos.clone();
    passed.play_unchecked(Move::Normal { role, from, capture: None, to: from, promotion: None });
    Some(passed)
}

/// [`swap_turn`] through a setup, validated again.
fn swap_turn_by_setup(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.swap_turn();
    setup.ep_square = None;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// A pin: `pinned` stands on the line from `pinner` to `behind`, with
/// nothing else between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pin {
    pub pinned: Square,
    pub pinner: Square,
    pub behind: Square,
}

/// Every pin of the piece on `sq` by an enemy slider (spec §3): the first
/// piece behind it on the slider's line is of its own colour and is its king
/// (an absolute pin) or worth strictly more than it (a relative pin). A rook
/// in front of a pawn, or a knight in front of a bishop, is not pinned.
pub fn pins_of(board: &Board, sq: Square) -> impl Iterator<Item = Pin> + '_ {
    let color = board.color_at(sq);
    let occupied = board.occupied();
    let enemy = color.map_or(Bitboard::EMPTY, |c| board.by_color(!c));
    // Looking out from `sq` through the board's men, each line's first man
    // both ways: an enemy slider of that line on one side is a pinner, the
    // man on the other side is what it pins to.
    let orthogonal = attacks::rook_attacks(sq, occupied);
    let diagonal = attacks::bishop_attacks(sq, occupied);
    let pinners = (orthogonal & board.rooks_and_queens() | diagonal & board.bishops_and_queens()) & enemy;
    pinners.into_iter().filter_map(move |pinner| {
        let seen = if orthogonal.contains(pinner) { orthogonal } else { diagonal };
        let behind = (seen & attacks::ray(pinner, sq) & occupied).without(pinner).single_square()?;
        let worth_more = board.role_at(behind).is_some_and(|b| value(b) > value_at(board, sq));
        (board.color_at(behind) == color && worth_more).then_some(Pin { pinned: sq, pinner, behind })
    })
}

/// Legal moves of the piece on `sq` (the side to move's), captures included.
/// A knight, bishop, rook or queen's are read off its attacks (no move
/// list); a pawn's and a king's (promotions, en passant, castling) come
/// from shakmaty's legal moves.
pub fn flight_moves(pos: &Chess, sq: Square) -> impl Iterator<Item = Move> + '_ {
    let board = pos.board();
    let piece = board.piece_at(sq).filter(|p| p.color == pos.turn());
    let (mut reached, mut listed) = (Bitboard::EMPTY, None);
    let mut role = Role::Knight;
    match piece {
        Some(piece) if !matches!(piece.role, Role::Pawn | Role::King) => {
            role = piece.role;
            reached = flight_squares(pos, sq);
        }
        Some(_) => {
            let mut moves = pos.legal_moves();
            moves.retain(|m| m.from() == Some(sq));
            listed = Some(moves.into_iter());
        }
        None => {}
    }
    let quick = reached.into_iter().map(move |to| Move::Normal {
        role,
        from: sq,
        capture: board.role_at(to),
        to,
        promotion: None,
    });
    quick.chain(listed.into_iter().flatten())
}

/// Whether `m`, a legal move of the side to move, gives check: the man
/// attacks the enemy king from where it lands, or it uncovers a slider of
/// ours. Castling and en passant are played out. Only a check can mate:
/// a search for mates asks this before playing a move.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Move::Normal { role, from, to, promotion, .. } = m else {
        let mut after = pos.clone();
        after.play_unchecked(m);
        return after.is_check();
    };
    let Some(king) = board.king_of(!us) else { return false };
    let occupied = board.occupied().without(from).with(to);
    if piece_attacks(to, promotion.unwrap_or(role).of(us), occupied).contains(king) {
        return true;
    }
    let sliders = attacks::rook_attacks(king, occupied) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    (sliders & board.by_color(us).without(from).without(to)).any()
}

/// The first legal move of the side to move, in shakmaty's order, that
/// gives check and that `accept` takes. Most moves cannot check: a man
/// that neither lands where its kind reaches the enemy king on an empty
/// board nor leaves a line from the king to a slider of ours is not asked.
/// Outside check and en passant (nearly always) no move list is made: the
/// men's moves are read off their attacks in shakmaty's order, and only
/// those that may check are asked whether they are legal.
pub fn first_checking_move(pos: &Chess, accept: impl FnMut(Move) -> bool) -> Option<Move> {
    first_checking_move_where(pos, |_| true, accept)
}

/// [`first_checking_move`], where a move `worth_asking` refuses (a cheap
/// test that `accept` would refuse it too) is not asked whether it is
/// legal or checks.
fn first_checking_move_where(
    pos: &Chess,
    worth_asking: impl Fn(Move) -> bool,
    mut accept: impl FnMut(Move) -> bool,
) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    // Squares from which each kind of man (by `Role as usize - 1`) reaches the king.
    let mut reach = [Bitboard::EMPTY; 6];
    let mut uncovering = Bitboard::EMPTY;
    let mut quick = board.king_of(us).is_some() && pos.ep_square(EnPassantMode::PseudoLegal).is_none();
    if let Some(king) = board.king_of(!us) {
        let (orthogonal, diagonal) =
            (attacks::rook_attacks(king, Bitboard::EMPTY), attacks::bishop_attacks(king, Bitboard::EMPTY));
        reach = [
            attacks::pawn_attacks(!us, king),
            attacks::knight_attacks(king),
            diagonal,
            orthogonal,
            orthogonal | diagonal,
            attacks::king_attacks(king),
        ];
        let aimed = orthogonal & ours & board.rooks_and_queens() | diagonal & ours & board.bishops_and_queens();
        uncovering =
            aimed.into_iter().fold(Bitboard::EMPTY, |squares, slider| squares | attacks::between(slider, king));
        // A king attacked already (no legal position has one): every move is asked.
        if board.attacks_to(king, us, board.occupied()).any() {
            uncovering = Bitboard::FULL;
            quick = false;
        }
    }
    let could = |role: Role, from: Square, to: Square, promotion: Option<Role>| {
        reach[promotion.unwrap_or(role) as usize - 1].contains(to) || uncovering.contains(from)
    };
    if !quick || pos.is_check() {
        return pos.legal_moves().into_iter().find(|&m| {
            let may = match m {
                Move::Normal { role, from, to, promotion, .. } => could(role, from, to, promotion),
                _ => true,
            };
            may && worth_asking(m) && gives_check(pos, m) && accept(m)
        });
    }
    let king = board.king_of(us);
    let occupied = board.occupied();
    let mut found = |role: Role, from: Square, to: Square, promotion: Option<Role>| {
        let m = Move::Normal { role, from, capture: board.role_at(to), to, promotion };
        (worth_asking(m)
            && capture_leaves_king_safe(board, us, king, Bitboard::EMPTY, role, from, to)
            && gives_check(pos, m)
            && accept(m))
        .then_some(m)
    };
    // Pawns as shakmaty lists them: captures one way, then the other, then
    // single steps and double steps, each by the square reached, those that
    // promote (to a queen, rook, bishop, knight) after the rest.
    let pawns = board.pawns() & ours;
    let forward = us.fold_wb(8, -8);
    let single = pawns.shift(forward) & !occupied;
    let double = single.shift(forward) & Bitboard::from_rank(us.fold_wb(Rank::Fourth, Rank::Fifth)) & !occupied;
    let (west, east) = (us.fold_wb(7, -9), us.fold_wb(9, -7));
    let to_west = (pawns & !Bitboard::from_file(File::A)).shift(west) & board.by_color(!us);
    let to_east = (pawns & !Bitboard::from_file(File::H)).shift(east) & board.by_color(!us);
    for (reached, by) in [(to_west, west), (to_east, east), (single, forward), (double, 2 * forward)] {
        for to in (reached & !Bitboard::BACKRANKS).into_iter().chain(reached & Bitboard::BACKRANKS) {
            let from = to.offset(-by).expect("a pawn's move starts on the board");
            let promotions: &[Option<Role>] = if Bitboard::BACKRANKS.contains(to) {
                &[Some(Role::Queen), Some(Role::Rook), Some(Role::Bishop), Some(Role::Knight)]
            } else {
                &[None]
            };
            for &promotion in promotions {
                if could(Role::Pawn, from, to, promotion) {
                    if let Some(m) = found(Role::Pawn, from, to, promotion) {
                        return Some(m);
                    }
                }
            }
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        for from in board.by_role(role) & ours {
            let aimed = if uncovering.contains(from) { Bitboard::FULL } else { reach[role as usize - 1] };
            for to in piece_attacks(from, role.of(us), occupied) & !ours & aimed {
                if let Some(m) = found(role, from, to, None) {
                    return Some(m);
                }
            }
        }
    }
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .filter(|&side| pos.castles().has(us, side))
        .flat_map(|side| pos.castling_moves(side))
        .find(|&m| worth_asking(m) && gives_check(pos, m) && accept(m))
}

/// A mating move for the side to move in `pos`, other than a capture on
/// one of `skip`. Only a check mates: the rest need not be played. A man's
/// move is made on the bare board; castling, and a double step the other
/// side might take en passant, are played out.
pub fn mate_in_one(pos: &Chess, skip: Bitboard) -> Option<Move> {
    mate_in_one_with_escapes(pos, skip, free_squares(pos))
}

/// The squares around the king of the side not to move in `pos` that it
/// may step to and that no man of the side to move attacks now.
fn free_squares(pos: &Chess) -> Bitboard {
    let (board, us) = (pos.board(), pos.turn());
    board
        .king_of(!us)
        .map_or(Bitboard::EMPTY, |king| attacks::king_attacks(king) & !board.by_color(!us) & !attacked_by(board, us))
}

/// [`mate_in_one`], the enemy king's [`free_squares`] known: `escapes`.
fn mate_in_one_with_escapes(pos: &Chess, skip: Bitboard, escapes: Bitboard) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    // After a man's move from `a` to `b` ours attack no more than now
    // (around the enemy king, none of `escapes`), what the man attacks
    // from `b` and what a line through `a` opens (both seen through the
    // king): a square outside all three is the king's way out, and the
    // move no mate.
    let their_king = board.king_of(!us);
    let may_mate = |m: Move| {
        let (Move::Normal { role, from, to, promotion, .. }, Some(king)) = (m, their_king) else {
            return true;
        };
        if escapes.is_empty() {
            return true;
        }
        let occupied = board.occupied().without(from).with(to).without(king);
        let mut covered = piece_attacks(to, promotion.unwrap_or(role).of(us), occupied);
        if (attacks::rook_attacks(from, board.occupied()) & board.rooks_and_queens() & board.by_color(us)).any() {
            covered |= attacks::rook_attacks(from, occupied);
        }
        if (attacks::bishop_attacks(from, board.occupied()) & board.bishops_and_queens() & board.by_color(us)).any() {
            covered |= attacks::bishop_attacks(from, occupied);
        }
        (escapes & !covered).is_empty()
    };
    first_checking_move_where(pos, may_mate, |m| {
        if m.is_capture() && skip.contains(m.to()) {
            return false;
        }
        if let Move::Normal { role, from, to, promotion, .. } = m {
            if role != Role::Pawn || distance(from, to) == 1 || from.file() != to.file() {
                let mut after = pos.board().clone();
                after.discard_piece_at(from);
                after.set_piece_at(to, promotion.unwrap_or(role).of(us));
                if let Some(mated) = checkmated(&after, !us, || false) {
                    return mated;
                }
            }
        }
        let mut played = pos.clone();
        played.play_unchecked(m);
        is_checkmate(&played)
    })
}

/// Whether the side to move mates by checks that each leave its opponent
/// one legal answer, `checks` of them at most (a mate in one at least), the
/// last mating (Lichess
/// 08O6I: after ...Rxd6, Re8+ ...Rf8 Rxf8#). Asked past a mate in one only
/// where the enemy king has at most `FORCED_MATE_ROOM` free squares: a
/// king with more room meets a check with more than one answer, almost
/// always, and the search of every check is dear.
pub fn forced_mate(pos: &Chess, checks: u32) -> bool {
    let escapes = free_squares(pos);
    if mate_in_one_with_escapes(pos, Bitboard::EMPTY, escapes).is_some() {
        return true;
    }
    checks > 1
        && escapes.count() <= FORCED_MATE_ROOM
        && first_checking_move(pos, |m| {
            let mut checked = pos.clone();
            checked.play_unchecked(m);
            only_legal_move(&checked).is_some_and(|reply| {
                checked.play_unchecked(reply);
                forced_mate(&checked, checks - 1)
            })
        })
        .is_some()
}

/// The free squares a king may have where [`forced_mate`] looks past a
/// mate in one (one: 8 of its 18 dev gains, at 60 % of the cost).
const FORCED_MATE_ROOM: usize = 2;

/// The side to move is checkmated (shakmaty's `is_checkmate`), by
/// bitboards: in check, with no square for its king to step to that no
/// enemy man attacks, and, against a single checker, no man free of a pin
/// to take the checker or step in between. A man pinned to its king can do
/// neither: the pin's line meets the check's only on the king. En passant
/// (which may take a checker from a square off the check's line) is left to
/// shakmaty's move list.
pub fn is_checkmate(pos: &Chess) -> bool {
    checkmated(pos.board(), pos.turn(), || pos.ep_square(EnPassantMode::PseudoLegal).is_some())
        .unwrap_or_else(|| pos.is_checkmate())
}

/// [`is_checkmate`] on a bare board with `us` to move: `None` where
/// shakmaty's move list must say, a king missing or, against a single
/// checker, an en passant capture that may take it (`en_passant`, asked
/// only there).
fn checkmated(board: &Board, us: Color, en_passant: impl FnOnce() -> bool) -> Option<bool> {
    let king = board.king_of(us)?;
    let occupied = board.occupied();
    let checkers = board.attacks_to(king, !us, occupied);
    if checkers.is_empty() {
        return Some(false);
    }
    if safe_king_steps(board, king, us).next().is_some() {
        return Some(false);
    }
    let Some(checker) = checkers.single_square() else { return Some(true) };
    if en_passant() {
        return None;
    }
    let free = board.by_color(us) & !board.kings() & !pinned_to(board, king);
    if (board.attacks_to(checker, us, occupied) & free).any() {
        return Some(false);
    }
    let pawns = free & board.pawns();
    let (push, home) = match us {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    Some(!attacks::between(checker, king).into_iter().any(|block| {
        // The squares in between are empty: a pawn gets there by a push.
        let behind = block.offset(-push);
        let pushed = behind.is_some_and(|from| pawns.contains(from))
            || behind
                .filter(|&sq| !occupied.contains(sq))
                .and_then(|sq| sq.offset(-push))
                .is_some_and(|from| pawns.contains(from) && from.rank() == home);
        pushed || (board.attacks_to(block, us, occupied) & free & !board.pawns()).any()
    }))
}

/// The men of `king`'s side pinned to it: each alone between it and an
/// enemy slider that would otherwise attack it.
fn pinned_to(board: &Board, king: Square) -> Bitboard {
    let Some(us) = board.color_at(king) else { return Bitboard::EMPTY };
    let snipers = attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens();
    (snipers & board.by_color(!us)).into_iter().fold(Bitboard::EMPTY, |pinned, sniper| {
        let between = attacks::between(sniper, king) & board.occupied();
        match between.single_square() {
            Some(sq) if board.by_color(us).contains(sq) => pinned.with(sq),
            _ => pinned,
        }
    })
}

/// The side to move has at least `n` legal moves: the knights', bishops',
/// rooks' and queens' ([`flight_squares`]) counted first, most often
/// enough; shakmaty's legal moves only where they are not.
pub fn has_legal_moves(pos: &Chess, n: usize) -> bool {
    let board = pos.board();
    let pieces = pos.us() & !board.pawns() & !board.kings();
    let mut found = 0;
    for sq in pieces {
        found += flight_squares(pos, sq).count();
        if found >= n {
            return true;
        }
    }
    pos.legal_moves().len() >= n
}

/// Where `us`'s king on `king` may step: squares not its own side's that
/// no enemy man attacks once it has left (a slider's line through its
/// square reaches on).
fn safe_king_steps(board: &Board, king: Square, us: Color) -> impl Iterator<Item = Square> + '_ {
    let without_king = board.occupied().without(king);
    let steps = attacks::king_attacks(king) & !board.by_color(us);
    steps.into_iter().filter(move |&to| board.attacks_to(to, !us, without_king).is_empty())
}

/// The side to move's one legal move, where it has exactly one: the king's
/// safe steps and the pieces' [`flight_squares`] counted first (most often
/// two are found at once), shakmaty's legal moves only where they are not.
pub fn only_legal_move(pos: &Chess) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let mut found = board.king_of(us).map_or(0, |king| safe_king_steps(board, king, us).take(2).count());
    for sq in pos.us() & !board.pawns() & !board.kings() {
        if found >= 2 {
            return None;
        }
        found += flight_squares(pos, sq).count();
    }
    if found >= 2 {
        return None;
    }
    match pos.legal_moves()[..] {
        [m] => Some(m),
        _ => None,
    }
}

/// Where the knight, bishop, rook or queen on `sq` (the side to move's) can
/// legally go, by bitboards alone (empty for any other man): its attacks
/// but its own side's squares, onto the checker or its line where one
/// piece gives check (none in double check), and along the line where an
/// enemy slider pins it to its king.
pub fn flight_squares(pos: &Chess, sq: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(sq).filter(|p| p.color == us && !matches!(p.role, Role::Pawn | Role::King)) else {
        return Bitboard::EMPTY;
    };
    let Some(king) = board.king_of(us) else { return Bitboard::EMPTY };
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return Bitboard::EMPTY;
    }
    let occupied = board.occupied();
    let mut reached = piece_attacks(sq, piece, occupied) & !board.by_color(us);
    if let Some(checker) = checkers.first() {
        reached &= attacks::between(checker, king).with(checker);
    }
    // A slider that would see the king once this piece left its line.
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & board.by_color(!us);
    for sniper in snipers {
        if attacks::between(king, sniper) & occupied == Bitboard::from_square(sq) {
            reached &= attacks::ray(king, sniper);
        }
    }
    reached
}

/// The position a FEN describes (tests only: it panics on a bad one).
#[cfg(test)]
pub(crate) fn position(fen: &str) -> Chess {
    fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[cfg(test)]
/// The positions of a random game for the proptests: one of two start
/// positions (the usual one, and one rich in promotions, castling and en
/// passant), then `moves[pick % moves.len()]` for each pick, ending early
/// where the side to move has no legal move; the start first, the last
/// position reached last (one more position than picks played).
pub(crate) fn random_game(start: usize, picks: &[usize]) -> Vec<Chess> {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/1P4P1/2n1b3/3pP3/8/2B2q2/1p4p1/R3K2R w KQkq d6 0 1",
    ];
    let mut pos: Chess = position(starts[start]);
    let mut game = vec![pos.clone()];
    for pick in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[pick % moves.len()]);
        game.push(pos.clone());
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        position(fen)
    }

    #[test]
    fn distance_is_shakmatys() {
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(distance(a, b), a.distance(b), "{a} {b}");
            }
        }
    }

    #[test]
    fn a_mate_by_checks_with_one_answer_each_is_forced() {
        // Lichess 08O6I after ...Rxd6: Re8+ ...Rf8 (the only answer) Rxf8#,
        // the h6 queen covering f8 and g7.
        let after_the_grab = pos("6k1/pp3r1p/n1pr1ppQ/8/8/1P5P/5PP1/4R1K1 w - - 0 29");
        assert!(mate_in_one(&after_the_grab, Bitboard::EMPTY).is_none());
        assert!(forced_mate(&after_the_grab, 2));
        assert!(!forced_mate(&after_the_grab, 1));
        // Without the queen, Re8+ may be met by ...Kg7 too: no forced mate.
        let roomy = pos("6k1/pp3r1p/n1pr1pp1/8/8/1P5P/5PP1/4R1K1 w - - 0 29");
        assert!(!forced_mate(&roomy, 2));
    }

    #[test]
    fn an_xray_defender_stands_behind_a_slider_that_attacks_along_its_line() {
        // The e8 rook x-rays e6 through our e7 rook, which attacks e6 itself.
        let through_rook = pos("4r1k1/4R3/4b3/8/8/8/8/4R1K1 b - - 0 1");
        let found = xray_defenders(through_rook.board(), Square::E6, Color::Black);
        assert_eq!(found, Bitboard::from_square(Square::E8));
        // A bishop on e7 blocks the file without attacking along it: no x-ray.
        let through_bishop = pos("4r1k1/4B3/4b3/8/8/8/8/4R1K1 b - - 0 1");
        assert!(xray_defenders(through_bishop.board(), Square::E6, Color::Black).is_empty());
    }

    #[test]
    fn material_and_balance() {
        let p = pos("6k1/p4ppp/8/n7/8/8/1P3PPP/R5K1 b - - 0 30");
        assert_eq!(material(p.board(), Color::White), 5 + 4);
        assert_eq!(material(p.board(), Color::Black), 3 + 4);
        assert_eq!(balance(p.board(), Color::White), 2);
    }

    #[test]
    fn static_exchange() {
        // Rook takes an undefended knight: +3.
        let p = pos("6k1/p4ppp/8/n7/8/8/1P3PPP/R5K1 w - - 0 30");
        assert_eq!(see(p.board(), Square::A1, Square::A5, 3), 3);
        // Knight takes a pawn defended by a knight: 1 - 3 = -2.
        let p = pos("r1bqkb1r/pppn1ppp/5n2/4p3/4P3/3P1N2/PPP2PPP/RNBQKB1R w KQkq - 0 6");
        assert_eq!(see(p.board(), Square::F3, Square::E5, 1), -2);
        // The f3 knight does not reach e4: the pawn is free.
        let p = pos("6k1/pp3ppp/8/3n4/4P3/5N2/PP3PPP/6K1 b - - 0 30");
        assert_eq!(see(p.board(), Square::D5, Square::E4, 1), 1);
        // Queen takes a knight the e6 pawn defends: 3 - 9.
        let p = pos("4r1k1/pp3ppp/4p3/3n4/8/8/PP3PPP/3QR1K1 w - - 0 30");
        assert_eq!(see(p.board(), Square::D1, Square::D5, 3), -6);
        // The x-ray behind the capturer joins in: rook d1 backed by the queen
        // d2... here a rook on d3 backed by a rook on d1 takes a knight on d5
        // guarded by a rook d8: 3 - 5 + 5 = 3.
        let p = pos("3r2k1/pp3ppp/8/3n4/8/3R4/PP3PPP/3R2K1 w - - 0 30");
        assert_eq!(see(p.board(), Square::D3, Square::D5, 3), 3);
    }

    #[test]
    fn king_recaptures_only_onto_unattacked_squares() {
        // Bxf7+: the king may not take back because the queen on b3 covers f7.
        let p = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/1Q3N2/PPPP1PPP/RNB1K2R w KQkq - 0 5");
        assert_eq!(see(p.board(), Square::C4, Square::F7, 1), 1);
        // Without the queen the king takes the bishop: 1 - 3.
        let p = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5");
        assert_eq!(see(p.board(), Square::C4, Square::F7, 1), -2);
    }

    #[test]
    fn least_valuable_legal_capture_skips_pinned_attackers() {
        // Knight c7 is pinned to the king on c1 and cannot take on d5; the
        // rook on d8 can.
        let p = pos("2Rr4/ppn3pp/8/3B4/8/8/5PPP/2k3K1 b - - 0 30");
        let m = least_valuable_legal_capture(&p, Square::D5).unwrap();
        assert_eq!(m.from(), Some(Square::D8));
        assert!(profitable_capture(&p, Square::D5));
        assert_eq!(capture_gain(&p, Square::A2), None);
    }

    #[test]
    fn pins_absolute_and_relative() {
        let p = pos("2R5/ppn3pp/8/3n4/8/5B2/5PPP/2k3K1 b - - 0 30");
        let pins: Vec<Pin> = pins_of(p.board(), Square::C7).collect();
        assert_eq!(pins, vec![Pin { pinned: Square::C7, pinner: Square::C8, behind: Square::C1 }]);
        // Relative: rook e1, pawn e6, rook e8.
        let p = pos("4r1k1/pp3ppp/4p3/3n4/8/8/PP3PPP/3QR1K1 b - - 0 30");
        let pins: Vec<Pin> = pins_of(p.board(), Square::E6).collect();
        assert_eq!(pins, vec![Pin { pinned: Square::E6, pinner: Square::E1, behind: Square::E8 }]);
        // Nothing behind: no pin.
        assert_eq!(pins_of(p.board(), Square::D5).count(), 0);
        // A piece of the other colour behind is no pin.
        let board = |fen: &str| fen.parse::<Fen>().unwrap().as_setup().board.clone();
        assert_eq!(pins_of(&board("4k3/8/4n3/8/8/8/4R3/4K3 w - - 0 1"), Square::E6).count(), 1);
        assert_eq!(pins_of(&board("4K3/8/4n3/8/8/8/4R3/4k3 w - - 0 1"), Square::E6).count(), 0);
        // Relative pins need a piece behind worth strictly more: a knight in
        // front of a bishop, a rook in front of a pawn or of a rook are free.
        assert_eq!(pins_of(&board("4k3/4b3/4n3/8/8/8/4R3/4K3 w - - 0 1"), Square::E6).count(), 0);
        assert_eq!(pins_of(&board("4k3/4p3/4r3/8/8/8/4Q3/4K3 w - - 0 1"), Square::E6).count(), 0);
        assert_eq!(pins_of(&board("4k3/4r3/4r3/8/8/8/4Q3/4K3 w - - 0 1"), Square::E6).count(), 0);
        assert_eq!(pins_of(&board("4k3/4q3/4r3/8/8/8/4R3/4K3 w - - 0 1"), Square::E6).count(), 1);
    }

    /// `pins_of` by its definition, walking the line square by square.
    fn pins_by_walking(board: &Board, sq: Square) -> Vec<Pin> {
        let Some(color) = board.color_at(sq) else { return Vec::new() };
        let mut pins = Vec::new();
        for pinner in board.by_color(!color) & board.sliders() {
            let role = board.role_at(pinner).unwrap();
            if !slides_between(role, pinner, sq) || (attacks::between(pinner, sq) & board.occupied()).any() {
                continue;
            }
            let step = |sq: Square| {
                let (df, dr) = (
                    (sq.file() as i32 - pinner.file() as i32).signum(),
                    (sq.rank() as i32 - pinner.rank() as i32).signum(),
                );
                sq.offset(dr * 8 + df).filter(|&next| distance(next, sq) == 1)
            };
            let mut next = step(sq);
            while let Some(x) = next.filter(|&x| !board.occupied().contains(x)) {
                next = step(x);
            }
            if let Some(behind) = next {
                if board.color_at(behind) == Some(color) && value_at(board, behind) > value_at(board, sq) {
                    pins.push(Pin { pinned: sq, pinner, behind });
                }
            }
        }
        pins
    }

    /// [`xray_defenders`] as first written: every slider, its line and the
    /// man between asked one by one.
    fn xray_defenders_slowly(board: &Board, sq: Square, color: Color) -> Bitboard {
        let occupied = board.occupied();
        let mut found = Bitboard::EMPTY;
        let sliders = board.by_color(color) & board.sliders();
        for slider in sliders {
            let role = board.role_at(slider).expect("slider on its square");
            if slider == sq || !slides_between(role, slider, sq) {
                continue;
            }
            let blockers = attacks::between(slider, sq) & occupied;
            if blockers.count() != 1 {
                continue;
            }
            let blocker = blockers.first().expect("one blocker");
            let attacks_along = board.role_at(blocker).is_some_and(|r| slides_between(r, blocker, sq));
            if board.color_at(blocker) == Some(!color) && attacks_along {
                found.add(slider);
            }
        }
        found
    }

    /// [`see`] as first written: every attacker asked anew at each step.
    fn see_slowly(board: &Board, from: Square, to: Square, captured: i32) -> i32 {
        let Some(first) = board.role_at(from) else { return 0 };
        let Some(mut side) = board.color_at(from) else { return 0 };
        let mut occupied = board.occupied();
        occupied.discard(from);
        occupied.add(to);
        let mut gains = [0i32; 33];
        gains[0] = captured;
        let mut on_square = value(first);
        let mut depth = 0;
        while depth < 32 {
            side = !side;
            let Some((sq, role)) = least_valuable(board, attackers(board, to, side, occupied) & !Bitboard::from(to))
            else {
                break;
            };
            if role == Role::King {
                let mut without_king = occupied;
                without_king.discard(sq);
                if (attackers(board, to, !side, without_king) & !Bitboard::from(to)).any() {
                    break;
                }
            }
            depth += 1;
            gains[depth] = on_square - gains[depth - 1];
            on_square = value(role);
            occupied.discard(sq);
        }
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    /// The king on h4 has nowhere to go from the a4 rook's check: what
    /// may step in between decides the mate.
    #[test]
    fn a_check_is_answered_by_a_man_stepping_in_unless_it_is_pinned() {
        let cases = [
            ("1k4r1/5b2/8/8/r6K/8/8/5b2 w - - 0 1", true),
            ("1k4r1/5b2/8/8/r6K/3P4/8/5b2 w - - 0 1", false),
            ("1k4r1/5b2/8/8/r6K/8/3P4/5b2 w - - 0 1", false),
            ("1k4r1/5b2/8/8/r6K/8/2N5/5b2 w - - 0 1", false),
            ("1k4r1/5b2/8/8/r6K/6N1/8/4bb2 w - - 0 1", true),
            ("1k4r1/5b2/8/8/r5PK/8/8/5b2 w - - 0 1", false),
        ];
        for (fen, mate) in cases {
            let pos = pos(fen);
            assert_eq!((is_checkmate(&pos), pos.is_checkmate()), (mate, mate), "{fen}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 20000, failure_persistence: None, ..Default::default() })]
        /// Kings and a few men put anywhere (checks and mates are common on
        /// such boards, pins, blocks by a pawn's push and en passant among
        /// them): the side to move is mated exactly where shakmaty's move
        /// list says so, and has one legal move exactly where it lists one.
        #[test]
        fn is_checkmate_and_the_only_move_agree_with_the_move_list(
            men in proptest::collection::vec((0u32..64, 0usize..10), 2..12),
            king in 0u32..64,
            their_king in 0u32..64,
            ep_file in 0u32..16,
        ) {
            // The side to move (White) has its king on the edge most often,
            // where mates are; pawns stand off the back ranks.
            let edge: Vec<Square> = Square::ALL.into_iter().filter(|sq| Bitboard::EDGES.contains(*sq)).collect();
            let king = if king < 48 { edge[king as usize % edge.len()] } else { Square::new(king) };
            let mut setup = shakmaty::Setup::empty();
            let pieces = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
            for (sq, kind) in men {
                let color = if kind < 5 { Color::White } else { Color::Black };
                let sq = if kind % 5 == 0 { 8 + sq % 48 } else { sq };
                setup.board.set_piece_at(Square::new(sq), pieces[kind % 5].of(color));
            }
            setup.board.set_piece_at(king, Role::King.of(Color::White));
            setup.board.set_piece_at(Square::new(their_king), Role::King.of(Color::Black));
            setup.ep_square = (ep_file < 8).then(|| Square::from_coords(shakmaty::File::new(ep_file), Rank::Sixth));
            let pos = Chess::from_setup(setup, CastlingMode::Standard).or_else(shakmaty::PositionError::ignore_invalid_ep_square);
            if let Ok(pos) = pos {
                let fen = Fen::from_position(&pos, EnPassantMode::Always);
                proptest::prop_assert_eq!(is_checkmate(&pos), pos.is_checkmate(), "{}", fen);
                let only = match pos.legal_moves()[..] {
                    [m] => Some(m),
                    _ => None,
                };
                proptest::prop_assert_eq!(only_legal_move(&pos), only, "{}", fen);
            }
        }
    }

    /// The legal moves of the side to move that give check, in shakmaty's
    /// order, as [`first_checking_move`] finds them.
    fn checking_moves(pos: &Chess) -> Vec<Move> {
        let mut moves = Vec::new();
        first_checking_move(pos, |m| {
            moves.push(m);
            false
        });
        moves
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 400, failure_persistence: None, ..Default::default() })]
        /// On positions from random games, the static exchange with
        /// x-rays added as men leave is the one asking every attacker anew,
        /// for every man of either side onto every square.
        #[test]
        fn see_agrees_with_asking_every_attacker(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks) {
                let board = pos.board();
                for from in board.occupied() {
                    for to in Square::ALL {
                        proptest::prop_assert_eq!(see(board, from, to, value_at(board, to)), see_slowly(board, from, to, value_at(board, to)));
                    }
                }
            }
        }

        /// Every kind of man on every square, any blockers: the inlined
        /// lookups are shakmaty's, and so is what a board's man attacks.
        #[test]
        fn piece_attacks_are_shakmatys(occupied in proptest::prelude::any::<u64>(), start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..60)) {
            let occupied = Bitboard(occupied);
            for sq in Square::ALL {
                for color in Color::ALL {
                    for role in Role::ALL {
                        proptest::prop_assert_eq!(piece_attacks(sq, role.of(color), occupied), attacks::attacks(sq, role.of(color), occupied));
                    }
                }
            }
            for pos in random_game(start, &picks) {
                for sq in Square::ALL {
                    proptest::prop_assert_eq!(attacks_from(pos.board(), sq), pos.board().attacks_from(sq));
                }
            }
        }

        /// On positions from random games, the quick captures agree with
        /// shakmaty's legal moves: the same exchange value for the least
        /// valuable capture of every enemy man, and the same answer to
        /// whether each of our men can take it, and the same moves for every
        /// man.
        #[test]
        fn quick_captures_agree_with_the_legal_moves(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks).iter().take(picks.len()) {
                for sq in pos.them() {
                    let quick = least_valuable_legal_capture(pos, sq);
                    let slow = candidate_capture(pos, sq);
                    let gain = |m: Option<Move>| m.map(|m| see(pos.board(), m.from().unwrap(), sq, value_at(pos.board(), sq)));
                    proptest::prop_assert_eq!(quick.map(|m| (m.role(), m.promotion())), slow.map(|m| (m.role(), m.promotion())));
                    proptest::prop_assert_eq!(gain(quick), gain(slow));
                    for from in pos.us() {
                        let legal = pos.legal_moves().iter().any(|m| m.from() == Some(from) && m.to() == sq);
                        proptest::prop_assert_eq!(can_capture(pos, from, sq), legal);
                    }
                }
                for sq in Square::ALL {
                    let mut quick: Vec<Move> = flight_moves(pos, sq).collect();
                    let mut legal: Vec<Move> = pos.legal_moves().into_iter().filter(|m| m.from() == Some(sq)).collect();
                    let pieces_legal: Bitboard = legal.iter().filter(|m| !matches!(m.role(), Role::Pawn | Role::King)).map(|m| m.to()).collect();
                    proptest::prop_assert_eq!(flight_squares(pos, sq), pieces_legal);
                    quick.sort_by_key(|m| (m.to(), m.promotion()));
                    legal.sort_by_key(|m| (m.to(), m.promotion()));
                    proptest::prop_assert_eq!(quick, legal);
                }
            }
        }

        /// In positions from random games, a move gives check exactly
        /// where playing it leaves the other side in check.
        #[test]
        fn gives_check_agrees_with_playing_the_move(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks).iter().take(picks.len()) {
                let moves = pos.legal_moves();
                for &m in &moves {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    proptest::prop_assert_eq!(gives_check(pos, m), after.is_check(), "{}", m);
                    proptest::prop_assert_eq!(is_checkmate(&after), after.is_checkmate(), "{}", m);
                }
                for n in 0..5 {
                    proptest::prop_assert_eq!(has_legal_moves(pos, n), moves.len() >= n, "{}", n);
                }
                let checks: Vec<Move> = moves.iter().copied().filter(|&m| gives_check(pos, m)).collect();
                proptest::prop_assert_eq!(checking_moves(pos), checks);
                // The first mate in shakmaty's order, with and without the
                // captures of a side's men skipped.
                for skip in [Bitboard::EMPTY, pos.them(), pos.them() & Bitboard::from_rank(Rank::Fourth)] {
                    let mates = |m: &Move| {
                        let mut after = pos.clone();
                        after.play_unchecked(*m);
                        after.is_checkmate() && !(m.is_capture() && skip.contains(m.to()))
                    };
                    proptest::prop_assert_eq!(mate_in_one(pos, skip), moves.iter().copied().find(mates));
                }
            }
        }

        /// On positions from random games (promotions among them), each
        /// side's material is the sum of its men's values, square by square.
        #[test]
        fn material_is_the_sum_of_the_men(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks) {
                let board = pos.board();
                for color in [Color::White, Color::Black] {
                    let men = board.by_color(color) & !board.kings();
                    let summed: i32 = men.into_iter().map(|sq| value_at(board, sq)).sum();
                    proptest::prop_assert_eq!(material(board, color), summed);
                }
            }
        }

        /// On positions from random games, each side's attack map holds
        /// exactly the squares where it has an attacker.
        #[test]
        fn attack_maps_are_the_squares_with_attackers(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks) {
                let board = pos.board();
                for color in [Color::White, Color::Black] {
                    let asked: Bitboard = Square::ALL.into_iter().filter(|&sq| attackers(board, sq, color, board.occupied()).any()).collect();
                    proptest::prop_assert_eq!(attacked_by(board, color), asked);
                    for sq in Square::ALL {
                        let one = Bitboard::from_square(sq);
                        proptest::prop_assert_eq!(attacked_by_at(board, color, one), asked & one);
                    }
                    let men = board.occupied() & !board.kings();
                    proptest::prop_assert_eq!(attacked_by_at(board, color, men), asked & men);
                }
            }
        }

        /// On positions from random games, passing the turn in place gives
        /// the position the validated setup gives (the move clocks aside),
        /// and `None` where that does.
        #[test]
        fn swap_turn_is_the_validated_setups(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            let unclocked = |pos: Chess| {
                let mut setup = pos.to_setup(EnPassantMode::Always);
                (setup.halfmoves, setup.fullmoves) = (0, std::num::NonZeroU32::MIN);
                setup
            };
            for pos in random_game(start, &picks) {
                proptest::prop_assert_eq!(swap_turn(&pos).map(unclocked), swap_turn_by_setup(&pos).map(unclocked));
            }
        }

        /// On every square of positions from random games, for both colours,
        /// the x-ray defenders are the ones asking every slider finds.
        #[test]
        fn xray_defenders_are_the_ones_every_slider_finds(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            for pos in random_game(start, &picks).iter().take(picks.len()) {
                for sq in Square::ALL {
                    for color in [Color::White, Color::Black] {
                        proptest::prop_assert_eq!(xray_defenders(pos.board(), sq, color), xray_defenders_slowly(pos.board(), sq, color));
                    }
                }
            }
        }

        /// On every square of positions from random legal games, the pins
        /// are the ones walking each line finds, in the same order.
        #[test]
        fn pins_are_the_ones_walking_the_line_finds(picks in proptest::collection::vec(0usize..1000, 1..120)) {
            // The start position aside: these once began from it and
            // checked after every move.
            for p in random_game(0, &picks).iter().skip(1) {
                for sq in Square::ALL {
                    proptest::prop_assert_eq!(pins_of(p.board(), sq).collect::<Vec<_>>(), pins_by_walking(p.board(), sq));
                }
            }
        }
    }

    #[test]
    fn xray_defender_behind_an_enemy_slider() {
        // Black bishop a8 behind the white bishop c6 x-rays e4.
        let p = pos("b5k1/p4ppp/2B5/8/4n3/8/PP3PPP/6K1 w - - 0 30");
        assert_eq!(xray_defenders(p.board(), Square::E4, Color::Black), Bitboard::from(Square::A8));
        assert!(is_defended(p.board(), Square::E4, Color::Black));
        // Behind a pawn it is no x-ray.
        let p = pos("b5k1/p4ppp/2P5/8/4n3/8/PP3PPP/6K1 w - - 0 30");
        assert!(xray_defenders(p.board(), Square::E4, Color::Black).is_empty());
        assert!(!is_defended(p.board(), Square::E4, Color::Black));
    }

    #[test]
    fn flight_moves_and_safety() {
        // Lichess 06cqX after Qxf3: the a8 rook has no legal move.
        let p = pos("rn1q1rk1/p4ppp/1N2p3/8/3P4/3B1Q2/PP1b1PPP/R4RK1 b - - 0 13");
        assert_eq!(flight_moves(&p, Square::A8).count(), 0);
        assert!(flight_moves(&p, Square::D8).count() > 0);
        let swapped = swap_turn(&p).unwrap();
        assert_eq!(swapped.turn(), Color::White);
        assert!(profitable_capture(&swapped, Square::A8));
    }

    #[test]
    fn relative_order_mirrors() {
        let bb = Bitboard::from(Square::A2) | Bitboard::from(Square::H7);
        assert_eq!(relative_squares(bb, Color::White).collect::<Vec<_>>(), vec![Square::A2, Square::H7]);
        assert_eq!(relative_squares(bb, Color::Black).collect::<Vec<_>>(), vec![Square::H7, Square::A2]);
    }
}
