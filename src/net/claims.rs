//! What a line's fires claim: the men a fire names to win, the capture that
//! collects them, and the plies where a fire wins or moves material.

use shakmaty::Bitboard;

use crate::facts::{capture_square, captured_value};
use crate::fire::Fire;

use crate::line::{Cursor, Line};
use crate::role::{RoleName, Roles};

/// The enemy men a fire names as there to be won, where they stand after
/// its move.
pub(super) fn men_to_win(roles: &Roles) -> Bitboard {
    [RoleName::victim, RoleName::pinned, RoleName::behind, RoleName::targets]
        .into_iter()
        .fold(Bitboard::EMPTY, |men, role| men | roles.get(role))
}

/// The move that takes the most valuable of `men` (squares right after
/// `ply`) the line takes, the first such where two are worth the same:
/// `ply` itself where it captures there, or a later move of ours, the men
/// followed as the opponent moves them.
pub(super) fn collecting_capture<'a>(ply: Cursor<'a>, men: Bitboard) -> Option<Cursor<'a>> {
    let taken = |at: Cursor, men: Bitboard| {
        let m = at.mv();
        (m.is_capture() && men.contains(capture_square(m))).then(|| captured_value(m))
    };
    let mut best = taken(ply, men).map(|value| (value, ply));
    let mut men = men;
    if best.is_some() {
        men.discard(capture_square(ply.mv()));
    }
    for at in ply.later() {
        if men.is_empty() {
            break;
        }
        if at.is_solver() {
            if let Some(value) = taken(at, men) {
                if best.is_none_or(|(most, _)| value > most) {
                    best = Some((value, at));
                }
                men.discard(capture_square(at.mv()));
            }
        } else {
            men = at.moves_along(men);
        }
    }
    best.map(|(_, at)| at)
}

/// The plies where a fire counts its move's capture in its own exchange:
/// it gives material, or the line takes a man it names (with its own move
/// or a later one, its exchange then starting on its move). A sacrifice's
/// run on its square is another tactic's only where it meets one of these
/// ([`given`](super::exchange::given)).
pub(super) fn counting_their_captures(fires: &[Fire], line: &Line) -> u128 {
    fires
        .iter()
        .filter(|f| {
            let at = || line.at(usize::from(f.ply));
            f.ply < 128
                && at().mv().is_capture()
                && (f.label.info().gives || collecting_capture(at(), men_to_win(&f.roles)).is_some())
        })
        .fold(0, |plies, f| plies | 1 << f.ply)
}

/// Whether the ply at `at` is one of `plies` (a set of ply indices, as
/// [`claimed_by_others`] makes).
pub(super) fn among(plies: u128, at: Cursor) -> bool {
    at.index() < 128 && plies & (1 << at.index()) != 0
}

/// Whether any ply from `from` up to `to` (not included) is one of
/// `plies`.
pub(super) fn any_between(plies: u128, from: usize, to: usize) -> bool {
    let (from, to) = (from.min(128), to.min(128));
    to > from && plies & (u128::MAX >> (128 - (to - from)) << from) != 0
}

/// Whether `fire` wins material (a stake, or a material label) rather
/// than gives it.
pub(super) fn wins_material(fire: &Fire) -> bool {
    (fire.stake.is_some() || fire.label.info().material) && !fire.label.info().gives
}

/// Whether `fire` wins or gives material.
pub(super) fn moves_material(fire: &Fire) -> bool {
    fire.stake.is_some() || fire.label.info().material || fire.label.info().gives
}

/// The plies where a tactic other than the fire on `ply` wins or gives
/// material: a fire of a material or giving label or with a stake, on
/// another ply, that does not collect the win of `ply`.
pub(super) fn claimed_by_others(fires: &[Fire], ply: u16) -> u128 {
    fires
        .iter()
        .filter(|f| f.ply != ply && f.ply < 128 && f.collects != Some(ply))
        .filter(|f| moves_material(f))
        .fold(0, |plies, f| plies | 1 << f.ply)
}

#[cfg(test)]
mod tests {
    use super::any_between;

    #[test]
    fn any_between_reads_the_half_open_range() {
        let plies = 1u128 << 3 | 1 << 127;
        assert!(any_between(plies, 3, 4));
        assert!(!any_between(plies, 0, 3));
        assert!(!any_between(plies, 4, 127));
        assert!(any_between(plies, 4, 200));
        assert!(!any_between(plies, 5, 5));
        assert!(any_between(plies, 0, 128));
    }
}
