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
//! - Roles: `attacker` (the moved piece's square when it is one of the
//!   attackers), `target` (the most valuable menaced piece), `victim` (the
//!   piece collected). `gain` is the collected piece's value.

use shakmaty::Position;
use super::threats::{cashed_target, new_threats};
use super::{Fire, Label, Roles};
use crate::board::value_at;
use crate::facts::PlyFacts;

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let threats = new_threats(facts);
    let Some(first) = threats.first() else { return };
    // Two targets menaced by two different attackers.
    let pair = threats.iter().any(|a| {
        threats.iter().any(|b| a.target != b.target && a.attacker != b.attacker)
    });
    if !pair {
        return;
    }
    let Some(victim) = cashed_target(facts, threats.iter().map(|t| t.target)) else { return };
    let target = threats.iter().max_by_key(|t| t.target_value).map_or(first.target, |t| t.target);
    let attacker = threats.iter().find(|t| t.attacker == facts.to).map_or(first.attacker, |t| t.attacker);
    let roles = Roles { attacker: Some(attacker), target: Some(target), victim: Some(victim), ..Roles::default() };
    let gain = value_at(facts.after.board(), victim) as i16;
    fires.push(Fire::at(facts, Label::DoubleAttack).with_roles(roles).with_gain(gain));
}
