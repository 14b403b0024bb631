//! # pin
//!
//! How Koga decides:
//! - After our move, an enemy piece (not the king) stands between one of our
//!   rooks, bishops or queens and a piece of its own side on the slider's
//!   line, nothing else between them.
//! - Absolute pin: the piece behind is the king. Relative pin: the piece
//!   behind is worth strictly more than the pinned piece (spec §3; a knight
//!   in front of a bishop is not pinned).
//! - The pin is new: the same pinner, pinned piece and piece behind were not
//!   lined up so before our move (the pinner moved in, or our move opened
//!   its line).
//! - The pinner holds: the opponent has no profitable capture of it (a
//!   pinned piece that can simply take its pinner is not pinned for long).
//! - With several, the most valuable pinned piece is reported.
//! - pinnedDefender describing the same pieces absorbs it; it absorbs a
//!   trappedPiece on the same target (arbitration).
//! - Roles: `pinned` and `target` (the pinned piece, which the pinner
//!   attacks), `pinner` and `attacker` (our slider), `behind` (king or more
//!   valuable piece).

use shakmaty::Position;

use super::{Detector, Fire, Label, Roles, Run};
use crate::board::{self, relative_squares};
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Pin], run: Run::Move(detect) };

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
            if best.is_some_and(|(v, _)| v >= pinned_value) {
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
        pinned: Some(pin.pinned),
        target: Some(pin.pinned),
        pinner: Some(pin.pinner),
        attacker: Some(pin.pinner),
        behind: Some(pin.behind),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::Pin).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_pins() {
        assert_fires(
            "pin",
            &[
                // Lichess 001kG: Qh5+ forks king and c5 bishop and pins the h7 pawn to the h8 rook.
                ("001kG", "rnbq3r/1p2bkpp/p4n2/8/2pNP3/2N5/PPP3PP/R1BQ1RK1 b - - 1 11", "e7c5 d1h5 f7g8 h5c5", 1),
                ("002e8", "r3nrk1/1b3pp1/4pb2/p3q3/1p1N4/3B2R1/PPPQN2P/1K4R1 b - - 1 23", "a8d8 d2h6 g7g6 g3h3", 1),
                ("0018S", "2kr3r/pp3p2/4p2p/1N1p2p1/3Q4/1P1P4/2q2PPP/5RK1 b - - 1 20", "b7b6 d4a1 a7a5 f1c1", 3),
                ("002rd", "r6k/q1pb1p1p/1b3Pr1/p1ppP2Q/3P2p1/4B3/PP2NRPP/3R2K1 b - - 1 25", "d7e6 e2f4 c5d4 f4g6 f7g6 h5h6", 5),
            ],
        );
    }

    #[test]
    fn not_pins() {
        assert_silent(
            "pin",
            &[
                // The pin already existed before the move (Bc4 came earlier).
                ("constructed", "rnb3k1/pp1p2pp/8/3n4/2B5/8/PPP2PPP/R5K1 b - - 0 30", "h7h6 a1e1", 1),
                // A pinned rook that simply takes its undefended pinner.
                ("constructed", "4r1k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 30", "h7h6 a1e1", 1),
                // Lichess 0000D: a plain capture, nothing lined up.
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 3),
                // A knight in front of a bishop of the same value is not pinned (spec §3).
                ("constructed", "7k/8/6b1/8/4n3/8/6PP/3B2K1 b - - 0 30", "h8h7 d1c2", 1),
            ],
        );
        // The same line with a rook behind the knight: a relative pin.
        assert_fires("pin", &[("constructed", "7k/8/6r1/8/4n3/8/6PP/3B2K1 b - - 0 30", "h8h7 d1c2", 1)]);
    }
}
