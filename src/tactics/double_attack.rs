//! # doubleAttack
//!
//! How Koga decides:
//! - After our move, two different enemy pieces (pawns do not count) are
//!   newly menaced — the king in check, or a piece we win by the static
//!   exchange, or one worth more than its attacker — by two different pieces
//!   of ours (one piece attacking two is a `fork`).
//! - At least one of the threats comes from the moved piece or a line it
//!   unmasked (every new threat does, by construction).
//! - The line cashes it: our next move captures one of the menaced pieces.
//! - A discovered check on the same move outranks it (arbitration).
//! - Roles: `moved` (where the moved piece landed), `attacker` (the other
//!   attacking piece: the one menacing the most valuable target),
//!   `targets` (every newly menaced piece), `victim` (the menaced piece our
//!   next move collects where it stood). `gain` is the victim's value.

use shakmaty::{Bitboard, Position};
use super::threats::{cashed_target, new_threats};
use super::{Detector, Fire, Label, Roles, Run};
use crate::board::value_at;
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::DoubleAttack], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let threats = new_threats(facts);
    // Two targets menaced by two different attackers.
    let pair = threats.iter().any(|a| {
        threats.iter().any(|b| a.target != b.target && a.attacker != b.attacker)
    });
    if !pair {
        return;
    }
    let Some(victim) = cashed_target(facts, threats.iter().map(|t| t.target)) else { return };
    let targets: Bitboard = threats.iter().map(|t| t.target).collect();
    // The second attacker beside the moved piece: the one menacing the most
    // valuable target (threats come in colour-relative order).
    let attacker = threats.iter().filter(|t| t.attacker != facts.to).max_by_key(|t| t.target_value);
    let roles = Roles {
        moved: Some(facts.to),
        attacker: attacker.map(|t| t.attacker),
        targets,
        victim: Some(victim),
        ..Roles::default()
    };
    let gain = value_at(facts.after.board(), victim) as i16;
    fires.push(Fire::at(facts, Label::DoubleAttack).with_roles(roles).with_gain(gain));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_double_attacks() {
        // Discovered attacks where the moving piece makes a second threat.
        assert_fires(
            "doubleAttack",
            &[
                ("001XA", "1qr2rk1/pb2bppp/8/8/2p1N3/P1Bn2P1/2Q2PBP/1R3RK1 b - - 3 23", "b8c7 b1b7 c7b7 e4f6 e7f6 g2b7", 3),
                ("003cs", "2r1kbnr/pp4pp/4p3/3pP1N1/3q4/1P2B3/P3Q1PP/nN3RK1 b k - 1 16", "d4e5 f1f8 e8f8 e3c5 c8c5 e2e5 c5c1 g1f2", 3),
                ("006fF", "r1b4r/pp1k2pp/2nb2q1/1B1p2B1/3p3Q/8/PPP2PPP/3RR1K1 b - - 5 17", "h7h6 h4g4 d7c7 g5d8 h8d8 g4g6", 3),
            ],
        );
    }

    #[test]
    fn not_double_attacks() {
        assert_silent(
            "doubleAttack",
            &[
                // One piece attacking two is a fork, not a double attack.
                ("000rO", "3R4/8/K7/pB2b3/1p6/1P2k3/3p4/8 w - - 4 58", "a6a5 e5c7 a5b4 c7d8", 1),
                ("001wr", "r4rk1/p3ppbp/Pp1q1np1/3PpbB1/2B5/2N5/1PPQ1PPP/3RR1K1 w - - 4 18", "f2f3 d6c5 g1h1 c5c4", 1),
                // A discovered check outranks it (golden dc-knight-unmasks-rook).
                ("constructed", "4k3/pp3ppp/8/8/4N3/8/PP3PPP/4R1K1 b - - 0 30", "h7h6 e4d6", 1),
            ],
        );
    }
}
