//! A puzzle as the classifier sees it: the start position, every move
//! replayed and checked for legality, the position before and after each ply,
//! and each move's SAN.
//!
//! Two input forms share this type (spec §1):
//!
//! * [`LineForm::Puzzle`] — the Lichess layout: ply 0 is the opponent's move
//!   that sets the puzzle up, plies 1, 3, 5, … are the solver's, ply 1 is the
//!   key move.
//! * [`LineForm::Line`] — a plain line: ply 0 is already the solver's (key)
//!   move, so plies 0, 2, 4, … are judged.

use std::cell::Cell;
use std::fmt;
use std::ops::Range;

use shakmaty::{
    fen::Fen,
    san::{San, SanPlus, Suffix},
    uci::{IllegalUciMoveError, UciMove},
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move, MoveList, Position, Rank, Role, Square,
};

use crate::board::piece_attacks;

/// Which input form a line comes in; decides which plies are the solver's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineForm {
    /// Lichess puzzle: ply 0 is the opponent's setup move, ply 1 the key move.
    #[default]
    Puzzle,
    /// Plain line: ply 0 is the key move.
    Line,
}

/// Why a row could not be annotated. Each variant names the offending part
/// of the row so the `error` column explains itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowError {
    /// A required column is absent from this row (short row) or empty.
    MissingField(&'static str),
    /// A field is not valid UTF-8.
    InvalidUtf8(&'static str),
    /// A numeric column holds something that is not a number.
    BadNumber { field: &'static str, value: Excerpt },
    /// The FEN does not parse.
    BadFen { fen: Excerpt, reason: String },
    /// The FEN parses but describes a position that cannot occur.
    ImpossiblePosition { reason: String },
    /// `Moves` is empty.
    EmptyMoves,
    /// A token of `Moves` is not UCI.
    MalformedUci { ply: usize, token: Excerpt },
    /// A UCI move is well formed but not legal where it is played.
    IllegalMove { ply: usize, uci: String },
    /// The line has no move for the solver to be judged on.
    NoSolverMove,
    /// The classifier failed on this row (a bug): the row is kept and the
    /// run goes on.
    Internal { reason: String },
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::MissingField(name) => write!(f, "missing field {name}"),
            RowError::InvalidUtf8(name) => write!(f, "field {name} is not valid UTF-8"),
            RowError::BadNumber { field, value } => {
                write!(f, "field {field} is not an integer: {value}")
            }
            RowError::BadFen { fen, reason } => write!(f, "unparsable FEN {fen}: {reason}"),
            RowError::ImpossiblePosition { reason } => {
                write!(f, "impossible position: {reason}")
            }
            RowError::EmptyMoves => write!(f, "empty Moves"),
            RowError::MalformedUci { ply, token } => {
                write!(f, "malformed UCI move {token} at ply {ply}")
            }
            RowError::IllegalMove { ply, uci } => write!(f, "illegal move {uci} at ply {ply}"),
            RowError::NoSolverMove => {
                write!(f, "no solver move: Moves holds only the opponent's setup move")
            }
            RowError::Internal { reason } => write!(f, "internal error (please report): {reason}"),
        }
    }
}

impl std::error::Error for RowError {}

/// An offending field as an error message quotes it (spec §6): whole when
/// short, else its first [`Excerpt::MAX_CHARS`] characters, marked as cut
/// with the field's full length. A row error never carries a huge field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    text: String,
    /// The field's length in characters, when the excerpt is cut.
    cut_from: Option<usize>,
}

impl Excerpt {
    pub const MAX_CHARS: usize = 60;

    pub fn new(field: &str) -> Excerpt {
        match field.char_indices().nth(Excerpt::MAX_CHARS) {
            None => Excerpt { text: field.to_owned(), cut_from: None },
            Some((end, _)) => Excerpt { text: field[..end].to_owned(), cut_from: Some(field.chars().count()) },
        }
    }

    /// The quoted characters.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl From<&str> for Excerpt {
    fn from(field: &str) -> Excerpt {
        Excerpt::new(field)
    }
}

impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.text)?;
        if let Some(chars) = self.cut_from {
            write!(f, " (cut: the first {} of {chars} characters)", Excerpt::MAX_CHARS)?;
        }
        Ok(())
    }
}

/// A replayed line: `positions[i]` is the position before ply `i`, so
/// `positions[i + 1]` is the position after it. SAN is derived on demand
/// ([`Line::san`]): most plies never need it.
#[derive(Debug, Clone)]
pub struct Line {
    pub positions: Vec<Chess>,
    pub moves: Vec<Move>,
    /// The men giving check after each ply (`checkers[i]` in
    /// `positions[i + 1]`): found once as the line is replayed, as the
    /// per-ply facts, Lichess's rules and the SAN each ask.
    checkers: Vec<Bitboard>,
    /// The key move's ply: 1 for puzzles, 0 for plain lines.
    pub key_ply: usize,
    /// Whether the last move mates: found once as the line is read, as
    /// every line asks (the end of `gain`, the mate detectors, the SAN).
    final_mate: bool,
}

impl Line {
    /// Parses a FEN and a space-separated UCI line, replaying every move and
    /// checking it is legal.
    pub fn parse(fen: &str, moves: &str, form: LineForm) -> Result<Line, RowError> {
        // ASCII whitespace first, which is all a FEN ever has around it
        // (`str::trim`, which decodes characters, cost 50 instructions a
        // puzzle); the rest of what `str::trim` takes (the vertical tab,
        // Unicode's spaces) only where such a byte is left at either end.
        let mut fen = fen.trim_ascii();
        let unusual = |b: &u8| !b.is_ascii() || *b == 0x0B;
        if fen.as_bytes().first().is_some_and(unusual) || fen.as_bytes().last().is_some_and(unusual) {
            fen = fen.trim();
        }
        if fen.is_empty() {
            return Err(RowError::MissingField("FEN"));
        }
        let setup = match crate::fen::usual_setup(fen.as_bytes()) {
            Some(setup) => setup,
            None => fen
                .parse::<Fen>()
                .map_err(|e| RowError::BadFen { fen: fen.into(), reason: e.to_string() })?
                .into_setup(),
        };
        let start = Chess::from_setup(setup, CastlingMode::Standard)
            .map_err(|e| RowError::ImpossiblePosition { reason: e.to_string() })?;
        Line::replay(start, moves, form)
    }

    /// Replays `moves` from `start`.
    pub fn replay(start: Chess, moves: &str, form: LineForm) -> Result<Line, RowError> {
        let key_ply = match form {
            LineForm::Puzzle => 1,
            LineForm::Line => 0,
        };
        // Too few moves is the row's error before a bad move is.
        let too_few = || moves.split_ascii_whitespace().nth(key_ply).is_none();
        // Room for moves of four letters and a space each, the usual line.
        let room = moves.len() / 5 + 1;
        let (mut positions, mut line_moves, mut checkers) = SPARE.take().unwrap_or_default();
        positions.reserve(room + 1);
        line_moves.reserve(room);
        checkers.reserve(room);
        let mut pos = start;
        let mut at = 0;
        while let Some((token, uci)) = next_move(moves.as_bytes(), at) {
            at = token.end;
            let ply = line_moves.len();
            let token = &moves[token];
            let played = match uci {
                None => Err(RowError::MalformedUci { ply, token: token.into() }),
                Some(uci) => legal_move(&pos, uci).map_err(|_| RowError::IllegalMove { ply, uci: token.to_owned() }),
            };
            let m = match played {
                Ok(m) => m,
                Err(_) if ply <= key_ply && too_few() => return Err(RowError::NoSolverMove),
                Err(e) => return Err(e),
            };
            positions.push(pos.clone());
            pos.play_unchecked(m);
            line_moves.push(m);
            checkers.push(pos.checkers());
        }
        match line_moves.len() {
            0 => Err(RowError::EmptyMoves),
            plies if plies <= key_ply => Err(RowError::NoSolverMove),
            _ => {
                let final_mate = crate::board::is_checkmate(&pos);
                positions.push(pos);
                Ok(Line { positions, moves: line_moves, checkers, key_ply, final_mate })
            }
        }
    }

