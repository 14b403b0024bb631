//! Threats: which enemy pieces our pieces now menace. Shared by fork,
//! doubleAttack, skewer and counterThreat so they agree on what a threat is.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square};

use crate::board::{self, relative_squares, value};

/// One of our pieces menacing an enemy piece after the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threat {
    pub attacker: Square,
    pub target: Square,
    pub target_value: i32,
}

/// Whether `attacker` (ours) really menaces the enemy piece on `target`
/// in `after`, the position after the move: it is the king (check), or
/// taking it wins material by the static exchange, or it is worth more than
/// the attacker.
pub fn menaces(after: &Board, attacker: Square, target: Square) -> bool {
    let Some(role) = after.role_at(target) else { return false };
    if role == Role::King {
        return true;
    }
    let attacker_value = board::value_at(after, attacker);
    value(role) > attacker_value || board::see(after, attacker, target, value(role)) > 0
}

/// New threats against enemy pieces (pawns excluded) made by our move: by
/// the moved piece, or by a piece whose attack on the target did not exist
/// before the move. Found once a ply (`PlyFacts::threats`) and stored
/// inline: per target (a side has at most 16 men), the attackers that
/// menace it.
#[derive(Debug, Clone, Copy)]
pub struct Threats {
    targets: [(Square, i32, Bitboard); 16],
    len: usize,
    us: Color,
}

impl Threats {
    /// The new threats of our move to `to`, which took `before` to `after`,
    /// `us` the side that moved.
    pub fn find(before: &Board, after: &Board, us: Color, to: Square) -> Threats {
        let them = !us;
        let mut found = Threats { targets: [(Square::A1, 0, Bitboard::EMPTY); 16], len: 0, us };
        // Only a man we attack can be menaced: one pass over our men rather
        // than every man of theirs asked for its attackers.
        let attacked = after.by_color(them) & !after.pawns() & board::attacked_by(after, us);
        for target in relative_squares(attacked, them) {
            let mut menacing = Bitboard::EMPTY;
            for attacker in board::attackers(after, target, us, after.occupied()) {
                let is_new = attacker == to || !board::attacks_from(before, attacker).contains(target);
                if is_new && menaces(after, attacker, target) {
                    menacing.add(attacker);
                }
            }
            if menacing.any() {
                found.targets[found.len] = (target, board::value_at(after, target), menacing);
                found.len += 1;
            }
        }
        found
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every threat, in colour-relative order of targets, then of attackers.
    pub fn iter(&self) -> impl Iterator<Item = Threat> + '_ {
        self.targets[..self.len].iter().flat_map(move |&(target, target_value, attackers)| {
            relative_squares(attackers, self.us).map(move |attacker| Threat { attacker, target, target_value })
        })
    }
}

/// What the opponent, to move in `pos`, threatens against `us`: each kind
/// of threat found on its own, when asked, since finding a mate in one
/// plays every legal move.
pub struct Danger<'a> {
    pos: &'a Chess,
    us: Color,
}

impl<'a> Danger<'a> {
    pub fn in_position(pos: &'a Chess, us: Color) -> Danger<'a> {
        Danger { pos, us }
    }

    /// Our pieces (the king aside) it could take with profit (static
    /// exchange > 0).
    pub fn en_prise(&self) -> Bitboard {
        let board = self.pos.board();
        // Only a man it attacks can be taken: one pass over its men rather
        // than every man of ours asked for its attackers.
        (board.by_color(self.us) & !board.kings() & board::attacked_by(board, !self.us))
            .into_iter()
            .filter(|&sq| board::profitable_capture(self.pos, sq))
            .collect()
    }

    /// Squares where one of its pawns could promote with no piece of ours
    /// guarding them.
    pub fn promotions(&self) -> Bitboard {
        let board = self.pos.board();
        let them = !self.us;
        let seventh = if them == Color::White { shakmaty::Rank::Seventh } else { shakmaty::Rank::Second };
        if (board.pawns() & board.by_color(them) & Bitboard::from_rank(seventh)).is_empty() {
            return Bitboard::EMPTY;
        }
        self.pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_promotion() && board::attackers(board, m.to(), self.us, board.occupied()).is_empty())
            .map(|m| m.to())
            .collect()
    }

    /// It has a mate in one.
    pub fn mate(&self) -> bool {
        board::mate_in_one(self.pos, Bitboard::EMPTY).is_some()
    }
}
