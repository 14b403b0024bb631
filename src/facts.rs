//! Per-ply facts: what every detector reads about one judged move, computed
//! once per ply before the detectors run.

use std::cell::OnceCell;

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

use crate::board::{self, value};
use crate::line::{Cursor, Line};
use crate::threats::Threats;

/// The material balance (solver minus opponent) before every ply and after
/// the last: `balances[i]` is the balance of `line.positions[i]`. Counted
/// once on the first position, then moved on by each ply's material: only
/// a capture (its man) and a promotion (the new piece for the pawn) change
/// it.
pub fn balances(line: &Line) -> Vec<i32> {
    let mut balances = vec![0; line.positions.len()];
    fill_balances(line, &mut balances);
    balances
}

/// [`balances`] written into the front of `out` (at least as long as the
/// line's positions), so that a line needs no allocation for them: the
/// balances, `out`'s first `line.positions.len()`.
pub fn fill_balances<'a>(line: &Line, out: &'a mut [i32]) -> &'a [i32] {
    let solver = line.solver();
    let out = &mut out[..line.positions.len()];
    let Some(first) = line.positions.first() else { return out };
    let mut balance = board::balance(first.board(), solver);
    out[0] = balance;
    for ((position, &m), slot) in line.positions.iter().zip(&line.moves).zip(&mut out[1..]) {
        let change = captured_value(m) + m.promotion().map_or(0, |role| value(role) - value(Role::Pawn));
        balance += if position.turn() == solver { change } else { -change };
        *slot = balance;
    }
    out
}

/// A line unmasked by the move: one of our sliders that stood behind a
/// square our move vacated now sees along that line to `hit` (the first
/// piece beyond the vacated square, if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unmasked {
    pub slider: Square,
    pub vacated: Square,
    pub hit: Option<Square>,
}

/// The lines a move unmasked, stored inline: at most 8 directions from
/// each of at most 2 vacated squares (castling), so no allocation.
#[derive(Debug, Clone, Copy)]
pub struct UnmaskedLines {
    lines: [Unmasked; 16],
    len: usize,
}

impl UnmaskedLines {
    // All zero bytes (`hit: None` is not), so that a new array is cleared
    // in a few wide stores; no line past `len` is ever read.
    const EMPTY: Unmasked = Unmasked { slider: Square::A1, vacated: Square::A1, hit: Some(Square::A1) };

    pub fn new() -> UnmaskedLines {
        UnmaskedLines { lines: [Self::EMPTY; 16], len: 0 }
    }

    fn push(&mut self, line: Unmasked) {
        if self.len < self.lines.len() {
            self.lines[self.len] = line;
            self.len += 1;
        }
    }
}

impl Default for UnmaskedLines {
    fn default() -> Self {
        UnmaskedLines::new()
    }
}

impl std::ops::Deref for UnmaskedLines {
    type Target = [Unmasked];
    fn deref(&self) -> &[Unmasked] {
        &self.lines[..self.len]
    }
}

/// What a capture wins (spec §3 "defended", "lasting gain", "plain
/// recapture"): shared by hangingPiece and insufficientlyDefended.
#[derive(Debug, Clone, Copy)]
pub struct CaptureVerdict {
    pub victim: Square,
    pub victim_value: i32,
    pub defended: bool,
    /// What we net once the defender recaptures as well as it can.
    pub exchange: i32,
    /// The balance holds two plies on (or the line ends sooner).
    pub lasting: bool,
    /// The opponent just took something at least as valuable on this square.
    pub plain_recapture: bool,
}

