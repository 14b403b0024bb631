//! Lichess's theme rules, one function per rule of `tagger/cook.py`, each
//! stated as the facts it checks. Plies follow the Lichess layout: ply 0 is
//! the opponent's setup move, odd plies are the solver's. "After ply i" is
//! the position once move i is played, "before ply i" the one it is played
//! from. Where a rule returns at the first candidate it meets, so does its
//! function here: that is the tagger's answer, even where a later move
//! would qualify.

use shakmaty::{attacks, Bitboard, Chess, Color, File, Move, Piece, Position, Rank, Role, Square};

use super::board::{
    attacked_opponent_squares, attackers, from_square, has_pseudo_legal_move_outside, is_hanging, is_in_bad_spot,
    is_ray, is_trapped, pins, to_square, type_number, value,
};
use super::{Theme, ThemeAt};
use crate::board::balance;
use crate::line::Line;

/// What the rules read of one ply, found once per puzzle.
struct PlyInfo {
    /// Where the move lands, python-chess's way ([`to_square`]).
    to: Square,
    from: Square,
    /// The kind of man standing on `to` once the move is played
    /// (`util.moved_piece_type`: the promoted piece for a promotion).
    moved: Role,
    /// The man the move takes on its square (none for en passant).
    captured: Option<Piece>,
    /// The move gives check.
    checks: bool,
}

/// A puzzle as the tagger walks it.
#[derive(Clone, Copy)]
struct Puzzle<'a> {
    line: &'a Line,
    plies: &'a [PlyInfo],
    /// The solver's colour (the tagger's `pov`).
    pov: Color,
}

/// Finds the per-ply facts of `line`.
fn ply_infos(line: &Line) -> Vec<PlyInfo> {
    (0..line.plies())
        .map(|ply| {
            let mv = line.moves[ply];
            let mover = line.before(ply).turn();
            // What the move says equals what the boards hold: the man on its
            // square after it, the man it takes there (none en passant).
            let captured = match mv {
                Move::Normal { capture: Some(role), .. } => Some(Piece { color: !mover, role }),
                _ => None,
            };
            PlyInfo {
                to: to_square(mv),
                from: from_square(mv),
                moved: mv.promotion().unwrap_or(mv.role()),
                captured,
                checks: line.after(ply).is_check(),
            }
        })
        .collect()
}

impl<'a> Puzzle<'a> {
    fn new(line: &'a Line, plies: &'a [PlyInfo]) -> Puzzle<'a> {
        Puzzle { line, plies, pov: line.after(0).turn() }
    }

    fn plies(self) -> usize {
        self.plies.len()
    }

    fn last(self) -> usize {
        self.plies() - 1
    }

    fn after(self, ply: usize) -> &'a Chess {
        self.line.after(ply)
    }

    fn before(self, ply: usize) -> &'a Chess {
        self.line.before(ply)
    }

    fn mv(self, ply: usize) -> Move {
        self.line.moves[ply]
    }

    fn to(self, ply: usize) -> Square {
        self.plies[ply].to
    }

    fn from(self, ply: usize) -> Square {
        self.plies[ply].from
    }

    fn moved(self, ply: usize) -> Role {
        self.plies[ply].moved
    }

    fn is_capture(self, ply: usize) -> bool {
        self.mv(ply).is_capture()
    }

    fn captured(self, ply: usize) -> Option<Piece> {
        self.plies[ply].captured
    }

    /// The move of `ply` gives check.
    fn checks(self, ply: usize) -> bool {
        self.plies[ply].checks
    }

    /// The side to move before `ply` is in check.
    fn in_check_before(self, ply: usize) -> bool {
        match ply {
            0 => self.before(0).is_check(),
            _ => self.checks(ply - 1),
        }
    }

    /// The move of `ply` mates.
    fn mates(self, ply: usize) -> bool {
        self.checks(ply) && self.line.mates_after(ply)
    }

    /// The solver's plies: 1, 3, 5, ….
    fn solver_plies(self) -> impl Iterator<Item = usize> {
        (1..self.plies()).step_by(2)
    }

    /// The solver's plies but the last of them (Python's `[1::2][:-1]`).
    fn solver_plies_but_last(self) -> impl Iterator<Item = usize> {
        let count = self.plies() / 2;
        self.solver_plies().take(count.saturating_sub(1))
    }

    /// The solver's plies after the key move: 3, 5, ….
    fn later_solver_plies(self) -> impl Iterator<Item = usize> {
        (3..self.plies()).step_by(2)
    }

    fn ends_in_mate(self) -> bool {
        self.mates(self.last())
    }

    /// The enemy king on the final board.
    fn final_king(self) -> Option<Square> {
        self.after(self.last()).board().king_of(!self.pov)
    }
}

/// `util.is_advanced_pawn_move`: a promotion, or a pawn reaching its sixth
/// rank or beyond.
fn is_advanced_pawn_move(p: Puzzle, ply: usize) -> bool {
    if p.mv(ply).is_promotion() {
        return true;
    }
    if p.moved(ply) != Role::Pawn {
        return false;
    }
    let rank = p.to(ply).rank() as u32;
    if p.after(ply).turn() == Color::White {
        rank < 3
    } else {
        rank > 4
    }
}

