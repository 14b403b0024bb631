//! # counterThreat
//!
//! How Koga decides:
//! - The opponent's last move created a threat: one of our pieces (not a
//!   pawn or the king) can now be won by a profitable capture, and could not
//!   before that move.
//! - Our move leaves that piece where it is and still en prise, and is not a
//!   capture: we answer with a threat of our own instead.
//! - After our move we newly menace an enemy piece worth at least as much as
//!   ours, or give check.
//! - Roles: `threatened` (our piece left en prise), `attacker` and `target`
//!   (our new threat).

use shakmaty::{Position, Role};

use super::threats::new_threats;
use super::{Fire, Label, Roles};
use crate::board::{self, relative_squares};
use crate::facts::PlyFacts;

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.ply == 0 || facts.captured.is_some() {
        return;
    }
    let before = facts.before.board();
    let ours = before.by_color(facts.us) & !before.pawns() & !before.kings() & !facts.vacated;
    // Cheap filter first: only pieces the opponent attacks can be en prise.
    let attacked: Vec<_> = relative_squares(ours, facts.us)
        .filter(|&sq| board::attackers(before, sq, facts.them, before.occupied()).any())
        .collect();
    if attacked.is_empty() {
        return;
    }
    let Some(theirs_before) = board::swap_turn(facts.before) else { return };
    let earlier = facts.line.before(facts.ply - 1);
    let threatened = attacked.into_iter().filter(|&sq| {
        board::profitable_capture(&theirs_before, sq)
            && !board::profitable_capture(earlier, sq)
            && board::profitable_capture(facts.after, sq)
    });
    let Some(threatened) = threatened.max_by_key(|&sq| board::value_at(before, sq)) else { return };
    let at_stake = board::value_at(before, threatened);
    let answer = new_threats(facts).into_iter().find(|t| {
        t.target_value >= at_stake || facts.after.board().role_at(t.target) == Some(Role::King)
    });
    let Some(answer) = answer else { return };
    let roles = Roles {
        threatened: Some(threatened),
        attacker: Some(answer.attacker),
        target: Some(answer.target),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::CounterThreat).with_roles(roles));
}
