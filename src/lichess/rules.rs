//! Lichess's theme rules, one function per rule of `tagger/cook.py`, each
//! stated as the facts it checks. Plies follow the Lichess layout: ply 0 is
//! the opponent's setup move, odd plies are the solver's. "After ply i" is
//! the position once move i is played, "before ply i" the one it is played
//! from. Where a rule returns at the first candidate it meets, so does its
//! function here: that is the tagger's answer, even where a later move
//! would qualify.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, File, Move, Piece, Position, Rank, Role, Square};

use super::board::{
    attacked_opponent_squares, attackers, from_square, has_pseudo_legal_move_outside, is_hanging, is_in_bad_spot,
    is_ray, is_trapped, pins, to_square, type_number, value, worth_less_than, worth_more_than,
};
use super::{Theme, ThemeAt, Themes};
use crate::board::{attacks_from, distance, has_legal_moves, legal_plain_move};
use crate::line::Line;

/// What the rules read of one ply, found once per puzzle.
#[derive(Clone, Copy)]
struct PlyInfo {
    /// Where the move lands, python-chess's way ([`to_square`]).
    to: Square,
    from: Square,
    /// The kind of man standing on `to` once the move is played
    /// (`util.moved_piece_type`: the promoted piece for a promotion).
    moved: Role,
    /// The man the move takes on its square (none for en passant).
    captured: Option<Piece>,
    /// The men giving check once the move is played.
    checkers: Bitboard,
    /// What the move does.
    kinds: Kinds,
    /// The solver's material balance once the move is played, less its
    /// balance in the position the solver faces (after ply 0): the rules
    /// compare balances only, and a move changes one by what it takes and
    /// promotes to, so no board is counted.
    swing: i16,
}

impl PlyInfo {
    const EMPTY: PlyInfo = PlyInfo {
        to: Square::A1,
        from: Square::A1,
        moved: Role::Pawn,
        captured: None,
        checkers: Bitboard::EMPTY,
        kinds: Kinds(0),
        swing: 0,
    };
}

/// Kinds of move, as a set: what some ply of a stretch of the line does.
/// Rules that need a kind no solver move has are skipped at once.
#[derive(Clone, Copy, Default)]
struct Kinds(u8);

impl Kinds {
    const CAPTURE: Kinds = Kinds(1);
    const CHECK: Kinds = Kinds(2);
    const CASTLE: Kinds = Kinds(4);
    const PROMOTION: Kinds = Kinds(8);
    const EN_PASSANT: Kinds = Kinds(16);
    /// A pawn moves (promotions included).
    const PAWN: Kinds = Kinds(32);

    fn of(mv: Move, checks: bool) -> Kinds {
        let kinds = match mv {
            Move::Normal { role, capture, promotion, .. } => {
                let capture = if capture.is_some() { Kinds::CAPTURE.0 } else { 0 };
                let promotion = if promotion.is_some() { Kinds::PROMOTION.0 } else { 0 };
                capture | promotion | if role == Role::Pawn { Kinds::PAWN.0 } else { 0 }
            }
            Move::EnPassant { .. } => Kinds::CAPTURE.0 | Kinds::EN_PASSANT.0 | Kinds::PAWN.0,
            Move::Castle { .. } => Kinds::CASTLE.0,
            Move::Put { role, .. } => {
                if role == Role::Pawn {
                    Kinds::PAWN.0
                } else {
                    0
                }
            }
        };
        Kinds(kinds | if checks { Kinds::CHECK.0 } else { 0 })
    }

    fn has(self, kind: Kinds) -> bool {
        self.0 & kind.0 != 0
    }
}

/// A puzzle as the tagger walks it.
#[derive(Clone, Copy)]
struct Puzzle<'a> {
    line: &'a Line,
    plies: &'a [PlyInfo],
    /// The solver's colour (the tagger's `pov`).
    pov: Color,
    /// What the solver's moves do, all of them and those after the key move.
    solver: Kinds,
    later: Kinds,
}

/// Lines up to this many plies keep their per-ply facts on the stack.
const INLINE_PLIES: usize = 32;

