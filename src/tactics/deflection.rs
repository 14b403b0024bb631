//! # deflection
//!
//! How Koga decides:
//! - Our move forces an enemy piece away: it gives check, or the opponent's
//!   reply captures the piece we just moved. The piece that replies is the
//!   deflected one.
//! - Before its reply, that piece guarded a square (attacked it); after the
//!   reply it no longer does.
//! - Our next move lands on that square and wins there: it captures, or
//!   promotes, or mates. The square is neither where the deflected piece
//!   went nor where our first move landed.
//! - Our first move is not simply a winning capture (taking something worth
//!   at least the capturing piece is a trade, not a lure).
//! - A hangingPiece on the same move outranks it (arbitration).
//! - Roles: `defender` (the deflected piece, where it went), `victim` (the
//!   square where we cash in), `moved`.

use shakmaty::{Move, Position};

use super::{Fire, Label, Roles};
use crate::board::value;
use crate::facts::PlyFacts;

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(reply), Some(cash)) = (facts.move_at(facts.ply + 1), facts.move_at(facts.ply + 2)) else { return };
    if matches!(reply, Move::Castle { .. }) {
        return;
    }
    let forced = facts.gives_check() || reply.to() == facts.to;
    if !forced {
        return;
    }
    if let Some((_, role)) = facts.captured {
        if value(role) >= value(facts.moved_role) {
            return;
        }
    }
    let square = cash.to();
    let (Some(from), to) = (reply.from(), reply.to()) else { return };
    if square == to || square == facts.to {
        return;
    }
    let after_reply = facts.line.after(facts.ply + 1);
    let mates = facts.line.after(facts.ply + 2).is_checkmate();
    if !(cash.is_capture() || cash.is_promotion() || mates) {
        return;
    }
    let guarded = facts.after.board().attacks_from(from).contains(square);
    let still = after_reply.board().attacks_from(to).contains(square);
    if !guarded || still {
        return;
    }
    let roles = Roles { defender: Some(to), victim: Some(square), moved: Some(facts.to), ..Roles::default() };
    fires.push(Fire::at(facts, Label::Deflection).with_roles(roles));
}
