//! # fork
//!
//! How Koga decides:
//! - The moved piece (not the king) attacks two or more enemy pieces (pawns
//!   do not count) that it really menaces: the king, a piece worth more than
//!   the forking piece, or one it wins by the static exchange.
//! - The forking piece is not simply lost: the opponent has no profitable
//!   capture of it on its square.
//! - The line cashes the fork: our next move captures one of the forked
//!   pieces. (A fork on the last move of a line, never collected, is not
//!   reported, as in Lichess.)
//! - Coexists with hangingPiece; a trappedPiece on the same move gives way.
//! - Roles: `attacker` (the forking piece), `target` (the most valuable
//!   forked piece), `victim` (the piece the line collects). `gain` is the
//!   collected piece's value.

use super::threats::{cashed_target, new_threats};
use super::{Fire, Label, Roles};
use crate::board::{self, value_at};
use crate::facts::PlyFacts;
use shakmaty::{Position, Role};

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.moved_role == Role::King || board::profitable_capture(facts.after, facts.to) {
        return;
    }
    let forked: Vec<_> = new_threats(facts).into_iter().filter(|t| t.attacker == facts.to).collect();
    if forked.len() < 2 {
        return;
    }
    let Some(victim) = cashed_target(facts, forked.iter().map(|t| t.target)) else { return };
    let target = forked.iter().max_by_key(|t| t.target_value).map(|t| t.target);
    let roles = Roles { attacker: Some(facts.to), target, victim: Some(victim), ..Roles::default() };
    let gain = value_at(facts.after.board(), victim) as i16;
    fires.push(Fire::at(facts, Label::Fork).with_roles(roles).with_gain(gain));
}
