//! # capturingDefender
//!
//! How Koga decides:
//! - Our move captures an enemy piece (the defender) that, before the move,
//!   guarded another enemy piece (the victim): it attacked the victim's
//!   square.
//! - Before our move we could not win the victim: no profitable capture of
//!   it existed.
//! - Our next move captures the victim, which has not moved, and that
//!   capture wins material (static exchange > 0).
//! - pinnedDefender describing the same pieces absorbs it (arbitration).
//! - Roles: `defender` (the guard we captured), `victim` (the piece won
//!   next), `moved`. `gain` is the victim's value.

use shakmaty::{Position, Role};

use super::{Fire, Label, Roles};
use crate::board::{self, value};
use crate::facts::PlyFacts;

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let Some((defender, role)) = facts.captured else { return };
    if role == Role::King || defender != facts.to {
        return;
    }
    let next = facts.ply + 2;
    let Some(m) = facts.move_at(next) else { return };
    let Some(victim_role) = m.capture() else { return };
    let victim = m.to();
    let before = facts.before.board();
    if victim == defender || before.piece_at(victim) != facts.line.before(next).board().piece_at(victim) {
        return;
    }
    if !before.attacks_from(defender).contains(victim) || board::profitable_capture(facts.before, victim) {
        return;
    }
    let at_next = facts.line.before(next).board();
    let Some(from) = m.from() else { return };
    if board::see(at_next, from, victim, value(victim_role)) <= 0 {
        return;
    }
    let roles = Roles { defender: Some(defender), victim: Some(victim), moved: Some(facts.to), ..Roles::default() };
    fires.push(Fire::at(facts, Label::CapturingDefender).with_roles(roles).with_gain(value(victim_role) as i16));
}
