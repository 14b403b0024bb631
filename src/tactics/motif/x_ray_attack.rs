//! # xRayAttack
//!
//! How Koga decides:
//! - An exchange on one square: our previous move went there (a capture or
//!   not), the opponent took on it (not with its king), and our move now
//!   captures there again.
//! - Our capturing piece stood behind the opponent's recapturing piece on
//!   the same line: it attacked the square through that piece, an x-ray.
//! - Judged on our second capture, never on the key move.
//! - Roles: `attacker` (our x-raying piece, where it stood), `victim` (the
//!   square of the exchange), `moved`.
//!
//! Koga and Lichess:
//! - Lichess 53, Koga 53, both 53: precision, recall and F1 1.000.
//!
//! Judged by hand:
//! - 20 of 20 random dev fires (seed 7): in every one the recapturing piece
//!   stood on the line between our x-raying piece and the square.

use shakmaty::{attacks, Role};

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::XRayAttack], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.at.is_key() || facts.captured.is_none() {
        return;
    }
    let Some(theirs) = facts.at.previous() else { return };
    let Some(ours) = theirs.previous() else { return };
    let square = facts.to;
    let (their_move, our_move) = (theirs.mv(), ours.mv());
    if their_move.to() != square || their_move.role() == Role::King || our_move.to() != square {
        return;
    }
    let Some(their_from) = their_move.from() else { return };
    if !attacks::between(facts.from, square).contains(their_from) {
        return;
    }
    let roles = Roles { attacker: Some(facts.from), victim: Some(square), moved: Some(square), ..Roles::default() };
    fires.push(Fire::at(facts, Label::XRayAttack).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "xRayAttack",
            &[
                // Qxd8+ Rxd8 Rxd8: the d1 rook saw d8 through the d5 rook.
                ("00Bg4", "3r2k1/1q3ppp/p2rp3/Qp1B4/7P/P4P2/1PP3P1/1K1R3R b - - 0 21", "d6d5 a5d8 d5d8 d1d8", 3),
                // ...Rxe1: the a1 rook saw e1 through the c1 rook.
                ("00zkP", "6k1/5qp1/2R4p/1pQ1B3/4pP2/8/4rPPP/r1R3K1 w - - 1 32", "c6c7 e2e1 c1e1 a1e1", 3),
                // ...Rxe1 through the e2 rook.
                ("01GBu", "5r1k/3p2bp/p4pp1/qp1br3/4P3/1Q4B1/PP2RPPP/4R1K1 w - - 0 23", "e4d5 a5e1 e2e1 e5e1", 3),
            ],
        );
        assert_silent(
            "xRayAttack",
            &[
                // The key move is never an x-ray.
                ("00Bg4", "3r2k1/1q3ppp/p2rp3/Qp1B4/7P/P4P2/1PP3P1/1K1R3R b - - 0 21", "d6d5 a5d8 d5d8 d1d8", 1),
                // ...Rxf1: the opponent interposed on f1 instead of taking back on e1.
                ("02pxM", "1k2r3/p1pr3p/BnR1Pq2/5pp1/5P2/8/PPQ3PP/7K w - - 0 31", "e6d7 e8e1 a6f1 e1f1", 3),
            ],
        );
    }
}
