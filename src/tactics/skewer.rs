//! # skewer
//!
//! How Koga decides:
//! - After our move, one of our rooks, bishops or queens — the moved piece or
//!   one it unmasked — newly attacks an enemy piece (not a pawn) along a
//!   line, and right behind it on that line stands another enemy piece of
//!   lower value (anything behind a king counts).
//! - The front piece must move: it is the king (check), worth more than our
//!   slider, or won by the static exchange.
//! - Once the front piece steps away, taking the piece behind wins material
//!   (static exchange with the front piece gone > 0).
//! - The line cashes it: our next move captures the piece behind.
//! - The reverse order (more valuable piece behind) is a `pin`.
//! - Roles: `attacker` (our slider), `target` (the front piece), `behind`
//!   and `victim` (the piece behind, collected). `gain` is its value.

use shakmaty::{attacks, Position, Role, Square};

use super::threats::menaces;
use super::{Detector, Fire, Label, Roles, Run};
use crate::board::{self, value};
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Skewer], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let after = facts.after.board();
    let mut sliders: Vec<Square> = Vec::with_capacity(3);
    if after.sliders().contains(facts.to) {
        sliders.push(facts.to);
    }
    sliders.extend(facts.unmasked.iter().map(|u| u.slider));
    for slider in sliders {
        for (front, behind) in lined_up(facts, slider) {
            if let Some(fire) = judge(facts, slider, front, behind) {
                fires.push(fire);
                return;
            }
        }
    }
}

/// Pairs (front, behind) of enemy pieces on the lines the slider newly sees.
fn lined_up(facts: &PlyFacts, slider: Square) -> Vec<(Square, Square)> {
    let after = facts.after.board();
    let occupied = after.occupied();
    let seen = after.attacks_from(slider) & after.by_color(facts.them) & !after.pawns();
    let mut pairs = Vec::new();
    for front in board::relative_squares(seen, facts.them) {
        if slider != facts.to && facts.before.board().attacks_from(slider).contains(front) {
            continue; // not new
        }
        let behind = (attacks::ray(slider, front) & occupied).into_iter().find(|&x| {
            attacks::between(slider, x).contains(front) && (attacks::between(front, x) & occupied).is_empty()
        });
        if let Some(behind) = behind.filter(|&b| after.color_at(b) == Some(facts.them)) {
            pairs.push((front, behind));
        }
    }
    pairs
}

fn judge(facts: &PlyFacts, slider: Square, front: Square, behind: Square) -> Option<Fire> {
    let after = facts.after.board();
    let front_role = after.role_at(front)?;
    let behind_role = after.role_at(behind)?;
    if front_role != Role::King && value(front_role) <= value(behind_role) {
        return None;
    }
    if !menaces(facts, slider, front) {
        return None;
    }
    let mut stepped_away = after.clone();
    stepped_away.discard_piece_at(front);
    if board::see(&stepped_away, slider, behind, value(behind_role)) <= 0 {
        return None;
    }
    facts.next_capture_on(behind)?;
    let roles = Roles {
        attacker: Some(slider),
        target: Some(front),
        behind: Some(behind),
        victim: Some(behind),
        ..Roles::default()
    };
    Some(Fire::at(facts, Label::Skewer).with_roles(roles).with_gain(value(behind_role) as i16))
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_skewers() {
        assert_fires(
            "skewer",
            &[
                ("001m3", "7r/6k1/2b1pp2/8/P1N3p1/5nP1/4RP2/Q4K2 w - - 2 38", "e2e6 h8h1 f1e2 h1a1", 1),
                ("001xl", "8/4R1k1/p5pp/3B4/5q2/8/5P1P/6K1 b - - 5 40", "g7f6 e7f7 f6e5 f7f4", 1),
                ("0039T", "1r5r/p3kp2/4p2p/4P3/3R1Pp1/6P1/P1P4P/4K2R w K - 1 25", "d4a4 b8b1 e1f2 b1h1 a4a7 e7f8", 1),
                ("000qP", "8/7R/8/5p2/4bk1P/8/2r2K2/6R1 w - - 7 51", "f2f1 f4f3 f1e1 c2c1 e1d2 c1g1", 3),
            ],
        );
    }

    #[test]
    fn not_skewers() {
        assert_silent(
            "skewer",
            &[
                // The piece behind is the more valuable one: a pin, not a skewer.
                ("constructed", "4k3/7p/8/4n3/8/8/8/R5K1 b - - 0 1", "h7h6 a1e1", 1),
                // A later line-up the line never cashes (golden hp-later-skewer, ply 7).
                ("constructed", "4r1k1/pbp2ppp/8/8/1N6/8/PPP2PBP/2KR4 w - - 0 30", "a2a3 b7g2 b4d3 a7a6 h2h4 g8f8 h4h5 g2e4", 7),
            ],
        );
    }
}