/// `util.is_very_advanced_pawn_move`: an advanced pawn move to the seventh
/// rank or beyond.
fn is_very_advanced_pawn_move(p: Puzzle, ply: usize) -> bool {
    let rank = p.to(ply).rank() as u32;
    is_advanced_pawn_move(p, ply) && if p.after(ply).turn() == Color::White { rank < 2 } else { rank > 5 }
}

/// A rule decided on one solver move: the ply it finds.
type MoveRule = fn(Puzzle) -> Option<u16>;

/// The rules decided on one move, with their themes.
const MOVE_RULES: [(Theme, MoveRule); 23] = [
    (Theme::Attraction, attraction),
    (Theme::Deflection, deflection),
    (Theme::AdvancedPawn, advanced_pawn),
    (Theme::DoubleCheck, double_check),
    (Theme::QuietMove, quiet_move),
    (Theme::DefensiveMove, |p| defensive_move(p).or_else(|| check_escape(p))),
    (Theme::XRayAttack, x_ray),
    (Theme::Fork, fork),
    (Theme::HangingPiece, hanging_piece),
    (Theme::TrappedPiece, trapped_piece),
    (Theme::DiscoveredAttack, discovered_attack),
    (Theme::ExposedKing, exposed_king),
    (Theme::Skewer, skewer),
    (Theme::Interference, |p| self_interference(p).or_else(|| interference(p))),
    (Theme::Intermezzo, intermezzo),
    (Theme::Pin, |p| pin_prevents_attack(p).or_else(|| pin_prevents_escape(p))),
    (Theme::AttackingF2F7, attacking_f2_f7),
    (Theme::Clearance, clearance),
    (Theme::EnPassant, en_passant),
    (Theme::Castling, castling),
    (Theme::Promotion, promotion),
    (Theme::UnderPromotion, under_promotion),
    (Theme::CapturingDefender, capturing_defender),
];

fn found(ply: usize) -> Option<u16> {
    Some(ply as u16)
}

/// The tagger's `cook`: every theme the puzzle gets. The order matters only
/// where one theme rules another out (the mate patterns, the side of an
/// attack after a back-rank mate or a fork); the caller sorts them.
pub fn cook(line: &Line) -> Vec<ThemeAt> {
    let infos = ply_infos(line);
    let p = Puzzle::new(line, &infos);
    let mut themes: Vec<ThemeAt> = Vec::with_capacity(8);
    let add = |themes: &mut Vec<ThemeAt>, theme: Theme, ply: Option<u16>| themes.push(ThemeAt { theme, ply });

    if let Some(mate_in) = mate_in(p) {
        add(&mut themes, mate_in, Some(1));
        let mating = found(p.last());
        add(&mut themes, Theme::Mate, mating);
        let pattern = if smothered_mate(p) {
            Some(Theme::SmotheredMate)
        } else if back_rank_mate(p) {
            Some(Theme::BackRankMate)
        } else if anastasia_mate(p) {
            Some(Theme::AnastasiaMate)
        } else if hook_mate(p) {
            Some(Theme::HookMate)
        } else if arabian_mate(p) {
            Some(Theme::ArabianMate)
        } else if let Some(bishops) = boden_or_double_bishop_mate(p) {
            Some(bishops)
        } else if dovetail_mate(p) {
            Some(Theme::DovetailMate)
        } else {
            None
        };
        if let Some(pattern) = pattern {
            add(&mut themes, pattern, mating);
        }
    }
    for (theme, rule) in MOVE_RULES {
        if let Some(ply) = rule(p) {
            add(&mut themes, theme, Some(ply));
        }
    }
    if sacrifice(p) {
        add(&mut themes, Theme::Sacrifice, None);
    }
    let endgame = [
        (Theme::PawnEndgame, Some(Role::Pawn)),
        (Theme::QueenEndgame, Some(Role::Queen)),
        (Theme::RookEndgame, Some(Role::Rook)),
        (Theme::BishopEndgame, Some(Role::Bishop)),
        (Theme::KnightEndgame, Some(Role::Knight)),
        (Theme::QueenRookEndgame, None),
    ]
    .into_iter()
    .find(|&(_, role)| match role {
        Some(role) => piece_endgame(p, role),
        None => queen_rook_endgame(p),
    });
    if let Some((theme, _)) = endgame {
        add(&mut themes, theme, None);
    }
    if !themes.iter().any(|t| matches!(t.theme, Theme::BackRankMate | Theme::Fork)) {
        if kingside_attack(p) {
            add(&mut themes, Theme::KingsideAttack, None);
        } else if queenside_attack(p) {
            add(&mut themes, Theme::QueensideAttack, None);
        }
    }
    add(&mut themes, length(p), None);
    add(&mut themes, phase(p), None);
    themes
}