    /// Number of plies (moves) in the line.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The side whose moves are judged.
    pub fn solver(&self) -> Color {
        self.positions[self.key_ply].turn()
    }

    /// The plies judged: the key move and every later solver move.
    pub fn solver_plies(&self) -> impl Iterator<Item = Cursor<'_>> {
        (self.key_ply..self.plies()).step_by(2).map(move |index| Cursor { line: self, index })
    }

    /// A cursor on `ply`, which must be a ply of the line.
    pub fn at(&self, ply: usize) -> Cursor<'_> {
        assert!(ply < self.plies(), "ply {ply} of a {}-ply line", self.plies());
        Cursor { line: self, index: ply }
    }

    /// The last ply.
    pub fn last(&self) -> Cursor<'_> {
        self.at(self.plies() - 1)
    }

    /// The key move.
    pub fn key(&self) -> Cursor<'_> {
        self.at(self.key_ply)
    }

    /// Position right before `ply`.
    pub fn before(&self, ply: usize) -> &Chess {
        &self.positions[ply]
    }

    /// Position right after `ply`.
    pub fn after(&self, ply: usize) -> &Chess {
        &self.positions[ply + 1]
    }

    /// The men giving check after `ply`.
    pub fn checkers_after(&self, ply: usize) -> Bitboard {
        self.checkers[ply]
    }

    /// Whether `ply` comes after the key move (its fires are follow-ups).
    pub fn is_follow_up(&self, ply: usize) -> bool {
        ply > self.key_ply
    }

    /// Whether the move of `ply` mates. Only the last move can: every
    /// other move of a line is followed by a legal one.
    pub fn mates_after(&self, ply: usize) -> bool {
        ply + 1 == self.plies() && self.final_mate
    }

    /// The move of `ply` in SAN, with its check or mate suffix.
    pub fn san(&self, ply: usize) -> SanPlus {
        let suffix = if self.mates_after(ply) {
            Some(Suffix::Checkmate)
        } else if self.checkers_after(ply).any() {
            Some(Suffix::Check)
        } else {
            None
        };
        SanPlus { san: san(&self.positions[ply], self.moves[ply]), suffix }
    }

    /// The move of `ply` in UCI.
    pub fn uci(&self, ply: usize) -> UciMove {
        uci(self.moves[ply])
    }

    /// FEN of the position before `ply`.
    pub fn fen_before(&self, ply: usize) -> String {
        Fen::from_position(&self.positions[ply], EnPassantMode::Legal).to_string()
    }

    /// Number of moves the solver makes in the line.
    pub fn solver_moves(&self) -> usize {
        self.solver_plies().count()
    }
}

/// A line's buffers: its positions, moves and checkers.
type Buffers = (Vec<Chess>, Vec<Move>, Vec<Bitboard>);

thread_local! {
    /// A worker's spare buffers for the next line it replays: a dropped line
    /// leaves its own here, so a worker allocates them once, not per puzzle.
    static SPARE: Cell<Option<Buffers>> = const { Cell::new(None) };
}

impl Drop for Line {
    fn drop(&mut self) {
        // A freak line's buffers are let go: only a usual line's are kept.
        const KEPT_PLIES: usize = 64;
        if self.moves.capacity() <= KEPT_PLIES
            && self.positions.capacity() <= KEPT_PLIES + 1
            && self.checkers.capacity() <= KEPT_PLIES
        {
            let mut positions = std::mem::take(&mut self.positions);
            let mut moves = std::mem::take(&mut self.moves);
            let mut checkers = std::mem::take(&mut self.checkers);
            positions.clear();
            moves.clear();
            checkers.clear();
            SPARE.set(Some((positions, moves, checkers)));
        }
    }
}