/// Runs `f` on `line` with its per-ply facts found once: on the stack for
/// lines of up to [`INLINE_PLIES`] plies (every Lichess puzzle seen), on the
/// heap beyond.
fn with_puzzle<T>(line: &Line, f: impl FnOnce(Puzzle) -> T) -> T {
    let plies = line.plies();
    if plies <= INLINE_PLIES {
        let mut infos = [PlyInfo::EMPTY; INLINE_PLIES];
        let (solver, later) = fill_ply_infos(line, &mut infos[..plies]);
        f(Puzzle { line, plies: &infos[..plies], pov: line.after(0).turn(), solver, later })
    } else {
        let mut infos = vec![PlyInfo::EMPTY; plies];
        let (solver, later) = fill_ply_infos(line, &mut infos);
        f(Puzzle { line, plies: &infos, pov: line.after(0).turn(), solver, later })
    }
}

/// Finds the per-ply facts of `line`, and what the solver's moves do: all
/// of them, and those after the key move.
fn fill_ply_infos(line: &Line, infos: &mut [PlyInfo]) -> (Kinds, Kinds) {
    // The solver moves on odd plies (the layout `cook` requires); the
    // setup move's own gain is not counted: balances are compared from
    // the position it leaves.
    let mut swing = 0;
    let (mut solver, mut later) = (0, 0);
    for (ply, info) in infos.iter_mut().enumerate() {
        let mv = line.moves[ply];
        let after = line.after(ply);
        // What the move says equals what the boards hold: the man on its
        // square after it, the man it takes there (none en passant).
        let captured = match mv {
            Move::Normal { capture: Some(role), .. } => Some(Piece { color: after.turn(), role }),
            _ => None,
        };
        let gain = mv.capture().map_or(0, value) + mv.promotion().map_or(0, |role| value(role) - value(Role::Pawn));
        if ply > 0 {
            swing += if ply % 2 == 1 { gain } else { -gain };
        }
        let checkers = line.checkers_after(ply);
        let kinds = Kinds::of(mv, checkers.any());
        if ply % 2 == 1 {
            solver |= kinds.0;
            later |= if ply >= 3 { kinds.0 } else { 0 };
        }
        *info = PlyInfo {
            to: to_square(mv),
            from: from_square(mv),
            moved: mv.promotion().unwrap_or(mv.role()),
            captured,
            checkers,
            kinds,
            swing: swing as i16,
        };
    }
    (Kinds(solver), Kinds(later))
}