/// Every rule function the tagger's test suite calls, by its name there.
pub fn function(name: &str) -> Option<fn(&Line) -> bool> {
    macro_rules! by_name {
        ($($f:ident)*) => {
            match name {
                $(stringify!($f) => Some(|line: &Line| $f(Puzzle::new(line, &ply_infos(line))).is_some()),)*
                "sacrifice" => Some(|line: &Line| sacrifice(Puzzle::new(line, &ply_infos(line)))),
                "smothered_mate" => Some(|line: &Line| smothered_mate(Puzzle::new(line, &ply_infos(line)))),
                "back_rank_mate" => Some(|line: &Line| back_rank_mate(Puzzle::new(line, &ply_infos(line)))),
                "anastasia_mate" => Some(|line: &Line| anastasia_mate(Puzzle::new(line, &ply_infos(line)))),
                "hook_mate" => Some(|line: &Line| hook_mate(Puzzle::new(line, &ply_infos(line)))),
                "arabian_mate" => Some(|line: &Line| arabian_mate(Puzzle::new(line, &ply_infos(line)))),
                "dovetail_mate" => Some(|line: &Line| dovetail_mate(Puzzle::new(line, &ply_infos(line)))),
                "kingside_attack" => Some(|line: &Line| kingside_attack(Puzzle::new(line, &ply_infos(line)))),
                "queenside_attack" => Some(|line: &Line| queenside_attack(Puzzle::new(line, &ply_infos(line)))),
                _ => None,
            }
        };
    }
    by_name!(
        attraction deflection advanced_pawn double_check quiet_move defensive_move check_escape x_ray fork
        hanging_piece trapped_piece discovered_attack discovered_check exposed_king skewer self_interference
        interference intermezzo pin_prevents_attack pin_prevents_escape attacking_f2_f7 clearance en_passant
        castling promotion under_promotion capturing_defender
    )
}

// ---------------------------------------------------------------- mates

/// `mate_in`: the line ends in mate; the solver's move count names it,
/// five and more alike.
fn mate_in(p: Puzzle) -> Option<Theme> {
    if !p.ends_in_mate() {
        return None;
    }
    Some(match p.plies() / 2 {
        0 | 1 => Theme::MateIn1,
        2 => Theme::MateIn2,
        3 => Theme::MateIn3,
        4 => Theme::MateIn4,
        _ => Theme::MateIn5,
    })
}

/// The squares around `king`.
fn neighbours(king: Square) -> Bitboard {
    attacks::king_attacks(king)
}

/// `smothered_mate`: the first knight among the checkers decides: every
/// square around the king holds one of the king's own men.
fn smothered_mate(p: Puzzle) -> bool {
    let pos = p.after(p.last());
    let board = pos.board();
    let Some(king) = p.final_king() else { return false };
    match pos.checkers().into_iter().find(|&c| board.role_at(c) == Some(Role::Knight)) {
        Some(_) => neighbours(king).into_iter().all(|sq| board.color_at(sq) == Some(!p.pov)),
        None => false,
    }
}

/// `back_rank_mate`: mate of a king on its back rank whose three (or two)
/// squares in front hold its own men that we do not attack, a checker on
/// that rank.
fn back_rank_mate(p: Puzzle) -> bool {
    let pos = p.after(p.last());
    let board = pos.board();
    let Some(king) = p.final_king() else { return false };
    let back_rank = if p.pov == Color::White { Rank::Eighth } else { Rank::First };
    if !p.ends_in_mate() || king.rank() != back_rank {
        return false;
    }
    let front = neighbours(king) & !Bitboard::from_rank(back_rank);
    for sq in front {
        if board.color_at(sq) != Some(!p.pov) || attackers(board, p.pov, sq).any() {
            return false;
        }
    }
    pos.checkers().into_iter().any(|c| c.rank() == back_rank)
}

/// `anastasia_mate`: a queen or rook mates on the king's edge file, the
/// king off the corner ranks, its own man beside it toward the centre and
/// our knight three files in from the king.
fn anastasia_mate(p: Puzzle) -> bool {
    let board = p.after(p.last()).board();
    let Some(king) = p.final_king() else { return false };
    let edge = matches!(king.file(), File::A | File::H);
    if !edge || matches!(king.rank(), Rank::First | Rank::Eighth) {
        return false;
    }
    let last = p.last();
    if p.to(last).file() != king.file() || !matches!(p.moved(last), Role::Queen | Role::Rook) {
        return false;
    }
    let inward = if king.file() == File::A { 1 } else { -1 };
    let blocker = king.offset(inward).and_then(|sq| board.piece_at(sq));
    let knight = king.offset(3 * inward).and_then(|sq| board.piece_at(sq));
    blocker.is_some_and(|b| b.color != p.pov) && knight == Some(p.pov.knight())
}

/// `hook_mate`: a rook mates next to the king, guarded by a knight next to
/// the king that a pawn guards.
fn hook_mate(p: Puzzle) -> bool {
    let board = p.after(p.last()).board();
    let Some(king) = p.final_king() else { return false };
    let rook = p.to(p.last());
    if p.moved(p.last()) != Role::Rook || rook.distance(king) != 1 {
        return false;
    }
    attackers(board, p.pov, rook).into_iter().any(|knight| {
        board.role_at(knight) == Some(Role::Knight)
            && knight.distance(king) == 1
            && (attackers(board, p.pov, knight) & board.pawns()).any()
    })
}

