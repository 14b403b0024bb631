//! # pin
//!
//! How Koga decides:
//! - After our move, an enemy piece (not the king) stands between one of our
//!   rooks, bishops or queens and a piece of its own side on the slider's
//!   line, nothing else between them.
//! - Absolute pin: the piece behind is the king. Relative pin: the piece
//!   behind is worth more than the pinned piece.
//! - The pin is new: the same pinner, pinned piece and piece behind were not
//!   lined up so before our move (the pinner moved in, or our move opened
//!   its line).
//! - The pinner holds: the opponent has no profitable capture of it (a
//!   pinned piece that can simply take its pinner is not pinned for long).
//! - With several, the most valuable pinned piece is reported.
//! - pinnedDefender describing the same pieces absorbs it; it absorbs a
//!   trappedPiece on the same target (arbitration).
//! - Roles: `target` (the pinned piece), `pinner` and `attacker` (our
//!   slider), `behind` (king or more valuable piece).

use shakmaty::{Position, Role};

use super::{Fire, Label, Roles};
use crate::board::{self, relative_squares, value};
use crate::facts::PlyFacts;

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let after = facts.after.board();
    let candidates = after.by_color(facts.them) & !after.kings();
    let mut best: Option<(i32, board::Pin)> = None;
    for sq in relative_squares(candidates, facts.them) {
        let pinned_value = board::value_at(after, sq);
        // Several pins on one piece: the most valuable piece behind first,
        // then the pinners in colour-relative order (mirror-safe).
        let mut pins: Vec<board::Pin> = board::pins_of(after, sq).collect();
        pins.sort_by_key(|p| (-board::value_at(after, p.behind), board::relative_index(p.pinner, facts.us)));
        for pin in pins {
            let behind = after.role_at(pin.behind).expect("piece behind");
            let counts = behind == Role::King || value(behind) > pinned_value;
            if !counts || best.is_some_and(|(v, _)| v >= pinned_value) {
                continue;
            }
            let existed = board::pins_of(facts.before.board(), sq).any(|old| old == pin)
                && facts.before.board().piece_at(pin.behind) == after.piece_at(pin.behind);
            if existed || board::profitable_capture(facts.after, pin.pinner) {
                continue;
            }
            best = Some((pinned_value, pin));
        }
    }
    let Some((_, pin)) = best else { return };
    let roles = Roles {
        target: Some(pin.pinned),
        pinner: Some(pin.pinner),
        attacker: Some(pin.pinner),
        behind: Some(pin.behind),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::Pin).with_roles(roles));
}