impl<'a> Puzzle<'a> {
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
        self.plies[ply].kinds.has(Kinds::CAPTURE)
    }

    fn captured(self, ply: usize) -> Option<Piece> {
        self.plies[ply].captured
    }

    /// The men giving check once the move of `ply` is played.
    fn checkers(self, ply: usize) -> Bitboard {
        self.plies[ply].checkers
    }

    /// The move of `ply` gives check.
    fn checks(self, ply: usize) -> bool {
        self.checkers(ply).any()
    }

    /// The solver's balance after `ply` less its balance after ply 0.
    fn swing(self, ply: usize) -> i32 {
        i32::from(self.plies[ply].swing)
    }

    /// The side to move before `ply` is in check.
    fn in_check_before(self, ply: usize) -> bool {
        match ply {
            0 => self.before(0).is_check(),
            _ => self.checks(ply - 1),
        }
    }

    /// The side that plays `ply`.
    fn mover(self, ply: usize) -> Color {
        if ply % 2 == 1 {
            self.pov
        } else {
            !self.pov
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
    if p.mover(ply) == Color::Black {
        rank < 3
    } else {
        rank > 4
    }
}

/// `util.is_very_advanced_pawn_move`: an advanced pawn move to the seventh
/// rank or beyond.
fn is_very_advanced_pawn_move(p: Puzzle, ply: usize) -> bool {
    let rank = p.to(ply).rank() as u32;
    is_advanced_pawn_move(p, ply) && if p.mover(ply) == Color::Black { rank < 2 } else { rank > 5 }
}

fn found(ply: usize) -> Option<u16> {
    Some(ply as u16)
}

/// The themes found so far: a set, and the ply each one sits on.
struct Found {
    set: u64,
    /// By theme; [`Found::NO_PLY`] for a theme of the whole puzzle.
    plies: [u16; Theme::NAMES.len()],
}

impl Found {
    const NO_PLY: u16 = u16::MAX;

    fn add(&mut self, theme: Theme, ply: Option<u16>) {
        self.set |= 1 << theme as u32;
        self.plies[theme as usize] = ply.unwrap_or(Found::NO_PLY);
    }

    fn has(&self, theme: Theme) -> bool {
        self.set & (1 << theme as u32) != 0
    }

    /// The themes, by name: themes are declared in alphabetical order.
    fn themes(&self) -> Themes {
        let mut themes = Themes::default();
        let mut set = self.set;
        while set != 0 {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            let ply = self.plies[i];
            themes.push(ThemeAt { theme: Theme::ALL[i], ply: (ply != Found::NO_PLY).then_some(ply) });
        }
        themes
    }
}

/// The tagger's `cook`: every theme the puzzle gets, sorted by name. The
/// order the rules run in matters only where one theme rules another out
/// (the mate patterns, the side of an attack after a back-rank mate or a
/// fork).
pub fn cook(line: &Line) -> Themes {
    with_puzzle(line, |p| {
        let mut themes = Found { set: 0, plies: [0; Theme::NAMES.len()] };
        if let Some(mate_in) = mate_in(p) {
            themes.add(mate_in, Some(1));
            let mating = found(p.last());
            themes.add(Theme::Mate, mating);
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
                themes.add(pattern, mating);
            }
        }
        // The rules decided on one move, with their themes: called each by
        // name, so that the small ones are inlined here.
        macro_rules! move_rules {
            ($($theme:ident: $rule:expr,)*) => {
                $(if let Some(ply) = $rule(p) {
                    themes.add(Theme::$theme, Some(ply));
                })*
            };
        }
        move_rules! {
            Attraction: attraction,
            Deflection: deflection,
            AdvancedPawn: advanced_pawn,
            DoubleCheck: double_check,
            QuietMove: quiet_move,
            DefensiveMove: |p| defensive_move(p).or_else(|| check_escape(p)),
            XRayAttack: x_ray,
            Fork: fork,
            HangingPiece: hanging_piece,
            TrappedPiece: trapped_piece,
            DiscoveredAttack: discovered_attack,
            ExposedKing: exposed_king,
            Skewer: skewer,
            Interference: |p| self_interference(p).or_else(|| interference(p)),
            Intermezzo: intermezzo,
            Pin: pin,
            AttackingF2F7: attacking_f2_f7,
            Clearance: clearance,
            EnPassant: en_passant,
            Castling: castling,
            Promotion: promotion,
            UnderPromotion: under_promotion,
            CapturingDefender: capturing_defender,
        }
        if sacrifice(p) {
            themes.add(Theme::Sacrifice, None);
        }
        if let Some(endgame) = endgame(p) {
            themes.add(endgame, None);
        }
        if !themes.has(Theme::BackRankMate) && !themes.has(Theme::Fork) {
            if let Some(side) = side_attack(p) {
                themes.add(side, None);
            }
        }
        themes.add(length(p), None);
        themes.add(phase(p), None);
        themes.themes()
    })
}