/// `arabian_mate`: a rook mates a cornered king next to it, guarded by a
/// knight two files and two ranks from the king.
fn arabian_mate(p: Puzzle) -> bool {
    let board = p.after(p.last()).board();
    let Some(king) = p.final_king() else { return false };
    let rook = p.to(p.last());
    let cornered = matches!(king.file(), File::A | File::H) && matches!(king.rank(), Rank::First | Rank::Eighth);
    if !cornered || p.moved(p.last()) != Role::Rook || rook.distance(king) != 1 {
        return false;
    }
    attackers(board, p.pov, rook).into_iter().any(|knight| {
        board.role_at(knight) == Some(Role::Knight)
            && knight.rank().distance(king.rank()) == 2
            && knight.file().distance(king.file()) == 2
    })
}

/// `boden_or_double_bishop_mate`: we have two bishops or more and nothing
/// but bishops attacks the king's square and its neighbours. The two
/// lowest-numbered bishops on either side of the king's file make a Boden's
/// mate, else a double-bishop mate.
fn boden_or_double_bishop_mate(p: Puzzle) -> Option<Theme> {
    let board = p.after(p.last()).board();
    let king = p.final_king()?;
    let bishops = board.bishops() & board.by_color(p.pov);
    if bishops.count() < 2 {
        return None;
    }
    for sq in neighbours(king).with(king) {
        if (attackers(board, p.pov, sq) & !board.bishops()).any() {
            return None;
        }
    }
    let mut two = bishops.into_iter();
    let (first, second) = (two.next()?, two.next()?);
    if (first.file() < king.file()) == (second.file() > king.file()) {
        Some(Theme::BodenMate)
    } else {
        Some(Theme::DoubleBishopMate)
    }
}