/// One ply of a line, and the way to the plies around it: detectors walk
/// the line with it instead of doing ply arithmetic.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    line: &'a Line,
    index: usize,
}

impl<'a> Cursor<'a> {
    /// The ply's index in `Moves` (0-based).
    pub fn index(self) -> usize {
        self.index
    }

    pub fn line(self) -> &'a Line {
        self.line
    }

    /// The move played.
    pub fn mv(self) -> Move {
        self.line.moves[self.index]
    }

    pub fn before(self) -> &'a Chess {
        self.line.before(self.index)
    }

    pub fn after(self) -> &'a Chess {
        self.line.after(self.index)
    }

    /// The move of this ply gives check.
    pub fn gives_check(self) -> bool {
        self.line.checkers_after(self.index).any()
    }

    /// The side playing this ply is in check before it (read off the
    /// previous ply's record; the start position asked itself).
    pub fn in_check(self) -> bool {
        match self.index {
            0 => self.before().is_check(),
            ply => self.line.checkers_after(ply - 1).any(),
        }
    }

    /// The move of this ply mates.
    pub fn mates(self) -> bool {
        self.line.mates_after(self.index)
    }

    /// A solver move (judged).
    pub fn is_solver(self) -> bool {
        self.index >= self.line.key_ply && (self.index - self.line.key_ply).is_multiple_of(2)
    }

    pub fn is_key(self) -> bool {
        self.index == self.line.key_ply
    }

    /// A solver move after the key move.
    pub fn is_follow_up(self) -> bool {
        self.line.is_follow_up(self.index)
    }

    /// The ply before this one (the move this one answers).
    pub fn previous(self) -> Option<Cursor<'a>> {
        let index = self.index.checked_sub(1)?;
        Some(Cursor { line: self.line, index })
    }

    /// The other side's answer to this ply.
    pub fn reply(self) -> Option<Cursor<'a>> {
        self.forward(1)
    }

    /// The same side's next move (two plies on).
    pub fn next_own(self) -> Option<Cursor<'a>> {
        self.forward(2)
    }

    /// Where `men` stand once this move is played: the one it moves, if
    /// any, on its new square (a man it captures stays named where it was
    /// taken). Following a man through a line is this, ply by ply.
    pub fn moves_along(self, men: Bitboard) -> Bitboard {
        let m = self.mv();
        match m.from() {
            Some(from) if men.contains(from) => men.without(from).with(m.to()),
            _ => men,
        }
    }

    /// The moves just before this one that captured or promoted on the
    /// square it lands on, one after another, nearest first: the run of
    /// material changing hands on one square that this move carries on.
    pub fn run_before(self) -> impl Iterator<Item = Cursor<'a>> {
        let square = self.mv().to();
        std::iter::successors(self.previous(), |at| at.previous())
            .take_while(move |at| (at.mv().is_capture() || at.mv().is_promotion()) && at.mv().to() == square)
    }

    /// The plies from the key move up to this one, this one left out, in
    /// order.
    pub fn since_key(self) -> impl Iterator<Item = Cursor<'a>> {
        let line = self.line;
        (line.key_ply.min(self.index)..self.index).map(move |index| Cursor { line, index })
    }

    /// Every later ply, in order.
    pub fn later(self) -> impl Iterator<Item = Cursor<'a>> {
        let line = self.line;
        (self.index + 1..line.plies()).map(move |index| Cursor { line, index })
    }

    fn forward(self, plies: usize) -> Option<Cursor<'a>> {
        let index = self.index + plies;
        (index < self.line.plies()).then_some(Cursor { line: self.line, index })
    }
}