/// Every rule function the tagger's test suite calls, by its name there.
pub fn function(name: &str) -> Option<fn(&Line) -> bool> {
    macro_rules! by_name {
        ($($f:ident)*) => {
            match name {
                $(stringify!($f) => Some(|line: &Line| with_puzzle(line, |p| $f(p).is_some())),)*
                "sacrifice" => Some(|line: &Line| with_puzzle(line, sacrifice)),
                "smothered_mate" => Some(|line: &Line| with_puzzle(line, smothered_mate)),
                "back_rank_mate" => Some(|line: &Line| with_puzzle(line, back_rank_mate)),
                "anastasia_mate" => Some(|line: &Line| with_puzzle(line, anastasia_mate)),
                "hook_mate" => Some(|line: &Line| with_puzzle(line, hook_mate)),
                "arabian_mate" => Some(|line: &Line| with_puzzle(line, arabian_mate)),
                "dovetail_mate" => Some(|line: &Line| with_puzzle(line, dovetail_mate)),
                "kingside_attack" => Some(|line: &Line| with_puzzle(line, |p| side_attack(p) == Some(Theme::KingsideAttack))),
                "queenside_attack" => Some(|line: &Line| with_puzzle(line, |p| side_attack(p) == Some(Theme::QueensideAttack))),
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
    let board = p.after(p.last()).board();
    let Some(king) = p.final_king() else { return false };
    match p.checkers(p.last()).into_iter().find(|&c| board.role_at(c) == Some(Role::Knight)) {
        Some(_) => neighbours(king).into_iter().all(|sq| board.color_at(sq) == Some(!p.pov)),
        None => false,
    }
}

/// `back_rank_mate`: mate of a king on its back rank whose three (or two)
/// squares in front hold its own men that we do not attack, a checker on
/// that rank.
fn back_rank_mate(p: Puzzle) -> bool {
    let board = p.after(p.last()).board();
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
    (p.checkers(p.last()) & Bitboard::from_rank(back_rank)).any()
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
    if p.moved(p.last()) != Role::Rook || distance(rook, king) != 1 {
        return false;
    }
    attackers(board, p.pov, rook).into_iter().any(|knight| {
        board.role_at(knight) == Some(Role::Knight)
            && distance(knight, king) == 1
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
    if !cornered || p.moved(p.last()) != Role::Rook || distance(rook, king) != 1 {
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
        || distance(queen, king) > 1
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
        if !attacks_from(p.after(ply + 2).board(), p.to(ply + 2)).contains(square) {
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
    if !p.later.has(Kinds::CAPTURE) && !p.later.has(Kinds::PROMOTION) {
        return None;
    }
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
        let lured = our_capture.is_none_or(|c| value(c.role) < type_number(p.moved(ours)));
        let was_attacked = || {
            let attacked = attacks_from(p.after(ours).board(), op_from);
            attacked.contains(square)
                || (promotion && square.file() == op_from.file() && attacked.contains(p.from(ply)))
        };
        if lured
            && square != op_to
            && square != p.to(ours)
            && (op_to == p.to(ours) || p.checks(ours))
            && was_attacked()
            && !attacks_from(p.before(ply).board(), op_to).contains(square)
        {
            return found(ours);
        }
    }
    None
}

/// `advanced_pawn`: a solver pawn reaches its seventh or eighth rank.
fn advanced_pawn(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::PAWN) {
        return None;
    }
    p.solver_plies().find(|&ply| is_very_advanced_pawn_move(p, ply)).and_then(found)
}

/// `double_check`: a solver move gives check with two pieces.
fn double_check(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::CHECK) {
        return None;
    }
    p.solver_plies().find(|&ply| p.checkers(ply).more_than_one()).and_then(found)
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
                && p.moved(ply) != Role::King
                && !is_advanced_pawn_move(p, ply)
                && !attacks_something(p, ply)
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
    (quiet && has_legal_moves(p.before(last), 3)).then_some(last as u16)
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
    let chosen = || (1..=decisive).step_by(2).all(|ply| has_legal_moves(p.before(ply), 3));
    (escapes && chosen()).then_some(decisive as u16)
}

/// `sacrifice`: after some later solver move we are two pawns' worth or
/// more down on the position the solver faced, and the opponent promotes
/// nowhere in the line.
fn sacrifice(p: Puzzle) -> bool {
    for ply in p.later_solver_plies() {
        if p.swing(ply) <= -2 {
            return !(2..p.plies()).step_by(2).any(|op| p.mv(op).is_promotion());
        }
    }
    false
}

/// `x_ray`: a later solver capture on the square where the opponent just
/// took (not with the king) what we had taken there, through the square the
/// opponent's taker came from.
fn x_ray(p: Puzzle) -> Option<u16> {
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
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
        // Two men to fork first: most moves attack fewer, and the test costs
        // least.
        let targets = attacked_opponent_squares(board, to, p.pov) & !board.pawns();
        if !targets.more_than_one() || is_in_bad_spot(board, to) {
            continue;
        }
        let takers = attackers(board, !p.pov, to);
        let dearer = targets & worth_more_than(board, moved);
        let hanging =
            || (targets & !dearer & !takers).into_iter().filter(|&sq| is_hanging(board, !p.pov, sq)).take(2).count();
        if dearer.more_than_one() || dearer.count() + hanging() > 1 {
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
    // What the setup move took: the man on its square before it (python-chess
    // castling lands on an empty square, en passant too).
    let setup_took = p.captured(0).map(|c| c.role);
    if setup_took.is_some_and(|r| value(r) >= value(captured.role)) && p.to(0) == to {
        return None;
    }
    if p.plies() < 4 || p.swing(3) >= p.swing(1) {
        return found(1);
    }
    None
}

/// `trapped_piece`: a later solver capture of a man other than a pawn that
/// was trapped after our move before (where the opponent's last move came
/// from, when it went to the capture square).
fn trapped_piece(p: Puzzle) -> Option<u16> {
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
    for ply in p.later_solver_plies() {
        let mut square = p.to(ply);
        if p.captured(ply).is_none_or(|c| c.role == Role::Pawn) {
            continue;
        }
        if p.to(ply - 1) == square {
            square = p.from(ply - 1);
        }
        if is_trapped(p.after(ply - 2), p.checks(ply - 2), square) {
            return found(ply - 2);
        }
    }
    None
}

/// `discovered_check`: a solver move gives check with a piece other than
/// the one on its destination square.
fn discovered_check(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::CHECK) {
        return None;
    }
    p.solver_plies()
        .find(|&ply| {
            let checkers = p.checkers(ply);
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
    if !p.later.has(Kinds::CAPTURE) {
        return None;
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
    // The check first: most lines have none, and it is already known.
    let check = p.solver_plies_but_last().skip(1).find(|&ply| p.checks(ply))?;
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
    found(check)
}

/// `skewer`: a later solver capture by a queen, rook or bishop, not
/// mating, of a man that stood behind the square the opponent's more
/// valuable piece just left, and that then stood badly.
fn skewer(p: Puzzle) -> Option<u16> {
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
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
    // The man on the square before our move is the one it takes: python-chess
    // castling and en passant land on empty squares.
    let Some(captured) = p.captured(ply) else { return false };
    let square = p.to(ply);
    // The cutter stands between the square and a defender: on a line with
    // the square. Most moves are not, and this costs least.
    if !attacks::queen_attacks(square, Bitboard::EMPTY).contains(p.to(cutter)) {
        return false;
    }
    if !is_hanging(p.before(ply).board(), captured.color, square) {
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
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
    p.later_solver_plies().find(|&ply| cut_off_defender(p, ply, ply - 2, ply - 1)).and_then(|ply| found(ply - 2))
}

/// `interference`: a later solver capture, not on the square the opponent
/// just moved to, of a hanging man whose defender (before our move before)
/// our move before cut off.
fn interference(p: Puzzle) -> Option<u16> {
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
    p.later_solver_plies()
        .find(|&ply| p.to(ply) != p.to(ply - 1) && cut_off_defender(p, ply, ply - 3, ply - 2))
        .and_then(|ply| found(ply - 2))
}

/// `intermezzo`: the first later solver capture whose square the
/// opponent's last mover did not attack after our move before, where our
/// move before went elsewhere, decides: the opponent had captured on that
/// square just before it, and our capture was already legal then.
fn intermezzo(p: Puzzle) -> Option<u16> {
    if !p.later.has(Kinds::CAPTURE) {
        return None;
    }
    for ply in p.later_solver_plies() {
        if !p.is_capture(ply) {
            continue;
        }
        let square = p.to(ply);
        if p.to(ply - 2) == square {
            continue;
        }
        // The opponent's last mover stood on its from-square then: the
        // tagger asks whether it was among that side's attackers.
        if attacks_from(p.after(ply - 2).board(), p.from(ply - 1)).contains(square) {
            continue;
        }
        let earlier = ply - 3;
        let mv = p.mv(ply);
        // Asked only where the opponent's man stands on the square then: a
        // capture of it is neither castling nor en passant, which the quick
        // test cannot tell, and in double check only the king moves.
        let legal_then = || legal_plain_move(p.after(earlier), p.from(ply), square, mv.promotion()).is_some();
        return (p.to(earlier) == square && p.is_capture(earlier) && legal_then()).then(|| ply as u16 - 2);
    }
    None
}

/// What the two pin rules find after the solver move of `ply`, each asked
/// only where `ask` says, in one walk over the enemy men pinned to their
/// king: whether one attacks, off the pin line, a man of ours worth more
/// than it or hanging (`pin_prevents_attack`); whether one is attacked along
/// the pin by a cheaper piece of ours, or is hanging, cannot take its
/// attacker and has a move off the pin line (`pin_prevents_escape`).
fn pin_rules_at(p: Puzzle, ply: usize, ask: PinRules) -> PinRules {
    let pos = p.after(ply);
    let board = pos.board();
    let mut holds = PinRules { attack: false, escape: false };
    for (square, pin) in pins(board, !p.pov) {
        let pinned = board.role_at(square).expect("a man on its square");
        let takeable = attacks_from(board, square);
        if ask.attack && !holds.attack {
            let attacked = takeable & board.by_color(p.pov) & !pin;
            holds.attack = (attacked & worth_more_than(board, pinned)).any()
                || attacked.into_iter().any(|sq| is_hanging(board, p.pov, sq));
        }
        if ask.escape && !holds.escape {
            let pinners = attackers(board, p.pov, square) & pin;
            // Asked for every attacker on the pin line, the rest does not
            // depend on which: any one it cannot take will do.
            holds.escape = (pinners & worth_less_than(board, pinned)).any()
                || ((pinners & !takeable).any()
                    && is_hanging(board, !p.pov, square)
                    && has_pseudo_legal_move_outside(pos, square, pin));
        }
    }
    holds
}

/// The pin rules, as asked or as found.
#[derive(Clone, Copy)]
struct PinRules {
    attack: bool,
    escape: bool,
}

/// `pin_prevents_attack`: after a solver move, an enemy man pinned to its
/// king attacks, off the pin line, a man of ours worth more than it or
/// hanging.
fn pin_prevents_attack(p: Puzzle) -> Option<u16> {
    let ask = PinRules { attack: true, escape: false };
    p.solver_plies().find(|&ply| pin_rules_at(p, ply, ask).attack).and_then(found)
}

/// `pin_prevents_escape`: after a solver move, an enemy man pinned to its
/// king is attacked along the pin by a cheaper piece of ours, or is hanging,
/// cannot take its attacker, and has a move off the pin line.
fn pin_prevents_escape(p: Puzzle) -> Option<u16> {
    let ask = PinRules { attack: false, escape: true };
    p.solver_plies().find(|&ply| pin_rules_at(p, ply, ask).escape).and_then(found)
}

/// The pin theme: the first solver move where a pin prevents an attack, or
/// else the first where one prevents an escape, found in one walk.
fn pin(p: Puzzle) -> Option<u16> {
    let mut escape = None;
    for ply in p.solver_plies() {
        let holds = pin_rules_at(p, ply, PinRules { attack: true, escape: escape.is_none() });
        if holds.attack {
            return found(ply);
        }
        if holds.escape && escape.is_none() {
            escape = found(ply);
        }
    }
    escape
}

/// `attacking_f2_f7`: the first solver capture on f2 or f7 decides: the
/// enemy king stands on e1 or e8 (next to it) afterwards.
fn attacking_f2_f7(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::CAPTURE) {
        return None;
    }
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
    if !p.solver.has(Kinds::EN_PASSANT) {
        return None;
    }
    p.solver_plies()
        .find(|&ply| p.moved(ply) == Role::Pawn && p.from(ply).file() != p.to(ply).file() && p.captured(ply).is_none())
        .and_then(found)
}

/// `castling`: a solver move castles.
fn castling(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::CASTLE) {
        return None;
    }
    p.solver_plies().find(|&ply| p.mv(ply).is_castle()).and_then(found)
}

/// `promotion`: a solver move promotes.
fn promotion(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::PROMOTION) {
        return None;
    }
    p.solver_plies().find(|&ply| p.mv(ply).is_promotion()).and_then(found)
}

/// `under_promotion`: a solver promotion to a knight, bishop or rook; the
/// first mating solver move decides alone: it must promote to a knight.
fn under_promotion(p: Puzzle) -> Option<u16> {
    if !p.solver.has(Kinds::PROMOTION) {
        return None;
    }
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
    if !p.later.has(Kinds::CAPTURE) && !p.later.has(Kinds::CHECK) {
        return None;
    }
    for ply in p.later_solver_plies() {
        let mates = p.mates(ply);
        let takes_hanging = || {
            p.captured(ply).is_some_and(|c| {
                p.moved(ply) != Role::King
                    && value(c.role) <= value(p.moved(ply))
                    && p.to(ply - 1) != p.to(ply)
                    && is_hanging(p.before(ply).board(), c.color, p.to(ply))
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

/// `piece_endgame` for pawns, queens, rooks, bishops and knights in turn,
/// then `queen_rook_endgame`: the first kind that holds both in the
/// position the solver faces and after the key move.
fn endgame(p: Puzzle) -> Option<Theme> {
    let boards = [p.after(0).board(), p.after(1).board()];
    let kinds = [
        (Theme::PawnEndgame, Role::Pawn),
        (Theme::QueenEndgame, Role::Queen),
        (Theme::RookEndgame, Role::Rook),
        (Theme::BishopEndgame, Role::Bishop),
        (Theme::KnightEndgame, Role::Knight),
    ];
    for (theme, role) in kinds {
        if boards.iter().all(|board| piece_endgame(board, role)) {
            return Some(theme);
        }
    }
    boards.iter().all(|board| queen_rook_endgame(board)).then_some(Theme::QueenRookEndgame)
}

/// `piece_endgame` on one board: some man of `role` stands and every man is
/// a king, a pawn or one of `role`.
fn piece_endgame(board: &Board, role: Role) -> bool {
    board.by_role(role).any() && (board.occupied() & !board.kings() & !board.pawns() & !board.by_role(role)).is_empty()
}

/// `queen_rook_endgame` on one board: exactly one queen, some rook, and
/// nothing but kings, pawns, queens and rooks.
fn queen_rook_endgame(board: &Board) -> bool {
    board.queens().count() == 1 && board.rooks().any() && (board.knights() | board.bishops()).is_empty()
}

/// `kingside_attack` and `queenside_attack`: the enemy king on its back
/// rank (a king on a1 does not count, a quirk of the tagger's truth test
/// on square 0) on the g or h file for the kingside, the a, b or c file for
/// the queenside, with 20 men or more (18 for the queenside) on the board
/// the solver faces, and some check in the line; then each check scores a
/// point, each capture within three squares of the corner (h or a on the
/// back rank) a point, and each other move five squares or more from the
/// corner loses one. Two points make the attack.
fn side_attack(p: Puzzle) -> Option<Theme> {
    let back_rank = if p.pov == Color::White { Rank::Eighth } else { Rank::First };
    let board = p.after(0).board();
    let king = board.king_of(!p.pov).filter(|&k| k != Square::A1 && k.rank() == back_rank)?;
    let (theme, corner_file, pieces) = match king.file() {
        File::G | File::H => (Theme::KingsideAttack, File::H, 20),
        File::A | File::B | File::C => (Theme::QueensideAttack, File::A, 18),
        _ => return None,
    };
    if board.occupied().count() < pieces || !p.solver_plies().any(|ply| p.checks(ply)) {
        return None;
    }
    let corner = Square::from_coords(corner_file, back_rank);
    let mut score = 0;
    for ply in p.solver_plies() {
        let corner_distance = distance(corner, p.to(ply));
        if p.checks(ply) {
            score += 1;
        }
        if p.is_capture(ply) && corner_distance <= 3 {
            score += 1;
        } else if corner_distance >= 5 {
            score -= 1;
        }
    }
    (score >= 2).then_some(theme)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{balance, random_game};
    use crate::line::LineForm;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    /// A random legal line from one of `random_game`'s starts, as a puzzle.
    fn random_line(start: usize, picks: &[usize]) -> Option<Line> {
        let game = random_game(start, picks);
        let moves: Vec<String> = game
            .windows(2)
            .map(|w| {
                let m = w[0].legal_moves().into_iter().find(|m| {
                    let mut after = w[0].clone();
                    after.play_unchecked(*m);
                    after == w[1]
                });
                UciMove::from_move(m.expect("a move between them"), CastlingMode::Standard).to_string()
            })
            .collect();
        let fen = shakmaty::fen::Fen::from_position(&game[0], shakmaty::EnPassantMode::Legal).to_string();
        (moves.len() >= 2).then(|| Line::parse(&fen, &moves.join(" "), LineForm::Puzzle).unwrap())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// The facts found once per ply equal what the boards say: the
        /// checkers, and the balance counted on the boards.
        #[test]
        fn ply_facts_agree_with_the_boards(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 2..60)) {
            let Some(line) = random_line(start, &picks) else { return Ok(()) };
            with_puzzle(&line, |p| {
                let faced = balance(p.after(0).board(), p.pov);
                for ply in 0..p.plies() {
                    proptest::prop_assert_eq!(p.checkers(ply), p.after(ply).checkers());
                    proptest::prop_assert_eq!(p.is_capture(ply), p.mv(ply).is_capture());
                    if ply > 0 {
                        proptest::prop_assert_eq!(p.swing(ply), balance(p.after(ply).board(), p.pov) - faced);
                    }
                    if ply % 2 == 1 {
                        let kinds = Kinds::of(p.mv(ply), p.checks(ply));
                        proptest::prop_assert!(p.solver.0 & kinds.0 == kinds.0);
                        proptest::prop_assert!(ply < 3 || p.later.0 & kinds.0 == kinds.0);
                    }
                }
                Ok(())
            })?;
        }
    }
}