/// `dovetail_mate`: a queen mates from a diagonal neighbour of a king off
/// the edge; each other neighbour is attacked by nothing of ours, or by the
/// queen alone and then empty.
fn dovetail_mate(p: Puzzle) -> bool {
    let board = p.after(p.last()).board();
    let Some(king) = p.final_king() else { return false };
    let on_edge = matches!(king.file(), File::A | File::H) || matches!(king.rank(), Rank::First | Rank::Eighth);
    let queen = p.to(p.last());
    if on_edge
        || p.moved(p.last()) != Role::Queen
        || queen.file() == king.file()
        || queen.rank() == king.rank()
        || queen.distance(king) > 1
    {
        return false;
    }
    for sq in neighbours(king).without(queen) {
        let ours = attackers(board, p.pov, sq);
        if ours == Bitboard::from_square(queen) {
            if board.occupied().contains(sq) {
                return false;
            }
        } else if ours.any() {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------- moves

/// `attraction`: a solver move to a square where the opponent's king, queen
/// or rook then captures; our next move attacks that square with the piece
/// it moves, and either the attracted piece is the king or our move after
/// that captures there.
fn attraction(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies() {
        let square = p.to(ply);
        if ply + 1 >= p.plies() || p.to(ply + 1) != square {
            continue;
        }
        let attracted = p.moved(ply + 1);
        if !matches!(attracted, Role::King | Role::Queen | Role::Rook) || ply + 2 >= p.plies() {
            continue;
        }
        if !attackers(p.after(ply + 2).board(), p.pov, square).contains(p.to(ply + 2)) {
            continue;
        }
        if attracted == Role::King || (ply + 4 < p.plies() && p.to(ply + 4) == square) {
            return found(ply);
        }
    }
    None
}

/// `deflection`: a later solver capture (not of a more valuable man by a
/// cheaper one) or promotion, on a square the opponent's last move left,
/// which the opponent's moved man attacked after our move before; our move
/// before was a check or drew that man to its square, and took nothing or a
/// man "worth less" than the moved piece — the tagger compares the taken
/// man's value with the moving piece's python-chess type number.
fn deflection(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        let captured = p.captured(ply);
        let promotion = p.mv(ply).is_promotion();
        if captured.is_none() && !promotion {
            continue;
        }
        if captured.is_some_and(|c| value(c.role) > value(p.moved(ply))) {
            continue;
        }
        let square = p.to(ply);
        let (op_from, op_to) = (p.from(ply - 1), p.to(ply - 1));
        let ours = ply - 2;
        let our_capture = p.captured(ours);
        let grandpa = p.after(ours);
        let lured = our_capture.is_none_or(|c| value(c.role) < type_number(p.moved(ours)));
        let was_attacked = grandpa.board().attacks_from(op_from).contains(square)
            || (promotion
                && square.file() == op_from.file()
                && grandpa.board().attacks_from(op_from).contains(p.from(ply)));
        if lured
            && square != op_to
            && square != p.to(ours)
            && (op_to == p.to(ours) || p.checks(ours))
            && was_attacked
            && !p.before(ply).board().attacks_from(op_to).contains(square)
        {
            return found(ours);
        }
    }
    None
}

/// `advanced_pawn`: a solver pawn reaches its seventh or eighth rank.
fn advanced_pawn(p: Puzzle) -> Option<u16> {
    p.solver_plies().find(|&ply| is_very_advanced_pawn_move(p, ply)).and_then(found)
}

/// `double_check`: a solver move gives check with two pieces.
fn double_check(p: Puzzle) -> Option<u16> {
    p.solver_plies().find(|&ply| p.after(ply).checkers().count() > 1).and_then(found)
}

/// Whether the man moved on `ply` attacks a man of the other side.
fn attacks_something(p: Puzzle, ply: usize) -> bool {
    attacked_opponent_squares(p.after(ply).board(), p.to(ply), p.pov).any()
}

/// `quiet_move`: a solver move, not the last, that neither gives nor
/// escapes check, takes nothing, attacks nothing from its square, is no
/// advanced pawn move and no king move.
fn quiet_move(p: Puzzle) -> Option<u16> {
    p.solver_plies()
        .find(|&ply| {
            ply != p.last()
                && !p.checks(ply)
                && !p.in_check_before(ply)
                && !p.is_capture(ply)
                && !attacks_something(p, ply)
                && !is_advanced_pawn_move(p, ply)
                && p.moved(ply) != Role::King
        })
        .and_then(found)
}

/// `defensive_move`: the last move, chosen among three legal moves or more,
/// gives no check, takes and attacks nothing, and is no advanced pawn move.
fn defensive_move(p: Puzzle) -> Option<u16> {
    let last = p.last();
    let quiet =
        !p.checks(last) && !p.is_capture(last) && !attacks_something(p, last) && !is_advanced_pawn_move(p, last);
    // Counting the legal moves costs most: it comes last.
    (quiet && p.before(last).legal_moves().len() >= 3).then_some(last as u16)
}

/// `check_escape`: the first solver move that gives check or takes ends
/// the search, as does one chosen among fewer than three; before that, a
/// move out of check is a defensive move.
fn check_escape(p: Puzzle) -> Option<u16> {
    // The search ends at the first solver move that checks, takes or
    // answers a check; it finds an escape only if every move up to that one
    // had three legal moves or more. Legal moves are counted only then.
    let decisive = p.solver_plies().find(|&ply| p.checks(ply) || p.is_capture(ply) || p.in_check_before(ply))?;
    let escapes = !p.checks(decisive) && !p.is_capture(decisive);
    let chosen = || (1..=decisive).step_by(2).all(|ply| p.before(ply).legal_moves().len() >= 3);
    (escapes && chosen()).then_some(decisive as u16)
}

/// `sacrifice`: after some later solver move we are two pawns' worth or
/// more down on the position the solver faced, and the opponent promotes
/// nowhere in the line.
fn sacrifice(p: Puzzle) -> bool {
    let initial = balance(p.after(0).board(), p.pov);
    for ply in p.later_solver_plies() {
        if balance(p.after(ply).board(), p.pov) - initial <= -2 {
            return !(2..p.plies()).step_by(2).any(|op| p.mv(op).is_promotion());
        }
    }
    false
}

/// `x_ray`: a later solver capture on the square where the opponent just
/// took (not with the king) what we had taken there, through the square the
/// opponent's taker came from.
fn x_ray(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        if !p.is_capture(ply) {
            continue;
        }
        if p.to(ply - 1) != p.to(ply) || p.moved(ply - 1) == Role::King {
            continue;
        }
        if p.to(ply - 2) != p.to(ply - 1) {
            continue;
        }
        if attacks::between(p.from(ply), p.to(ply)).contains(p.from(ply - 1)) {
            return found(ply);
        }
    }
    None
}

/// `fork`: a solver move before our last one, not by the king, to a square
/// where it does not stand badly, attacking two enemy men other than pawns
/// that are worth more than it (the king counts 99), or are hanging and
/// cannot take it.
fn fork(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies_but_last() {
        let moved = p.moved(ply);
        if moved == Role::King {
            continue;
        }
        let board = p.after(ply).board();
        let to = p.to(ply);
        if is_in_bad_spot(board, to) {
            continue;
        }
        let takers = attackers(board, !p.pov, to);
        let forked = attacked_opponent_squares(board, to, p.pov)
            .into_iter()
            .filter(|&sq| {
                let role = board.role_at(sq).expect("an attacked man");
                role != Role::Pawn
                    && (value(role) > value(moved) || (is_hanging(board, !p.pov, sq) && !takers.contains(sq)))
            })
            .count();
        if forked > 1 {
            return found(ply);
        }
    }
    None
}

/// `hanging_piece`: the key move takes a hanging man other than a pawn
/// (a pawn is fine only out of check), not a recapture of an equal or
/// better man the setup move took there, and the material stays won after
/// the next two plies (or the line ends).
fn hanging_piece(p: Puzzle) -> Option<u16> {
    let to = p.to(1);
    let faced = p.after(0);
    let captured = faced.board().piece_at(to);
    if p.checks(0) && captured.is_none_or(|c| c.role == Role::Pawn) {
        return None;
    }
    let captured = captured.filter(|c| c.role != Role::Pawn)?;
    if !is_hanging(faced.board(), captured.color, to) {
        return None;
    }
    let setup_took = p.before(0).board().role_at(p.to(0));
    if setup_took.is_some_and(|r| value(r) >= value(captured.role)) && p.to(0) == to {
        return None;
    }
    if p.plies() < 4 || balance(p.after(3).board(), p.pov) >= balance(p.after(1).board(), p.pov) {
        return found(1);
    }
    None
}

/// `trapped_piece`: a later solver capture of a man other than a pawn that
/// was trapped after our move before (where the opponent's last move came
/// from, when it went to the capture square).
fn trapped_piece(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        let mut square = p.to(ply);
        if p.captured(ply).is_none_or(|c| c.role == Role::Pawn) {
            continue;
        }
        if p.to(ply - 1) == square {
            square = p.from(ply - 1);
        }
        if is_trapped(p.after(ply - 2), square) {
            return found(ply - 2);
        }
    }
    None
}