/// The next token of `moves` from `at` on, as `split_ascii_whitespace`
/// cuts them, and the UCI move it is as [`UciMove::from_ascii`] reads it
/// (`None`: not UCI). A board move, four or five letters, is read straight
/// off the bytes; anything else is cut at whitespace and read by shakmaty.
fn next_move(moves: &[u8], at: usize) -> Option<(Range<usize>, Option<UciMove>)> {
    let start = at + moves[at..].iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &moves[start..];
    let square = |file: u8, rank: u8| {
        let (file, rank) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
        (file < 8 && rank < 8).then(|| Square::from_coords(File::new(file.into()), Rank::new(rank.into())))
    };
    let ends = |len: usize| rest.get(len).is_none_or(u8::is_ascii_whitespace);
    if let [f1, r1, f2, r2, ..] = *rest {
        if let (Some(from), Some(to)) = (square(f1, r1), square(f2, r2)) {
            if ends(4) {
                return Some((start..start + 4, Some(UciMove::Normal { from, to, promotion: None })));
            }
            let promotion = Role::from_char(char::from(rest[4]));
            if promotion.is_some() && ends(5) {
                return Some((start..start + 5, Some(UciMove::Normal { from, to, promotion })));
            }
        }
    }
    let len = rest.iter().position(u8::is_ascii_whitespace).unwrap_or(rest.len());
    Some((start..start + len, UciMove::from_ascii(&rest[..len]).ok()))
}

/// `m` in UCI, as [`UciMove::from_move`] writes it in standard chess: a
/// man's own move (en passant too) read off its squares here, castling by
/// shakmaty (the king's two steps).
fn uci(m: Move) -> UciMove {
    match m {
        Move::Normal { from, to, promotion, .. } => UciMove::Normal { from, to, promotion },
        Move::EnPassant { from, to } => UciMove::Normal { from, to, promotion: None },
        m => UciMove::from_move(m, CastlingMode::Standard),
    }
}

/// `m` in SAN, as [`San::from_move`] writes it. A piece move needs its
/// square or file only when another piece of its kind could move to the
/// same square; where none even attacks it, no candidate list is made.
fn san(pos: &Chess, m: Move) -> San {
    if let Move::Normal { role, from, to, .. } = m {
        let board = pos.board();
        let others = match role {
            Role::Pawn | Role::King => Bitboard::EMPTY,
            _ => piece_attacks(to, role.of(pos.turn()), board.occupied()) & pos.our(role).without(from),
        };
        if others.is_empty() {
            return San::disambiguate(m, &MoveList::new());
        }
    }
    San::from_move(pos, m)
}

