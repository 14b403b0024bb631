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
use super::{Fire, Label, Roles};
use crate::board::{self, value};
use crate::facts::PlyFacts;

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