/// `discovered_check`: a solver move gives check with a piece other than
/// the one on its destination square.
fn discovered_check(p: Puzzle) -> Option<u16> {
    p.solver_plies()
        .find(|&ply| {
            let checkers = p.after(ply).checkers();
            checkers.any() && !checkers.contains(p.to(ply))
        })
        .and_then(found)
}

/// `discovered_attack`: a discovered check; or a later solver capture along
/// a line that our move before left (not castling, not to or from the
/// capture's squares). A capture on the square the opponent just moved to
/// ends the search.
fn discovered_attack(p: Puzzle) -> Option<u16> {
    if let Some(ply) = discovered_check(p) {
        return Some(ply);
    }
    for ply in p.later_solver_plies() {
        if !p.is_capture(ply) {
            continue;
        }
        if p.to(ply - 1) == p.to(ply) {
            return None;
        }
        let ours = ply - 2;
        if attacks::between(p.from(ply), p.to(ply)).contains(p.from(ours))
            && p.to(ply) != p.to(ours)
            && p.from(ply) != p.to(ours)
            && !p.mv(ours).is_castle()
        {
            return found(ours);
        }
    }
    None
}

/// `exposed_king`: the enemy king stands on our sixth rank or beyond with
/// no pawn of its own in front or beside it, and a solver move after the
/// key move, not the last, gives check.
fn exposed_king(p: Puzzle) -> Option<u16> {
    let board = p.after(0).board();
    let king = board.king_of(!p.pov)?;
    let relative = |sq: Square| if p.pov == Color::White { sq } else { sq.flip_vertical() };
    let k = relative(king);
    if (k.rank() as u32) < 5 {
        return None;
    }
    let mut shelter = Bitboard::EMPTY;
    for (df, dr) in [(0, -1), (-1, 0), (-1, -1), (1, 0), (1, -1)] {
        let file = k.file() as i32 + df;
        if !(0..8).contains(&file) {
            continue;
        }
        if let Some(sq) = k.offset(df + 8 * dr) {
            shelter.add(relative(sq));
        }
    }
    if (shelter & board.pawns() & board.by_color(!p.pov)).any() {
        return None;
    }
    p.solver_plies_but_last().skip(1).find(|&ply| p.checks(ply)).and_then(found)
}

/// `skewer`: a later solver capture by a queen, rook or bishop, not
/// mating, of a man that stood behind the square the opponent's more
/// valuable piece just left, and that then stood badly.
fn skewer(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        let Some(captured) = p.captured(ply) else { continue };
        if !is_ray(p.moved(ply)) || p.mates(ply) {
            continue;
        }
        if p.to(ply - 1) == p.to(ply) || !attacks::between(p.from(ply), p.to(ply)).contains(p.from(ply - 1)) {
            continue;
        }
        if value(p.moved(ply - 1)) > value(captured.role) && is_in_bad_spot(p.before(ply).board(), p.to(ply)) {
            return found(ply - 2);
        }
    }
    None
}

/// The defender the tagger names for the man on `square`: the lowest
/// square among its side's attackers of it on `board` (python-chess
/// `SquareSet.pop`). A defender on a1 counts as none, a quirk of the
/// tagger's truth test on square 0.
fn lowest_defender(board: &shakmaty::Board, color: Color, square: Square) -> Option<Square> {
    attackers(board, color, square).first().filter(|&sq| sq != Square::A1)
}

/// The shape both interference rules share: our capture on `ply` takes a
/// hanging man whose defender — the lowest-numbered man of its side
/// attacking the square after ply `defenders_after`, a queen, rook or
/// bishop — was cut off by the man moved on ply `cutter`.
fn cut_off_defender(p: Puzzle, ply: usize, defenders_after: usize, cutter: usize) -> bool {
    let square = p.to(ply);
    let board = p.before(ply).board();
    let Some(captured) = board.piece_at(square) else { return false };
    if !is_hanging(board, captured.color, square) {
        return false;
    }
    let init = p.after(defenders_after).board();
    let Some(defender) = lowest_defender(init, captured.color, square) else { return false };
    init.role_at(defender).is_some_and(is_ray) && attacks::between(square, defender).contains(p.to(cutter))
}

/// `self_interference`: a later solver capture of a hanging man whose
/// defender (after our move before) the opponent's own last move cut off.
/// It sits on our move before, which drew the opponent's man into the line.
fn self_interference(p: Puzzle) -> Option<u16> {
    p.later_solver_plies().find(|&ply| cut_off_defender(p, ply, ply - 2, ply - 1)).and_then(|ply| found(ply - 2))
}