/// What detectors need to know about one judged ply.
pub struct PlyFacts<'a> {
    pub line: &'a Line,
    /// The judged ply, and the way to the plies around it.
    pub at: Cursor<'a>,
    /// Its index (`at.index()`).
    pub ply: usize,
    pub before: &'a Chess,
    pub after: &'a Chess,
    pub mv: Move,
    /// The solver.
    pub us: Color,
    pub them: Color,
    /// Where the moving piece stood (the king's square for castling).
    pub from: Square,
    /// Where it landed (the king's destination for castling).
    pub to: Square,
    /// The piece on `to` after the move (the promoted piece for promotions).
    pub moved_role: Role,
    /// The captured piece's square and role (the pawn's square for en passant).
    pub captured: Option<(Square, Role)>,
    /// Squares our move vacated: its from-square, and the rook's for castling.
    pub vacated: Bitboard,
    /// Pieces giving check after the move.
    pub checkers: Bitboard,
    /// Balances of the whole line, shared by all plies.
    pub balances: &'a [i32],
    /// Lines our move unmasked (discoveries), in colour-relative order.
    pub unmasked: UnmaskedLines,
    // Facts only some detectors need, computed on first use, once per ply.
    capture: OnceCell<Option<CaptureVerdict>>,
    ours_to_move_after: OnceCell<Option<Chess>>,
    theirs_to_move_before: OnceCell<Option<Chess>>,
    threats: OnceCell<Threats>,
}

