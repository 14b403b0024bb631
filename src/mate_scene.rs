//! The final position of a line that ends in our checkmate, with the facts
//! every mate pattern reads: computed once per mating line, never on the
//! others, so the nineteen patterns cost nothing on a puzzle without mate.

use shakmaty::{attacks, Bitboard, Board, Color, File, Move, Position, Rank, Role, Square};

use crate::board::relative_squares;
use crate::fire::Fire;
use crate::label::Label;
use crate::line::{Cursor, Line};
use crate::role::Roles;

/// A checkmate given by the solver's last move.
pub struct MateScene<'a> {
    /// The mating ply.
    pub at: Cursor<'a>,
    /// The board after the mate.
    pub board: &'a Board,
    /// The solver (the mating side) and the mated side.
    pub us: Color,
    pub them: Color,
    /// The mated king.
    pub king: Square,
    /// Where the mating move's piece landed (the king's square for castling),
    /// and its role after the move.
    pub to: Square,
    pub moved_role: Role,
    /// Every piece giving check.
    pub checkers: Bitboard,
    /// The checker a pattern names: the moved piece when it gives check,
    /// else the first unmasked one (colour-relative order).
    pub checker: Square,
    /// The squares next to the king.
    pub around: Bitboard,
    /// The king's flight squares: the squares next to it not held by its own
    /// pieces (every one of them is taken, since it is mate).
    pub flight_squares: Bitboard,
}

impl<'a> MateScene<'a> {
    /// The scene, if the line ends in a mate given by the solver.
    pub fn new(line: &'a Line) -> Option<MateScene<'a>> {
        let at = line.last();
        let end = at.after();
        if end.turn() == line.solver() || !at.mates() {
            return None;
        }
        let board = end.board();
        let them = end.turn();
        let king = board.king_of(them)?;
        // As in the ply facts: castling lands on the king's destination.
        let to = match at.mv() {
            Move::Castle { .. } => at.mv().castling_side()?.king_to(line.solver()),
            mv => mv.to(),
        };
        let moved_role = board.role_at(to)?;
        let checkers = end.checkers();
        let checker = if checkers.contains(to) { to } else { relative_squares(checkers, line.solver()).next()? };
        let around = attacks::king_attacks(king);
        let flight_squares = around & !board.by_color(them);
        Some(MateScene {
            at,
            board,
            us: line.solver(),
            them,
            king,
            to,
            moved_role,
            checkers,
            checker,
            around,
            flight_squares,
        })
    }

    /// The roles every mate pattern fills, the same for all of them: the
    /// mated king, every checker, every guard (a piece of ours besides the
    /// checkers that takes a flight square from the king, the checker's own
    /// square included when the king could otherwise take it) and every
    /// blocker (the king's own pieces next to it).
    pub fn roles(&self) -> Roles {
        let guarded = self.flight_squares.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | self.covers(sq));
        Roles {
            mated: Some(self.king),
            checkers: self.checkers,
            guards: guarded & !self.checkers,
            blockers: self.blocked(),
            ..Roles::default()
        }
    }

    /// A fire of `label` on the mating ply, with the pattern's [`roles`](Self::roles).
    pub fn fire(&self, label: Label) -> Fire {
        Fire::on(self.at, label).with_roles(self.roles())
    }

    /// The role of the named checker.
    pub fn checker_role(&self) -> Role {
        self.board.role_at(self.checker).expect("checker on its square")
    }

    /// Our pieces of `role`.
    pub fn ours(&self, role: Role) -> Bitboard {
        self.board.by_color(self.us) & self.board.by_role(role)
    }

    /// Our pieces attacking `sq` on the board as it stands (the mated king
    /// blocks the lines through it).
    pub fn attackers(&self, sq: Square) -> Bitboard {
        let occupied = self.board.occupied();
        self.board.attacks_to(sq, self.us, occupied) & occupied
    }

    /// Our pieces that keep the king off `sq`: attackers with the king lifted
    /// off the board, so that a line through the king counts.
    pub fn covers(&self, sq: Square) -> Bitboard {
        let occupied = self.board.occupied().without(self.king);
        self.board.attacks_to(sq, self.us, occupied) & occupied
    }

    /// Those of `pieces` that take a flight square the checker leaves open:
    /// the pieces that help the checker confine the king.
    pub fn helpers(&self, pieces: Bitboard) -> Bitboard {
        if pieces.is_empty() {
            return pieces;
        }
        let open = self.flight_squares.into_iter().map(|sq| self.covers(sq)).filter(|c| !c.contains(self.checker));
        open.fold(Bitboard::EMPTY, |acc, c| acc | c) & pieces
    }

    /// `sq` is next to the king on its rank or file.
    pub fn beside(&self, sq: Square) -> bool {
        (self.around & attacks::rook_attacks(self.king, Bitboard::EMPTY)).contains(sq)
    }

    /// `sq` is next to the king on a diagonal.
    pub fn diagonally_next(&self, sq: Square) -> bool {
        (self.around & attacks::bishop_attacks(self.king, Bitboard::EMPTY)).contains(sq)
    }

    /// The mated side has a piece on `sq`.
    pub fn is_theirs(&self, sq: Square) -> bool {
        self.board.by_color(self.them).contains(sq)
    }

    /// The squares next to the king that hold one of its own pieces.
    pub fn blocked(&self) -> Bitboard {
        self.around & self.board.by_color(self.them)
    }

    /// A colour-relative first square of `bb`, for roles that name one of several.
    pub fn first(&self, bb: Bitboard) -> Option<Square> {
        relative_squares(bb, self.them).next()
    }
}

/// `sq` moved by `files` and `ranks`, if that is still on the board.
pub fn offset(sq: Square, files: i32, ranks: i32) -> Option<Square> {
    let file = u32::try_from(sq.file() as i32 + files).ok().filter(|&f| f < 8)?;
    let rank = u32::try_from(sq.rank() as i32 + ranks).ok().filter(|&r| r < 8)?;
    Some(Square::from_coords(File::new(file), Rank::new(rank)))
}

/// The unit step from `from` towards `to`, when they share a rank, file or
/// diagonal.
pub fn step(from: Square, to: Square) -> Option<(i32, i32)> {
    let files = to.file() as i32 - from.file() as i32;
    let ranks = to.rank() as i32 - from.rank() as i32;
    let aligned = files == 0 || ranks == 0 || files.abs() == ranks.abs();
    (aligned && from != to).then_some((files.signum(), ranks.signum()))
}