/// `interference`: a later solver capture, not on the square the opponent
/// just moved to, of a hanging man whose defender (before our move before)
/// our move before cut off.
fn interference(p: Puzzle) -> Option<u16> {
    p.later_solver_plies()
        .find(|&ply| p.to(ply) != p.to(ply - 1) && cut_off_defender(p, ply, ply - 3, ply - 2))
        .and_then(|ply| found(ply - 2))
}

/// `intermezzo`: the first later solver capture whose square the
/// opponent's last mover did not attack after our move before, where our
/// move before went elsewhere, decides: the opponent had captured on that
/// square just before it, and our capture was already legal then.
fn intermezzo(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        if !p.is_capture(ply) {
            continue;
        }
        let square = p.to(ply);
        if attackers(p.after(ply - 2).board(), !p.pov, square).contains(p.from(ply - 1)) {
            continue;
        }
        if p.to(ply - 2) == square {
            continue;
        }
        let earlier = ply - 3;
        let mv = p.mv(ply);
        let legal_then = || {
            let legal = p.after(earlier).legal_moves();
            legal
                .iter()
                .any(|m| m.from() == mv.from() && to_square(*m) == to_square(mv) && m.promotion() == mv.promotion())
        };
        return (p.to(earlier) == square && p.is_capture(earlier) && legal_then()).then(|| ply as u16 - 2);
    }
    None
}

/// `pin_prevents_attack`: after a solver move, an enemy man pinned to its
/// king attacks, off the pin line, a man of ours worth more than it or
/// hanging.
fn pin_prevents_attack(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies() {
        let board = p.after(ply).board();
        for (square, pin) in pins(board, !p.pov) {
            let pinned = board.role_at(square).expect("a man on its square");
            for attacked in board.attacks_from(square) & board.by_color(p.pov) & !pin {
                let role = board.role_at(attacked).expect("a man on its square");
                if value(role) > value(pinned) || is_hanging(board, p.pov, attacked) {
                    return found(ply);
                }
            }
        }
    }
    None
}

/// `pin_prevents_escape`: after a solver move, an enemy man pinned to its
/// king is attacked along the pin by a cheaper piece of ours, or is hanging,
/// cannot take its attacker, and has a move off the pin line.
fn pin_prevents_escape(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies() {
        let pos = p.after(ply);
        let board = pos.board();
        for (square, pin) in pins(board, !p.pov) {
            let pinned = board.role_at(square).expect("a man on its square");
            for attacker in attackers(board, p.pov, square) & pin {
                let role = board.role_at(attacker).expect("a man on its square");
                if value(pinned) > value(role) {
                    return found(ply);
                }
                if is_hanging(board, !p.pov, square)
                    && !attackers(board, !p.pov, attacker).contains(square)
                    && has_pseudo_legal_move_outside(pos, square, pin)
                {
                    return found(ply);
                }
            }
        }
    }
    None
}

/// `attacking_f2_f7`: the first solver capture on f2 or f7 decides: the
/// enemy king stands on e1 or e8 (next to it) afterwards.
fn attacking_f2_f7(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies() {
        let square = p.to(ply);
        if p.captured(ply).is_some() && matches!(square, Square::F2 | Square::F7) {
            let home = if square == Square::F7 { Square::E8 } else { Square::E1 };
            let king = p.after(ply).board().piece_at(home);
            return king.is_some_and(|k| k.role == Role::King && k.color != p.pov).then_some(ply as u16);
        }
    }
    None
}

/// `clearance`: a later solver move of a queen, rook or bishop to an empty
/// square, along a line (or onto the square) our move before left; that
/// move was no promotion, did not go to this move's squares, left a man
/// that went to an empty square or now stands badly, and the opponent's
/// move between neither escaped a check nor (when we now check) was a king
/// move.
fn clearance(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        if p.captured(ply).is_some() || !is_ray(p.moved(ply)) {
            continue;
        }
        let ours = ply - 2;
        let cleared = p.from(ours) == p.to(ply) || attacks::between(p.from(ply), p.to(ply)).contains(p.from(ours));
        if !p.mv(ours).is_promotion()
            && p.to(ours) != p.from(ply)
            && p.to(ours) != p.to(ply)
            && !p.in_check_before(ply)
            && (!p.checks(ply) || p.moved(ply - 1) != Role::King)
            && cleared
            && (p.captured(ours).is_none() || is_in_bad_spot(p.after(ours).board(), p.to(ours)))
        {
            return found(ours);
        }
    }
    None
}

/// `en_passant`: a solver pawn moves diagonally to an empty square.
fn en_passant(p: Puzzle) -> Option<u16> {
    p.solver_plies()
        .find(|&ply| p.moved(ply) == Role::Pawn && p.from(ply).file() != p.to(ply).file() && p.captured(ply).is_none())
        .and_then(found)
}

/// `castling`: a solver move castles.
fn castling(p: Puzzle) -> Option<u16> {
    p.solver_plies().find(|&ply| p.mv(ply).is_castle()).and_then(found)
}