impl<'a> PlyFacts<'a> {
    pub fn new(at: Cursor<'a>, balances: &'a [i32]) -> PlyFacts<'a> {
        let (line, ply) = (at.line(), at.index());
        let before = at.before();
        let after = at.after();
        let mv = at.mv();
        let us = before.turn();
        let (from, to, vacated) = match mv {
            Move::Castle { king, rook } => {
                let side = mv.castling_side().expect("castling move");
                (king, side.king_to(us), Bitboard::from(king) | Bitboard::from(rook))
            }
            _ => {
                let from = mv.from().expect("board move");
                (from, mv.to(), Bitboard::from(from))
            }
        };
        let captured = match mv {
            Move::EnPassant { from, to } => Some((Square::from_coords(to.file(), from.rank()), Role::Pawn)),
            Move::Normal { capture: Some(role), to, .. } => Some((to, role)),
            _ => None,
        };
        let moved_role = after.board().role_at(to).expect("moved piece on its square");
        PlyFacts {
            line,
            at,
            ply,
            before,
            after,
            mv,
            us,
            them: !us,
            from,
            to,
            moved_role,
            captured,
            vacated,
            checkers: line.checkers_after(ply),
            balances,
            unmasked: unmasked_lines(before.board(), after.board(), us, vacated),
            capture: OnceCell::new(),
            ours_to_move_after: OnceCell::new(),
            theirs_to_move_before: OnceCell::new(),
            threats: OnceCell::new(),
        }
    }

    /// Our move gives check.
    pub fn gives_check(&self) -> bool {
        self.checkers.any()
    }

    /// What our capture wins, if the move captures.
    pub fn capture_verdict(&self) -> Option<CaptureVerdict> {
        *self.capture.get_or_init(|| {
            let (victim, role) = self.captured?;
            let victim_value = value(role);
            let defended = board::is_defended(self.after.board(), self.to, self.them);
            // An undefended man has no attacker to take back with.
            let recapture = if defended { board::capture_gain(self.after, self.to).unwrap_or(0).max(0) } else { 0 };
            let lasting = self.at.next_own().is_none_or(|next| self.balance_after_ply(next) >= self.balance_after());
            let plain_recapture = self.at.previous().map(|prev| prev.mv()).is_some_and(|prev| {
                prev.is_capture() && capture_square(prev) == victim && captured_value(prev) >= victim_value
            });
            Some(CaptureVerdict {
                victim,
                victim_value,
                defended,
                exchange: victim_value - recapture,
                lasting,
                plain_recapture,
            })
        })
    }

    /// The position after the move with us to move again (what we could
    /// take in place), or `None` where that is impossible.
    pub fn ours_to_move_after(&self) -> Option<&Chess> {
        self.ours_to_move_after.get_or_init(|| board::swap_turn(self.after)).as_ref()
    }

    /// The position before the move with the opponent to move (what it
    /// threatened), or `None` where that is impossible.
    pub fn theirs_to_move_before(&self) -> Option<&Chess> {
        self.theirs_to_move_before.get_or_init(|| board::swap_turn(self.before)).as_ref()
    }

    /// The new threats our move makes ([`Threats`]).
    pub fn threats(&self) -> &Threats {
        self.threats.get_or_init(|| Threats::find(self.before.board(), self.after.board(), self.us, self.to))
    }

    /// The moved piece is one of the checkers (a direct check).
    pub fn moved_piece_gives_check(&self) -> bool {
        self.checkers.contains(self.to)
    }

    /// Balance right before and right after this ply.
    pub fn balance_before(&self) -> i32 {
        self.balances[self.ply]
    }

    pub fn balance_after(&self) -> i32 {
        self.balance_after_ply(self.at)
    }

    /// Balance right before any ply of the line.
    pub fn balance_before_ply(&self, ply: Cursor) -> i32 {
        self.balances[ply.index()]
    }

    /// Balance right after any ply of the line.
    pub fn balance_after_ply(&self, ply: Cursor) -> i32 {
        self.balances[ply.index() + 1]
    }

    /// Enemy pieces the moved piece attacks from where it landed.
    pub fn moved_piece_attacks(&self) -> Bitboard {
        let board = self.after.board();
        board::attacks_from(board, self.to) & board.by_color(self.them)
    }

    /// A pawn move to our `rank` or beyond, or any promotion.
    pub fn pawn_reaches(&self, rank: Rank) -> bool {
        self.mv.is_promotion() || (self.mv.role() == Role::Pawn && board::relative_rank(self.to, self.us) >= rank)
    }

    /// Whether the line has a later solver move.
    pub fn has_next_solver_move(&self) -> bool {
        self.at.next_own().is_some()
    }

    /// Our pieces that attack `sq` after the move.
    pub fn our_attackers_after(&self, sq: Square) -> Bitboard {
        let board = self.after.board();
        board::attackers(board, sq, self.us, board.occupied())
    }

    /// Our pieces that attacked `sq` before the move.
    pub fn our_attackers_before(&self, sq: Square) -> Bitboard {
        let board = self.before.board();
        board::attackers(board, sq, self.us, board.occupied())
    }

    /// The line's next solver move captures on `sq` (returns that ply).
    pub fn next_capture_on(&self, sq: Square) -> Option<Cursor<'a>> {
        let next = self.at.next_own()?;
        let m = next.mv();
        (m.is_capture() && capture_square(m) == sq).then_some(next)
    }

    /// The later solver move that captures the enemy piece standing on `sq`
    /// after our move, followed as it moves.
    pub fn later_capture_of(&self, sq: Square) -> Option<Cursor<'a>> {
        let mut man = Bitboard::from_square(sq);
        for ply in self.at.later() {
            let m = ply.mv();
            if ply.is_solver() {
                if m.is_capture() && man.contains(capture_square(m)) {
                    return Some(ply);
                }
            } else {
                man = ply.moves_along(man);
            }
        }
        None
    }

    /// Our next move captures the very piece that stands on `sq` after our
    /// move: the opponent's answer neither moved it away nor put another
    /// piece there.
    pub fn next_collects(&self, sq: Square) -> bool {
        let untouched = self.at.reply().is_some_and(|r| r.mv().from() != Some(sq) && r.mv().to() != sq);
        untouched && self.next_capture_on(sq).is_some()
    }
}