/// The legal move `uci` names in `pos`: [`UciMove::to_move`], which
/// generates the moving piece's candidate moves to check one, made cheap for
/// the moves lines are made of. A man moving by its own rules is legal when
/// its king is not attacked afterwards; with the king standing still and at
/// most one checker, only that checker (unless taken or blocked) and sliders
/// the move uncovers can attack it, a few bitboard lookups. Castling, en
/// passant, double check and anything these rules refuse are left to
/// shakmaty, so no illegal move is let through here.
pub fn legal_move(pos: &Chess, uci: UciMove) -> Result<Move, IllegalUciMoveError> {
    if let UciMove::Normal { from, to, promotion } = uci {
        if let Some(m) = crate::board::legal_plain_move(pos, from, to, promotion) {
            return Ok(m);
        }
    }
    uci.to_move(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_is_read_with_what_str_trim_takes_around_it() {
        let fen = "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37";
        let moves = "e4d2 d4e2 g1f1 e2c3";
        let plain = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        for padded in [format!(" \t{fen}\r\n"), format!("\u{b}{fen}\u{b}"), format!("\u{a0}{fen}\u{3000}")] {
            let line = Line::parse(&padded, moves, LineForm::Puzzle).unwrap();
            assert_eq!(line.uci(line.plies() - 1), plain.uci(plain.plies() - 1), "{padded:?}");
        }
        assert!(matches!(Line::parse(" \u{a0}\t", moves, LineForm::Puzzle), Err(RowError::MissingField("FEN"))));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 120, failure_persistence: None, ..Default::default() })]
        /// On positions from random legal games (from the start, and from a
        /// position with pawns about to promote and pieces to pin and check
        /// with), every move of a man of the side to move, to any square with
        /// any promotion, reads as shakmaty reads it: the same move, or refused.
        #[test]
        fn every_uci_move_reads_as_shakmaty_reads_it(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..100)) {
            let starts = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "r3k2r/1P4P1/2n1b3/3pP3/8/2B2q2/1p4p1/R3K2R w KQkq d6 0 1"];
            let promotions = [None, Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook), Some(Role::Queen), Some(Role::King), Some(Role::Pawn)];
            let mut pos: Chess = starts[start].parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for pick in picks {
                for from in pos.us() {
                    for to in Square::ALL {
                        for promotion in promotions {
                            let uci = UciMove::Normal { from, to, promotion };
                            proptest::prop_assert_eq!(legal_move(&pos, uci).ok(), uci.to_move(&pos).ok(), "{} in {}", uci, Fen::from_position(&pos, EnPassantMode::Legal));
                        }
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[pick % moves.len()]);
            }
        }

        /// Moves cut into tokens as `split_ascii_whitespace` cuts them, each
        /// read as shakmaty reads UCI: any text, and every board move with
        /// every promotion letter.
        #[test]
        fn moves_read_as_std_and_shakmaty_read_them(
            noise in "[a-i0-9@PNBRQKpnbrqkx \t\n\r\x0b\x0c]{0,40}",
            from in 0u32..64,
            to in 0u32..64,
            letter in "[pnbrqkPNBRQKx1@ ]?",
            tail in "[ a\t]?",
        ) {
            let board_move = format!("{}{}{letter}{tail}", Square::new(from), Square::new(to));
            for moves in [noise, board_move] {
                let mut ours = Vec::new();
                let mut at = 0;
                while let Some((token, uci)) = next_move(moves.as_bytes(), at) {
                    at = token.end;
                    ours.push((&moves[token], uci));
                }
                let theirs: Vec<(&str, Option<UciMove>)> =
                    moves.split_ascii_whitespace().map(|t| (t, UciMove::from_ascii(t.as_bytes()).ok())).collect();
                proptest::prop_assert_eq!(ours, theirs, "{:?}", moves);
            }
        }

        /// Every legal move of positions from random games (castling, en
        /// passant and promotions among them) is written in UCI as shakmaty
        /// writes it.
        #[test]
        fn every_move_is_written_in_uci_as_shakmaty_writes_it(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            let starts = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "r3k2r/1P4P1/2n1b3/3pP3/8/2B2q2/1p4p1/R3K2R w KQkq d6 0 1"];
            let mut pos: Chess = starts[start].parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for pick in picks {
                let moves = pos.legal_moves();
                for &m in &moves {
                    proptest::prop_assert_eq!(uci(m), UciMove::from_move(m, CastlingMode::Standard));
                }
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[pick % moves.len()]);
            }
        }

        /// Every legal move of positions from random games reads in SAN as
        /// shakmaty writes it (disambiguation included).
        #[test]
        fn every_move_is_written_in_san_as_shakmaty_writes_it(start in 0usize..3, picks in proptest::collection::vec(0usize..1000, 1..120)) {
            let starts = [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/1P4P1/2n1b3/3pP3/8/2B2q2/1p4p1/R3K2R w KQkq d6 0 1",
                // Knights and rooks on shared squares, a pinned twin.
                "4k3/8/1N5N/8/R3K2R/8/1N3N2/4r3 w - - 0 1",
            ];
            let mut pos: Chess = starts[start].parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for pick in picks {
                let moves = pos.legal_moves();
                for &m in &moves {
                    proptest::prop_assert_eq!(san(&pos, m), San::from_move(&pos, m), "{} in {}", m, Fen::from_position(&pos, EnPassantMode::Legal));
                }
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[pick % moves.len()]);
            }
        }
    }

    #[test]
    fn errors_quote_at_most_sixty_characters_of_a_field() {
        assert_eq!(Excerpt::new("e2e9").to_string(), "\"e2e9\"");
        let exact = "x".repeat(60);
        assert_eq!(Excerpt::new(&exact).to_string(), format!("{exact:?}"));
        let long = "é".repeat(100_000);
        let excerpt = Excerpt::new(&long);
        assert_eq!(excerpt.text().chars().count(), 60);
        assert_eq!(excerpt.to_string(), format!("{:?} (cut: the first 60 of 100000 characters)", "é".repeat(60)));
        let err = Line::parse(&"k".repeat(1000), "e2e4 e7e5", LineForm::Puzzle).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("unparsable FEN {:?} (cut: the first 60 of 1000 characters)", "k".repeat(60))),
            "{err}"
        );
    }

    const FEN: &str = "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24";

    #[test]
    fn replays_a_real_puzzle_with_san() {
        let line = Line::parse(FEN, "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1", LineForm::Puzzle).unwrap();
        assert_eq!(line.plies(), 6);
        assert_eq!(line.solver(), Color::White);
        assert_eq!(line.solver_plies().map(|p| p.index()).collect::<Vec<_>>(), vec![1, 3, 5]);
        let key = line.key();
        assert!(key.is_key() && key.is_solver() && !key.is_follow_up());
        assert_eq!(key.reply().map(|p| p.index()), Some(2));
        assert_eq!(key.next_own().map(|p| (p.index(), p.is_follow_up())), Some((3, true)));
        assert_eq!(key.previous().map(|p| p.is_solver()), Some(false));
        assert_eq!(line.last().index(), 5);
        assert!(line.last().reply().is_none() && line.last().next_own().is_none());
        assert_eq!(line.at(3).later().map(|p| p.index()).collect::<Vec<_>>(), vec![4, 5]);
        let sans: Vec<String> = (0..line.plies()).map(|ply| line.san(ply).to_string()).collect();
        assert_eq!(sans, ["Bxg3", "Rxe7", "Qb1+", "Nc1", "Qxc1+", "Qxc1"]);
        assert_eq!(line.uci(1).to_string(), "e6e7");
    }

    #[test]
    fn line_form_judges_ply_zero() {
        let line = Line::parse(FEN, "f2g3 e6e7", LineForm::Line).unwrap();
        assert_eq!(line.solver(), Color::Black);
        assert_eq!(line.solver_plies().map(|p| p.index()).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn row_errors_name_the_problem() {
        let err = |fen: &str, moves: &str| Line::parse(fen, moves, LineForm::Puzzle).unwrap_err();
        assert!(matches!(err("not a fen", "e2e4 e7e5"), RowError::BadFen { .. }));
        assert!(matches!(err("8/8/8/8/8/8/8/8 w - - 0 1", "e2e4 e7e5"), RowError::ImpossiblePosition { .. }));
        assert_eq!(err(FEN, ""), RowError::EmptyMoves);
        assert_eq!(err(FEN, "   "), RowError::EmptyMoves);
        assert_eq!(err(FEN, "f2g3"), RowError::NoSolverMove);
        // Too few moves is the error before a bad move is.
        assert_eq!(err(FEN, " zz "), RowError::NoSolverMove);
        assert_eq!(err(FEN, "e2e4"), RowError::NoSolverMove);
        assert_eq!(err(FEN, "zz f2g3"), RowError::MalformedUci { ply: 0, token: "zz".into() });
        assert_eq!(err(FEN, "e2e4 f2g3"), RowError::IllegalMove { ply: 0, uci: "e2e4".into() });
        let line_err = |moves: &str| Line::parse(FEN, moves, LineForm::Line).unwrap_err();
        assert_eq!(line_err("\t"), RowError::EmptyMoves);
        assert_eq!(line_err("zz"), RowError::MalformedUci { ply: 0, token: "zz".into() });
        assert_eq!(err(FEN, "f2g3 e6e9"), RowError::MalformedUci { ply: 1, token: "e6e9".into() });
        assert_eq!(err(FEN, "f2g3 e6e7 b2b1 b3b5"), RowError::IllegalMove { ply: 3, uci: "b3b5".into() });
        assert_eq!(err(FEN, "f2g3 e6e7 b2b1 b3b5").to_string(), "illegal move b3b5 at ply 3");
    }
}