/// `promotion`: a solver move promotes.
fn promotion(p: Puzzle) -> Option<u16> {
    p.solver_plies().find(|&ply| p.mv(ply).is_promotion()).and_then(found)
}

/// `under_promotion`: a solver promotion to a knight, bishop or rook; the
/// first mating solver move decides alone: it must promote to a knight.
fn under_promotion(p: Puzzle) -> Option<u16> {
    for ply in p.solver_plies() {
        let promoted = p.mv(ply).promotion();
        if p.mates(ply) {
            return (promoted == Some(Role::Knight)).then_some(ply as u16);
        }
        if promoted.is_some_and(|r| r != Role::Queen) {
            return found(ply);
        }
    }
    None
}

/// `capturing_defender`: a later solver move that mates, or takes (not with
/// the king) a hanging man worth no more than the taker, not on the square
/// the opponent just moved to; our move before, not a check and not the
/// taker's move, went to the square of a man that defended this square on
/// the board it was played on, no check standing there.
fn capturing_defender(p: Puzzle) -> Option<u16> {
    for ply in p.later_solver_plies() {
        let mates = p.mates(ply);
        let takes_hanging = || {
            p.captured(ply).is_some_and(|c| {
                p.moved(ply) != Role::King
                    && value(c.role) <= value(p.moved(ply))
                    && is_hanging(p.before(ply).board(), c.color, p.to(ply))
                    && p.to(ply - 1) != p.to(ply)
            })
        };
        if !(mates || takes_hanging()) {
            continue;
        }
        let ours = ply - 2;
        if p.checks(ours) || p.to(ours) == p.from(ply) {
            continue;
        }
        let init = p.before(ours);
        let defender_square = p.to(ours);
        if let Some(defender) = init.board().piece_at(defender_square) {
            if attackers(init.board(), defender.color, p.to(ply)).contains(defender_square) && !p.in_check_before(ours)
            {
                return found(ours);
            }
        }
    }
    None
}

// ---------------------------------------------------------------- puzzle

/// `piece_endgame`: in the position the solver faces and after the key
/// move, some man of `role` stands and every man is a king, a pawn or one
/// of `role`.
fn piece_endgame(p: Puzzle, role: Role) -> bool {
    [p.after(0), p.after(1)].into_iter().all(|pos| {
        let board = pos.board();
        board.by_role(role).any()
            && (board.occupied() & !board.kings() & !board.pawns() & !board.by_role(role)).is_empty()
    })
}

/// `queen_rook_endgame`: in the position the solver faces and after the
/// key move, exactly one queen, some rook, and nothing but kings, pawns,
/// queens and rooks.
fn queen_rook_endgame(p: Puzzle) -> bool {
    [p.after(0), p.after(1)].into_iter().all(|pos| {
        let board = pos.board();
        board.queens().count() == 1 && board.rooks().any() && (board.knights() | board.bishops()).is_empty()
    })
}

fn kingside_attack(p: Puzzle) -> bool {
    side_attack(p, File::H, &[File::G, File::H], 20)
}

fn queenside_attack(p: Puzzle) -> bool {
    side_attack(p, File::A, &[File::A, File::B, File::C], 18)
}

/// `side_attack`: the enemy king on its back rank, on one of `king_files`
/// (a king on a1 does not count, a quirk of the tagger's truth test on
/// square 0), `pieces` men or more on the board the solver faces, and some
/// check in the line; then each check scores a point, each capture within
/// three squares of the corner a point, and each other move five squares or
/// more from the corner loses one. Two points make the attack.
fn side_attack(p: Puzzle, corner_file: File, king_files: &[File], pieces: usize) -> bool {
    let back_rank = if p.pov == Color::White { Rank::Eighth } else { Rank::First };
    let board = p.after(0).board();
    let Some(king) = board.king_of(!p.pov).filter(|&k| k != Square::A1) else { return false };
    if king.rank() != back_rank
        || !king_files.contains(&king.file())
        || board.occupied().count() < pieces
        || !p.solver_plies().any(|ply| p.checks(ply))
    {
        return false;
    }
    let corner = Square::from_coords(corner_file, back_rank);
    let mut score = 0;
    for ply in p.solver_plies() {
        let corner_distance = corner.distance(p.to(ply));
        if p.checks(ply) {
            score += 1;
        }
        if p.is_capture(ply) && corner_distance <= 3 {
            score += 1;
        } else if corner_distance >= 5 {
            score -= 1;
        }
    }
    score >= 2
}

/// The puzzle's length by its plies: 2 one move, 4 short, 8 or more very
/// long, anything else long.
fn length(p: Puzzle) -> Theme {
    match p.plies() {
        2 => Theme::OneMove,
        4 => Theme::Short,
        n if n >= 8 => Theme::VeryLong,
        _ => Theme::Long,
    }
}

/// The game phase by Lichess's divider, read on the position the solver
/// faces, the mixedness seen from White's side as Lichess computes it.
fn phase(p: Puzzle) -> Theme {
    match crate::tactics::puzzle::phase::lichess_phase(p.after(0).board()) {
        crate::label::Label::Opening => Theme::Opening,
        crate::label::Label::Endgame => Theme::Endgame,
        _ => Theme::Middlegame,
    }
}
