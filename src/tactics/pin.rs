//! # pin
//!
//! How Koga decides (Lichess's idea of a pin that matters, relative pins
//! kept):
//! - After our move, an enemy piece (not the king) is pinned by one of our
//!   rooks, bishops or queens: to its king (absolute), or to a piece of its
//!   side worth strictly more than it (relative, spec §3).
//! - The pin matters: the pinned piece attacks one of our pieces off the pin
//!   line that it could otherwise take, one worth more than it or
//!   undefended (the pin prevents an attack); or one of our pieces on the
//!   pin line attacks it and it cannot step away: that attacker is worth
//!   less than it, or it is undefended, cannot take the attacker and has
//!   squares off the line to go to (the pin prevents an escape).
//! - With several, the most valuable pinned piece is reported.
//! - pinnedDefender describing the same pieces absorbs it; it absorbs a
//!   trappedPiece on the same target (arbitration).
//! - Roles: `pinned` and `targets` (the pinned piece, which the pinner
//!   attacks), `pinner` and `attacker` (our slider), `behind` (king or more
//!   valuable piece).
//!
//! Koga and Lichess:
//! - Lichess 1,183, Koga 1,706, both 956: precision 0.560, recall 0.808, F1
//!   0.662. The difference is deliberate: Lichess counts pins to the king
//!   only, Koga also relative pins (spec §3), which add 713 Koga-only
//!   puzzles. On absolute pins alone the same rules give Koga 993, both 952:
//!   precision 0.959, recall 0.805, F1 0.875. Koga's earlier rule (any new
//!   pin whose pinner holds) gave Koga 3,220, both 635, F1 0.288.

use shakmaty::{Bitboard, attacks, Position};

use super::{Detector, Fire, Label, Roles, Run};
use crate::board::{self, relative_squares, value_at, Pin};
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Pin], run: Run::Move(detect) };

/// The pin stops the pinned piece from taking something, or from escaping.
fn matters(facts: &PlyFacts, pin: &Pin) -> bool {
    let board = facts.after.board();
    let line = attacks::ray(pin.pinner, pin.behind);
    let pinned_value = value_at(board, pin.pinned);
    let reach = board.attacks_from(pin.pinned);
    let prevents_attack = (reach & board.by_color(facts.us) & !line).into_iter().any(|ours| {
        value_at(board, ours) > pinned_value || !board::is_defended(board, ours, facts.us)
    });
    if prevents_attack {
        return true;
    }
    let on_line = board::attackers(board, pin.pinned, facts.us, board.occupied()) & line;
    let undefended = !board::is_defended(board, pin.pinned, facts.them);
    let can_step_off = (reach & !board.by_color(facts.them) & !line).any();
    on_line.into_iter().any(|attacker| {
        value_at(board, attacker) < pinned_value || (undefended && !reach.contains(attacker) && can_step_off)
    })
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let after = facts.after.board();
    let candidates = after.by_color(facts.them) & !after.kings();
    let mut best: Option<(i32, Pin)> = None;
    for sq in relative_squares(candidates, facts.them) {
        let pinned_value = value_at(after, sq);
        if best.is_some_and(|(v, _)| v >= pinned_value) {
            continue;
        }
        // Several pins on one piece: the most valuable piece behind first,
        // then the pinners in colour-relative order (mirror-safe).
        let mut pins: Vec<Pin> = board::pins_of(after, sq).filter(|pin| matters(facts, pin)).collect();
        pins.sort_by_key(|p| (-value_at(after, p.behind), board::relative_index(p.pinner, facts.us)));
        if let Some(&pin) = pins.first() {
            best = Some((pinned_value, pin));
        }
    }
    let Some((_, pin)) = best else { return };
    let roles = Roles {
        pinned: Some(pin.pinned),
        targets: Bitboard::from_square(pin.pinned),
        pinner: Some(pin.pinner),
        attacker: Some(pin.pinner),
        behind: Some(pin.behind),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::Pin).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_pins() {
        assert_fires(
            "pin",
            &[
                // Lichess 001kG: Qh5+ forks king and c5 bishop and pins the h7 pawn to the h8 rook.
                ("001kG", "rnbq3r/1p2bkpp/p4n2/8/2pNP3/2N5/PPP3PP/R1BQ1RK1 b - - 1 11", "e7c5 d1h5 f7g8 h5c5", 1),
                ("002e8", "r3nrk1/1b3pp1/4pb2/p3q3/1p1N4/3B2R1/PPPQN2P/1K4R1 b - - 1 23", "a8d8 d2h6 g7g6 g3h3", 1),
                ("0018S", "2kr3r/pp3p2/4p2p/1N1p2p1/3Q4/1P1P4/2q2PPP/5RK1 b - - 1 20", "b7b6 d4a1 a7a5 f1c1", 3),
                // Lichess 002rd: after Nxg6+ the h7 pawn, pinned by the h5 queen, cannot take.
                ("002rd", "r6k/q1pb1p1p/1b3Pr1/p1ppP2Q/3P2p1/4B3/PP2NRPP/3R2K1 b - - 1 25", "d7e6 e2f4 c5d4 f4g6 f7g6 h5h6", 3),
                // Re1 pins an undefended knight that can neither take the rook nor step away.
                ("constructed", "4k3/p7/8/4n3/8/8/5PPP/R5K1 b - - 0 30", "a7a6 a1e1", 1),
            ],
        );
    }

    #[test]
    fn not_pins() {
        assert_silent(
            "pin",
            &[
                // Re1 pins the e5 knight, but the pin stops nothing: the knight
                // attacks none of our pieces, and the d6 pawn defends it.
                ("constructed", "4k3/p7/3p4/4n3/8/8/5PPP/R5K1 b - - 0 30", "a7a6 a1e1", 1),
                // A pinned rook that simply takes its undefended pinner.
                ("constructed", "4r1k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 30", "h7h6 a1e1", 1),
                // Lichess 0000D: a plain capture, nothing lined up.
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 3),
                // A knight in front of a bishop of the same value is not pinned (spec §3).
                ("constructed", "7k/8/6b1/8/4n3/8/6PP/3B2K1 b - - 0 30", "h8h7 d1c2", 1),
            ],
        );
        // The same line with a rook behind the knight: a relative pin.
        assert_fires("pin", &[("constructed", "7k/8/6r1/8/4n3/8/6PP/3B2K1 b - - 0 30", "h8h7 d1c2", 1)]);
    }
}