/// The lines a move that vacated `vacated` unmasked for `us`, in
/// colour-relative order of the sliders for each vacated square.
fn unmasked_lines(before: &Board, after: &Board, us: Color, vacated: Bitboard) -> UnmaskedLines {
    let occupied_before = before.occupied();
    let occupied_after = after.occupied();
    let mut found = UnmaskedLines::new();
    for square in vacated {
        // Our sliders that saw the vacated square along their own kind of
        // line: looking out from the square, each line's first man.
        let candidates = before.by_color(us)
            & (attacks::rook_attacks(square, occupied_before) & before.rooks_and_queens()
                | attacks::bishop_attacks(square, occupied_before) & before.bishops_and_queens());
        for slider in board::relative_squares(candidates, us) {
            // The moving piece itself (the castling rook) discovers
            // nothing; any other man of ours stands where it stood, as a
            // legal move moves no other and takes none of ours.
            if vacated.contains(slider) {
                continue;
            }
            // The first piece beyond the vacated square, going away from the slider.
            let hit = (attacks::ray(slider, square) & occupied_after).into_iter().find(|&x| {
                x != slider
                    && (x == square || attacks::between(slider, x).contains(square))
                    && (attacks::between(slider, x) & occupied_after).is_empty()
            });
            found.push(Unmasked { slider, vacated: square, hit });
        }
    }
    found
}

/// The square whose piece a capture removes (differs from `to` for en passant).
pub fn capture_square(m: Move) -> Square {
    match m {
        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
        _ => m.to(),
    }
}

/// Value of what a move captures.
pub fn captured_value(m: Move) -> i32 {
    m.capture().map_or(0, value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineForm;

    #[test]
    fn balances_moved_on_by_each_ply_are_the_counted_balances() {
        // Captures, en passant, promotions (one capturing) and castling, for both solvers.
        for (fen, moves) in [
            ("8/2p5/5ppp/1PkP4/p4PPP/P1K5/8/8 b - - 0 39", "c5b5 c3d4 c7c5 d5c6 b5c6 d4e3"),
            ("1r4k1/P4ppp/8/8/8/8/5PPP/6K1 b - - 0 30", "g8f8 a7b8q f8e7 b8b4"),
            ("r3k2r/P4ppp/8/8/8/8/5PPP/R3K2R w KQkq - 0 30", "e1g1 e8c8 a7a8q c8d7"),
            ("6k1/P4ppp/8/8/8/8/5PPP/6K1 w - - 0 30", "a7a8n g8f8 a8c7"),
        ] {
            let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap_or_else(|e| panic!("{fen} {moves}: {e}"));
            let counted: Vec<i32> = line.positions.iter().map(|p| board::balance(p.board(), line.solver())).collect();
            assert_eq!(balances(&line), counted, "{fen} {moves}");
            assert_eq!(fill_balances(&line, &mut [7; 64]), counted, "{fen} {moves}: into a longer buffer");
        }
    }

    /// [`unmasked_lines`] as first written: every slider on a line through
    /// the vacated square, its kind of line and the squares between asked
    /// one by one.
    fn unmasked_lines_slowly(before: &Board, after: &Board, us: Color, vacated: Bitboard) -> Vec<Unmasked> {
        let mut found = Vec::new();
        for square in vacated {
            let lines =
                attacks::rook_attacks(square, Bitboard::EMPTY) | attacks::bishop_attacks(square, Bitboard::EMPTY);
            for slider in board::relative_squares(before.by_color(us) & before.sliders() & lines, us) {
                if vacated.contains(slider) || after.piece_at(slider) != before.piece_at(slider) {
                    continue;
                }
                let on_rook_line = attacks::rook_attacks(slider, Bitboard::EMPTY).contains(square);
                let moves_along = match before.role_at(slider) {
                    Some(Role::Rook) => on_rook_line,
                    Some(Role::Bishop) => !on_rook_line,
                    _ => true,
                };
                if !moves_along || (attacks::between(slider, square) & before.occupied()).any() {
                    continue;
                }
                let hit = (attacks::ray(slider, square) & after.occupied()).into_iter().find(|&x| {
                    x != slider
                        && (x == square || attacks::between(slider, x).contains(square))
                        && (attacks::between(slider, x) & after.occupied()).is_empty()
                });
                found.push(Unmasked { slider, vacated: square, hit });
            }
        }
        found
    }

    #[test]
    fn unmasked_lines_are_the_ones_found_slowly() {
        use shakmaty::fen::Fen;
        for fen in [
            "r1bk3r/1p3ppp/p7/2b5/P7/4Bp2/1P3PPP/R3KB1R w KQ - 1 14",
            "4k3/pp3ppp/8/8/4N3/8/PP3PPP/4R1K1 w - - 0 30",
            "2r2r2/1b4pk/p4q1p/2p2p1Q/4pP2/2P1R2N/PP4PP/2R3K1 w - - 4 32",
            "r3k2r/1b1q1ppp/p1n1pn2/1pbpB3/3P4/2NBPN2/PPQ2PPP/R3K2R b KQkq - 0 12",
            "8/8/5ppp/1kpP4/p2K1PPP/P7/8/8 w - c6 0 41",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
            if let Some(m) = first_move_where_unmasked_lines_disagree(&pos) {
                panic!("{fen} {m}");
            }
        }
    }

    /// The first legal move of `pos` whose unmasked lines differ from the
    /// slow way's (which compares every piece before and after the move).
    fn first_move_where_unmasked_lines_disagree(pos: &Chess) -> Option<Move> {
        pos.legal_moves().into_iter().find(|m| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            let vacated = match m {
                Move::Castle { king, rook } => Bitboard::from(*king) | Bitboard::from(*rook),
                _ => Bitboard::from(m.from().unwrap()),
            };
            let (b, a) = (pos.board(), after.board());
            *unmasked_lines(b, a, pos.turn(), vacated) != unmasked_lines_slowly(b, a, pos.turn(), vacated)[..]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, failure_persistence: None, ..Default::default() })]
        /// Every legal move of random games, castling and promotions among them.
        #[test]
        fn unmasked_lines_agree_with_the_slow_ones_on_random_games(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..80)) {
            for pos in board::random_game(start, &picks) {
                let disagreement = first_move_where_unmasked_lines_disagree(&pos);
                proptest::prop_assert!(disagreement.is_none(), "{} {:?}", shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal), disagreement);
            }
        }
    }

    #[test]
    fn facts_of_a_discovered_check() {
        // Knight e4 unmasks the e1 rook against the e8 king.
        let line = Line::parse("4k3/pp3ppp/8/8/4N3/8/PP3PPP/4R1K1 b - - 0 30", "h7h6 e4d6", LineForm::Puzzle).unwrap();
        let balances = balances(&line);
        let facts = PlyFacts::new(line.at(1), &balances);
        assert_eq!((facts.from, facts.to, facts.moved_role), (Square::E4, Square::D6, Role::Knight));
        assert_eq!(facts.checkers.count(), 2);
        assert!(facts.moved_piece_gives_check());
        assert_eq!(&*facts.unmasked, &[Unmasked { slider: Square::E1, vacated: Square::E4, hit: Some(Square::E8) }]);
        assert_eq!(facts.captured, None);
    }

    #[test]
    fn castling_vacates_king_and_rook_squares() {
        let line = Line::parse("r1bk3r/1p3ppp/p7/2b5/P7/4Bp2/1P3PPP/R3KB1R b KQ - 1 14", "h8e8 e1c1", LineForm::Puzzle)
            .unwrap();
        let balances = balances(&line);
        let facts = PlyFacts::new(line.at(1), &balances);
        assert_eq!(facts.to, Square::C1);
        assert_eq!(facts.vacated, Bitboard::from(Square::E1) | Bitboard::from(Square::A1));
    }

    #[test]
    fn en_passant_capture_square() {
        let line =
            Line::parse("8/2p5/5ppp/1PkP4/p4PPP/P1K5/8/8 b - - 0 39", "c5b5 c3d4 c7c5 d5c6", LineForm::Puzzle).unwrap();
        let balances = balances(&line);
        let facts = PlyFacts::new(line.at(3), &balances);
        assert_eq!(facts.captured, Some((Square::C5, Role::Pawn)));
        assert_eq!(facts.balance_after() - facts.balance_before(), 1);
    }
}
